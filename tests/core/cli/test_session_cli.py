"""``matchlight session create`` makes annotation batches headlessly; ``session info`` and
``report --session`` read them from any folder, after the batch folder moved."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.annotation.model import Status
from matchlight.core.cli.report import main as report_main
from matchlight.core.cli.session import main
from matchlight.core.session.document import read_document
from matchlight.core.session.store import SessionStore
from tests.conftest import SHARED_DATA

WMT = SHARED_DATA / "wmt22-de-en"
needs_data = pytest.mark.skipif(not WMT.is_dir(), reason="shared/data is not present")


@pytest.fixture
def batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A researcher's folder: the files, and the working folder set to it."""
    folder = tmp_path / "project"
    (folder / "data").mkdir(parents=True)
    for name in ("src.txt", "ref.txt", "sys.PROMT.txt", "sys.LT22.txt"):
        shutil.copy(WMT / name, folder / "data" / name)
    monkeypatch.chdir(folder)
    return folder


def create(*extra: str) -> int:
    return main(
        [
            "create",
            "--out",
            "batches/b1.matchlight",
            "--src",
            "data/src.txt",
            "--ref",
            "data/ref.txt",
            "--hyp",
            "PROMT=data/sys.PROMT.txt",
            "--hyp",
            "data/sys.LT22.txt",
            *extra,
        ]
    )


@needs_data
def test_create_records_the_inputs_relative_to_the_session(
    batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert create("--segments", "1-100", "--annotator", "ana", "--metrics", "bleu,chrf") == 0
    assert capsys.readouterr().out.splitlines() == [
        "batches/b1.matchlight: 1,984 segments, 1 reference, systems PROMT, LT22"
    ]
    with SessionStore.open(batch / "batches" / "b1.matchlight", read_only=True) as store:
        doc = read_document(store)
    assert [(i.role, i.name, i.relative) for i in doc.inputs] == [
        ("source", "source", "../data/src.txt"),
        ("reference", "ref", "../data/ref.txt"),
        ("system", "PROMT", "../data/sys.PROMT.txt"),
        ("system", "LT22", "../data/sys.LT22.txt"),
    ]
    assert all(os.path.isabs(i.path) for i in doc.inputs)
    assert doc.selection == Selection((SegmentRange("1-100"),))
    assert doc.config is not None and doc.config.metrics == ("bleu", "chrf")
    assert doc.annotation.annotator == "ana" and doc.baseline == "PROMT"


@needs_data
def test_a_moved_batch_reports_from_any_folder(
    batch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Relative paths were stored relative to the working folder: the session refused to open
    from any other folder ("src.txt: file not found")."""
    assert create("--segments", "1-20") == 0
    moved = tmp_path / "translator" / "project"
    moved.parent.mkdir()
    shutil.move(batch, moved)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    session = moved / "batches" / "b1.matchlight"
    assert main(["info", str(session)]) == 0
    out = capsys.readouterr().out
    assert f"  source    source: same ({moved / 'data' / 'src.txt'})" in out.splitlines()
    report = tmp_path / "report.html"
    assert report_main(["--session", str(session), "--out", str(report), "-q"]) == 0
    assert "PROMT" in report.read_text(encoding="utf-8")


@needs_data
def test_create_pre_annotates_from_xcomet_spans(batch: Path) -> None:
    line = (batch / "data" / "sys.PROMT.txt").read_text(encoding="utf-8").split("\n")[0]
    word = line.split()[1]
    start = line.index(word)
    record = {
        "system": "PROMT",
        "segment": 1,
        "error_spans": [
            {"text": word, "start": start, "end": start + len(word), "severity": "major"}
        ],
    }
    (batch / "spans.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert create("--spans", "spans.jsonl") == 0
    with SessionStore.open(batch / "batches" / "b1.matchlight", read_only=True) as store:
        (span,) = store.spans()
    assert (span.system, span.segment, span.text) == ("PROMT", 0, word)
    assert span.status is Status.UNDECIDED


@needs_data
def test_create_never_replaces_a_file(batch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert create() == 0
    path = batch / "batches" / "b1.matchlight"
    before = path.read_bytes()
    assert create() == 2
    assert "a file of that name already exists" in capsys.readouterr().err
    assert path.read_bytes() == before
    input_path = batch / "data" / "ref.txt"
    as_input = ["create", "--out", "data/ref.txt.matchlight", "--ref", "data/ref.txt"]
    assert main([*as_input, "--hyp", "data/sys.LT22.txt"]) == 0  # a new name next to it is fine
    assert input_path.read_text(encoding="utf-8").startswith(
        (WMT / "ref.txt").read_text(encoding="utf-8")[:20]
    )


@needs_data
def test_spans_of_unknown_systems_are_refused_by_name(
    batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = {"system": "Nobody", "segment": 1, "error_spans": [{"text": "x", "start": 0}]}
    (batch / "other.jsonl").write_text(json.dumps(other) + "\n", encoding="utf-8")
    assert create("--spans", "other.jsonl") == 2
    err = capsys.readouterr().err
    assert "other.jsonl" in err and "Nobody" in err
    assert not (batch / "batches" / "b1.matchlight").exists()


@needs_data
def test_report_of_a_session_whose_input_became_a_fifo_ends_with_a_message(
    batch: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], finishes
) -> None:
    """``report --session`` hung forever hashing a recorded input that became a FIFO."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs")
    assert create() == 0
    system = batch / "data" / "sys.LT22.txt"
    system.unlink()
    os.mkfifo(system)
    session = batch / "batches" / "b1.matchlight"
    out = tmp_path / "r.html"
    status = finishes(lambda: report_main(["--session", str(session), "--out", str(out)]), system)
    assert status == 2
    err = capsys.readouterr().err
    assert "missing" in err and "sys.LT22.txt" in err and "named pipe" in err
    assert not out.exists()
