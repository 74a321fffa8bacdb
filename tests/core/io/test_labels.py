"""matchlight.core.io.labels: label columns from text, TSV and JSONL, checked against the rows."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from matchlight.core.io.inputs import InputError
from matchlight.core.io.labels import read_labels
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"


@pytest.mark.skipif(not EN_ZH.is_dir(), reason="shared/data is not present")
def test_the_wmt_domain_file() -> None:
    labels = read_labels(str(EN_ZH / "domain.txt"), n_segments=2037)
    lines = read_lines(EN_ZH / "domain.txt")
    assert labels.labels == tuple(lines)
    assert labels.name == "domain" and labels.distinct == 4
    with pytest.raises(InputError) as caught:
        read_labels(str(EN_ZH / "domain.txt"), n_segments=1984)
    message = str(caught.value)
    assert message.startswith(str(EN_ZH / "domain.txt"))
    assert "2037 labels" in message and "1984 segments" in message


def test_tsv_column_jsonl_key_and_whitespace(tmp_path: Path) -> None:
    tsv = tmp_path / "meta.tsv"
    tsv.write_text("id\tdomain\n1\tnews \n2\t social\n3\tnews\n", encoding="utf-8")
    labels = read_labels(str(tsv), n_segments=3, column="domain")
    assert labels.labels == ("news", "social", "news") and labels.name == "domain"
    jsonl = tmp_path / "meta.jsonl"
    jsonl.write_text('{"doc": "a"}\n{"doc": "b"}\n', encoding="utf-8")
    assert read_labels(str(jsonl), n_segments=2, column="doc", name="doc id").labels == ("a", "b")
    with pytest.raises(InputError, match="needs a column"):
        read_labels(str(tsv), n_segments=3)
    with pytest.raises(InputError, match="no column named 'genre'"):
        read_labels(str(tsv), n_segments=3, column="genre")


def test_missing_and_short_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"missing\.txt"):
        read_labels(str(tmp_path / "missing.txt"), n_segments=2)
    one = tmp_path / "one.txt"
    one.write_text("x\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"one\.txt: has 1 label, but the comparison has 2"):
        read_labels(str(one), n_segments=2)


@pytest.mark.parametrize(("name", "column"), [("d.txt", None), ("d.tsv", "1"), ("d.csv", "1")])
def test_a_file_of_many_short_lines_is_refused_as_it_is_read(
    tmp_path: Path, name: str, column: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(b"x\n" * 5_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as caught:
            read_labels(str(path), n_segments=10, column=column)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    unit = "rows" if name.endswith(".csv") else "lines"
    assert str(caught.value) == (
        f"{path}: has more than 1,010 {unit}, but the comparison has 10 segments (one label each)"
    )
    # Text and TSV stop after one block. CSV is decoded whole (10 MB, a few copies of it in the
    # csv module's buffer) before its rows are counted, but never becomes five million rows
    # (over 500 MB of lists).
    assert peak < (100 << 20 if name.endswith(".csv") else 8 << 20)


def test_blank_lines_at_the_end_stay_within_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "d.tsv"
    path.write_text("id\tdomain\n1\ta\n2\tb\n" + "\n" * 900, encoding="utf-8")
    assert read_labels(str(path), n_segments=2, column="domain").labels == ("a", "b")
