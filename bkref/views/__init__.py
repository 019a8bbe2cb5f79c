"""The views for people: the board in a terminal (``render``, ``stepper``), the score
breakdown (``scoreview``) and the rule texts (``explain``)."""
