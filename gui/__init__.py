"""Matchlight's desktop application (PySide6). It only ever calls :mod:`core`."""
