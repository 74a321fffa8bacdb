"""Untitled sessions and crash recovery.

Work starts in an untitled session in the recovery folder (:func:`create_untitled`), saved like
any session: every edit is committed at once. "Save as" moves it to a name of the user's choosing
(:meth:`SessionStore.save_as` removes the untitled file). Whatever is still in the recovery folder
when Matchlight starts was left by a crash or by quitting without saving:
:func:`list_recoverable` describes each one, and :func:`discard_recoverable` deletes one.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from matchlight.core.session.document import SessionDocument, create_session
from matchlight.core.session.files import remove_database
from matchlight.core.session.locations import is_in_recovery_dir, recovery_dir
from matchlight.core.session.ownership import held_elsewhere, held_here
from matchlight.core.session.store import (
    SUFFIX,
    SessionError,
    SessionInput,
    SessionStore,
    iter_sessions,
)

__all__ = [
    "RecoverableSession",
    "create_untitled",
    "discard_recoverable",
    "list_recoverable",
    "untitled_path",
]


@dataclass(frozen=True, slots=True)
class RecoverableSession:
    """A session found in the recovery folder."""

    path: Path
    inputs: tuple[SessionInput, ...]
    modified: datetime
    spans: int
    #: Another running Matchlight has it open (do not offer it for recovery).
    in_use: bool
    #: Why it cannot be opened (damaged, newer version), else None.
    problem: str | None = None


def untitled_path() -> Path:
    """A new file name in the recovery folder (created if need be)."""
    folder = recovery_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return folder / f"untitled-{stamp}-{uuid.uuid4().hex[:8]}{SUFFIX}"


def create_untitled(document: SessionDocument) -> SessionStore:
    """A new session holding ``document`` in the recovery folder."""
    return create_session(untitled_path(), document)


def _modified(path: Path) -> datetime:
    times = [p.stat().st_mtime for p in (path, Path(str(path) + "-wal")) if p.exists()]
    return datetime.fromtimestamp(max(times), UTC)


def list_recoverable() -> list[RecoverableSession]:
    """The sessions in the recovery folder, most recently modified first.

    Each is read through a read-only copy, so listing never changes a file; one open for
    writing (here or in another Matchlight) is listed as in use.
    """
    found: list[RecoverableSession] = []
    for path in iter_sessions(recovery_dir()):
        modified = _modified(path)
        if held_here(path):  # this process's own session: not copied (see core.session.ownership)
            found.append(RecoverableSession(path, (), modified, 0, True))
            continue
        in_use = held_elsewhere(path)
        try:
            with SessionStore.open_copy_read_only(path) as copy:
                problem = "; ".join(copy.problems) or None
                found.append(
                    RecoverableSession(
                        path, copy.inputs(), modified, copy.count_spans(), in_use, problem
                    )
                )
        except SessionError as exc:
            found.append(RecoverableSession(path, (), modified, 0, False, exc.problem))
    return sorted(found, key=lambda s: s.modified, reverse=True)


def discard_recoverable(path: str | os.PathLike[str]) -> None:
    """Delete a session from the recovery folder (and its WAL). Refuses any file elsewhere, and
    a session another running Matchlight has open."""
    target = Path(path)
    if target.suffix != SUFFIX or not is_in_recovery_dir(target):
        raise SessionError("only sessions in the recovery folder can be discarded", target)
    if not target.exists():
        return
    if held_elsewhere(target):
        raise SessionError("this session is open in another Matchlight window", target, kind="busy")
    remove_database(target)
