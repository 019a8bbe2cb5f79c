"""Players that are programs: simulated games played by policies through the engine.

``simulate`` plays whole games, asking each seat for the decisions that are due;
``policies`` holds the Python policies (bundled and loaded), which see only their
player's view; ``program``, ``seats`` and ``protocol`` drive bot programs over
``bkbot/1`` (docs/bot-protocol.md), and ``engine`` is the small API to drive one from Python;
``errors`` holds the errors of all of them, carrying their values.
"""
