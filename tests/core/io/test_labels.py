"""matchlight.core.io.labels: label columns from text, TSV and JSONL, checked against the rows."""

from __future__ import annotations

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
