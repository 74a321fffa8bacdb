"""Data files shipped with Matchlight: the bundled sample comparison in ``sample/``."""
