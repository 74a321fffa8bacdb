"""Imported score and label columns in a session file: kept with their values and sources,
restored before the selection (so a filter on them survives), a changed or missing source
reported while the stored values are used, and format-1 files (before imports) still read.

Only core is used (what the app's controller drives on save and open).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics.chrf import CHRF

from matchlight.core.analysis.selection import ScoreRange, Selection
from matchlight.core.io.human import HumanJudgements, human_column, read_human
from matchlight.core.io.labels import read_labels
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.core.metrics.base import Scale, ScoreColumn, infer_scale
from matchlight.core.session.comparison import ComparisonSession, ComparisonState
from matchlight.core.session.imported import (
    ImportedFile,
    LabelImport,
    ScoreImport,
    import_from_json,
)
from matchlight.core.session.store import (
    SCHEMA_VERSION,
    SessionError,
    SessionStore,
    file_digest,
)
from tests.core.session.sessionkit import inputs_of, open_comparison

REF = [
    "The cat sits on the mat.",
    "A rare character appears here.",
    "The dog sleeps.",
    "It rained all day in the city.",
]
HYP_A = ["The cat sat on the mat.", "A rare sign shows up here.", "Dog sleep.", "Rain all day."]
HYP_B = [
    "The cat sits on the carpet.",
    "A rare character appears there.",
    "The dog sleeps.",
    "It rained the whole day in town.",
]
DOMAINS = ["news", "news", "social", "speech"]
COLUMN = ScoreColumn(
    key="imported_comet_22",
    label="COMET-22",
    short="COMET-22",
    metric="imported",
    description="COMET-22, imported from comet.txt; the corpus figure is the mean",
    corpus="mean",
)


@pytest.fixture(autouse=True)
def private_recovery_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "recovery"
    monkeypatch.setenv("MATCHLIGHT_RECOVERY_DIR", str(folder))
    return folder


def write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def chrf_of(hyps: list[str]) -> list[float]:
    """Real per-segment values to import (sacreBLEU's sentence chrF, 0-1 like COMET)."""
    chrf = CHRF()
    return [chrf.sentence_score(h, [r]).score / 100 for h, r in zip(hyps, REF, strict=True)]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    a, b = chrf_of(HYP_A), chrf_of(HYP_B)
    b[2] = float("nan")  # written as "nan": a missing score, kept as NaN
    comet = [
        f"{name}\tSegment {i}\tscore: {value:.4f}"
        for name, values in (("sys.A.en", a), ("sys.B.en", b))
        for i, value in enumerate(values)
    ]
    return {
        "ref": write(tmp_path / "ref.en", REF),
        "A": write(tmp_path / "sys.A.en", HYP_A),
        "B": write(tmp_path / "sys.B.en", HYP_B),
        "comet": write(tmp_path / "comet.txt", comet),
        "domain": write(tmp_path / "meta.tsv", ["domain\tdoc", *(f"{d}\td{d}" for d in DOMAINS)]),
    }


def import_both(
    session: ComparisonSession, files: dict[str, str]
) -> tuple[ScoreImport, LabelImport]:
    """What the dock does: read the files, record them, add them to the comparison."""
    spec = ScoreSpec(files["comet"], fmt="comet")
    imported = read_scores(
        [spec], systems=session.system_names, n_segments=session.n_segments, name="COMET-22"
    )
    scores = ScoreImport.from_imported(imported, COLUMN)
    labels = LabelImport.from_column(
        read_labels(files["domain"], n_segments=session.n_segments, column="domain")
    )
    session.add_imported(scores)
    session.set_labels(labels)
    return scores, labels


def save(path: Path, session: ComparisonSession, files: dict[str, str]) -> None:
    with SessionStore.create(
        path,
        inputs=inputs_of(files),
        settings={"config": session.config.to_dict()},
        selection=session.selection.to_dict(),
    ) as store:
        for record in (*session.imported_scores(), *session.label_columns()):
            store.save_import(record)


def reopen(path: Path, files: dict[str, str]) -> tuple[ComparisonSession, list[str]]:
    """What the controller does on open: imports first, then the saved selection. Returns the
    new session and the files reported as changed or missing."""
    with SessionStore.open(path) as store:
        records = store.imports()
        state = store.state()
    session = open_comparison(files)
    reported = []
    for record in records:
        for source in record.files:
            if source.status() != "same":
                reported.append(f"{source.status()}: {source.path}")
        if isinstance(record, ScoreImport):
            session.add_imported(record)
        else:
            session.set_labels(record)
    session.set_selection(Selection.from_dict(state.selection))
    return session, reported


def test_imported_columns_round_trip_and_a_filter_on_them_survives(
    tmp_path: Path, files: dict[str, str]
) -> None:
    session = open_comparison(files)
    scores, labels = import_both(session, files)
    expected = read_scores(
        [ScoreSpec(files["comet"], fmt="comet")], systems=("A", "B"), n_segments=4, name="x"
    ).values
    written = np.array(
        [[round(v, 4) for v in chrf_of(HYP_A)], [round(v, 4) for v in chrf_of(HYP_B)]]
    )
    written[1, 2] = np.nan
    np.testing.assert_allclose(expected, written, rtol=0, atol=1e-12)
    threshold = float(np.median(expected[0]))
    keep = ScoreRange(COLUMN.key, 0, low=threshold)
    session.set_selection(Selection((keep,)))
    rows = session.selected_rows()
    assert rows.tolist() == np.flatnonzero(expected[0] >= threshold).tolist()
    assert 0 < rows.size < session.n_segments

    path = tmp_path / "work.matchlight"
    save(path, session, files)
    again, reported = reopen(path, files)

    assert reported == []
    [restored] = again.imported_scores()
    assert restored.column == COLUMN
    assert restored.systems == ("A", "B")
    np.testing.assert_array_equal(restored.values, expected)  # bit for bit, NaN included
    np.testing.assert_array_equal(again.table.column(COLUMN.key, 1), expected[1])
    source = restored.files[0]
    assert source.path == str(Path(files["comet"]).resolve())
    assert source.sha256 == file_digest(files["comet"])[0]
    assert source.score_spec() == ScoreSpec(source.path, fmt="comet")
    [label] = again.label_columns()
    assert (label.name, label.labels) == ("domain", tuple(DOMAINS))
    assert label.label_column().column == "domain"
    assert label.file.sha256 == file_digest(files["domain"])[0]
    assert again.selection == Selection((keep,))
    assert again.selected_rows().tolist() == rows.tolist()
    assert labels.labels == label.labels and scores.key == restored.key


def test_without_the_imports_the_filter_would_be_pruned(
    tmp_path: Path, files: dict[str, str]
) -> None:
    """The failure this guards against: a selection on an imported column, restored into a
    comparison without it, loses the filter."""
    session = open_comparison(files)
    import_both(session, files)
    session.set_selection(Selection((ScoreRange(COLUMN.key, 0, low=0.5),)))
    path = tmp_path / "work.matchlight"
    save(path, session, files)
    with SessionStore.open(path) as store:
        state = store.state()
    bare = open_comparison(files)
    bare.restore(ComparisonState(bare.config, 0, Selection.from_dict(state.selection), {}))
    assert bare.selection == Selection()


def test_changed_and_missing_sources_are_reported_and_stored_values_kept(
    tmp_path: Path, files: dict[str, str]
) -> None:
    session = open_comparison(files)
    scores, _labels = import_both(session, files)
    path = tmp_path / "work.matchlight"
    save(path, session, files)
    original = scores.values.copy()
    comet = Path(files["comet"])
    comet.write_text(comet.read_text(encoding="utf-8").replace("score: 0.", "score: 1."))
    Path(files["domain"]).unlink()

    again, reported = reopen(path, files)

    assert reported == [
        f"changed: {comet.resolve()}",
        f"missing: {Path(files['domain']).resolve()}",
    ]
    np.testing.assert_array_equal(again.imported_scores()[0].values, original)
    assert again.label_columns()[0].labels == tuple(DOMAINS)


def test_removing_an_imported_column_removes_it_from_the_session(
    tmp_path: Path, files: dict[str, str]
) -> None:
    session = open_comparison(files)
    scores, labels = import_both(session, files)
    path = tmp_path / "work.matchlight"
    save(path, session, files)
    session.remove_column(scores.key)
    session.remove_labels(labels.name)
    assert session.imported_scores() == () and session.label_columns() == ()
    with SessionStore.open(path) as store:
        assert store.remove_import("scores", scores.key)
        assert not store.remove_import("scores", scores.key)
        assert [r.key for r in store.imports()] == ["domain"]
    again, _ = reopen(path, files)
    assert again.imported_scores() == ()
    assert not again.table.has(scores.key)


def test_replacing_an_import_keeps_its_place(tmp_path: Path, files: dict[str, str]) -> None:
    session = open_comparison(files)
    scores, labels = import_both(session, files)
    with SessionStore.create(tmp_path / "s.matchlight", inputs=inputs_of(files), settings={}) as st:
        st.save_import(scores)
        st.save_import(labels)
        halved = ScoreImport(scores.column, scores.systems, scores.values / 2, scores.files)
        st.save_import(halved)
        found = st.imports()
    assert [r.key for r in found] == [scores.key, "domain"]
    assert isinstance(found[0], ScoreImport)
    np.testing.assert_array_equal(found[0].values, scores.values / 2)


def make_format_1(path: Path) -> None:
    """A session as Matchlight wrote it before imports existed (format 1, no imports table)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TABLE imports")
    conn.execute("PRAGMA user_version=1")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def test_a_format_1_session_opens_and_is_upgraded_only_by_an_import(
    tmp_path: Path, files: dict[str, str]
) -> None:
    session = open_comparison(files)
    path = tmp_path / "old.matchlight"
    save(path, session, files)
    make_format_1(path)
    assert int.from_bytes(path.read_bytes()[60:64], "big") == 1
    with SessionStore.open(path) as store:
        assert store.format_version() == 1
        assert store.imports() == []
        assert [i.name for i in store.inputs()] == ["ref", "A", "B"]
        store.save_state(selection=Selection().to_dict())
        assert store.format_version() == 1  # nothing imported: the file stays format 1
    with SessionStore.open(path, read_only=True) as store:
        assert store.imports() == [] and not store.remove_import("labels", "domain")
    with SessionStore.open_copy_read_only(path) as store:
        assert store.imports() == []
    _scores, labels = import_both(session, files)
    with SessionStore.open(path) as store:
        store.save_import(labels)
        assert store.format_version() == 2  # the imports table only; nothing else changed
    again, reported = reopen(path, files)
    assert reported == [] and again.label_columns()[0].labels == tuple(DOMAINS)


def test_a_newer_format_is_still_refused_untouched(tmp_path: Path, files: dict[str, str]) -> None:
    path = tmp_path / "new.matchlight"
    save(path, open_comparison(files), files)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SessionError, match="newer Matchlight"):
        SessionStore.open(path)
    assert path.read_bytes() == before


def test_imports_that_do_not_fit_the_comparison_are_refused(files: dict[str, str]) -> None:
    session = open_comparison(files)
    scores, labels = import_both(session, files)
    short = ScoreImport(scores.column, scores.systems, scores.values[:, :3], scores.files)
    with pytest.raises(ValueError, match="3 segments"):
        session.add_imported(short)
    other = ScoreImport(scores.column, ("C",), scores.values[:1], scores.files)
    with pytest.raises(ValueError, match="no scores for any system"):
        session.add_imported(other)
    with pytest.raises(ValueError, match="3 labels for 4 segments"):
        session.set_labels(LabelImport("d", labels.labels[:3], labels.file))
    assert session.imported_scores() == (scores,)


def test_a_scale_chosen_for_an_import_is_kept_by_the_session_file(
    tmp_path: Path, files: dict[str, str]
) -> None:
    session = open_comparison(files)
    scores, _labels = import_both(session, files)
    events: list[tuple[str, object]] = []
    session.subscribe(lambda event, payload: events.append((event, payload)))
    chosen = Scale("lower", 0.0, 1.0, 4)
    column = session.set_column_scale(COLUMN.key, chosen)
    assert column == COLUMN.with_scale(chosen) and column.scale == chosen
    assert ("columns", COLUMN.key) in events
    assert session.table.column_info(COLUMN.key) == column
    [record] = session.imported_scores()
    assert record.column == column and record.files == scores.files
    np.testing.assert_array_equal(record.values, scores.values)
    path = tmp_path / "scaled.matchlight"
    save(path, session, files)
    again, _ = reopen(path, files)
    assert again.imported_scores()[0].column.scale == chosen
    assert again.table.column_info(COLUMN.key).better == "lower"
    # A column the metrics compute keeps its metric's scale; an unknown one is refused.
    with pytest.raises(KeyError, match="bleu"):
        session.set_column_scale("bleu", chosen)
    with pytest.raises(KeyError):
        session.set_column_scale("nothing", chosen)


def test_an_import_stored_before_scales_gets_the_scale_of_its_values(
    tmp_path: Path, files: dict[str, str]
) -> None:
    """A session written before columns had a direction, range and decimals stored only the
    older fields: its COMET (0-1) comes back 0-1 with three decimals, not 0-100 with one."""
    session = open_comparison(files)
    scores, _labels = import_both(session, files)
    old = scores.definition()
    old["column"] = {
        k: v for k, v in old["column"].items() if k not in ("better", "low", "high", "decimals")
    }
    restored = ScoreImport.from_stored(old, scores.data())
    assert restored.column.scale == Scale("higher", 0.0, 1.0, 3)
    assert restored.column.scale == infer_scale(scores.values, "COMET-22")
    # Stored with its scale, the scale is the stored one (even where the values say else).
    chosen = COLUMN.with_scale(Scale("lower", None, None, 5))
    mine = ScoreImport(chosen, scores.systems, scores.values, scores.files)
    again = ScoreImport.from_stored(mine.definition(), mine.data())
    assert again.column == chosen


# -- hostile sources and records ---------------------------------------------------------------


def test_status_never_blocks_on_a_pipe_or_reads_a_device(
    tmp_path: Path, finishes: Callable[..., object]
) -> None:
    """A session names a file of size 0 that is now a named pipe, or /dev/zero (a hostile
    session): status answers at once instead of waiting for a writer or reading forever."""
    fifo = tmp_path / "comet.txt"
    os.mkfifo(fifo)
    empty_sha = hashlib.sha256(b"").hexdigest()
    for path in (str(fifo), "/dev/zero"):
        record = ImportedFile(path, empty_sha, 0, {"fmt": "text"})
        assert finishes(record.status, fifo) == "missing"


def test_status_hashes_no_more_than_the_recorded_size(tmp_path: Path) -> None:
    path = tmp_path / "comet.txt"
    path.write_bytes(b"0.5\n" * 4)
    record = ImportedFile.from_file(path, spec={})
    assert record.status() == "same"
    path.write_bytes(b"0.6\n" * 4)
    assert record.status() == "changed"
    with path.open("wb") as handle:
        handle.truncate(1 << 40)  # sparse: a terabyte is not read to find it changed
    assert record.status() == "changed"
    path.unlink()
    assert record.status() == "missing"


@pytest.mark.parametrize(
    ("definition", "problem"),
    [
        ('{"name": "d", "file": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than 64"),
        ('{"name": "d", "count": ' + "1" * 5000 + "}", "a number of 5,000 characters"),
        ('{"name": "d", "count": 1e999}', "too large for a float"),
        ('{"name": "d", "file": []}', "an imported file must be an object, not a list"),
        ('{"name": "d", "file": {"path": "p", "sha256": "0", "size": 1, "spec": 3}}', "spec"),
        ("[1, 2]", "an import's definition must be an object, not a list"),
    ],
)
def test_a_hostile_import_record_is_a_value_error(definition: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        import_from_json("labels", definition, b'["a"]')


def test_hostile_stored_labels_and_columns_are_value_errors() -> None:
    file = '{"path": "p", "sha256": "0", "size": 1}'
    with pytest.raises(ValueError, match="the stored labels: nested more than 64"):
        import_from_json("labels", '{"name": "d", "file": ' + file + "}", b"[" * 3000)
    labels = import_from_json("labels", '{"name": "d", "file": ' + file + "}", b'["\\ud800"]')
    assert isinstance(labels, LabelImport) and labels.labels == ("\ufffd",)
    with pytest.raises(ValueError, match="a score import's column must be an object"):
        import_from_json(
            "scores", '{"column": "x", "systems": [], "shape": [0, 0], "files": []}', b""
        )


def test_judgements_per_system_are_held_by_name_and_announced(
    files: dict[str, str], tmp_path: Path
) -> None:
    """Human judgements per system (WMT's DA table) are no column: the session holds them by
    name for the meta-evaluation, replaces them by name and refuses judgements per segment."""
    session = open_comparison(files)
    events: list[tuple[str, object]] = []
    session.subscribe(lambda event, payload: events.append((event, payload)))
    table = tmp_path / "da_sys.tsv"
    table.write_text("system\traw\tz\nB\t71.5\t0.2\nA\t64.0\t-0.1\nC\t50\t-1\n", encoding="utf-8")
    z = read_human(str(table), systems=("A", "B"), n_segments=4, level="system", column="z")
    session.set_system_judgements(z)
    assert session.system_judgements() == (z,)
    np.testing.assert_array_equal(z.values, [-0.1, 0.2])
    raw = read_human(
        str(table), systems=("A", "B"), n_segments=4, level="system", column="raw", name="z"
    )
    session.set_system_judgements(raw)  # the same name: replaced
    assert session.system_judgements() == (raw,)
    assert events == [("judgements", "z"), ("judgements", "z")]
    assert session.table.columns == open_comparison(files).table.columns  # no column
    segments = human_column("DA", np.zeros((2, 4)))
    per_segment = HumanJudgements("DA", "segment", ("A", "B"), np.zeros((2, 4)), segments)
    with pytest.raises(ValueError, match="not one judgement per system"):
        session.set_system_judgements(per_segment)
    session.remove_system_judgements("z")
    assert session.system_judgements() == () and events[-1] == ("judgements", "z")
