"""core.io.safewrite: every write is atomic, keeps links and modes, and never replaces an input."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlight.core.io.safewrite import (
    SESSION_APPLICATION_ID,
    SESSION_SIDECARS,
    SESSION_SUFFIX,
    WriteError,
    check_write_target,
    check_write_targets,
    is_session_file,
    write_file_atomic,
    write_files_atomic,
)
from tests.conftest import ROOT


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def umask() -> Iterator[int]:
    """Run the test under umask 022, whatever the caller's is."""
    old = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(old)


# --------------------------------------------------------------------------- plain writes


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=5000), exists=st.booleans())
def test_writes_exactly_the_bytes(tmp_path: Path, data: bytes, exists: bool) -> None:
    target = tmp_path / "out.bin"
    target.unlink(missing_ok=True)
    if exists:
        target.write_bytes(b"old content that is longer than some of the new ones" * 3)
    assert write_file_atomic(target, data) == target
    assert target.read_bytes() == data
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077, 0o002])
def test_new_file_gets_the_umask_mode_not_0600(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        write_file_atomic(tmp_path / "new.csv", b"x\n")
        # What any program's new file gets: open(..., "w") under the same umask.
        with open(tmp_path / "reference.csv", "w", encoding="utf-8") as handle:
            handle.write("x\n")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.csv") == _mode(tmp_path / "reference.csv") == 0o666 & ~mask


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o604, 0o777])
def test_existing_target_keeps_its_permission_bits(tmp_path: Path, umask: int, mode: int) -> None:
    target = tmp_path / "scores.csv"
    target.write_bytes(b"old\n")
    target.chmod(mode)
    write_file_atomic(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert _mode(target) == mode


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_existing_target_keeps_its_owner_when_root_writes_it(tmp_path: Path) -> None:
    target = tmp_path / "theirs.csv"
    target.write_bytes(b"old\n")
    os.chown(target, 65534, 65534)
    write_file_atomic(target, b"new\n")
    info = target.stat()
    assert (info.st_uid, info.st_gid) == (65534, 65534)


def test_symlinked_target_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "scores.csv"
    real.write_bytes(b"old\n")
    real.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(os.path.relpath(real, tmp_path))
    write_file_atomic(link, b"new\n")
    assert link.is_symlink()
    assert os.readlink(link) == os.path.relpath(real, tmp_path)
    assert real.read_bytes() == b"new\n"
    assert _mode(real) == 0o640
    assert _leftovers(tmp_path) == _leftovers(real_dir) == []


def test_dangling_symlink_creates_the_file_it_points_to(tmp_path: Path) -> None:
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "later.csv")
    write_file_atomic(link, b"data\n")
    assert link.is_symlink()
    assert (tmp_path / "later.csv").read_bytes() == b"data\n"


# --------------------------------------------------------------------------- refusals


@pytest.fixture
def ref(tmp_path: Path) -> Path:
    path = tmp_path / "ref.txt"
    path.write_bytes(b"the reference\n")
    return path


def _refused(target: Path | str, protect: list[Path | str]) -> WriteError:
    with pytest.raises(WriteError) as info:
        write_file_atomic(target, b"scores\n", protect=protect)
    return info.value


def test_refuses_to_overwrite_an_input(tmp_path: Path, ref: Path) -> None:
    error = _refused(ref, [tmp_path / "other.txt", ref])
    assert error.filename == str(ref)
    assert str(error) == (
        f"{ref}: is the input {ref}; refusing to overwrite an input of the comparison "
        "(choose another file name)"
    )
    assert ref.read_bytes() == b"the reference\n"
    assert _leftovers(tmp_path) == []


def test_refuses_an_input_reached_through_a_symlink_or_a_hard_link(
    tmp_path: Path, ref: Path
) -> None:
    link = tmp_path / "scores.csv"
    link.symlink_to(ref)
    hard = tmp_path / "hard.csv"
    os.link(ref, hard)
    alias = tmp_path / "alias.txt"  # the input given through a symlink, the target the file
    alias.symlink_to(ref)
    for target, protect in (
        (link, ref),
        (hard, ref),
        (ref, alias),
        (str(tmp_path / "." / "ref.txt"), ref),
    ):
        error = _refused(target, [protect])
        assert error.filename == str(target)
        assert f"the input {protect}" in str(error)
        assert "refusing to overwrite an input" in str(error)
    assert ref.read_bytes() == b"the reference\n"
    assert link.is_symlink()
    assert _leftovers(tmp_path) == []


def test_a_different_file_with_the_same_content_is_not_an_input(tmp_path: Path, ref: Path) -> None:
    copy = tmp_path / "copy.txt"
    copy.write_bytes(ref.read_bytes())
    write_file_atomic(copy, b"new\n", protect=[ref, tmp_path / "missing.txt"])
    assert copy.read_bytes() == b"new\n"


def test_refuses_a_read_only_target(tmp_path: Path) -> None:
    target = tmp_path / "keep.csv"
    target.write_bytes(b"precious\n")
    target.chmod(0o444)
    error = _refused(target, [])
    assert error.filename == str(target)
    assert str(error).startswith(f"{target}: is read-only; refusing to replace it")
    assert target.read_bytes() == b"precious\n"
    assert _mode(target) == 0o444
    assert _leftovers(tmp_path) == []


def test_refuses_a_read_only_target_behind_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "keep.csv"
    target.write_bytes(b"precious\n")
    target.chmod(0o400)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    assert "is read-only" in str(_refused(link, []))
    assert target.read_bytes() == b"precious\n"


def test_refuses_a_directory_a_fifo_and_an_empty_path(tmp_path: Path) -> None:
    assert str(_refused(tmp_path, [])) == f"{tmp_path}: is a directory, not a file"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    error = _refused(fifo, [])  # refused from its stat: opening a FIFO would block
    assert (
        str(error) == f"{fifo}: is a named pipe (FIFO), not a regular file; refusing to replace it"
    )
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    error = _refused("", [])
    assert str(error) == "'': no file name given (the path is empty)"
    assert _leftovers(tmp_path) == []


def test_refuses_two_targets_that_are_one_file(tmp_path: Path) -> None:
    target = tmp_path / "a.csv"
    link = tmp_path / "b.csv"
    link.symlink_to(target)
    with pytest.raises(WriteError, match="is the same file as"):
        write_files_atomic([(target, b"1"), (link, b"2")])
    assert not target.exists()


# --------------------------------------------------------------------------- failures


def test_error_names_the_target_never_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "scores.csv"
    with pytest.raises(WriteError) as info:
        write_file_atomic(target, b"x")
    assert info.value.filename == str(target)
    assert str(info.value) == f"{target}: No such file or directory"
    assert isinstance(info.value, OSError)


def test_failed_rename_removes_the_temporary_file_and_names_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "scores.csv"
    target.write_bytes(b"old\n")

    def no_space(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device", src)

    monkeypatch.setattr(os, "replace", no_space)
    with pytest.raises(WriteError) as info:
        write_file_atomic(target, b"new\n")
    assert info.value.filename == str(target)
    assert ".tmp" not in str(info.value)
    assert str(info.value) == f"{target}: No space left on device"
    monkeypatch.undo()
    assert target.read_bytes() == b"old\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("exception", [KeyboardInterrupt, MemoryError, OSError])
def test_interrupted_write_removes_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exception: type[BaseException]
) -> None:
    target = tmp_path / "scores.csv"
    target.write_bytes(b"old\n")

    def interrupted(fd: int) -> None:
        raise exception()

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(exception):
        write_file_atomic(target, b"new\n" * 1000)
    monkeypatch.undo()
    assert target.read_bytes() == b"old\n"
    assert _leftovers(tmp_path) == []


def test_group_failure_before_the_renames_changes_no_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.csv", tmp_path / "a.csv.meta.json"
    first.write_bytes(b"old a\n")
    second.write_bytes(b"old b\n")
    real_write = os.write
    calls = []

    def second_write_fails(fd: int, data: bytes) -> int:
        calls.append(fd)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", second_write_fails)
    with pytest.raises(KeyboardInterrupt):
        write_files_atomic([(first, b"new a\n"), (second, b"new b\n")])
    monkeypatch.undo()
    assert (first.read_bytes(), second.read_bytes()) == (b"old a\n", b"old b\n")
    assert _leftovers(tmp_path) == []


KILLED_BETWEEN_RENAMES = textwrap.dedent(
    """
    import os, signal, sys
    from matchlight.core.io.safewrite import write_files_atomic

    real_replace = os.replace
    done = []

    def replace_then_die(src, dst):
        if done:  # the second rename: the process is killed right before it
            os.kill(os.getpid(), signal.SIGKILL)
        done.append(dst)
        real_replace(src, dst)

    os.replace = replace_then_die
    write_files_atomic([(sys.argv[1], b"new a\\n"), (sys.argv[2], b"new b\\n")])
    """
)


def test_a_kill_between_the_renames_leaves_first_new_and_second_old(tmp_path: Path) -> None:
    first, second = tmp_path / "a.csv", tmp_path / "a.csv.meta.json"
    first.write_bytes(b"old a\n")
    second.write_bytes(b"old b\n")
    result = subprocess.run(
        [sys.executable, "-c", KILLED_BETWEEN_RENAMES, str(first), str(second)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == -signal.SIGKILL, result.stderr
    # The state a reader must detect (the CSV sidecar's checksum is for this).
    assert (first.read_bytes(), second.read_bytes()) == (b"new a\n", b"old b\n")


def test_check_write_target_refuses_what_writing_refuses_and_writes_nothing(
    tmp_path: Path, ref: Path
) -> None:
    target = tmp_path / "new.csv"
    check_write_target(target, protect=[ref])
    assert not target.exists()
    with pytest.raises(WriteError, match="refusing to overwrite an input"):
        check_write_target(ref, protect=[ref])
    ref.chmod(0o444)
    with pytest.raises(WriteError, match="is read-only"):
        check_write_target(ref)
    assert ref.read_bytes() == b"the reference\n"


# --------------------------------------------------------------------------- sessions


def _sqlite(path: Path, application_id: int) -> Path:
    """A real SQLite database with ``application_id`` (a Matchlight session's is MLSS)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"PRAGMA application_id={application_id}")
        conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        conn.commit()
    finally:
        conn.close()
    return path


def test_the_session_identity_is_the_session_modules() -> None:
    from matchlight.core.session import store

    assert (SESSION_SUFFIX, SESSION_APPLICATION_ID) == (store.SUFFIX, store.APPLICATION_ID)
    assert SESSION_APPLICATION_ID.to_bytes(4, "big") == b"MLSS"


@pytest.mark.parametrize("name", ["work.matchlight", "Work.MATCHLIGHT", "work.db", "work"])
def test_an_export_over_a_session_is_refused_whatever_its_name(tmp_path: Path, name: str) -> None:
    session = _sqlite(tmp_path / name, SESSION_APPLICATION_ID)
    before = session.read_bytes()
    for target in (session, tmp_path / "link.csv"):
        if target != session:
            target.symlink_to(session)
        with pytest.raises(WriteError) as info:
            write_file_atomic(target, b"system,segment\n")
        assert "is a Matchlight session" in str(info.value)
        assert "refusing to write an export over it (choose another file name)" in str(info.value)
        with pytest.raises(WriteError):
            check_write_target(target)
    assert session.read_bytes() == before
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("suffix", SESSION_SIDECARS)
def test_the_files_sqlite_keeps_next_to_a_session_are_refused(tmp_path: Path, suffix: str) -> None:
    named = tmp_path / f"new.matchlight{suffix}"  # no session there yet: the name is enough
    with pytest.raises(WriteError) as info:
        write_file_atomic(named, b"x")
    assert str(info.value) == (
        f"{named}: is the {suffix[1:]} file of a Matchlight session; refusing to write an "
        "export over it (choose another file name)"
    )
    session = _sqlite(tmp_path / "work.db", SESSION_APPLICATION_ID)
    with pytest.raises(WriteError, match=f"is the {suffix[1:]} file of the Matchlight session"):
        write_file_atomic(Path(f"{session}{suffix}"), b"x")
    assert not named.exists() and not Path(f"{session}{suffix}").exists()


def test_a_new_matchlight_path_is_refused_and_save_as_may_write_it(tmp_path: Path) -> None:
    target = tmp_path / "copy.matchlight"
    with pytest.raises(WriteError, match=r"is a Matchlight session \(\.matchlight\)"):
        write_file_atomic(target, b"{}")
    assert not target.exists()
    data = _sqlite(tmp_path / "work.db", SESSION_APPLICATION_ID).read_bytes()
    write_file_atomic(target, data, allow_session=True)
    write_file_atomic(target, data, allow_session=True)  # over a session too
    assert target.read_bytes() == data


def test_another_programs_sqlite_database_is_an_ordinary_file(tmp_path: Path) -> None:
    other = _sqlite(tmp_path / "other.db", 0x12345678)
    write_file_atomic(other, b"replaced\n")
    assert other.read_bytes() == b"replaced\n"


def test_a_pipe_is_not_opened_to_see_whether_it_is_a_session(tmp_path: Path) -> None:
    fifo = tmp_path / "out.db"
    os.mkfifo(fifo)
    assert is_session_file(fifo) is None  # returns at once: a pipe is not opened
    with pytest.raises(WriteError, match="named pipe"):
        check_write_target(fifo)


# --------------------------------------------------------------------------- several outputs


def test_outputs_of_one_command_that_are_one_file_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    link = tmp_path / "link.json"
    link.symlink_to(out)
    hard = tmp_path / "hard.json"
    out.write_text("old\n")
    os.link(out, hard)
    for other, also in ((out, ""), (link, f" ({out})"), (hard, f" ({out})")):
        with pytest.raises(WriteError) as info:
            check_write_targets([("--csv", out), ("--json", other)])
        assert str(info.value) == (
            f"{other}: --json and --csv{also} name the same file; give each output its own "
            "file name"
        )
    sidecar = tmp_path / "scores.csv.meta.json"
    with pytest.raises(WriteError, match="--json and --csv's sidecar"):
        check_write_targets([("--csv", out), ("--csv's sidecar", sidecar), ("--json", sidecar)])
    check_write_targets([("--csv", out), ("--json", tmp_path / "scores.json")])
    assert out.read_text() == "old\n"


def test_check_write_targets_applies_every_single_target_rule(tmp_path: Path, ref: Path) -> None:
    with pytest.raises(WriteError, match="refusing to overwrite an input"):
        check_write_targets([("--json", tmp_path / "a.json"), ("--csv", ref)], protect=[ref])
    session = _sqlite(tmp_path / "s.matchlight", SESSION_APPLICATION_ID)
    with pytest.raises(WriteError, match="is a Matchlight session"):
        check_write_targets([("--json", session)])
