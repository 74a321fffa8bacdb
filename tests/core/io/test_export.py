"""core.io.export: CSV cells are spreadsheet-safe, the sidecar proves which CSV it describes, and
no export ever replaces an input."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlight.core.io.export import (
    ExportMetaError,
    comparison_inputs,
    read_export_meta,
    sidecar_path,
    write_csv,
    write_json,
)
from matchlight.core.io.inputs import InputSpec, parse_spec
from matchlight.core.io.reading import load_comparison
from matchlight.core.io.safewrite import WriteError
from matchlight.core.io.spreadsheet import FORMULA_TRIGGERS, spreadsheet_safe
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText
from tests.conftest import DATASETS, ROOT, SAMPLE
from tests.kit import read_lines

HOSTILE_NAMES = (
    "=1+2",
    "-2+3",
    "+cmd",
    "@SUM(A1)",
    "\tx",
    "\r=1",
    "a\rb",
    "plain",
    '=HYPERLINK("x")',
)


def _table(names: tuple[str, ...], lines: int = 12) -> ScoreTable:
    refs = tuple(read_lines(SAMPLE / "ref.en.txt")[:lines])
    system = tuple(read_lines(SAMPLE / "sys.fluent.txt")[:lines])
    text = CorpusText(references=(refs,), systems=(system,) * len(names), system_names=names)
    return score_corpus(text, ScoringConfig())


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- CSV injection


def test_system_names_are_spreadsheet_safe_and_numbers_stay_numbers(tmp_path: Path) -> None:
    table = _table(HOSTILE_NAMES)
    out = tmp_path / "scores.csv"
    write_csv(out, table)
    header, *rows = _rows(out)
    assert len(rows) == len(HOSTILE_NAMES) * table.n_segments
    assert not any(cell.startswith(FORMULA_TRIGGERS) for cell in header)
    assert header[:2] == ["system", "segment"]
    names = [row[0] for row in rows]
    assert names == [spreadsheet_safe(n) for n in HOSTILE_NAMES for _ in range(table.n_segments)]
    for row in rows:
        assert not row[0].startswith(FORMULA_TRIGGERS)
        # Every other cell is a number (or empty for an undefined score), never quoted text.
        assert all(_is_number(cell) or cell == "" for cell in row[1:]), row
        assert any(_is_number(cell) for cell in row[2:])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.text(min_size=1, max_size=12))
def test_any_system_name_is_written_safely(tmp_path: Path, name: str) -> None:
    out = tmp_path / "any.csv"
    write_csv(out, _table((name,), lines=2))
    cell = _rows(out)[1][0]
    assert not cell.startswith(FORMULA_TRIGGERS)
    # Lone surrogates (undecodable bytes of a file name) become U+FFFD; nothing else changes.
    readable = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in name)
    assert cell == spreadsheet_safe(readable)


def test_names_from_hostile_file_names_and_name_path_specs(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    formula = tmp_path / "sys.=1+2.txt"  # default_name drops "sys.": the name is "=1+2"
    formula.write_text("a b c\nd e x\n", encoding="utf-8")
    comparison = load_comparison(
        source=None,
        references=[parse_spec(str(ref))],
        systems=[parse_spec(str(formula)), parse_spec(f"@cmd={formula}")],
    )
    table = score_corpus(comparison.corpus_text(), ScoringConfig())
    out = tmp_path / "out.csv"
    write_csv(out, table, inputs=comparison_inputs(comparison))
    assert {row[0] for row in _rows(out)[1:]} == {"'=1+2", "'@cmd"}


# --------------------------------------------------------------------------- sidecar checksum


def test_sidecar_records_the_csv_checksum_and_the_reader_accepts_it(tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    table = _table(("a", "b"))
    assert write_csv(out, table) == sidecar_path(out)
    data = out.read_bytes()
    meta = read_export_meta(out)
    assert meta["csv"] == {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert meta == json.loads(sidecar_path(out).read_text(encoding="utf-8"))
    assert meta["signatures"] == table.signatures()


def test_reader_detects_a_changed_csv(tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    write_csv(out, _table(("a",)))
    out.write_bytes(out.read_bytes().replace(b"\na,1,", b"\na,2,", 1))  # same size
    with pytest.raises(ExportMetaError) as info:
        read_export_meta(out)
    message = str(info.value)
    assert message.startswith(f"{out}: does not match its sidecar {sidecar_path(out).name}")
    assert "not from the same export" in message


def test_reader_reports_missing_and_malformed_sidecars(tmp_path: Path) -> None:
    out = tmp_path / "scores.csv"
    side = write_csv(out, _table(("a",)))
    meta = json.loads(side.read_text(encoding="utf-8"))
    del meta["csv"]
    side.write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ExportMetaError, match="records no checksum"):
        read_export_meta(out)
    side.write_text("{not json", encoding="utf-8")
    with pytest.raises(ExportMetaError, match="is not a valid sidecar: invalid JSON"):
        read_export_meta(out)
    side.write_text('{"csv": ' + "[" * 10_000 + "]" * 10_000 + "}", encoding="utf-8")
    with pytest.raises(ExportMetaError, match="is not a valid sidecar: nested more than 64"):
        read_export_meta(out)
    side.unlink()
    with pytest.raises(ExportMetaError) as info:
        read_export_meta(out)
    assert str(info.value).startswith(f"{out}: has no sidecar {side.name} next to it")
    side = write_csv(out, _table(("a",)))
    out.unlink()
    with pytest.raises(ExportMetaError) as info:
        read_export_meta(out)
    assert str(info.value).startswith(f"{out}: not found, but its sidecar")


def test_a_csv_or_sidecar_that_is_a_pipe_is_refused_without_blocking(
    tmp_path: Path, finishes: Callable[..., object]
) -> None:
    out = tmp_path / "scores.csv"
    side = write_csv(out, _table(("a",)))
    side.unlink()
    os.mkfifo(side)
    outcome = finishes(lambda: read_export_meta(out), side)
    assert isinstance(outcome, ExportMetaError), outcome
    assert str(outcome) == f"{side}: is a named pipe (FIFO), not a regular file"
    side.unlink()
    write_csv(out, _table(("a",)))
    out.unlink()
    os.mkfifo(out)
    outcome = finishes(lambda: read_export_meta(out), out)
    assert isinstance(outcome, ExportMetaError), outcome
    assert str(outcome) == f"{out}: is a named pipe (FIFO), not a regular file"


KILLED_EXPORT = textwrap.dedent(
    """
    import os, signal, sys
    from matchlight.core.io.export import write_csv
    from matchlight.core.scoring.config import ScoringConfig
    from matchlight.core.scoring.engine import score_corpus
    from matchlight.core.text.corpus import CorpusText

    text = CorpusText(
        references=(("a b c d", "e f g h"),), systems=(("a b x d", "e f g"),), system_names=("new",)
    )
    table = score_corpus(text, ScoringConfig())
    real_replace = os.replace
    done = []

    def replace_then_die(src, dst):
        if done:  # killed between the CSV's rename and the sidecar's
            os.kill(os.getpid(), signal.SIGKILL)
        done.append(dst)
        real_replace(src, dst)

    os.replace = replace_then_die
    write_csv(sys.argv[1], table)
    """
)


@pytest.mark.parametrize("earlier_export", [True, False])
def test_a_kill_between_the_two_renames_is_detected(tmp_path: Path, earlier_export: bool) -> None:
    out = tmp_path / "scores.csv"
    if earlier_export:
        write_csv(out, _table(("old",)))
        read_export_meta(out)
    result = subprocess.run(
        [sys.executable, "-c", KILLED_EXPORT, str(out)],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert _rows(out)[1][0] == "new"  # the CSV was renamed, the sidecar was not
    with pytest.raises(ExportMetaError) as info:
        read_export_meta(out)
    if earlier_export:
        assert "does not match its sidecar" in str(info.value)
    else:
        assert "has no sidecar" in str(info.value)


# --------------------------------------------------------------------------- inputs are safe


@pytest.fixture
def comparison_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "src": tmp_path / "src.txt",
        "ref": tmp_path / "ref.txt",
        "sys": tmp_path / "sys.a.txt",
    }
    for path in files.values():
        path.write_text("one two three\nfour five six\n", encoding="utf-8")
    return files


def _compare(files: dict[str, Path]) -> tuple[ScoreTable, dict[str, object]]:
    comparison = load_comparison(
        source=InputSpec(str(files["src"])),
        references=[InputSpec(str(files["ref"]))],
        systems=[InputSpec(str(files["sys"]))],
    )
    return score_corpus(comparison.corpus_text(), ScoringConfig()), comparison_inputs(comparison)


def test_csv_export_never_replaces_an_input(
    tmp_path: Path, comparison_files: dict[str, Path]
) -> None:
    table, inputs = _compare(comparison_files)
    before = {p: p.read_bytes() for p in comparison_files.values()}
    link = tmp_path / "link.csv"
    link.symlink_to(comparison_files["ref"])
    hard = tmp_path / "hard.csv"
    os.link(comparison_files["sys"], hard)
    for target in (*comparison_files.values(), link, hard):
        with pytest.raises(WriteError) as info:
            write_csv(target, table, inputs=inputs)
        assert info.value.filename == str(target)
        assert "refusing to overwrite an input of the comparison" in str(info.value)
        assert not sidecar_path(target).exists()  # nothing written, not even the sidecar
    assert {p: p.read_bytes() for p in comparison_files.values()} == before


def test_csv_export_whose_sidecar_would_replace_an_input_writes_nothing(
    tmp_path: Path, comparison_files: dict[str, Path]
) -> None:
    named = tmp_path / "scores.csv.meta.json"
    named.write_text("one two three\nfour five six\n", encoding="utf-8")
    files = {**comparison_files, "ref": named}
    table, inputs = _compare(files)
    with pytest.raises(WriteError) as info:
        write_csv(tmp_path / "scores.csv", table, inputs=inputs)
    assert info.value.filename == str(named)
    assert not (tmp_path / "scores.csv").exists()
    assert named.read_text(encoding="utf-8") == "one two three\nfour five six\n"


def test_json_export_never_replaces_an_input(
    tmp_path: Path, comparison_files: dict[str, Path]
) -> None:
    _, inputs = _compare(comparison_files)
    with pytest.raises(WriteError, match="refusing to overwrite an input"):
        write_json(comparison_files["src"], {"x": 1}, inputs=inputs)
    assert comparison_files["src"].read_text(encoding="utf-8") == "one two three\nfour five six\n"
    out = write_json(tmp_path / "scores.json", {"systems": {"a": 1.5}}, inputs=inputs)
    assert json.loads(out.read_text(encoding="utf-8")) == {"systems": {"a": 1.5}}


def test_undecodable_file_names_in_the_sidecar_round_trip(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/sys.\xff.txt"
    name = os.fsdecode(raw)  # holds the lone surrogate \udcff
    inputs = {"source": None, "references": [name], "systems": {"x": name}}
    side = write_csv(tmp_path / "s.csv", _table(("x",)), inputs=inputs)
    side.read_bytes().decode("utf-8")  # valid UTF-8
    assert read_export_meta(tmp_path / "s.csv")["inputs"] == inputs
    out = write_json(tmp_path / "s.json", {"inputs": inputs})
    assert json.loads(out.read_bytes().decode("utf-8")) == {"inputs": inputs}


# --------------------------------------------------------------------------- real data


@pytest.mark.skipif(not DATASETS, reason="shared datasets not found")
def test_real_dataset_export_validates(tmp_path: Path) -> None:
    """A real comparison's export (read in place; nothing is ever written next to it)."""
    dataset = next(d for d in DATASETS if d.name == "wmt22-de-en")
    comparison = load_comparison(
        source=parse_spec(str(dataset.source)) if dataset.source else None,
        references=[parse_spec(str(p)) for p in dataset.refs],
        systems=[parse_spec(str(p)) for p in dataset.systems],
    )
    table = score_corpus(comparison.corpus_text(), ScoringConfig())
    inputs = comparison_inputs(comparison)
    out = tmp_path / "wmt22.csv"
    write_csv(out, table, inputs=inputs)
    meta = read_export_meta(out)
    assert meta["inputs"] == inputs
    assert meta["csv"]["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 1 + len(comparison) * len(comparison.systems)
    assert [r[0] for r in rows[1 :: len(comparison)]] == [s.name for s in comparison.systems]
