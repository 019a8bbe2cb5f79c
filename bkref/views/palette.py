"""Every colour the views use, for the terminal (rich styles) and for SVG and HTML (CSS colours).

The seats have one palette in every medium, Okabe-Ito's, which stays distinct for
colour-blind readers; the terminal draws each seat as black letters on its colour, which
reads the same on dark and light terminals. Colour only repeats what the letters say.

>>> SEAT_STYLES[2], SEAT_COLOURS[2]
('black on #CC79A7', '#CC79A7')
"""

from __future__ import annotations

SEAT_COLOURS = ("#E69F00", "#56B4E9", "#CC79A7", "#009E73")
"""Okabe-Ito orange, sky blue, reddish purple and bluish green, seats 1 to 4: each light
enough for a black letter on it."""

SEAT_STYLES = tuple(f"black on {colour}" for colour in SEAT_COLOURS)
"""The seats on a terminal: black letters on the seat's colour."""

TERRAIN_STYLES = {
    "forest": "green4",
    "sea": "dodger_blue2",
    "field": "dark_orange3",
    "plains": "",
    "mountain": "grey42",
    "city": "magenta3",
}
"""Each terrain's letters on a terminal: mid-tones that stay readable on dark and light
backgrounds (plains keep the terminal's own colour)."""

TERRAIN_FILLS = {
    "forest": "#a3c586",
    "sea": "#8fb8d8",
    "field": "#f1d48a",
    "plains": "#ece6cf",
    "mountain": "#b8b2a7",
    "city": "#d8c8dc",
}
"""Each terrain's square in SVG: pale, so that the seat colours of the owners stand out on them."""

LAVA_STYLE = "bold red1"
"""Lava between two squares on a terminal."""

LAVA_COLOUR = "#D55E00"
"""Lava in SVG: Okabe-Ito vermillion, drawn thick so it also reads as a wall without colour."""

PROBLEM_STYLE = "bold red1"
"""A problem's line on a terminal."""

PROBLEM_COLOUR = "#a40000"
"""A problem's line in SVG and HTML."""
