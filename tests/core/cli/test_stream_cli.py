"""``matchlight score`` streams: its files and figures are the score table's, exactly, in every
output format, on any split of the rows; ``--keep`` picks rows; Parquet goes in and out; memory
does not grow with the input."""

from __future__ import annotations

import csv
import io
import json
import math
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.cli import main
from matchlight.core.io.export import read_export_meta, write_csv
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SAMPLE
from tests.kit import read_lines

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))
NAMES = tuple(p.stem.removeprefix("sys.") for p in SYSTEMS)


def _args(*extra: str) -> list[str]:
    args = [a for r in REFS for a in ("--ref", str(r))]
    return [*args, *(a for s in SYSTEMS for a in ("--hyp", str(s))), "--quiet", *extra]


def _table(config: ScoringConfig):
    text = CorpusText(
        references=tuple(tuple(read_lines(p)) for p in REFS),
        systems=tuple(tuple(read_lines(p)) for p in SYSTEMS),
        system_names=NAMES,
    )
    return score_corpus(text, config)


def _csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


ALL = ScoringConfig(metrics=tuple(METRICS)).apply({"nltk_bleu": {"smoothing": "method6"}})
ALL_OPTIONS = ["--metrics", ",".join(k.replace("_", "-") for k in METRICS)]
ALL_OPTIONS += ["--nltk-smoothing", "method6"]


@pytest.mark.parametrize(
    ("options", "config", "rows"),
    [
        ([], ScoringConfig(), None),
        (ALL_OPTIONS, ALL, None),
        (["--segments", "3-40,77,150-"], ScoringConfig(), [*range(2, 40), 76, *range(149, 160)]),
    ],
    ids=["defaults", "every-metric", "segments"],
)
@pytest.mark.parametrize("split", [["--workers", "1"], ["--workers", "2", "--task-rows", "7"]])
def test_streamed_csv_and_json_are_the_tables(
    tmp_path: Path,
    options: list[str],
    config: ScoringConfig,
    rows: list[int] | None,
    split: list[str],
) -> None:
    """The CSV is write_csv's of the table, byte for byte; every corpus figure of the JSON is
    the table's corpus figure, bit for bit (means included), however the rows are split."""
    out, js = tmp_path / "s.csv", tmp_path / "s.json"
    assert main(_args(*options, *split, "--csv", str(out), "--json", str(js))) == 0
    table = _table(config)
    write_csv(tmp_path / "want.csv", table, rows=rows)
    assert out.read_bytes() == (tmp_path / "want.csv").read_bytes()
    payload = json.loads(js.read_text(encoding="utf-8"))
    index = None if rows is None else np.array(rows)
    assert payload["segments"] == (table.n_segments if rows is None else len(rows))
    for s, name in enumerate(NAMES):
        entry = payload["systems"][name]
        want = table.corpus(s, index)
        for column in table.columns:
            value = want.values[column.key]
            got = entry[column.key]
            assert (got is None and math.isnan(value)) or got == value, column.key
            if column.corpus == "stats":
                mean = want.means[column.key]
                got = entry[f"{column.key}_sentence_mean"]
                assert (got is None and math.isnan(mean)) or got == mean
    meta = read_export_meta(out)
    assert meta["rows"] == dict.fromkeys(NAMES, len(_csv_rows(out)) // len(NAMES))
    assert meta["filtered"] is (rows is not None) and meta["keep"] is None


def test_jsonl_and_parquet_hold_the_csv_rows(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow.parquet")
    files = {fmt: tmp_path / f"s.{fmt}" for fmt in ("csv", "jsonl", "parquet")}
    options = [a for fmt, p in files.items() for a in (f"--{fmt}", str(p))]
    assert main(_args(*ALL_OPTIONS, "--task-rows", "11", *options)) == 0
    expected = _csv_rows(files["csv"])
    lines = files["jsonl"].read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    table = pa.read_table(files["parquet"]).to_pylist()
    assert len(records) == len(table) == len(expected)
    for want, record, parquet in zip(expected, records, table, strict=True):
        assert list(record) == list(want) == list(parquet)
        for key, text in want.items():
            if key == "system":
                assert record[key] == parquet[key] == text
            elif text == "":
                assert record[key] is None and parquet[key] is None  # no score: null
            else:
                assert repr(record[key]) == repr(parquet[key]) == text or str(record[key]) == text
    assert lines[0] == json.dumps(records[0], ensure_ascii=False)  # json.dumps' own layout
    for fmt, path in files.items():
        meta = read_export_meta(path)
        assert meta["format"] == fmt and meta["inputs"]["systems"] == {
            n: str(p) for n, p in zip(NAMES, SYSTEMS, strict=True)
        }


def test_keep_writes_the_rows_that_pass_and_says_how_many(tmp_path: Path, capsys) -> None:
    everything, kept = tmp_path / "all.csv", tmp_path / "kept.csv"
    assert main(_args(*ALL_OPTIONS, "--csv", str(everything))) == 0
    args = [a for a in _args(*ALL_OPTIONS) if a != "--quiet"]
    code = main(
        [*args, "--csv", str(kept), "--keep", "chrf>=40,nltk_bleu>1", "--keep", "hyp_len<30"]
    )
    assert code == 0
    rows = _csv_rows(everything)
    passing = [
        r
        for r in rows
        if float(r["chrf"]) >= 40 and r["nltk_bleu"] != "" and float(r["nltk_bleu"]) > 1
        and int(r["hyp_len"]) < 30
    ]  # fmt: skip
    assert 0 < len(passing) < len(rows)
    assert _csv_rows(kept) == passing  # rows without an NLTK score are never kept
    counts = {n: sum(r["system"] == n for r in passing) for n in NAMES}
    assert read_export_meta(kept)["rows"] == counts
    assert read_export_meta(kept)["keep"] == "chrf>=40,nltk_bleu>1,hyp_len<30"
    err = capsys.readouterr().err
    for name, count in counts.items():
        assert (
            f"matchlight: {name}: --keep chrf>=40,nltk_bleu>1,hyp_len<30 kept {count:,} of 160 rows"
            in err
        )


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("chrf>=40", "'chrf' is not a scored column; the columns are: bleu, rouge1_p"),
        ("bleu=>3", "'bleu=>3' is not COLUMN OP NUMBER"),
        ("bleu>=x", "'x' in 'bleu>=x' is not a number"),
        ("bleu>=nan", "'nan' in 'bleu>=nan' is not a number"),
    ],
)
def test_bad_keep_rules_are_usage_errors(tmp_path: Path, capsys, rule: str, message: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(_args("--csv", str(tmp_path / "s.csv"), "--keep", rule))
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(_args("--keep", "bleu>1"))
    assert "--keep picks the rows of --csv, --jsonl or --parquet" in capsys.readouterr().err
    assert sorted(tmp_path.iterdir()) == []


def test_parquet_inputs_score_as_their_text(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    columns = {"ref": read_lines(REFS[0]), **{n: read_lines(p) for n, p in zip(NAMES, SYSTEMS)}}
    data = tmp_path / "corpus.parquet"
    pq.write_table(pa.table(columns), data, row_group_size=50)
    from_parquet, from_text = tmp_path / "p.csv", tmp_path / "t.csv"
    args = ["--ref", f"{data}#ref", *(a for n in NAMES for a in ("--hyp", f"{data}#{n}"))]
    assert main([*args, "--csv", str(from_parquet), "--task-rows", "33"]) == 0
    text = [
        "--ref",
        str(REFS[0]),
        *(a for n, p in zip(NAMES, SYSTEMS) for a in ("--hyp", f"{n}={p}")),
    ]
    assert main([*text, "--csv", str(from_text)]) == 0
    assert from_parquet.read_bytes() == from_text.read_bytes()


def test_a_file_changed_after_it_was_checked_is_refused_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    import matchlight.core.cli.streaming as streaming

    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    real = streaming.scan_comparison

    def scan_then_change(**kwargs: object) -> object:
        found = real(**kwargs)  # type: ignore[arg-type]
        ref.write_text("a b c\nd e f\ng h i\n", encoding="utf-8")
        return found

    monkeypatch.setattr(streaming, "scan_comparison", scan_then_change)
    out = tmp_path / "out.csv"
    assert main(["--ref", str(ref), "--hyp", str(ref), "--csv", str(out), "-q"]) == 2
    assert "changed since it was first read" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ref.txt"]


def _peak_bytes(
    tmp_path: Path, repeat: int, monkeypatch: pytest.MonkeyPatch, warm_up: bool = True
) -> int:
    from matchlight.core.io import decoding, parsers

    monkeypatch.setattr(decoding, "_STREAM_BLOCK", 1 << 14)
    monkeypatch.setattr(parsers, "_BATCH", 256)
    folder = tmp_path / str(repeat)
    folder.mkdir()
    paths = []
    for p in (REFS[0], *SYSTEMS):
        target = folder / p.name
        target.write_text("\n".join(read_lines(p) * repeat) + "\n", encoding="utf-8")
        paths.append(target)
    args = ["--ref", str(paths[0]), *(a for p in paths[1:] for a in ("--hyp", str(p)))]
    args += ["--csv", str(folder / "s.csv"), "--jsonl", str(folder / "s.jsonl")]
    args += ["--workers", "1", "--task-rows", "256", "-q"]
    if warm_up:
        main(args)  # once first: caches and imports are not what is measured
    tracemalloc.start()
    try:
        assert main(args) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four times the rows (the sample repeated 10 and 40 times: 4,800 and 19,200 pairs) need
    no more memory: nothing of the texts or the rows is kept. The larger input repeats the
    same lines, so the smaller one's warm-up run has filled every cache it would fill."""
    small = _peak_bytes(tmp_path, 10, monkeypatch)
    large = _peak_bytes(tmp_path, 40, monkeypatch, warm_up=False)
    assert large < 1.25 * small, (small, large)
