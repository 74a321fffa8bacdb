"""Where Matchlight keeps sessions that have no file name yet (recoverable after a crash).

``$MATCHLIGHT_RECOVERY_DIR`` wins (tests use it). Otherwise the platform's per-user data
directory: ``$XDG_DATA_HOME/matchlight/recovery`` or ``~/.local/share/matchlight/recovery`` on
Linux, ``~/Library/Application Support/Matchlight/recovery`` on macOS and
``%LOCALAPPDATA%\\Matchlight\\recovery`` on Windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["RECOVERY_ENV", "is_in_recovery_dir", "recovery_dir"]

RECOVERY_ENV = "MATCHLIGHT_RECOVERY_DIR"


def recovery_dir() -> Path:
    """The recovery directory (not created here)."""
    override = os.environ.get(RECOVERY_ENV)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "Matchlight" / "recovery"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Matchlight" / "recovery"
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base_dir = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base_dir / "matchlight" / "recovery"


def is_in_recovery_dir(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` lies directly in the recovery directory."""
    folder = os.path.realpath(recovery_dir())
    return os.path.dirname(os.path.realpath(path)) == folder
