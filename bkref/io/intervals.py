"""95 % confidence intervals of a tournament's standings, with the standard library alone.

``wilson`` is the Wilson score interval of a proportion (a win share); ``mean_interval``
the Student-t interval of a mean (of values one per deal). The t quantile is computed,
not approximated: the Student-t distribution function is the regularized incomplete beta
function, evaluated by its continued fraction (Numerical Recipes, 6.4), and inverted by
bisection to the last bit a float holds. The tests check both against scipy (to 1e-9),
which bkref does not need at run time.

>>> round(t_quantile(0.975, 9), 6), round(t_quantile(0.975, 1), 6)
(2.262157, 12.706205)
>>> [round(x, 4) for x in wilson(7, 10)]
[0.3968, 0.8922]
>>> mean_interval([2.0, 2.0, 2.0])
(2.0, (2.0, 2.0))
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Final

LEVEL: Final = 0.95
"""The confidence of every interval."""

Z: Final = statistics.NormalDist().inv_cdf(1 - (1 - LEVEL) / 2)
"""The normal quantile of a two-sided 95 % interval, 1.959963984540054."""

_TINY: Final = 1e-300
"""What the continued fraction puts for a zero it would divide by (Lentz's method)."""


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function I_x(a, b), by Lentz's method;
    it converges fast for x < (a + 1) / (a + b + 2)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > _TINY else _TINY)
    fraction = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > _TINY else _TINY)
            c = 1 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            fraction *= c * d
        if abs(c * d - 1) < 1e-16:
            break
    return fraction


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    >>> incomplete_beta(1, 1, 0.25), incomplete_beta(2, 3, 0), incomplete_beta(2, 3, 1)
    (0.25, 0.0, 1.0)
    """
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _continued_fraction(a, b, x) / a
    return 1 - front * _continued_fraction(b, a, 1 - x) / b


def t_tail(t: float, df: int) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom, t >= 0.

    >>> t_tail(0, 5), round(t_tail(1, 1), 12)
    (0.5, 0.25)
    """
    return 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (1 or more), 0.5 <= p < 1:
    the ``t`` whose upper tail is ``1 - p``, found by bisection.

    >>> t_quantile(0.5, 3), round(t_quantile(0.975, 1000), 4)
    (0.0, 1.9623)
    >>> t_quantile(1, 3)
    Traceback (most recent call last):
    ...
    ValueError: a t quantile of p from 0.5 to below 1 with 1 degree of freedom or more, not p 1, 3
    """
    if not (0.5 <= p < 1 and df >= 1):
        raise ValueError(f"a t quantile of p from 0.5 to below 1 with 1 degree of freedom or more, not p {p}, {df}")
    tail = 1 - p
    low, high = 0.0, 1.0
    while t_tail(high, df) > tail:
        low, high = high, 2 * high
    while True:
        middle = (low + high) / 2
        if middle in (low, high):  # the floats between them are used up
            return middle
        if t_tail(middle, df) > tail:
            low = middle
        else:
            high = middle


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion of ``wins`` out of ``n`` trials (n >= 1).

    ``wins`` may be a fraction (a shared victory counts as a share of a win): the formula
    needs only the proportion. Unlike the normal approximation, the interval stays within
    0 and 1 and is not empty at 0 or n wins.

    >>> wilson(0, 4)[0], round(wilson(0, 4)[1], 4), wilson(4, 4)[1]
    (0.0, 0.4899, 1.0)
    """
    share = wins / n
    z2 = Z * Z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95 % Student-t interval (none for fewer than 2 values):
    mean ± t(0.975, n - 1) · s / √n, s the sample standard deviation. Equal values give an
    interval of width 0, exactly.

    >>> mean, (low, high) = mean_interval([1.0, 2.0, 3.0, 4.0])
    >>> mean, round(low, 4), round(high, 4)
    (2.5, 0.4457, 4.5543)
    >>> mean_interval([5.0])
    (5.0, None)
    """
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None
    half = t_quantile(1 - (1 - LEVEL) / 2, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - half, mean + half)
