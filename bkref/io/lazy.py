"""Sequences whose items are made when asked for (``Made``): a tournament's jobs and deals,
a resumed run's jobs left, a replay's steps.

>>> class Squares(Made[int]):
...     def __len__(self) -> int:
...         return 4
...     def make(self, index: int) -> int:
...         return index * index
>>> squares = Squares()
>>> squares[-1], squares[1:3], list(squares)
(9, [1, 4], [0, 1, 4, 9])
>>> squares[4]
Traceback (most recent call last):
...
IndexError: no item 4 of 4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Made(Sequence[T]):
    """A sequence whose items are made when asked for (``make``), never held: the items a
    runner maps (a run of a million games holds no more of its jobs than a run of ten), a
    replay's steps."""

    def __len__(self) -> int:
        raise NotImplementedError

    def make(self, index: int) -> T:
        """The item at ``index``, from 0 to ``len(self) - 1``."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self.make(i) for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(f"no item {index} of {len(self)}")
        return self.make(index % len(self))
