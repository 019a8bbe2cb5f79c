"""The rules of Bunny Kingdom, pure and apart from any I/O.

``catalog`` holds the printed board and the cards, ``events`` the ``bkref/1`` event
types, ``engine`` the game state and how each event changes it, ``fiefs`` and
``scoring`` the harvests and parchments, ``rules`` the rule ids of RULES.md.
"""
