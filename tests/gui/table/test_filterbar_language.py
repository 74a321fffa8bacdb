"""The filter bar's language entries ("Show ▸ output in another language", "... copying the
source"): offered once the language check is done, they keep the rows some system's output is
flagged on, as a row set of the session's selection, so a saved session keeps them.

WMT22 en-zh segments 850-1300: HuaweiTSC's segment 884 and Online-B's 1239 are the English
source word for word (rows 34 and 389 here); Online-Y translates both.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from matchlight.core.analysis.language import language_flags
from matchlight.core.analysis.selection import RowSet, Selection, TextFilter
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.filterbar import LANGUAGE_SOURCE, FilterBar
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from tests.conftest import SHARED_DATA
from tests.kit import read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
FIRST, LAST = 850, 1300
UNTRANSLATED = [884 - FIRST, 1239 - FIRST]


@pytest.fixture(scope="module")
def zh(make_scored):
    if not EN_ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    from matchlight.core.scoring.config import ScoringConfig

    def part(name: str) -> list[str]:
        return read_lines(EN_ZH / name)[FIRST - 1 : LAST]

    return make_scored(
        references=[part("ref.txt")],
        systems={n: part(f"sys.{n}.txt") for n in ("HuaweiTSC", "Online-B", "Online-Y")},
        source=part("src.txt"),
        config=ScoringConfig(metrics=("bleu",)).with_settings("bleu", tokenize="zh"),
    )


@pytest.fixture(scope="module")
def flags(zh):
    found = language_flags(zh.text, zh.source)
    assert found is not None
    return found


class Bar:
    def __init__(self, qtbot, data, session: SessionModel | None = None) -> None:
        self.session = session or data.session()
        self.model = SegmentTableModel(self.session)
        self.proxy = SegmentFilterProxy()
        self.proxy.setSourceModel(self.model)
        self.host = QWidget()
        qtbot.addWidget(self.host)
        self.bar = FilterBar()
        QVBoxLayout(self.host).addWidget(self.bar)
        self.bar.set_proxy(
            self.proxy,
            text_columns=[
                (str(self.model.headerData(c, Qt.Orientation.Horizontal)), c)
                for c in self.model.text_columns()
            ],
            systems=data.text.system_names,
            metrics=data.table.columns,
        )

    def entry(self, kind: str) -> tuple[str, bool]:
        combo = self.bar.special_combo
        item = combo.model().item(combo.findData(kind))
        return item.text(), item.isEnabled()

    def choose(self, kind: str) -> None:
        combo = self.bar.special_combo
        combo.setCurrentIndex(combo.findData(kind))


def test_the_entries_wait_for_the_check_then_keep_the_flagged_rows(qtbot, zh, flags) -> None:
    b = Bar(qtbot, zh)
    assert b.entry("wrong-language") == ("output in another language", False)
    assert b.entry("copies-source") == ("output copying the source", False)
    b.bar.set_language_flags(flags)
    assert b.entry("wrong-language") == ("output in another language (2 rows)", True)
    assert b.entry("copies-source") == ("output copying the source (2 rows)", True)
    with qtbot.waitSignal(b.bar.filters_applied):
        b.choose("wrong-language")
    assert b.proxy.visible_segments().tolist() == UNTRANSLATED
    assert b.session.selection.filters == (
        RowSet(tuple(UNTRANSLATED), label="output in another language", source=LANGUAGE_SOURCE),
    )
    assert b.bar.chip_specs() == ()
    assert b.bar.count_label.text().startswith("2 of 451")
    # Another "Show" entry replaces it; "all rows" clears it.
    b.choose("copies-source")
    assert [f.label for f in b.session.selection.filters] == ["output copying the source"]
    b.choose("empty")
    assert [f.kind for f in b.session.selection.filters] == ["empty"]
    b.choose("wrong-language")
    assert [f.kind for f in b.session.selection.filters] == ["rows"]
    b.choose("")
    assert b.session.selection.filters == ()
    assert b.proxy.visible_segments().tolist() == list(range(451))


def test_it_combines_with_other_filters_and_a_session_keeps_it(qtbot, zh, flags) -> None:
    b = Bar(qtbot, zh)
    b.bar.set_language_flags(flags)
    brush = RowSet((34, 35, 36), label="brushed", source="chart")
    b.session.set_selection(Selection((brush,)))
    b.choose("wrong-language")
    assert b.proxy.visible_segments().tolist() == [34]
    assert b.bar.chip_specs() == (brush,)
    saved = Selection.from_dict(b.session.selection.to_dict())

    # A reopened session: its selection is back before the check has run again.
    again = Bar(qtbot, zh)
    again.session.set_selection(saved)
    assert again.bar.special_combo.currentData() == "wrong-language"
    assert again.proxy.visible_segments().tolist() == [34]
    again.bar.set_language_flags(flags)
    assert again.bar.special_combo.currentData() == "wrong-language"
    assert again.session.selection == saved
    # A text search leaves it alone.
    again.session.set_selection(again.session.selection.with_filter(TextFilter("Vienna")))
    assert again.proxy.visible_segments().tolist() == []
    assert again.bar.special_combo.currentData() == "wrong-language"


def test_entries_say_why_they_cannot_be_used(qtbot, zh) -> None:
    from matchlight.core.text.corpus import CorpusText

    b = Bar(qtbot, zh)
    no_source = language_flags(zh.text, None)
    b.bar.set_language_flags(no_source)
    combo = b.bar.special_combo
    item = combo.model().item(combo.findData("copies-source"))
    assert not item.isEnabled() and "source file" in item.toolTip()
    assert b.entry("wrong-language") == ("output in another language (2 rows)", True)
    digits = CorpusText((("1.",) * 451,), zh.text.systems, zh.text.system_names)
    unclear = language_flags(digits, zh.source)
    b.bar.set_language_flags(unclear)
    item = combo.model().item(combo.findData("wrong-language"))
    assert not item.isEnabled() and "no clear language" in item.toolTip()
    b.bar.set_language_flags(None)
    assert b.entry("wrong-language") == ("output in another language", False)
