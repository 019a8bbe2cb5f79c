"""Reading logs and writing reports: ``logfile`` turns bytes into events, ``referee``
plays them through the engine, and ``report``, ``breakdown`` and ``schema`` write what
it found for machines and CI."""
