"""A whole session written anew from memory: for Save as when the file can no longer be copied.

When a session's file was deleted, moved, replaced or overwritten under the app, when the disk
was full and edits wait in memory, or when the session is a read-only copy, Save as cannot copy
the file: :func:`write_session` writes everything the app holds (the document, every span and
segment score, the imported columns) into a new file next to the target and renames it over the
target, so a reader sees the old file or the new one, never half of one. It never replaces an
input of the comparison, a file that is not a Matchlight session, or a session open for writing.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path

from matchlight.core.annotation.model import ErrorSpan, SegmentScore
from matchlight.core.session.document import SessionDocument, create_session
from matchlight.core.session.files import check_header, remove_database
from matchlight.core.session.imported import LabelImport, ScoreImport
from matchlight.core.session.ownership import held_elsewhere
from matchlight.core.session.store import SessionError

__all__ = ["write_session"]


def write_session(
    target: str | os.PathLike[str],
    document: SessionDocument,
    *,
    spans: Sequence[ErrorSpan],
    scores: Sequence[SegmentScore],
    imports: Iterable[ScoreImport | LabelImport] = (),
) -> Path:
    """Write a complete session file at ``target`` (see the module docstring); returns it.
    SessionError names the target and the problem; the target is unchanged then."""
    path = Path(target)
    protect = [i.path for i in document.inputs]
    if path.exists():
        for item in protect:
            if os.path.exists(item) and os.path.samefile(path, item):
                raise SessionError(
                    f"refusing to overwrite the input {item} (choose another file name)", path
                )
        if held_elsewhere(path):
            raise SessionError("that session is open in a Matchlight window", path, kind="busy")
        check_header(path)
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        fresh = create_session(temp, document)
        try:
            with fresh.batch():
                fresh.add_many(spans, scores)
                for record in imports:
                    fresh.save_import(record)
        finally:
            fresh.close()
        for suffix in ("-wal", "-shm"):  # a stale log beside the old target is not ours
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        os.replace(temp, path)
        with contextlib.suppress(OSError):
            fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        raise SessionError(f"cannot save the session: {exc.strerror or exc}", path) from None
    finally:
        remove_database(temp)
    return path
