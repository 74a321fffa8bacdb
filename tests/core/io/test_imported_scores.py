"""matchlight.core.io.scores: imported per-segment scores in every supported form, read back
exactly, and every problem reported with its file, line and cause.

Real values: sacreBLEU's sentence BLEU of the five wmt22-de-en systems, written in each format
as a researcher's tool would (repr of the float), must come back bit for bit.
"""

from __future__ import annotations

import json
import math
import os
import tracemalloc
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU

from matchlight.core.io.inputs import InputError
from matchlight.core.io.scores import (
    MAX_SYSTEMS_PER_FILE,
    SCORE_FORMATS,
    ImportedScores,
    ScoreSpec,
    parse_score,
    read_scores,
)
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines

DE_EN = SHARED_DATA / "wmt22-de-en"
SYSTEMS = ("JDExploreAcademy", "LT22", "Lan-Bridge", "Online-W", "PROMT")


pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")


@cache
def sentence_bleu() -> np.ndarray:
    """sacreBLEU's sentence BLEU (effective order) of the five systems on the first 300 rows."""
    bleu = BLEU(tokenize="13a", effective_order=True)
    ref = read_lines(DE_EN / "ref.txt")[:300]
    return np.array(
        [
            [
                bleu.sentence_score(h, [r]).score
                for h, r in zip(read_lines(DE_EN / f"sys.{s}.txt"), ref)
            ]
            for s in SYSTEMS
        ]
    )


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def read(specs: list[ScoreSpec], n: int, systems: tuple[str, ...] = SYSTEMS) -> ImportedScores:
    return read_scores(specs, systems=systems, n_segments=n, name="sentBLEU")


# -- every format, real values -----------------------------------------------------------------


@needs(DE_EN)
def test_one_text_file_per_system(tmp_path: Path) -> None:
    values = sentence_bleu()
    specs = [
        ScoreSpec(write(tmp_path / f"{s}.bleurt", "".join(f"{v!r}\n" for v in row)), system=s)
        for s, row in zip(SYSTEMS, values.tolist())
    ]
    result = read(specs, values.shape[1])
    assert result.systems == SYSTEMS
    assert np.array_equal(result.values, values)
    assert result.sources == tuple(spec.path for spec in specs)
    assert result.name == "sentBLEU" and not result.missing.any()


@needs(DE_EN)
@pytest.mark.parametrize("fmt", ["tsv", "csv"])
def test_long_table_with_a_header(tmp_path: Path, fmt: str) -> None:
    values = sentence_bleu()
    sep = "\t" if fmt == "tsv" else ","
    lines = [sep.join(["system", "seg_id", "note", "bleu"])]
    order = np.random.default_rng(1).permutation(values.shape[1])
    for s, name in enumerate(SYSTEMS):
        for i in order:  # any order, since the segments are numbered
            lines.append(
                sep.join(
                    [name, str(i + 1), '"a, b"' if fmt == "csv" else "x", repr(float(values[s, i]))]
                )
            )
    path = write(tmp_path / f"scores.{fmt}", "\n".join(lines) + "\n")
    spec = ScoreSpec(path, column="bleu", system_column="system", segment_column="seg_id")
    result = read([spec], values.shape[1])
    assert np.array_equal(result.values, values)


@needs(DE_EN)
def test_mt_metrics_eval_lines_without_header(tmp_path: Path) -> None:
    """mt-metrics-eval's seg.score files: system<TAB>score, each system's segments in order;
    systems outside the comparison are ignored with a warning."""
    values = sentence_bleu()
    lines = [f"{name}\t{v!r}" for name, row in zip(SYSTEMS, values.tolist()) for v in row]
    lines += [f"HUMAN-B\t{v!r}" for v in values[0].tolist()]
    path = write(tmp_path / "BLEU-refA.seg.score", "\n".join(lines) + "\n")
    result = read([ScoreSpec(path, fmt="tsv", column="2", system_column="1")], values.shape[1])
    assert np.array_equal(result.values, values)
    assert any("HUMAN-B" in w for w in result.warnings)


@needs(DE_EN)
def test_jsonl_with_nested_keys_and_nulls(tmp_path: Path) -> None:
    values = sentence_bleu()[:2].copy()
    values[1, 5] = np.nan
    records = []
    for name, row in zip(SYSTEMS[:2], values.tolist()):
        for i, v in enumerate(row):
            score = None if math.isnan(v) else v
            records.append(json.dumps({"sys": name, "id": i + 1, "metric": {"score": score}}))
    path = write(tmp_path / "metricx.jsonl", "\n".join(records) + "\n")
    spec = ScoreSpec(path, column="metric.score", system_column="sys", segment_column="id")
    result = read([spec], values.shape[1])
    assert result.systems == SYSTEMS[:2]
    assert np.array_equal(result.values, values, equal_nan=True)
    assert result.missing.sum() == 1
    assert any("1 segment of 'LT22' marked as missing" in w for w in result.warnings)
    aligned = result.aligned(["PROMT", "LT22"])
    assert np.isnan(aligned[0]).all() and np.array_equal(aligned[1], values[1], equal_nan=True)


@needs(DE_EN)
def test_comet_score_output(tmp_path: Path) -> None:
    """comet-score's printout for several files: segment lines interleaved, system lines last."""
    values = np.round(sentence_bleu() / 100, 4)
    files = [f"data/sys.{s}.txt" for s in SYSTEMS]
    lines = ["Encoder model frozen.", "Predicting DataLoader 0: 100%"]
    for i in range(values.shape[1]):
        for s, file in enumerate(files):
            lines.append(f"{file}\tSegment {i}\tscore: {values[s, i]:.4f}")
    lines += [f"{file}\tscore: {values[s].mean():.4f}" for s, file in enumerate(files)]
    path = write(tmp_path / "comet.out", "\n".join(lines) + "\n")
    result = read([ScoreSpec(path, fmt="comet")], values.shape[1])
    assert result.systems == SYSTEMS
    assert np.array_equal(result.values, values)
    assert any("rounded to 4 decimals" in w for w in result.warnings)
    assert any("ignored 2 lines" in w for w in result.warnings)


def test_comet_1_output_needs_the_system(tmp_path: Path) -> None:
    path = write(
        tmp_path / "out.txt",
        "Segment 0\tscore: 0.512\nSegment 1\tscore: -0.100\nSystem score: 0.206\n",
    )
    result = read([ScoreSpec(path, fmt="comet", system="LT22")], 2)
    assert result.values.tolist() == [[0.512, -0.1]]
    with pytest.raises(InputError, match="say which system"):
        read([ScoreSpec(path, fmt="comet")], 2)


@needs(DE_EN)
def test_comet_json_output(tmp_path: Path) -> None:
    values = sentence_bleu()[:3] / 100
    document = {
        f"sys.{name}.txt": [{"src": "s", "mt": "m", "ref": "r", "COMET": v} for v in row]
        for name, row in zip(SYSTEMS, values.tolist())
    }
    path = write(tmp_path / "comet.json", json.dumps(document))
    result = read([ScoreSpec(path)], values.shape[1])  # .json means comet-json
    assert np.array_equal(result.values, values)
    old = write(tmp_path / "old.json", json.dumps(document[f"sys.{SYSTEMS[0]}.txt"]))
    assert np.array_equal(read([ScoreSpec(old, system=SYSTEMS[0])], 300).values[0], values[0])


def test_file_name_names_the_system(tmp_path: Path) -> None:
    path = write(tmp_path / "sys.LT22.txt", "1\n2\n")
    assert read([ScoreSpec(path)], 2).systems == ("LT22",)


@settings(max_examples=100, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.none()),
        min_size=1,
        max_size=30,
    ),
    fmt=st.sampled_from(["text", "tsv", "csv", "jsonl"]),
)
def test_any_finite_value_comes_back_exactly(
    tmp_path_factory: pytest.TempPathFactory, values: list[float | None], fmt: str
) -> None:
    folder = tmp_path_factory.mktemp("scores")
    if fmt == "jsonl":
        text = "".join(json.dumps({"score": v}) + "\n" for v in values)
    else:
        header = "" if fmt == "text" else "score\n"
        text = header + "".join(("NA" if v is None else repr(v)) + "\n" for v in values)
    path = write(folder / f"s.{fmt}", text)
    spec = ScoreSpec(path, fmt=fmt, column=None if fmt == "text" else "score", system="a")
    result = read_scores([spec], systems=["a"], n_segments=len(values), name="x")
    expected = [math.nan if v is None else v for v in values]
    assert np.array_equal(result.values[0], expected, equal_nan=True)


def test_parse_score() -> None:
    assert parse_score(" 0.25 ") == 0.25
    assert parse_score("-1e-3") == -0.001
    for marker in ("", "NA", "n/a", "NaN", "null", "None", "-"):
        assert math.isnan(parse_score(marker))
    with pytest.raises(ValueError, match="not a finite number"):
        parse_score("inf")
    with pytest.raises(ValueError, match="not a number: 'abc'"):
        parse_score("abc")


# -- problems are named with file and line -------------------------------------------------


def error(specs: list[ScoreSpec], n: int = 3, systems: tuple[str, ...] = ("a", "b")) -> InputError:
    with pytest.raises(InputError) as info:
        read_scores(specs, systems=systems, n_segments=n, name="x")
    return info.value


def test_wrong_count_names_the_file_and_both_counts(tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt", "1\n2\n")
    e = error([ScoreSpec(path, system="a")])
    assert e.path == path
    assert "has 2 scores for system 'a', but the comparison has 3 segments" in str(e)
    longer = write(tmp_path / "b.txt", "1\n2\n3\n4\n")
    assert error([ScoreSpec(longer, system="b")]).line == 4


def test_bad_values_name_their_line(tmp_path: Path) -> None:
    cases = [
        ("t.txt", "text", None, "1\nabc\n3\n", 2, "not a number: 'abc'"),
        ("t.tsv", "tsv", "score", "id\tscore\n1\t0.5\n2\tinf\n3\t1\n", 3, "not a finite number"),
        ("t.csv", "csv", "score", 'score,src\n1,"two\nlines"\n2,x\nx,y\n', 5, "not a number: 'x'"),
        ("t.jsonl", "jsonl", "score", '{"score": 1}\n{"score": true}\n', 2, "a boolean"),
        ("u.jsonl", "jsonl", "score", '{"score": 1}\n{"other": 2}\n', 2, "no key 'score'"),
        ("v.jsonl", "jsonl", "score", '{"score": 1}\n{oops}\n', 2, "invalid JSON"),
    ]
    for name, fmt, column, text, line, problem in cases:
        path = write(tmp_path / name, text)
        e = error([ScoreSpec(path, fmt=fmt, column=column, system="a")])
        assert (e.path, e.line) == (path, line), name
        assert problem in e.problem, name
        assert str(e).startswith(f"{path}, line {line}: ")


def test_numbered_segments_must_cover_each_segment_once(tmp_path: Path) -> None:
    header = "system\tseg\tscore\n"
    cases = [
        ("a\t1\t1\na\t2\t1\na\t2\t1\n", 4, "a second score for system 'a', segment 2"),
        ("a\t1\t1\na\t4\t1\na\t3\t1\n", 3, "segment 4 is out of range"),
        ("a\t1\t1\na\tII\t1\na\t3\t1\n", 3, "segment number 'II' is not a whole number"),
        ("a\t1\t1\na\t3\t1\n", None, "no score for system 'a' on 1 segment (2)"),
    ]
    for i, (body, line, problem) in enumerate(cases):
        path = write(tmp_path / f"s{i}.tsv", header + body)
        e = error([ScoreSpec(path, column="score", system_column="system", segment_column="seg")])
        assert e.line == line and problem in e.problem, body


def test_systems_must_be_known_and_scored_once(tmp_path: Path) -> None:
    unknown = write(tmp_path / "u.tsv", "system\tscore\nzz\t1\nzz\t2\nzz\t3\n")
    e = error([ScoreSpec(unknown, column="score", system_column="system")])
    assert "no scores for any system of the comparison (a, b)" in e.problem and "'zz'" in e.problem
    first = write(tmp_path / "a1.txt", "1\n2\n3\n")
    second = write(tmp_path / "a2.txt", "1\n2\n3\n")
    e = error([ScoreSpec(first, system="a"), ScoreSpec(second, system="a")])
    assert e.path == second and f"already scored by {first}" in e.problem
    e = error([ScoreSpec(first, system="nobody")])
    assert "'nobody' is not a system of the comparison" in e.problem


def test_columns_are_checked(tmp_path: Path) -> None:
    path = write(tmp_path / "c.tsv", "system\tscore\na\t1\na\t2\na\t3\n")
    e = error([ScoreSpec(path, system="a")])
    assert "need a column" in e.problem
    e = error([ScoreSpec(path, column="bleu", system="a")])
    assert "no column named 'bleu'" in e.problem and e.line == 1
    e = error([ScoreSpec(path, column="score", system_column="1")])
    assert "not a mix" in e.problem
    e = error([ScoreSpec(path, fmt="xlsx")])
    assert "unknown score format 'xlsx'" in e.problem and "comet-json" in e.problem
    assert "comet" in SCORE_FORMATS


def test_unreadable_files_are_reported_by_the_input_reader(tmp_path: Path) -> None:
    assert error([ScoreSpec(str(tmp_path / "missing.txt"), system="a")]).problem == "file not found"
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01\x02" * 10)
    assert "binary" in error([ScoreSpec(str(binary), system="a")]).problem
    empty = write(tmp_path / "e.txt", "")
    assert "has no scores" in error([ScoreSpec(empty, system="a")]).problem


# -- hostile files -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "tsv", "jsonl", "comet"])
def test_a_file_of_many_short_lines_is_refused_as_it_streams(tmp_path: Path, fmt: str) -> None:
    """20 MB of two-byte lines for a 3-segment comparison: refused after the first block, with
    a few MB of memory (reading it whole made one Python string per line)."""
    path = tmp_path / "scores.txt"
    path.write_bytes(b"1\n" * 10_000_000)
    column = None if fmt in ("text", "comet") else "1"
    tracemalloc.start()
    try:
        e = error([ScoreSpec(str(path), fmt=fmt, column=column, system="a")])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    if fmt == "comet":  # one file may hold every system comet-score scored
        assert e.problem == (
            f"has more than {4 * MAX_SYSTEMS_PER_FILE + 1000:,} lines, but the comparison has 3 "
            f"segments, and one file scores at most {MAX_SYSTEMS_PER_FILE} systems"
        )
    else:
        assert (
            e.problem
            == "has more than 1,003 lines, but the comparison has 3 segments (one score each)"
        )
    assert peak < 8 << 20


def test_csv_rows_are_counted_as_they_are_parsed(tmp_path: Path) -> None:
    """A CSV row may span lines (a quoted newline), so CSV counts rows, not lines."""
    quoted = "".join(f'"line\nbreak {i}",{i}\n' for i in range(3))
    ok = write(tmp_path / "ok.csv", "text,score\n" + quoted)
    got = read_scores(
        [ScoreSpec(ok, column="score", system="a")], systems=("a",), n_segments=3, name="x"
    )
    assert got.values.tolist() == [[0.0, 1.0, 2.0]]
    many = write(tmp_path / "many.csv", "score\n" + "1\n" * 5000)
    e = error([ScoreSpec(many, column="score", system="a")])
    assert (
        e.problem == "has more than 1,003 rows, but the comparison has 3 segments (one score each)"
    )


def test_leading_zeros_of_a_segment_number_are_not_counted_as_digits(tmp_path: Path) -> None:
    rows = "".join(f"{'0' * 5000}{i}\t0.{i}\n" for i in (3, 1, 2))
    path = write(tmp_path / "s.tsv", rows)
    got = read_scores(
        [ScoreSpec(path, column="2", segment_column="1", system="a")],
        systems=("a",),
        n_segments=3,
        name="x",
    )
    assert got.values.tolist() == [[0.1, 0.2, 0.3]]


def test_a_long_format_file_may_hold_other_systems(tmp_path: Path) -> None:
    rows = "".join(f"sys{k}\t{i + 1}\t0.5\n" for k in range(40) for i in range(3))
    path = write(tmp_path / "all.tsv", "system\tseg\tscore\n" + rows)
    got = read_scores(
        [ScoreSpec(path, column="score", system_column="system", segment_column="seg")],
        systems=("sys3", "sys7"),
        n_segments=3,
        name="x",
    )
    assert got.systems == ("sys3", "sys7") and got.values.tolist() == [[0.5] * 3] * 2


def test_a_named_pipe_or_device_is_refused_without_blocking(
    tmp_path: Path, finishes: Callable[..., object]
) -> None:
    fifo = tmp_path / "sys.a.txt"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        for fmt in SCORE_FORMATS:
            spec = ScoreSpec(path, fmt=fmt, column="score", system="a")
            outcome = finishes(
                lambda spec=spec: read_scores([spec], systems=("a",), n_segments=3, name="x"),
                fifo,
            )
            assert isinstance(outcome, InputError), outcome
            assert "not a regular file" in outcome.problem, outcome


@pytest.mark.parametrize(
    ("name", "fmt", "text", "line", "problem"),
    [
        (
            "d.jsonl",
            "jsonl",
            '{"score": 1}\n' + '{"a": [' * 300 + "]}" * 300 + "\n",
            2,
            "nested more than 64",
        ),
        ("n.jsonl", "jsonl", '{"score": ' + "1" * 5000 + "}\n", 1, "a number of 5,000 characters"),
        ("f.jsonl", "jsonl", '{"score": 1e400}\n', 1, "1e400 is too large for a float"),
        ("c.json", "comet-json", '{"a": [{"COMET": ' + "9" * 4400 + "}]}", 1, "a number of 4,400"),
        ("s.tsv", "tsv", "seg\tscore\n" + "9" * 5000 + "\t1\n", 2, "is out of range"),
    ],
)
def test_hostile_json_and_numbers_name_file_and_line(
    tmp_path: Path, name: str, fmt: str, text: str, line: int, problem: str
) -> None:
    path = write(tmp_path / name, text)
    segment = "seg" if fmt == "tsv" else None
    e = error([ScoreSpec(path, fmt=fmt, column="score", system="a", segment_column=segment)])
    assert (e.path, e.line) == (path, line) and problem in e.problem, e
    assert len(str(e)) < 300
