"""``python -m bkref``: the same as the ``bkref`` command."""

from bkref.cli import main

main()
