"""The corpus summary's language line: per system, outputs in another language than the
references and outputs copying the source, as the language check counted them.

WMT22 en-zh segments 850-1300 with the source added as a system: HuaweiTSC and Online-B each
left one segment untranslated (the English source), the source copies nearly every row.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from matchlight.core.analysis.language import language_flags
from matchlight.gui.charts.summary import SummaryWidget
from matchlight.gui.charts.summarynotes import language_note
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
FIRST, LAST = 850, 1300
SHOTS = Path("/tmp/matchlight-shots")


@pytest.fixture(scope="module")
def zh(make_scored):
    if not EN_ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    from matchlight.core.scoring.config import ScoringConfig

    def part(name: str) -> list[str]:
        return read_lines(EN_ZH / name)[FIRST - 1 : LAST]

    systems = {n: part(f"sys.{n}.txt") for n in ("HuaweiTSC", "Online-B", "Online-Y")}
    systems["source"] = part("src.txt")
    return make_scored(
        references=[part("ref.txt")],
        systems=systems,
        source=part("src.txt"),
        config=ScoringConfig(metrics=("bleu", "chrf")).with_settings("bleu", tokenize="zh"),
    )


def test_the_summary_counts_each_systems_flagged_rows(qtbot, zh, tmp_path: Path) -> None:
    flags = language_flags(zh.text, zh.source)
    assert flags is not None
    copied = flags.counts()[3][1]
    assert copied > 0.9 * 451
    widget = SummaryWidget()
    qtbot.addWidget(widget)
    widget.resize(560, 520)
    widget.set_table(zh.table)
    widget.refresh()
    widget.show()
    assert widget.language_text() == ""  # not checked yet: nothing said
    widget.set_language_flags(flags)
    wrong_source = flags.counts()[3][0]
    assert widget.language_text() == (
        "Language check: output in another language than the references (zh): HuaweiTSC 1, "
        f"Online-B 1, source {wrong_source}, others 0 · copying the source: HuaweiTSC 1, "
        f"Online-B 1, source {copied}, others 0"
    )
    assert widget.language_label.isVisible()
    for _ in range(3):
        QApplication.processEvents()
    path = tmp_path / "summary_language.png"
    assert widget.grab().save(str(path))
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)
    # A new comparison (or none): the line goes until its own check is done.
    widget.set_language_flags(None)
    assert widget.language_text() == ""
    widget.set_language_flags(flags)
    widget.set_table(None)
    assert not widget.language_label.isVisible()


def test_the_note_says_when_nothing_is_flagged_or_nothing_could_be(zh) -> None:
    clean = language_flags(zh.text, None)
    assert clean is not None
    few = type(clean)(
        systems=("Online-Y",),
        expectation=clean.expectation,
        has_source=True,
        wrong_language=clean.wrong_language[2:3],
        copies_source=clean.wrong_language[2:3],
    )
    assert language_note(few) == (
        "Language check: no output in another language than the references (zh) · "
        "none copying the source"
    )
    unclear = type(clean)(
        systems=clean.systems,
        expectation=None,
        has_source=False,
        wrong_language=clean.wrong_language,
        copies_source=clean.copies_source,
    )
    assert language_note(unclear) == (
        "Language check: references in no clear language: outputs not checked · "
        "no source file to find copies"
    )
