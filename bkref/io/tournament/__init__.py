"""A tournament's games by bot, and its standings (``bkref-tournament-standings/1``), one module an idea.

A tournament's game (``bkref tournament``) is a legal ``bkref/1`` log whose game event's
``meta.tournament`` says its schedule, its place in it (``game``), its deal, its role
(``rotation``, ``candidate``, ``control`` or ``random``) and the bot in each seat.

- ``records``: what one log gives, a ``TournamentRecord`` (``tournament_record``, a pure
  function of the log that maps onto processes or a cluster; ``played_record``, from the
  text of a log a run has just written or kept, not checked again);
- ``tally``: the standings by bot, kept as running tallies as the records come
  (``Tally``; ``Streamed``, in the order a folder's logs are read), or of records already
  read (``aggregate``): win shares, margins, the candidate's paired difference, head to
  head and ratings;
- ``folder``: what a tournament's folder holds (its ``tournament.json``, the ``Manifest``,
  and what its logs cannot be, ``FolderCheck``), and the standings of the logs of a folder
  (``bkref standings``);
- ``tables``: the standings as CSV, every table in one file.
"""
