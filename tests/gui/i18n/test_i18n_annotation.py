"""The annotation view, the Annotate menu, the Annotation dock and the Human agreement tab in
Korean, on real data (WMT22 de-en with document ids; WMT21 TED zh-en's MQM file): the header,
the tools' category and severity buttons, the errors list, the ESA score and the menu speak
Korean, while the shortcut keys, the typology's category names and the system names stay as
they are. Screenshots at 1280×720 in /tmp/matchlight-shots/i18n."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from matchlight.core.io.inputs import InputSpec
from matchlight.core.session.locations import RECOVERY_ENV
from matchlight.gui.dialogs.opendialog import ComparisonSpecs
from matchlight.gui.shell.language import install_translators
from tests.gui.annotate.annotatekit import TIMEOUT, Harness
from tests.gui.annotate.test_annotation_view import (
    WMT22_DE_EN,
    WMT22_SYSTEMS,
    _annotate_wmt22,
    click,
    load_docids,
    open_view,
    settle,
    wmt22_docids,
)
from tests.gui.charts.test_charts_agreement import TED, TED_MQM, Docks, ted
from tests.gui.conftest import grab_settled

SHOTS = Path("/tmp/matchlight-shots/i18n")


@pytest.fixture
def korean(qapp):
    assert install_translators(qapp, "ko")
    yield
    install_translators(qapp, "en")


def shoot(widget: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert grab_settled(widget).save(str(path)), path


@pytest.fixture
def wmt22_ko(korean, qtbot, tmp_path, monkeypatch):
    """WMT22 de-en (five systems, document ids) in a main window built in Korean."""
    if not (WMT22_DE_EN / "src.txt").exists():
        pytest.skip(f"{WMT22_DE_EN} is not there")
    monkeypatch.setenv(RECOVERY_ENV, str(tmp_path / "recovery"))
    h = Harness(qtbot, tmp_path)
    h.window.show()
    specs = ComparisonSpecs(
        source=InputSpec(path=str(WMT22_DE_EN / "src.txt")),
        references=(
            InputSpec(path=str(WMT22_DE_EN / "ref.txt"), name="ref A"),
            InputSpec(path=str(WMT22_DE_EN / "ref2.txt"), name="ref B"),
        ),
        systems=tuple(
            InputSpec(path=str(WMT22_DE_EN / f"sys.{s}.txt"), name=s) for s in WMT22_SYSTEMS
        ),
    )
    window = h.window
    assert window.open_specs(specs), h.errors
    h.qtbot.waitUntil(
        lambda: (
            h.c.workspace is not None and window.proxy is not None and window.proxy.rowCount() > 0
        ),
        timeout=TIMEOUT,
    )
    load_docids(h, wmt22_docids(1984))
    yield h
    h.window.close()


def _menu(window, title: str):
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


def test_the_annotation_view_and_menu_in_korean(wmt22_ko) -> None:
    h, c = wmt22_ko, wmt22_ko.c
    segment = 103  # the 7th of the 10 segments of doc009
    assert c.go_to_segment(segment)
    _annotate_wmt22(h, segment, esa=False)
    view = open_view(h)
    settle()
    # The header.
    assert view.windowTitle() == "JDExploreAcademy 주석, 세그먼트 104 — Matchlight"
    assert view.system_count.text() == "시스템 1/5"
    assert view.segment_total.text() == "/ 1,984"
    assert view.todo_button.text() == "다음 미완료 (U)"
    assert view.evidence_button.text() == "지표 근거 (V)"
    assert view.table_button.text() == "표"
    assert view.previous_system.toolTip() == "이전 시스템 (Shift+S)"
    assert view.doc_caption.text() == "문서 doc009 (docid) · 문서 내 세그먼트 7/10"
    assert view.source_caption.text() == "원문"
    assert view.target_caption.text() == "JDExploreAcademy — 주석을 다는 출력"
    # The tools: severities in Korean with their keys as they were; the typology's category
    # names are the annotator's data and stay as written.
    tools = view.tools
    severities = [b.text() for b in tools.severity_buttons.values()]
    assert severities == ["경미  (m)", "중대  (M)", "치명  (C)"]
    assert [b.text() for b in tools.top_buttons][:2] == ["1  Accuracy", "2  Fluency"]
    assert tools.top_buttons[1].toolTip() == "Fluency (키 2, 다시 누르면 하위 범주)"
    target = view.target_text
    line = target.plain_text()
    click(target, line.index("interview") + 2)
    assert tools.selection_label.text() == "출력에서 선택됨: «interview»"
    assert view.hint.text() == (
        "«interview»: 오류의 마지막 단어를 클릭하거나, 범주와 심각도를 고르세요."
    )
    h.key("2", widget=target)
    settle()
    assert tools.sub_caption.text() == "Fluency › (2 키를 다시 누르면 차례로 선택)"
    errors = tools.errors
    rows = [
        [errors.topLevelItem(i).text(k) for k in (0, 2)] for i in range(errors.topLevelItemCount())
    ]
    assert rows == [["invitation", "중대"], ["arrived by", "경미"], ["원문: per", "경미"]]
    assert tools.errors_heading.text() == "이 출력의 오류 (3)"
    assert tools.done_button.text() == "완료 — 더 이상 오류 없음  (D)"
    assert tools.add_button.text() == "오류 추가  ⏎"
    assert tools.progress_label.text() == (
        "JDExploreAcademy: 출력 1,984개 중 1개 주석 완료 · 이 출력은 완료"
    )
    shoot(view, "view-mqm-ko")

    # The Annotate menu, before Help, with its keys unchanged.
    w = h.window
    titles = [a.text() for a in w.menuBar().actions()]
    assert titles.index("주석(&A)") == titles.index("도움말(&H)") - 1
    menu = _menu(w, "주석(&A)")
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    for text in ("주석 보기(&V)", "경미(&M)", "중대(&A)", "치명(&C)", "사전 주석 가져오기(&I)…"):
        assert text in texts
    actions = h.a.actions.actions
    assert actions["minor"].shortcut().toString() == "M"
    assert actions["major"].shortcut().toString() == "Shift+M"
    assert actions["annotation_view"].shortcut().toString() == "Ctrl+Shift+A"
    assert actions["undo"].text() == "실행 취소(&U): add error"
    review = next(a.menu() for a in menu.actions() if a.text() == "사전 주석 검토(&V)")
    assert review.actions()[0].text() == "이 출력의 미결정 오류 확정"

    # ESA: the score in Korean, the anchors of the scale too.
    h.a.actions.esa_action.trigger()
    settle()
    assert tools.score_heading.text() == "ESA 점수"
    assert tools.done_button.text() == "점수 저장  (D)"
    assert tools.esa_slider.toolTip().startswith("출력의 ESA 점수: 끌거나")
    shoot(view, "view-esa-ko")

    # The main window with the Annotation dock.
    view.close()
    w.resize(1280, 720)
    dock = h.a.ui.dock
    dock.show()
    dock.raise_()
    settle()
    assert dock.windowTitle() == "주석"
    panel = h.a.ui.panel
    assert panel.title.text() == "세그먼트 104 · JDExploreAcademy · ESA"
    shoot(w, "main-annotation-dock-ko")


def test_the_human_agreement_tab_in_korean(korean, qtbot) -> None:
    d = Docks(qtbot, ted())
    dialog = d.load("spans", TED_MQM, segment_ids=str(TED / "segid.txt"), renames="ref=ref-A")
    assert not dialog.isVisible(), dialog.error_label.text()
    panel = d.panel
    tabs = d.docks.panel.tabs
    assert tabs.tabText(tabs.indexOf(panel)) == "사람 평가 일치도"
    assert d.docks.dock.windowTitle() == "시스템 비교"
    assert panel.human_combo.currentText().endswith(" (세그먼트별)")
    assert panel.quick_check.text() == "빠르게"
    assert [panel.level_combo.itemText(i) for i in range(2)] == ["시스템 수준", "세그먼트 수준"]
    d.computed(quick=True)
    model = panel.model
    horizontal = Qt.Orientation.Horizontal
    assert model.headerData(0, horizontal) == "지표"
    assert model.headerData(1, horizontal) == "Pearson"  # a statistic's name stays
    assert model.headerData(1, horizontal, Qt.ItemDataRole.ToolTipRole) == (
        "시스템 수준: Pearson 상관계수"
    )
    result = panel.run.result
    assert panel.scope_label.text() == (
        f"평가된 시스템 {len(result.systems)}개, 세그먼트 529개, 평가된 쌍 {result.n_judged:,}개."
    )
    assert panel.caption.text().startswith("MQM(낮을수록 좋음)과 비교.")
    assert panel.caption.text().endswith("굵게: 최상. 빠르게: 점추정값만.")
    assert panel.clusters.topLevelItem(0).text(0) == "빠르게: 순열 검정과 군집 없음."
    d.window.resize(1280, 720)
    settle()
    shoot(d.window, "agreement-ko")
