r"""The docstrings' doctests as code in the API reference (mkdocs.yml, mkdocstrings' extensions).

mkdocstrings reads a run of ``>>>`` lines as code only under an ``Examples:`` heading;
anywhere else Markdown takes each ``>`` for a quote and runs the lines together. This
griffe extension fences each run (a ``>>>`` line and the lines after it, up to a blank
line) as ``pycon`` code, at its own indentation, outside the code already fenced.

>>> fenced("Text.\n\n>>> 1 + 1\n2\n\nMore.").split("\n")
['Text.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
>>> fenced("- a list:\n\n  >>> 2\n  2").split("\n")
['- a list:', '', '  ```pycon', '  >>> 2', '  2', '  ```']
>>> already = "```\n>>> 1\n```"  # fenced by its author: left as it is
>>> fenced(already) == already
True
"""

from __future__ import annotations

from typing import Any

import griffe


def fenced(text: str) -> str:
    """``text`` with each run of doctest lines fenced as ``pycon`` code."""
    out: list[str] = []
    fence, indent = False, None  # inside a fence already; the indentation of the run being fenced
    for line in text.split("\n"):
        stripped = line.lstrip()
        if indent is not None and not stripped:
            out.append(indent + "```")
            indent = None
        elif indent is None and stripped.startswith("```"):
            fence = not fence
        elif indent is None and not fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(indent + "```pycon")
        out.append(line)
    if indent is not None:
        out.append(indent + "```")
    return "\n".join(out)


class Doctests(griffe.Extension):
    """Fences the doctests of every docstring loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fenced(obj.docstring.value)
