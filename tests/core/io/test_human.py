"""Human judgements read through the imported-scores reader: system and segment level, long and
wide, MQM from spans with a seg_id file; bad input names the file and the line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from matchlight.core.annotation.spanscores import human_from_spans
from matchlight.core.io.human import read_human
from matchlight.core.io.inputs import InputError
from tests.conftest import SHARED_DATA

DA = SHARED_DATA / "wmt22-de-en" / "human" / "da_sys_scores.tsv"
TED = SHARED_DATA / "wmt21-ted-zh-en-mqm"
SYSTEMS = ["JDExploreAcademy", "LT22", "Lan-Bridge", "Online-W", "PROMT"]


def test_system_level_da_table_with_a_choice_of_column() -> None:
    if not DA.exists():
        pytest.skip("no wmt22-de-en")
    rows = {
        line.split("\t")[0]: line.split("\t")[1:3]
        for line in DA.read_text(encoding="utf-8").splitlines()[1:]
    }
    for column, index in (("raw_score", 0), ("z_score", 1)):
        found = read_human(str(DA), systems=SYSTEMS, n_segments=1984, level="system", column=column)
        assert found.values.tolist() == [float(rows[s][index]) for s in SYSTEMS]
        assert found.column.better == "higher"
        assert any("Online-Y" in w for w in found.warnings)


def test_segment_level_long_and_wide_agree(tmp_path: Path) -> None:
    long = tmp_path / "long.tsv"
    long.write_text(
        "system\tseg\tmqm\n"
        + "".join(
            f"{s}\t{i + 1}\t{v}\n"
            for s, vals in (("a", [0, 5, 1]), ("b", [2, "NA", 0]))
            for i, v in enumerate(vals)
        ),
        encoding="utf-8",
    )
    wide = tmp_path / "wide.tsv"
    wide.write_text("b\ta\n2\t0\nNA\t5\n0\t1\n", encoding="utf-8")
    first = read_human(
        str(long),
        systems=["a", "b"],
        n_segments=3,
        level="segment",
        column="mqm",
        segment_column="seg",
    )
    second = read_human(
        str(wide),
        systems=["a", "b"],
        n_segments=3,
        level="segment",
        column="mqm",
        layout="wide",
        name="mqm",
    )
    expected = np.array([[0, 5, 1], [2, np.nan, 0]])
    np.testing.assert_array_equal(first.values, expected)
    np.testing.assert_array_equal(second.values, expected)
    assert first.column.better == "lower"  # an MQM penalty
    np.testing.assert_array_equal(first.oriented(), -expected)


def test_bad_input_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("system\tscore\na\t1\nb\tlots\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_human(str(bad), systems=["a", "b"], n_segments=1, level="system", column="score")
    assert str(caught.value).startswith(f"{bad}, line 3: ")


def test_mqm_from_ted_spans_with_the_segid_file() -> None:
    if not TED.is_dir():
        pytest.skip("no TED set")
    names = sorted(p.name[4:-4] for p in TED.glob("sys.*.txt"))
    found = human_from_spans(
        str(TED / "human" / "mqm_ted_zhen.tsv"),
        systems=names,
        n_segments=529,
        segment_ids=str(TED / "segid.txt"),
        system_names={"ref": "ref-A"},
    )
    assert not np.isnan(found.values).any()  # every (system, segment) is rated
    assert found.column.better == "lower"
    # Segment 0 is seg_id 84; Borderline has four Major errors there (rows 2-5 of the TSV) ...
    assert found.values[names.index("Borderline"), 0] >= 20
    # ... and rows with a seg_id outside segid.txt are refused, not misplaced
    without = human_from_spans(
        str(TED / "human" / "mqm_ted_zhen.tsv"),
        systems=names,
        n_segments=529,
        system_names={"ref": "ref-A"},
    )
    assert any("seg_id" in w for w in without.warnings)
