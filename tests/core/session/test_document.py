"""The session document: one schema for what a session holds, read and written in one place,
with inputs found relative to the session file (a session opens from any folder, and after its
folder moved), and older files read as they are."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.annotation.typology import AnnotationMode
from matchlight.core.io.specs import ComparisonSpecs
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.document import (
    AnnotationSettings,
    SessionDocument,
    create_session,
    inputs_for,
    read_document,
    save_document,
)
from matchlight.core.session.store import SessionError, SessionStore

LINES = {
    "src.txt": ["Guten Tag.", "Wie geht es?"],
    "ref.txt": ["Good day.", "How are you?"],
    "A.tsv": ["id\ttext", "1\tGood morning.", "2\tHow is it?"],
    "B.txt": ["Hello.", "How are you?"],
}


def write_inputs(folder: Path) -> ComparisonSpecs:
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in LINES.items():
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = {
        "source": {"path": str(folder / "src.txt"), "name": None, "column": None, "fmt": None},
        "references": [{"path": str(folder / "ref.txt"), "name": None, "column": None}],
        "systems": [
            {"path": str(folder / "A.tsv"), "name": "A", "column": "text", "fmt": "tsv"},
            {"path": str(folder / "B.txt"), "name": "B", "column": None, "fmt": None},
        ],
    }
    return ComparisonSpecs.from_json(data)


def document(specs: ComparisonSpecs) -> SessionDocument:
    return SessionDocument(
        inputs=inputs_for(specs, ("ref",)),
        config=ScoringConfig(metrics=("bleu", "chrf")),
        reference_names=("ref",),
        baseline="B",
        selection=Selection((SegmentRange("2"),)),
        layout={"highlight_mode": "chrf", "current_segment": 1},
        annotation=AnnotationSettings(AnnotationMode.ESA, annotator="ana"),
    )


def test_a_document_round_trips(tmp_path: Path) -> None:
    specs = write_inputs(tmp_path / "data")
    doc = document(specs)
    with create_session(tmp_path / "s.matchlight", doc) as store:
        assert read_document(store) == SessionDocument(
            inputs=tuple(i.relative_to(tmp_path) for i in doc.inputs),
            config=doc.config,
            reference_names=doc.reference_names,
            baseline=doc.baseline,
            selection=doc.selection,
            layout=doc.layout,
            annotation=doc.annotation,
        )
        changed = SessionDocument(doc.inputs, baseline="A", layout={"current_segment": 0})
        save_document(store, changed)
        again = read_document(store)
    assert again.baseline == "A" and again.layout == {"current_segment": 0}
    assert again.config == ScoringConfig() and again.annotation == AnnotationSettings()
    # The specs say how every file was read, and load the same comparison.
    assert again.specs() == specs.with_paths([i.path for i in doc.inputs])
    assert again.specs().load().systems[0].lines == ("Good morning.", "How is it?")


def test_a_session_moved_with_its_files_finds_them_relative_to_itself(tmp_path: Path) -> None:
    """Paths were stored as typed, so a session refused to open from another folder."""
    project = tmp_path / "project"
    specs = write_inputs(project / "data")
    with create_session(project / "batches" / "b1.matchlight", document(specs)):
        pass
    moved = tmp_path / "elsewhere" / "project"
    moved.parent.mkdir()
    shutil.move(project, moved)
    os.chdir(tmp_path)  # any working folder
    with SessionStore.open(moved / "batches" / "b1.matchlight", read_only=True) as store:
        doc = read_document(store)
        checks = store.check_inputs()
    assert [c.status for c in checks] == ["same"] * 4
    assert [c.path for c in checks] == [
        str(moved / "data" / name) for name in ("src.txt", "ref.txt", "A.tsv", "B.txt")
    ]
    comparison = doc.found_specs(checks).load()
    assert comparison.systems[0].lines == ("Good morning.", "How is it?")


def test_a_copied_session_falls_back_to_the_recorded_paths(tmp_path: Path) -> None:
    specs = write_inputs(tmp_path / "data")
    with create_session(tmp_path / "s.matchlight", document(specs)):
        pass
    elsewhere = tmp_path / "mail" / "inbox"
    elsewhere.mkdir(parents=True)
    shutil.copy(tmp_path / "s.matchlight", elsewhere / "s.matchlight")
    with SessionStore.open(elsewhere / "s.matchlight", read_only=True) as store:
        checks = store.check_inputs()
    assert [c.status for c in checks] == ["same"] * 4
    assert checks[1].path == str(tmp_path / "data" / "ref.txt")


def test_an_edited_input_is_found_changed_and_a_deleted_one_missing(tmp_path: Path) -> None:
    specs = write_inputs(tmp_path / "data")
    with create_session(tmp_path / "s.matchlight", document(specs)):
        pass
    (tmp_path / "data" / "B.txt").write_text("Hi.\nHow are you?\n", encoding="utf-8")
    (tmp_path / "data" / "src.txt").unlink()
    with SessionStore.open(tmp_path / "s.matchlight", read_only=True) as store:
        statuses = [(c.input.name, c.status) for c in store.check_inputs()]
    assert statuses == [("source", "missing"), ("ref", "same"), ("A", "same"), ("B", "changed")]


def test_a_format_2_file_keeps_its_specs(tmp_path: Path) -> None:
    """Format 1 and 2 kept how TSV inputs were read in settings['specs']; read as they are."""
    specs = write_inputs(tmp_path / "data")
    path = tmp_path / "old.matchlight"
    with create_session(path, document(specs)):
        pass
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE inputs SET column_name=NULL, fmt=NULL, relative=NULL")
    settings = {
        "config": ScoringConfig().to_dict(),
        "specs": specs.to_json(),
        "reference_names": ["ref"],
    }
    conn.execute("UPDATE meta SET value=? WHERE key='settings'", (json.dumps(settings),))
    conn.execute("UPDATE meta SET value='1' WHERE key='baseline'")  # an index, as some wrote
    conn.execute("PRAGMA user_version=2")
    conn.close()
    with SessionStore.open(path) as store:
        doc = read_document(store)
        assert doc.specs() == specs and doc.baseline == "B"
        save_document(store, doc)
        stored = json.loads(store._meta_values("settings")["settings"])
        assert stored["specs"] == specs.to_json()  # the version that wrote it can still read it
        assert store.format_version() == 2


def test_unusable_settings_name_the_file(tmp_path: Path) -> None:
    specs = write_inputs(tmp_path / "data")
    path = tmp_path / "bad.matchlight"
    with create_session(path, document(specs)) as store:
        store.save_state(selection={"filters": [{"kind": "no such filter"}]})
    with SessionStore.open(path, read_only=True) as store, pytest.raises(SessionError) as error:
        read_document(store)
    assert str(error.value).startswith(f"{path}: the session's row selection is unusable")
