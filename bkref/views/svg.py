"""Drawing one position as SVG, in pure Python: the board, who holds each square, the buildings.

The picture says everything without colour too: each owner is a seat colour *and* the
player's letter (``squares.seat_letters``), each terrain a colour *and* its letter
(``squares.TERRAIN``), each building a shape with its number or resource code
(``squares.building_on``). The colours are those of ``bkref.views.palette``. The text is
built in a fixed order, so the same position gives the same bytes.

The board is drawn in layers that ``bkref.views.page`` reuses to redraw it in a browser:
``board_layer`` (terrain, labels, lava; never changes), ``marks`` (the sky towers joined and
the squares the last event changed) and one ``square`` per square (owner and building).

>>> from bkref.game.position import Position
>>> p = Position(owner={"B2": "bob"}, building={"B2": "city3"})
>>> print(square(p, "B2", {"bob": 1}, {"bob": "b"}, top=0).replace("><", ">\\n<"))
<g class="sq" data-square="B2" data-owner="bob">
<title>B2: mountain, bob, city 3</title>
<circle class="tok s1" cx="86" cy="62" r="10"/>
<text class="letter" x="86" y="67">b</text>
<path class="city" d="M91 91h22v-14h-4v-4h-3v4h-4v-4h-3v4h-4v-4h-4z"/>
<text class="num" x="102" y="88">3</text>
</g>
>>> square(p, "C3", {}, {}, top=0)
''
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape
from textwrap import wrap

from bkref.game.catalog import BOARD, COLUMNS, LAVA, ROWS, SQUARES
from bkref.game.position import Position
from bkref.io.diagnostics import printable
from bkref.io.referee import Step
from bkref.views.narration import describe, stage
from bkref.views.navigation import state_before
from bkref.views.palette import LAVA_COLOUR, PROBLEM_COLOUR, SEAT_COLOURS, TERRAIN_FILLS
from bkref.views.seenby import problems_seen
from bkref.views.squares import FARM_CODES, TERRAIN, building_on, changed_squares, seat_letters

CELL = 48
LEFT = 24  # room for the row letters
WIDTH = LEFT + 10 * CELL + 12
LINE = 80  # characters of a title line: longer ones are wrapped
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
STYLE = (
    f"text{{font-family:{FONT};font-size:11px;fill:#111}}"
    ".label{font-size:12px;text-anchor:middle;fill:#444}"
    ".tl{font-size:9px;text-anchor:end;fill:#333}"
    ".letter{font-size:13px;font-weight:bold;text-anchor:middle}"
    ".num{font-size:11px;font-weight:bold;text-anchor:middle;fill:#fff}"
    ".code{font-size:9px;text-anchor:middle}"
    ".tok{stroke:#000;stroke-width:1}"
    + "".join(f".s{i}{{fill:{colour}}}" for i, colour in enumerate(SEAT_COLOURS))
    + ".grid{stroke:#fff;stroke-width:1}"
    f".lava{{stroke:{LAVA_COLOUR};stroke-width:5;stroke-linecap:round}}"
    ".city{fill:#333}.printed{fill:#fff;stroke:#333;stroke-width:1.5}.printed+.num{fill:#111}"
    ".camp{fill:#6b4a2b}.farm{fill:#fff;stroke:#333}.post{fill:#fff;stroke:#333;stroke-dasharray:2 2}"
    ".post+.code{font-size:8px}"
    ".tower{fill:#fff;stroke:#000;stroke-width:2}"
    ".join{stroke:#000;stroke-width:3;stroke-dasharray:6 4;stroke-linecap:round;opacity:.7}"
    ".last{fill:none;stroke:#000;stroke-width:3}"
    f".problem{{fill:{PROBLEM_COLOUR};font-weight:bold}}"
    ".title{font-size:14px;font-weight:bold}"
)


def xml_text(text: str) -> str:
    """``text`` from a log or a path as XML text or an attribute's value: every character
    outside printable text escaped as validate prints it (XML 1.0 cannot hold ESC, NUL or
    U+FFFE at all), then ``<``, ``>``, ``&`` and quotes as entities.

    >>> print(xml_text("b" + chr(27) + "ob <&>"))
    b\\x1bob &lt;&amp;&gt;
    """
    return escape(printable(text))


def _corner(sq: str, top: int) -> tuple[int, int]:
    """The top-left corner of square ``sq`` on a board whose first row starts at ``top``."""
    return LEFT + (BOARD[sq].column - 1) * CELL, top + BOARD[sq].row * CELL


def board_layer(top: int) -> str:
    """The printed board: terrain colours and letters, row and column labels, printed cities, lava."""
    out = [f'<text class="label" x="{LEFT + (c - 1) * CELL + CELL // 2}" y="{top - 6}">{c}</text>' for c in COLUMNS]
    out += [
        f'<text class="label" x="{LEFT // 2}" y="{top + i * CELL + CELL // 2 + 4}">{r}</text>'
        for i, r in enumerate(ROWS)
    ]
    for sq in SQUARES:
        x, y = _corner(sq, top)
        terrain = BOARD[sq].terrain
        out.append(
            f'<rect class="grid" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{TERRAIN_FILLS[terrain]}"/>'
            f'<text class="tl" x="{x + CELL - 3}" y="{y + 10}">{TERRAIN[terrain][0]}</text>'
        )
    for a, b in sorted(tuple(sorted(pair, key=SQUARES.index)) for pair in LAVA):
        (xa, ya), (xb, yb) = _corner(a, top), _corner(b, top)
        if ya == yb:  # side by side: the wall is the left edge of the right square
            x = max(xa, xb)
            out.append(f'<line class="lava" x1="{x}" y1="{ya + 2}" x2="{x}" y2="{ya + CELL - 2}"/>')
        else:
            y = max(ya, yb)
            out.append(f'<line class="lava" x1="{xa + 2}" y1="{y}" x2="{xa + CELL - 2}" y2="{y}"/>')
    return "\n".join(out)


def _number(x: int, y: int, number: str) -> str:
    return f'<text class="num" x="{x}" y="{y}">{number}</text>'


def glyph(kind: str, detail: str, x: int, y: int) -> str:
    """The drawing of one building (``squares.building_on``) whose square's top-left corner is ``x, y``."""
    cx, cy = x + CELL // 2 + 6, y + CELL - 13  # the lower right of the square; the owner is top left
    if kind in ("city", "printed city"):  # a castle: a wall with three merlons
        left, base = cx - 11, cy + 8
        path = f"M{left} {base}h22v-14h-4v-4h-3v4h-4v-4h-3v4h-4v-4h-4z"
        shape = "city" if kind == "city" else "printed"
        return f'<path class="{shape}" d="{path}"/>' + _number(cx, cy + 5, detail)
    if kind == "camp":  # a tent
        return f'<path class="camp" d="M{cx} {cy - 10}l12 18h-24z"/>' + _number(cx, cy + 6, detail)
    if kind == "sky tower":
        circle = f'<circle class="tower" cx="{cx}" cy="{cy}" r="10"/>'
        return circle + f'<text class="code" x="{cx}" y="{cy + 3}">T{detail}</text>'
    if kind == "farm":
        code, shape = FARM_CODES[detail], "farm"
    else:  # "tp woo", in a smaller type than a farm's code so that it fits the box (.post+.code)
        code, shape = f"tp {FARM_CODES[detail] if detail else '?'}", "post"
    return (
        f'<rect class="{shape}" x="{cx - 17}" y="{cy - 7}" width="34" height="14" rx="4"/>'
        f'<text class="code" x="{cx}" y="{cy + 3}">{code}</text>'
    )


def _words(kind: str, detail: str) -> str:
    """A building in words, for a square's tooltip."""
    if kind == "farm":
        return f"farm of {detail.replace('_', ' ')}"
    if kind == "trading post":
        return f"trading post ({detail or 'not declared yet'})"
    if kind == "sky tower":
        return f"sky tower pair {detail}"
    return f"{kind} {detail}" if kind != "printed city" else "printed city"


def square(position: Position, sq: str, seats: dict[str, int], letters: dict[str, str], top: int) -> str:
    """What stands on square ``sq`` now: its owner's token and its building ("" if neither).

    A printed city is part of ``board_layer``; here it only changes the tooltip.
    """
    owner = position.owner.get(sq)
    built = building_on(position, sq)
    if owner is None and (built is None or built[0] == "printed city"):
        return ""
    x, y = _corner(sq, top)
    about = [BOARD[sq].terrain] + ([owner] if owner else []) + ([_words(*built)] if built else [])
    out = [f'<g class="sq" data-square="{sq}"']
    out.append(f' data-owner="{xml_text(owner)}">' if owner else ">")
    out.append(f"<title>{sq}: {xml_text(', '.join(about))}</title>")
    if owner is not None:
        cx, cy = x + 14, y + 14
        out.append(
            f'<circle class="tok s{seats[owner]}" cx="{cx}" cy="{cy}" r="10"/>'
            f'<text class="letter" x="{cx}" y="{cy + 5}">{escape(letters[owner])}</text>'
        )
    if built is not None and built[0] != "printed city":
        out.append(glyph(*built, x, y))
    out.append("</g>")
    return "".join(out)


def printed_cities(top: int) -> str:
    """The printed cities, part of the board."""
    return "\n".join(glyph("printed city", "1", *_corner(sq, top)) for sq in SQUARES if BOARD[sq].printed_city)


def marks(position: Position, last: Collection[str], top: int) -> str:
    """The sky tower pairs joined by a dashed line, and a frame round each square of the last move
    (``squares.changed_squares``), drawn in reading order."""
    out = []
    for a, b in position.towers:
        (xa, ya), (xb, yb) = _corner(a, top), _corner(b, top)
        dx, dy = CELL // 2 + 6, CELL - 13
        out.append(f'<line class="join" x1="{xa + dx}" y1="{ya + dy}" x2="{xb + dx}" y2="{yb + dy}"/>')
    for sq in sorted(last, key=SQUARES.index):
        x, y = _corner(sq, top)
        out.append(f'<rect class="last" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}"/>')
    return "\n".join(out)


def legend(players: Sequence[str], top: int) -> tuple[str, int]:
    """What the colours, letters and shapes mean, drawn from ``top``; returns it and its height."""
    letters = seat_letters(players)
    out = []
    y = top + 14
    x = LEFT
    for i, p in enumerate(players):
        shown = printable(p)
        out.append(
            f'<circle class="tok s{i}" cx="{x + 10}" cy="{y}" r="10"/>'
            f'<text class="letter" x="{x + 10}" y="{y + 5}">{escape(letters[p])}</text>'
            f'<text x="{x + 25}" y="{y + 4}">{escape(shown)}</text>'
        )
        x += 36 + 7 * len(shown)
    y += 22
    for i, (terrain, (letter, name)) in enumerate(TERRAIN.items()):
        tx, ty = LEFT + (i % 3) * 170, y + (i // 3) * 20
        out.append(
            f'<rect x="{tx}" y="{ty}" width="16" height="16" fill="{TERRAIN_FILLS[terrain]}" stroke="#777"/>'
            f'<text class="tl" x="{tx + 14}" y="{ty + 10}">{letter}</text>'
            f'<text x="{tx + 22}" y="{ty + 12}">{escape(name)}</text>'
        )
    y += 58
    samples = [
        ("printed city", "1", "printed city"),
        ("city", "2", "city, strength 2"),
        ("camp", "3", "camp, priority 3"),
        ("sky tower", "1", "sky tower, pair 1"),
        ("trading post", "wood", "trading post: wood"),
        ("farm", "mushroom", "farm (mushroom)"),
    ]
    for i, (kind, detail, words) in enumerate(samples):
        gx, gy = LEFT + (i % 3) * 170, y + (i // 3) * 30
        out.append(glyph(kind, detail, gx - 18, gy - CELL + 13) + f'<text x="{gx + 34}" y="{gy + 4}">{words}</text>')
    y += 62
    codes = [f"{code} {resource.replace('_', ' ')}" for resource, code in FARM_CODES.items()]
    out.append(f'<text x="{LEFT}" y="{y}">farms: {", ".join(codes[:5])}</text>')
    out.append(f'<text x="{LEFT}" y="{y + 15}">{", ".join(codes[5:])}</text>')
    y += 28
    out.append(
        f'<line class="lava" x1="{LEFT + 2}" y1="{y}" x2="{LEFT + 30}" y2="{y}"/>'
        f'<text x="{LEFT + 38}" y="{y + 4}">lava: the squares on either side do not touch</text>'
    )
    y += 20
    out.append(
        f'<line class="join" x1="{LEFT + 2}" y1="{y}" x2="{LEFT + 30}" y2="{y}"/>'
        f'<text x="{LEFT + 38}" y="{y + 4}">the two squares of a sky tower, which touch</text>'
    )
    y += 14
    out.append(
        f'<rect class="last" x="{LEFT + 2}" y="{y}" width="28" height="18"/>'
        f'<text x="{LEFT + 38}" y="{y + 13}">a square the last event changed</text>'
    )
    y += 26
    return "\n".join(out), y - top


def canvas(players: Sequence[str], top: int) -> tuple[str, str, int]:
    """For a board whose first row starts at ``top``: the opening ``<svg>`` tag of the whole
    picture, the legend drawn below the board, and the picture's height."""
    drawn_legend, legend_height = legend(players, top + 10 * CELL + 8)
    height = top + 10 * CELL + 8 + legend_height
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}">'
    return svg, drawn_legend, height


def caption(steps: Sequence[Step], index: int) -> str:
    """Where a replay stands after event ``index + 1``, as the picture and the page head it."""
    step = steps[index]
    return f"event {index + 1} of {len(steps)} (line {step.line}): {stage(step.state, step.event)}"


def picture(steps: Sequence[Step], index: int, label: str, seen_by: str | None = None) -> str:
    """The position after event ``index + 1`` of a replay as a standalone SVG document; with
    ``seen_by``, the event and its problems as that player saw them (``bkref.views.seenby``)."""
    step = steps[index]
    state = step.state
    before = state_before(steps, index)
    where = printable(caption(steps, index) + (f", as {seen_by} saw it" if seen_by else ""))
    lines = [("title", line) for line in wrap(printable(label), LINE * 2 // 3)] + [("", where)]
    lines += [("", line) for line in wrap(describe(step, before, seen_by)[0], LINE)]
    lines += [("problem", line) for d in problems_seen(step, seen_by) for line in wrap(d.text(), LINE)]
    title = [
        f'<text class="{kind}" x="{LEFT}" y="{18 + 16 * i}">{escape(line)}</text>'
        if kind
        else f'<text x="{LEFT}" y="{18 + 16 * i}">{escape(line)}</text>'
        for i, (kind, line) in enumerate(lines)
    ]
    top = 38 + 16 * len(lines)
    seats = {p: i for i, p in enumerate(state.players)}
    letters = seat_letters(state.players)
    position = state.position
    svg, drawn_legend, height = canvas(state.players, top)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        svg,
        f"<title>{xml_text(label)}: {escape(where)}</title>",
        f"<style>{STYLE}</style>",
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
        *title,
        board_layer(top),
        printed_cities(top),
        marks(position, changed_squares(before, state), top),
        *filter(None, (square(position, sq, seats, letters, top) for sq in SQUARES)),
        drawn_legend,
        "</svg>\n",
    ]
    return "\n".join(filter(None, parts))
