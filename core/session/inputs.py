"""The inputs a session records, and finding them again.

A session keeps each input file's absolute path and its path relative to the session file, so
a session opens from any folder and after its folder moved (with its inputs) to another place;
the content hash says whether the file found is the one annotated.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from matchlight.core.io.files import FileError, FileTooLarge, check_regular, file_digest
from matchlight.core.session.files import ROLES, SessionError

__all__ = ["InputCheck", "SessionInput", "check_input"]


@dataclass(frozen=True, slots=True)
class SessionInput:
    """One input of the comparison as it was when the session recorded it.

    ``path`` is absolute; ``relative`` the same file relative to the session file's folder (POSIX
    separators; None where there is no relative path, e.g. another drive). ``column`` and
    ``fmt`` say how a TSV or JSONL input was read.
    """

    role: str
    name: str
    path: str
    sha256: str
    size: int
    relative: str | None = None
    column: str | None = None
    fmt: str | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise SessionError(f"input role must be one of {', '.join(ROLES)}, not {self.role!r}")
        if not self.name:
            raise SessionError("an input needs a name")

    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike[str],
        *,
        role: str,
        name: str | None = None,
        column: str | None = None,
        fmt: str | None = None,
    ) -> SessionInput:
        """Record ``path`` now: its absolute path, content hash and size."""
        try:
            sha, size = file_digest(path)
        except OSError as exc:
            raise SessionError(f"cannot read the input: {exc.strerror or exc}", path) from None
        absolute = os.path.abspath(path)
        return cls(role, name or Path(absolute).stem, absolute, sha, size, None, column, fmt)

    def relative_to(self, folder: str | os.PathLike[str]) -> SessionInput:
        """This input with its path relative to ``folder`` (a session file's folder)."""
        try:
            relative = os.path.relpath(self.path, os.path.abspath(folder))
        except ValueError:  # another drive
            return replace(self, relative=None)
        return replace(self, relative=Path(relative).as_posix())

    def candidates(self, folder: str | os.PathLike[str]) -> list[str]:
        """Where to look for the file, in order: relative to ``folder``, then the absolute path."""
        found: list[str] = []
        if self.relative:
            found.append(
                os.path.normpath(os.path.join(folder, *PurePosixPath(self.relative).parts))
            )
        if self.path not in found:
            found.append(self.path)
        return found


@dataclass(frozen=True, slots=True)
class InputCheck:
    """Whether an input's file on disk still has the content the session recorded."""

    input: SessionInput
    #: Where the file was found (or last looked for).
    path: str
    #: "same", "changed" or "missing".
    status: str
    sha256: str | None = None
    #: Why the file could not be read, when it is missing.
    problem: str | None = None

    @property
    def changed(self) -> bool:
        return self.status != "same"


def check_input(item: SessionInput, where: Sequence[str]) -> InputCheck:
    """The first of ``where`` holding ``item``'s recorded content; else the first regular file
    there (changed); else missing, with why the last candidate could not be read. Never opens a
    pipe or a device, and reads at most the recorded size of a file."""
    changed: tuple[str, str | None] | None = None
    problem: str | None = None
    for path in where:
        try:
            size = check_regular(path).st_size
            sha = file_digest(path, cap=item.size)[0] if size == item.size else None
        except FileTooLarge:  # it grew while it was read
            sha = None
        except FileError as exc:
            problem = exc.problem
            continue
        if sha == item.sha256:
            return InputCheck(item, path, "same", sha)
        if changed is None:
            changed = (path, sha)
    if changed is not None:
        return InputCheck(item, changed[0], "changed", changed[1])
    return InputCheck(item, where[0], "missing", problem=problem)
