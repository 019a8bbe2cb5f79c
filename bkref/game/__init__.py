"""The rules of Bunny Kingdom, pure and apart from any I/O.

``catalog`` holds the printed board and the cards, ``events`` the ``bkref/1`` event
types. ``table`` is a game's state as one typed record with its questions, and
``engine`` the ``State`` that plays events: each goes through ``flow`` (phases, turns,
rounds, what is due, the gaps a log leaves) and its stage module, where its checks sit
next to its effect (``dealing``, ``exploring``, ``building``, ``harvesting``,
``ending``). ``position``, ``fiefs`` and ``scoring`` are the board, the harvests and the
parchments, ``moves`` the legal moves, ``rules`` the rule ids of RULES.md.
"""
