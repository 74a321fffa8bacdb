"""The session file: round trips, refusing bad files without touching them, one small write per
edit, input checks, re-anchoring, Save as, recovery, and undo/redo on the store."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from matchlight.core.annotation.history import AddSpan, DeleteSpan, History, UpdateSpan, replay
from matchlight.core.annotation.model import (
    AnnotationError,
    ErrorSpan,
    SegmentScore,
    Side,
    Status,
)
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, AnnotationMode
from matchlight.core.annotation.wmtmqm import export_mqm_tsv, import_mqm_tsv
from matchlight.core.session.document import SessionDocument
from matchlight.core.session.locations import RECOVERY_ENV, recovery_dir
from matchlight.core.session.recovery import (
    create_untitled,
    discard_recoverable,
    list_recoverable,
)
from matchlight.core.session.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    SessionError,
    SessionInput,
    SessionStore,
)
from tests.conftest import SHARED_DATA
from tests.core.session.sessionkit import damage_spans
from tests.kit import read_lines

WMT = SHARED_DATA / "wmt22-de-en"
EMOJI = "\U0001f600"


@pytest.fixture(autouse=True)
def private_recovery_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "recovery"
    monkeypatch.setenv(RECOVERY_ENV, str(folder))
    return folder


def real_inputs() -> list[SessionInput]:
    if not WMT.exists():
        pytest.skip("shared/data/wmt22-de-en is not present")
    return [
        SessionInput.from_file(WMT / "src.txt", role="source", name="source"),
        SessionInput.from_file(WMT / "ref.txt", role="reference", name="ref"),
        SessionInput.from_file(WMT / "sys.PROMT.txt", role="system", name="PROMT"),
        SessionInput.from_file(WMT / "sys.LT22.txt", role="system", name="LT22"),
    ]


def lines_of(name: str) -> list[str]:
    return read_lines(WMT / f"sys.{name}.txt")


def a_span(segment: int = 0, system: str = "PROMT", **kw: object) -> ErrorSpan:
    line = lines_of(system)[segment]
    fields: dict[str, object] = {
        "category": "Accuracy/Mistranslation",
        "severity": "major",
        "annotator": "ann",
    }
    fields.update(kw)
    start = line.index(" ") + 1
    end = line.index(" ", start)
    return ErrorSpan.create(
        system=system, segment=segment, line=line, start=start, end=end, **fields
    )  # type: ignore[arg-type]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def new_store(tmp_path: Path, name: str = "s.matchlight", **kw: object) -> SessionStore:
    return SessionStore.create(
        tmp_path / name, inputs=real_inputs(), settings={"tokenize": "13a"}, **kw
    )  # type: ignore[arg-type]


# -- round trips -------------------------------------------------------------------------------


def test_everything_round_trips(tmp_path: Path) -> None:
    typology = DEFAULT_TYPOLOGY.with_category("Style/Unidiomatic")
    with new_store(
        tmp_path,
        baseline="PROMT",
        selection={"rows": [1, 5, 9]},
        layout={"splitter": [300, 700]},
        typology=typology,
        annotator="ann",
    ) as store:
        spans = [a_span(0), a_span(3, "LT22", severity="minor"), a_span(5, note="odd " + EMOJI)]
        for span in spans:
            store.add_span(span)
        store.set_segment_score(SegmentScore("PROMT", 7, "ann", 72.5))
        store.set_segment_score(SegmentScore("PROMT", 8, "ann", None))
        inputs = store.inputs()
    with SessionStore.open(tmp_path / "s.matchlight") as store:
        # Each input also recorded relative to the session file's folder.
        assert store.inputs() == inputs == tuple(i.relative_to(tmp_path) for i in real_inputs())
        assert inputs[0].relative == os.path.relpath(WMT / "src.txt", tmp_path)
        state = store.state()
        assert state.settings == {"tokenize": "13a"}
        assert (state.baseline, state.selection, state.layout) == (
            "PROMT",
            {"rows": [1, 5, 9]},
            {"splitter": [300, 700]},
        )
        assert state.typology == typology and state.weights == DEFAULT_WEIGHTS
        assert state.mode is AnnotationMode.MQM and state.annotator == "ann"
        assert sorted(store.spans(), key=lambda s: s.id) == sorted(spans, key=lambda s: s.id)
        assert store.spans("LT22") == [spans[1]]
        assert store.spans("PROMT", 5) == [spans[2]]
        assert store.get_span(spans[0].id) == spans[0] and store.get_span("nope") is None
        assert [s.score for s in store.segment_scores()] == [72.5, None]
        store.save_state(baseline=None, selection=[3], mode=AnnotationMode.ESA)
        assert store.state().baseline is None and store.state().selection == [3]
        assert store.integrity_check() == ["ok"]


def test_import_and_edits_respect_typology_and_systems(tmp_path: Path) -> None:
    with new_store(tmp_path) as store:
        with pytest.raises(AnnotationError, match="a note is required"):
            store.add_span(a_span(0, category="Other"))
        store.add_span(a_span(0, category="Other", note="calque"))
        with pytest.raises(AnnotationError, match="'Nope' is not a system or reference"):
            store.add_span(
                a_span(0).__class__.create(
                    system="Nope",
                    segment=0,
                    line="x y",
                    start=0,
                    end=1,
                    category="Style",
                    severity="minor",
                    annotator="a",
                )
            )
        undecided = a_span(1, category="Imported/Thing", status=Status.UNDECIDED)
        store.add_span(undecided)  # pre-annotations may carry any category until confirmed
        with pytest.raises(AnnotationError, match="unknown error category"):
            store.update_span(undecided.edited(status=Status.CONFIRMED))
        with pytest.raises(AnnotationError, match="already exists"):
            store.add_span(undecided)
        with pytest.raises(AnnotationError, match="no span"):
            store.delete_span("0" * 32)
        store.save_state(mode=AnnotationMode.ESA)
        store.add_span(a_span(2, category=""))  # ESA spans have severities only
        assert store.count_spans() == 3


def test_store_accepts_an_mqm_import_in_one_go(tmp_path: Path) -> None:
    promt = lines_of("PROMT")
    tsv = tmp_path / "mqm.tsv"
    tsv.write_text(
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
        f"PROMT\td\t1\t1\tr1\ts\t<v>{promt[0][:3]}</v>{promt[0][3:]}\tStyle\tMinor\n"
        f"PROMT\td\t2\t2\tr1\ts\t{promt[1]}\tNo-error\tNo-error\n",
        encoding="utf-8",
    )
    result = import_mqm_tsv(tsv, lines={"PROMT": promt})
    with new_store(tmp_path) as store:
        store.add_import(result)
        assert store.spans() == list(result.spans)
        assert store.segment_scores() == list(result.scores)
    # Through the session file and back out: the same bytes.
    with SessionStore.open(tmp_path / "s.matchlight", read_only=True) as store:
        out = export_mqm_tsv(
            store.spans(),
            store.segment_scores(),
            lines={"PROMT": promt},
            layout=store.mqm_tsv_layout(),
            statuses=tuple(Status),
        )
    assert out.encode("utf-8") == tsv.read_bytes()


# -- refusing files, never touching them ---------------------------------------------------------


def damaged_copy(tmp_path: Path) -> Path:
    with new_store(tmp_path, "good.matchlight") as store:
        store.add_many([a_span(k % 50) for k in range(3000)])
    bad = tmp_path / "bad.matchlight"
    bad.write_bytes((tmp_path / "good.matchlight").read_bytes())
    damage_spans(bad)
    return bad


@pytest.mark.parametrize("kind", ["random", "empty", "other-sqlite", "newer", "damaged", "folder"])
def test_bad_files_raise_and_are_never_modified(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.matchlight"
    if kind == "random":
        path.write_bytes(os.urandom(5000))
        message = "not a Matchlight session (not an SQLite database)"
    elif kind == "empty":
        path.write_bytes(b"")
        message = "not an SQLite database"
    elif kind == "other-sqlite":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        conn.close()
        message = "an SQLite database of another program"
    elif kind == "newer":
        new_store(tmp_path, "x.matchlight").close()
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
        conn.close()
        message = "written by a newer Matchlight"
    elif kind == "folder":
        path.mkdir()
        message = "folder"
    else:
        path = damaged_copy(tmp_path)
        message = "damaged"
    before = None if path.is_dir() else digest(path)
    names = siblings(path)
    for opener in (
        lambda: SessionStore.open(path),
        lambda: SessionStore.open(path, read_only=True),
    ):
        with pytest.raises(SessionError, match=re.escape(message)) as info:
            opener()
        assert str(info.value).startswith(str(path))
    if before is not None:
        assert digest(path) == before
    assert siblings(path) == names  # no -wal or -shm was created next to it


def test_a_damaged_session_opens_as_a_read_only_salvage_copy(tmp_path: Path) -> None:
    bad = damaged_copy(tmp_path)
    before, names = digest(bad), siblings(bad)
    with SessionStore.open_copy_read_only(bad) as copy:
        assert copy.read_only and copy.path != bad
        assert copy.problems and copy.problems[0].startswith("damaged")
        with pytest.raises(SessionError, match="read-only"):
            copy.add_span(a_span(0))
        assert copy.spans() == []  # no exception: the spans table is unreadable ...
        assert any("spans" in p for p in copy.problems)  # ... and the problems say so
        # What is intact is still there.
        assert copy.inputs() == tuple(i.relative_to(bad.parent) for i in real_inputs())
        temp = copy.path.parent
    assert not temp.exists()
    assert digest(bad) == before and siblings(bad) == names


def test_read_only_copy_of_a_session_in_use(tmp_path: Path) -> None:
    with new_store(tmp_path) as store:
        store.add_span(a_span(0))
        with SessionStore.open_copy_read_only(store.path) as copy:
            assert copy.spans() == store.spans() and not copy.problems
        with SessionStore.open(store.path, read_only=True) as ro:
            assert ro.count_spans() == 1
            with pytest.raises(SessionError, match="read-only"):
                ro.delete_span(store.spans()[0].id)


def test_a_session_open_in_another_process_is_not_opened_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "busy.matchlight"
    new_store(tmp_path, "busy.matchlight").close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from matchlight.core.session.store import SessionStore\n"
            f"s = SessionStore.open({str(path)!r})\n"
            "print('open', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(SessionError, match="open in another Matchlight window"):
            SessionStore.open(path)
        with SessionStore.open_copy_read_only(path) as copy:
            assert copy.count_spans() == 0
    finally:
        holder.communicate("", timeout=30)
    SessionStore.open(path).close()  # the holder closed it cleanly


# -- one small transaction per edit ------------------------------------------------------------


def test_an_edit_on_a_100k_span_session_writes_a_few_pages(tmp_path: Path) -> None:
    """One edit is one small transaction: a few pages change in the file (the log is moved into
    it and emptied after each commit), not the 100k-row file."""
    path = tmp_path / "big.matchlight"
    line = lines_of("PROMT")[0]
    with new_store(tmp_path, "big.matchlight") as store:
        store.add_many(
            ErrorSpan.create(
                system="PROMT",
                segment=k % 1984,
                line=line,
                start=4,
                end=9,
                category="Style",
                severity="minor",
                annotator="ann",
            )
            for k in range(100_000)
        )
    before = path.read_bytes()
    wal = Path(str(path) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with SessionStore.open(path) as store:
        assert store.count_spans() == 100_000
        page = store._conn.execute("PRAGMA page_size").fetchone()[0]
        store.add_span(a_span(7))
        store.sync()  # the flusher's pass, a moment after the commit
        assert wal.stat().st_size == 0  # nothing waits in the log between edits
        after = path.read_bytes()
    pages = max(len(before), len(after)) // page
    changed = sum(
        before[k * page : (k + 1) * page] != after[k * page : (k + 1) * page] for k in range(pages)
    )
    assert 1 <= changed <= 12, changed  # a handful of pages, not the 100k-row file
    assert len(before) > 100 * page


# -- inputs and anchoring ----------------------------------------------------------------------


def test_check_inputs_reports_changed_and_missing_files(tmp_path: Path) -> None:
    files = []
    for name in ("PROMT", "LT22"):
        copy = tmp_path / f"{name}.txt"
        copy.write_bytes((WMT / f"sys.{name}.txt").read_bytes())
        files.append(SessionInput.from_file(copy, role="system", name=name))
    store = SessionStore.create(tmp_path / "s.matchlight", inputs=files, settings={})
    with store:
        assert [c.status for c in store.check_inputs()] == ["same", "same"]
        first = Path(files[0].path)
        first.write_bytes(first.read_bytes().replace(b"Euros", b"euros", 1))  # same size
        Path(files[1].path).unlink()
        checks = store.check_inputs()
        assert [c.status for c in checks] == ["changed", "missing"]
        assert checks[0].changed and checks[0].sha256 != files[0].sha256
        moved = [WMT / "sys.PROMT.txt", WMT / "sys.LT22.txt"]
        assert [c.status for c in store.check_inputs(moved)] == ["same", "same"]
        with pytest.raises(SessionError, match="2 inputs; 1 paths"):
            store.check_inputs(moved[:1])


def test_reanchor_on_open(tmp_path: Path) -> None:
    promt = lines_of("PROMT")
    keep, move, lose = a_span(0), a_span(1), a_span(2)
    with new_store(tmp_path) as store:
        store.add_many([keep, move, lose])
    current = list(promt)
    current[1] = "Inserted words. " + promt[1]
    current[2] = "Completely rewritten."
    with SessionStore.open(tmp_path / "s.matchlight") as store:
        report = store.reanchor({"PROMT": current})
        assert report.kept == 1
        assert [s.id for s in report.reattached] == [move.id]
        assert [s.id for s in report.flagged] == [lose.id]
        stored = store.get_span(move.id)
        assert stored is not None and stored.start == move.start + len("Inserted words. ")
        assert current[1][stored.start : stored.end] == move.text
        assert store.get_span(lose.id) == lose


def test_reanchor_puts_source_spans_on_the_current_source(tmp_path: Path) -> None:
    source = read_lines(WMT / "src.txt")
    spans = []
    for segment in (0, 1, 2):
        line = source[segment]
        start = line.index(" ") + 1
        end = line.index(" ", start)
        spans.append(
            ErrorSpan.create(
                system="PROMT",
                segment=segment,
                line=line,
                start=start,
                end=end,
                side=Side.SOURCE,
                category="Source issue",
                severity="minor",
                annotator="ann",
            )
        )
    keep, move, lose = spans
    with new_store(tmp_path) as store:
        store.add_many(spans)
    current = list(source)
    current[1] = "Eingefügte Wörter. " + source[1]
    current[2] = "Völlig neu geschrieben."
    outputs = {"PROMT": lines_of("PROMT")}
    with SessionStore.open(tmp_path / "s.matchlight") as store:
        # Without the source lines, source spans are left as they are.
        assert store.reanchor(outputs, sources=None, apply=False).kept == 3
        report = store.reanchor(outputs, sources=current)
        assert report.kept == 1
        assert [s.id for s in report.reattached] == [move.id]
        assert [s.id for s in report.flagged] == [lose.id]
        stored = store.get_span(move.id)
        assert stored is not None and stored.side is Side.SOURCE
        assert current[1][stored.start : stored.end] == move.text
        assert stored.start == move.start + len("Eingefügte Wörter. ")
        assert store.get_span(keep.id) == keep and store.get_span(lose.id) == lose


# -- save as and recovery ----------------------------------------------------------------------


def test_save_as_copies_atomically_and_protects_inputs(tmp_path: Path) -> None:
    hyp = tmp_path / "PROMT.txt"
    hyp.write_bytes((WMT / "sys.PROMT.txt").read_bytes())
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    inputs = [SessionInput.from_file(hyp, role="system", name="PROMT")]
    store = SessionStore.create(tmp_path / "a.matchlight", inputs=inputs, settings={})
    with store:
        store.add_span(a_span(0))
        before = digest(hyp)
        with pytest.raises(SessionError, match="refusing to overwrite the input"):
            store.save_as(hyp)
        with pytest.raises(SessionError, match="not a Matchlight session"):
            store.save_as(notes)
        assert digest(hyp) == before and notes.read_text() == "mine"
        copy = store.save_as(tmp_path / "b.matchlight", switch=False)
        assert store.path == tmp_path / "a.matchlight"
        store.add_span(a_span(1))
        with SessionStore.open(copy) as other:
            assert other.count_spans() == 1 and other.integrity_check() == ["ok"]
        # Replacing an existing session, then working in it.
        store.save_as(copy)
        assert store.path == copy
        store.add_span(a_span(2))
    with SessionStore.open(copy) as other:
        assert other.count_spans() == 3
    with SessionStore.open(tmp_path / "a.matchlight") as old:
        assert old.count_spans() == 2
    leftovers = [p for p in siblings(copy) if p.endswith(".tmp")]
    assert leftovers == []


def test_untitled_sessions_are_recoverable_and_discardable(tmp_path: Path) -> None:
    assert recovery_dir() == tmp_path / "recovery"
    assert list_recoverable() == []
    crashed = create_untitled(SessionDocument(tuple(real_inputs())))
    crashed.add_span(a_span(0))
    crashed_path = crashed.path
    # A crash: the connection is dropped without close() recording it (owner stays recorded,
    # but it is this live process, so the session counts as in use until closed).
    assert [s.in_use for s in list_recoverable()] == [True]
    with pytest.raises(SessionError, match="open in another Matchlight window"):
        discard_recoverable(crashed_path)
    crashed.close()
    second = create_untitled(SessionDocument(tuple(real_inputs()[:2])))
    second.close()
    found = list_recoverable()
    assert [f.path for f in found] == [second.path, crashed_path]
    assert found[1].spans == 1
    assert found[1].inputs == tuple(i.relative_to(recovery_dir()) for i in real_inputs())
    assert not any(f.in_use for f in found) and all(f.problem is None for f in found)
    assert found[0].modified >= found[1].modified
    discard_recoverable(second.path)
    assert [f.path for f in list_recoverable()] == [crashed_path]
    elsewhere = tmp_path / "kept.matchlight"
    new_store(tmp_path, "kept.matchlight").close()
    with pytest.raises(SessionError, match="only sessions in the recovery folder"):
        discard_recoverable(elsewhere)
    assert elsewhere.exists()
    # "Save as" moves an untitled session out of the recovery folder.
    with SessionStore.open(crashed_path) as store:
        store.save_as(tmp_path / "named.matchlight")
        assert store.count_spans() == 1
    assert list_recoverable() == [] and not crashed_path.exists()


def test_damaged_recovery_files_are_listed_with_their_problem(tmp_path: Path) -> None:
    folder = recovery_dir()
    folder.mkdir(parents=True)
    (folder / "junk.matchlight").write_bytes(b"not a database at all" * 10)
    (found,) = list_recoverable()
    assert found.problem is not None and "not a Matchlight session" in found.problem
    discard_recoverable(found.path)
    assert list(folder.iterdir()) == []


# -- undo / redo against the file --------------------------------------------------------------


def test_history_drives_the_store_and_replays(tmp_path: Path) -> None:
    first, second = a_span(0), a_span(1)
    log = [AddSpan(first), AddSpan(second), UpdateSpan(second, second.edited(severity="minor"))]
    log.append(DeleteSpan(first))
    with new_store(tmp_path) as store:
        history = History()
        for command in log:
            history.execute(command, store)
        assert [s.id for s in store.spans()] == [second.id]
        history.undo(store)
        history.undo(store)
        assert {s.id: s for s in store.spans()} == {first.id: first, second.id: second}
        history.redo(store)
        history.redo(store)
        final = store.spans()
    with new_store(tmp_path, "replayed.matchlight") as fresh:
        replay(log, fresh)
        assert fresh.spans() == final


def test_header_carries_the_identity_and_version(tmp_path: Path) -> None:
    path = tmp_path / "s.matchlight"
    new_store(tmp_path).close()
    head = path.read_bytes()[:100]
    assert int.from_bytes(head[68:72], "big") == APPLICATION_ID
    assert int.from_bytes(head[60:64], "big") == SCHEMA_VERSION
    with pytest.raises(SessionError, match="already exists"):
        new_store(tmp_path)
