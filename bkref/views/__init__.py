"""The views for people: what is drawn, and nothing that decides what a command does.

- the board and what its squares show: ``squares`` (letters and codes), ``boardtext``
  (the board in the terminal), ``svg`` (a position as SVG), ``palette`` (every colour);
- the replay: ``narration`` (the event in words), ``seenby`` (what ``--as PLAYER`` hides),
  ``tables`` (players, harvest, final scores), ``navigation`` (the positions and the moves
  between them), ``printout`` (positions printed one after another, and stepping by typed
  lines), ``screen`` and ``viewer`` (the full-screen replay), ``page`` (the whole game as
  one HTML page);
- the other commands' output: ``scoreview`` (the score breakdown), ``standingsview`` (the
  standings), ``movelist`` (the legal moves in words), ``explain`` (the rule texts);
- ``terminal`` (the rich console set-up and table style they share) and ``progress``
  (the progress bar of long runs).
"""
