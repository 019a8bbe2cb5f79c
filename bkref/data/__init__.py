"""The facts bkref ships: the printed board and cards, the rules, the worked examples.

``text(name)`` reads one of them through the package's loader, as ``pkgutil.get_data``
does, so it works wherever the package is installed (a folder, a zip, a compiled build)
without importing ``importlib.resources`` and its zip reader, a tenth of the time
``bkref validate`` takes to start.

>>> text("lava.csv").splitlines()[0]
'square_a,square_b'
"""

from __future__ import annotations

import io
import pkgutil


def text(name: str) -> str:
    """The file ``name`` of ``bkref/data/``, decoded as UTF-8 with universal newlines."""
    data = pkgutil.get_data(__name__, name)
    if data is None:  # a loader that cannot read data files
        raise FileNotFoundError(f"bkref.data: {name} cannot be read")
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()
