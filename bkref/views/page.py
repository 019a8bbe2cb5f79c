"""A whole game as one self-contained HTML page: the board, the players, the event log, the scores.

Everything the page shows is made here, in Python, by the same code as the terminal
replay and the SVG picture: the board's layers (``bkref.views.svg``), the event in words
and the tables (``bkref.views.narration``, ``bkref.views.tables``), the final breakdown
(``bkref.views.scoreview``), and the problems as ``validate`` prints them
(``Diagnostic.text``). The page's script only shows the piece of each step: every
distinct square drawing, panel and table is stored once, and each step lists which ones
it shows. Nothing is fetched: no external script, style, font or image.

The page is also well-formed XML (XHTML syntax), so any XML parser can check it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bkref.game.catalog import SQUARES
from bkref.game.engine import State
from bkref.io.breakdown import final_breakdown
from bkref.io.diagnostics import printable
from bkref.io.referee import Step
from bkref.views.narration import describe, stops_here
from bkref.views.palette import PROBLEM_COLOUR, SEAT_COLOURS, SEAT_STYLES
from bkref.views.scoreview import parchments, ranking
from bkref.views.seenby import problems_seen
from bkref.views.squares import changed_squares, seat_letters
from bkref.views.svg import STYLE, board_layer, canvas, caption, marks, printed_cities, square, xml_text
from bkref.views.tables import harvest_table, players_table, winners

TOP = 24
"""Where the board's first row starts in the page's picture (below the column numbers)."""


def _cell(cell: RenderableType) -> str:
    """One table cell: its text, or a player's seat token for a seat marker (``tables.players_table``)."""
    if isinstance(cell, Text) and cell.style in SEAT_STYLES:
        return f'<span class="tok s{SEAT_STYLES.index(str(cell.style))}">{escape(cell.plain.strip())}</span>'
    return escape(str(cell))


def table_html(table: Table) -> str:
    """A rich table (as the terminal shows it) as an HTML table: the same title, columns and rows."""
    out = ["<table>"]
    if table.title:
        out.append(f"<caption>{escape(str(table.title))}</caption>")
    out.append("<thead><tr>")
    out += [f'<th class="{"n" if c.justify == "right" else ""}">{escape(str(c.header))}</th>' for c in table.columns]
    out.append("</tr></thead><tbody>")
    cells = [list(c.cells) for c in table.columns]
    for i, row in enumerate(table.rows):
        classes = " ".join(filter(None, [str(row.style or ""), "end" if row.end_section else ""]))
        out.append(f'<tr class="{classes}">' if classes else "<tr>")
        for c, column in enumerate(table.columns):
            numeric = ' class="n"' if column.justify == "right" else ""
            out.append(f"<td{numeric}>{_cell(cells[c][i])}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _html(part: RenderableType) -> str:
    if isinstance(part, Table):
        return table_html(part)
    if isinstance(part, Group):
        return "".join(_html(p) for p in part.renderables)
    return f"<p>{escape(str(part))}</p>"


class _Pool:
    """Each distinct piece of the page stored once; a step names pieces by their number."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.index: dict[str, int] = {}

    def __call__(self, piece: str) -> int:
        if piece not in self.index:
            self.index[piece] = len(self.pieces)
            self.pieces.append(piece)
        return self.index[piece]


def _event(steps: Sequence[Step], index: int, before: State, seen_by: str | None) -> str:
    """The event panel: who won (at the end), the event in words, validate's text of its problems,
    where the log stops."""
    step = steps[index]
    lines = describe(step, before, seen_by)
    final = step.state.final
    out = []
    if final is not None:  # at the top of the page: the breakdown is further down
        others = "".join(f", {printable(p)} {final.players[p].total}" for p in final.ranking if p not in final.winners)
        out.append(f'<p class="won">{escape(winners(step.state) + others)} (the breakdown is below)</p>')
    out += [f'<p class="what">{escape(lines[0])}</p>']
    out += [f'<p class="more">{escape(line.strip())}</p>' for line in lines[1:]]
    out += [f'<p class="problem">{escape(d.text())}</p>' for d in problems_seen(step, seen_by)]
    end = stops_here(steps, index)
    if end is not None:
        out.append(f"<p>{escape(end)}</p>")
    return "".join(out)


def _log_line(index: int, step: Step, words: str, seen_by: str | None) -> str:
    bad = ' class="bad"' if step.diagnostics else ""
    problems = "".join(f'<span class="problem">{escape(d.text())}</span>' for d in problems_seen(step, seen_by))
    return f'<li id="e{index}" data-i="{index}"{bad}><b>{index + 1}</b> {escape(words)}{problems}</li>'


def _data(steps: Sequence[Step], start: int, seen_by: str | None) -> tuple[str, list[str]]:
    """The script's data (JSON, safe inside a script element) and the log's lines, as ``seen_by`` saw them if given."""
    square_drawings, overlays, panels = _Pool(), _Pool(), _Pool()
    harvests: list[str] = []
    first = steps[0].state
    seats = {p: i for i, p in enumerate(first.players)}
    letters = seat_letters(first.players)
    shown = []
    log = []
    final = ""
    before = State()
    for index, this in enumerate(steps):
        state = this.state
        position = state.position
        if state.harvests_done > before.harvests_done:
            harvests.append(table_html(harvest_table(state)))
        explained = state.final_explained() if state.final is not None and not final else None
        if explained is not None:
            final = _html(ranking(final_breakdown(this.line, explained)))
            final += "".join(_html(parchments(p, s)) for p, s in explained.players.items())
        shown.append(
            {
                "sq": [square_drawings(square(position, sq, seats, letters, TOP)) for sq in SQUARES],
                "mk": overlays(marks(position, changed_squares(before, state), TOP)),
                "pl": panels(table_html(players_table(state, seen_by))),
                "hv": state.harvests_done,
                "fin": state.final is not None,
                "at": caption(steps, index),
                "ev": _event(steps, index, before, seen_by),
            }
        )
        log.append(_log_line(index, this, describe(this, before, seen_by)[0], seen_by))
        before = state
    data = {
        "start": start,
        "squares": square_drawings.pieces,
        "marks": overlays.pieces,
        "panels": panels.pieces,
        "harvests": harvests,
        "final": final,
        "steps": shown,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # No "<", ">" or "&" is left in the script, so nothing in it can end it or read as markup.
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"), log


CSS = (
    """
body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;font-size:14px;margin:12px;color:#111;background:#fff}
h1{font-size:18px;margin:0 0 4px}
#at{font-weight:bold;margin:4px 0 8px}
#controls{display:flex;gap:6px;align-items:center;margin-bottom:8px}
#controls input{flex:1;max-width:600px}
button{font-size:14px;padding:2px 10px}
#main{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
#board{flex:none}
#side{flex:1 1 0;min-width:420px;overflow-x:auto}
#logbox{flex:none;width:300px;max-height:90vh;overflow-y:auto;border:1px solid #bbb}
#log{margin:0;padding:0;list-style:none;font-size:13px}
#log li{padding:2px 6px;cursor:pointer;border-bottom:1px solid #eee}
#log li b{display:inline-block;min-width:2.5em;color:#555}
#log li.cur{background:#ffe9a8;outline:2px solid #000}
"""
    + f"#log li.bad{{border-left:5px solid {PROBLEM_COLOUR}}}\n"
    + f".problem{{display:block;color:{PROBLEM_COLOUR};font-weight:bold}}\n"
    + """.what{font-weight:bold}
.won{font-weight:bold;font-size:16px;margin:0 0 6px}
.more{margin:2px 0 2px 16px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
caption{text-align:left;font-weight:bold;padding:4px 0}
th,td{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}
.n{text-align:right}
tr.end td{border-bottom:2px solid #888}
tr.bold td{font-weight:bold}
tr.dim td{color:#666}
span.tok{display:inline-block;width:20px;height:20px;line-height:20px;border-radius:10px;border:1px solid #000;
text-align:center;font-weight:bold;color:#000}
"""
    + "".join(f"span.s{i}{{background:{colour}}}" for i, colour in enumerate(SEAT_COLOURS))
    + """
h2{font-size:15px;margin:12px 0 4px}
#harvests,#final{display:flex;flex-wrap:wrap;gap:0 32px;align-items:flex-start}
#harvests table{max-width:620px}
#players table{width:100%;font-size:12px}
#players th,#players td{padding:2px 4px}
#board svg{width:480px;height:auto}
"""
)

SCRIPT = """
const D = JSON.parse(document.getElementById("data").textContent);
const n = D.steps.length;
const cells = SQUARES.map(sq => document.getElementById("q-" + sq));
const slider = document.getElementById("slider");
const log = document.getElementById("log");
const $ = id => document.getElementById(id);
let cur = -1;
const drawn = new Array(cells.length).fill(-1);
function go(i) {
  i = Math.max(0, Math.min(n - 1, i));
  const s = D.steps[i];
  s.sq.forEach((piece, k) => {
    if (drawn[k] !== piece) { cells[k].innerHTML = D.squares[piece]; drawn[k] = piece; }
  });
  $("marks").innerHTML = D.marks[s.mk];
  $("players").innerHTML = D.panels[s.pl];
  $("event").innerHTML = s.ev;
  $("at").textContent = s.at;
  $("harvests").innerHTML = D.harvests.slice(0, s.hv).reverse().join("");
  $("harvestbox").hidden = s.hv === 0;
  $("final").innerHTML = s.fin ? D.final : "";
  $("finalbox").hidden = !s.fin;
  if (cur >= 0) $("e" + cur).classList.remove("cur");
  const line = $("e" + i);
  line.classList.add("cur");
  const box = $("logbox"), top = line.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top + line.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = top - box.clientHeight / 2;
  }
  slider.value = i + 1;
  $("count").textContent = (i + 1) + " / " + n;
  cur = i;
}
slider.addEventListener("input", () => go(Number(slider.value) - 1));
log.addEventListener("click", e => { const li = e.target.closest("li"); if (li) go(Number(li.dataset.i)); });
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(cur - 1));
$("next").addEventListener("click", () => go(cur + 1));
$("last").addEventListener("click", () => go(n - 1));
document.addEventListener("keydown", e => {
  if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
  const to = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: n - 1}[e.key];
  if (to !== undefined) { e.preventDefault(); go(to); }
});
go(D.start);
"""


def page(steps: Sequence[Step], index: int, label: str, seen_by: str | None = None) -> str:
    """The whole replay of ``steps`` as one HTML page, opening at event ``index + 1``; with ``seen_by``,
    the game as that player saw it (``bkref.views.seenby``): their own page."""
    data, log = _data(steps, index, seen_by)
    svg, drawn_legend, _ = canvas(steps[0].state.players, TOP)
    board_svg = (
        svg
        + board_layer(TOP)
        + printed_cities(TOP)
        + '<g id="marks"></g><g id="squares">'
        + "".join(f'<g id="q-{sq}"></g>' for sq in SQUARES)
        + "</g>"
        + drawn_legend
        + "</svg>"
    )
    title = xml_text(label + (f", as {seen_by} saw it" if seen_by else ""))
    squares = json.dumps(list(SQUARES), separators=(",", ":"))
    return f"""<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{title}: bkref replay</title>
<style>/*<![CDATA[*/{CSS}{STYLE}/*]]>*/</style>
</head>
<body>
<h1>{title}</h1>
<div id="at"></div>
<div id="controls">
<button id="first" title="first event (Home)">|&#x2190;</button>
<button id="prev" title="previous event (&#x2190;)">&#x2190;</button>
<input id="slider" type="range" min="1" max="{len(steps)}" value="{index + 1}" aria-label="event"/>
<button id="next" title="next event (&#x2192;)">&#x2192;</button>
<button id="last" title="last event (End)">&#x2192;|</button>
<span id="count"></span>
</div>
<div id="main">
<div id="board">{board_svg}</div>
<div id="side">
<div id="event"></div>
<h2>Players</h2>
<div id="players"></div>
</div>
<div id="logbox"><ol id="log">{"".join(log)}</ol></div>
</div>
<div id="finalbox" hidden="hidden"><h2>Final score breakdown</h2><div id="final"></div></div>
<div id="harvestbox" hidden="hidden"><h2>Harvests, the latest first</h2><div id="harvests"></div></div>
<script id="data" type="application/json">{data}</script>
<script>//<![CDATA[
const SQUARES = {squares};{SCRIPT}//]]></script>
</body>
</html>
"""
