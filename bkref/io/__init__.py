"""Reading logs and writing reports: ``sources`` opens a log from any source, ``logfile``
turns its bytes into events, ``referee`` plays them through the engine, ``batch`` runs
many logs; ``diagnostics``, ``report``, ``breakdown``, ``standings`` and ``schema`` write
what it found for people, machines and CI."""
