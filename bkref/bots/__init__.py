"""Players that are programs: simulated games played by policies through the engine."""
