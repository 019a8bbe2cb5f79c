"""The rules of Bunny Kingdom, pure and apart from any I/O.

``catalog`` holds the printed board and the cards, ``events`` the ``bkref/1`` event
types. ``table`` is a game's state as one typed record with its questions, and
``engine`` the ``State`` that plays events: each goes through ``flow`` (phases, turns,
rounds, what is due, the gaps a log leaves) and its stage module, where its checks sit
next to its effect (``dealing``, ``exploring``, ``building``, ``harvesting``,
``ending``). ``position``, ``fiefs`` and ``scoring`` are the board, the harvests and the
parchments, ``results`` the types of what they work out, ``moves`` the legal moves.
``knowledge`` is what one player may know (I1-I6): their ``View`` of a position and the
log as they saw it, whose types are in ``seen``. ``rules`` holds the rule ids of
RULES.md, ``words`` small helpers for the sentences bkref writes.
"""
