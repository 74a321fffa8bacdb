"""The import dialogs in Korean, on WMT21 TED zh-en's MQM file (13 systems, 529 segments):
File ▸ Load human judgements reads the experts' error spans (title, form labels, the kind's
words, the note, an error), File ▸ Load segment scores gets their per-segment penalties back
as score files (title, labels, the scale row, the note on the values read), and the column's
scale is said in Korean. System names, file names and metric names stay as they are.
Screenshots in /tmp/matchlight-shots/i18n."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from matchlight.core.metrics.base import ScoreColumn
from matchlight.gui.charts.humanimport import HumanImportDialog, HumanRead
from matchlight.gui.charts.imports import ScoreImportDialog, describe_scale
from matchlight.gui.shell.language import install_translators
from tests.gui.chartkit import accept, settle, wait_job
from tests.gui.charts.test_charts_agreement import TED, TED_MQM
from tests.gui.conftest import grab_settled
from tests.kit import read_lines

SHOTS = Path("/tmp/matchlight-shots/i18n")


@pytest.fixture
def korean(qapp):
    assert install_translators(qapp, "ko")
    yield
    install_translators(qapp, "en")


@pytest.fixture
def ted_files():
    if not TED_MQM.exists():
        pytest.skip(f"{TED} is not there")
    systems = tuple(p.name[4:-4] for p in sorted(TED.glob("sys.*.txt")))
    return systems, len(read_lines(TED / "src.txt"))


def labels(form: QFormLayout) -> list[str]:
    """The visible row labels of ``form``, top to bottom."""
    found = []
    for row in range(form.rowCount()):
        item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        widget = item.widget() if item is not None else None
        if isinstance(widget, QLabel) and widget.text() and widget.isVisible():
            found.append(widget.text())
    return found


def shoot(widget: QWidget, name: str, width: int = 760) -> None:
    """Save ``widget`` at ``width`` and the height its layout wants there."""
    settle()
    layout = widget.layout()
    widget.resize(width, max(widget.minimumSizeHint().height(), layout.totalHeightForWidth(width)))
    settle()
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert grab_settled(widget).save(str(path)), path


def korean_scale(column: ScoreColumn) -> str:
    """What describe_scale must say of ``column`` in Korean, from the column's own scale."""
    better = "낮을수록 좋음" if column.better == "lower" else "높을수록 좋음"
    if column.low is not None and column.high is not None:
        span = f"{column.low:g}~{column.high:g}"
    elif column.low is not None:
        span = f"{column.low:g} 이상"
    elif column.high is not None:
        span = f"{column.high:g} 이하"
    else:
        span = "범위 제한 없음"
    return f"{better}, {span}, 소수점 {column.decimals}자리"


def test_the_import_dialogs_in_korean(korean, qtbot, ted_files, tmp_path: Path) -> None:
    systems, n = ted_files
    assert n == 529

    # File ▸ Load human judgements: the MQM file's header (a severity column) picks the kind.
    human = HumanImportDialog(systems=systems, n_segments=n)
    qtbot.addWidget(human)
    human.show()
    assert human.windowTitle() == "사람 평가 불러오기"
    human.set_path(str(TED_MQM))
    wait_job(qtbot, human.header_job)
    assert human.kind == "spans"
    assert human.kind_combo.currentText() == "오류 구간에서 얻은 MQM (WMT MQM TSV)"
    assert [human.kind_combo.itemText(i) for i in range(3)] == [
        "시스템별 점수 (시스템마다 한 행, 예: WMT의 DA 표)",
        "세그먼트별 점수: 시스템과 세그먼트마다 한 행",
        "세그먼트별 점수: 시스템마다 한 열",
    ]
    settle()
    assert labels(human.form) == [
        "종류:",
        "파일:",
        "세그먼트 ID:",
        "시스템 이름 바꾸기:",
        "이름:",
    ]
    assert human.name_edit.placeholderText() == "기본값: MQM"
    assert human.note.text().startswith("WMT MQM TSV (system, doc, doc_id, seg_id, rater,")
    assert "MQM 감점을 구합니다(낮을수록 좋음)" in human.note.text()
    human.segid_edit.setText(str(TED / "segid.txt"))
    human.renames_edit.setText("ref=ref-A")
    shoot(human, "import-human-ko")
    # A rename without '=' is refused, in Korean, naming what was written.
    human.renames_edit.setText("ref")
    accept(qtbot, human)
    assert human.isVisible()
    assert human.error_label.text() == (
        "시스템 이름 바꾸기: 'ref': 파일에서의 이름, '=', 비교에서의 이름 순으로 쓰세요"
    )
    human.renames_edit.setText("ref=ref-A")
    read: list[HumanRead] = []
    human.human_read.connect(read.append)
    accept(qtbot, human)
    assert not human.isVisible(), human.error_label.text()
    (result,) = read
    column = result.judgements.column
    assert column.label == "MQM" and column.better == "lower"
    assert describe_scale(column) == korean_scale(column)
    assert describe_scale(column).startswith("낮을수록 좋음, 0")

    # File ▸ Load segment scores: the penalties back as one score file per system.
    values = result.judgements.values
    paths = []
    for s, name in enumerate(result.judgements.systems):
        path = tmp_path / f"sys.{name}.tsv"
        rows = "".join("NA\n" if np.isnan(v) else f"{v!r}\n" for v in values[s].tolist())
        path.write_text("mqm\n" + rows, encoding="utf-8")
        paths.append(str(path))
    scores = ScoreImportDialog(systems=systems, n_segments=n)
    qtbot.addWidget(scores)
    scores.show()
    assert scores.windowTitle() == "세그먼트 점수 불러오기"
    form = scores.layout_.itemAt(0).layout()
    assert isinstance(form, QFormLayout)
    assert labels(form) == [
        "점수 이름:",
        "파일:",
        "형식:",
        "점수 열:",
        "시스템 열:",
        "세그먼트 열:",
        "척도:",
    ]
    assert scores.format_combo.itemText(0) == "파일 이름으로 판단"
    assert scores.format_combo.itemText(1) == scores.format_combo.itemData(1)  # format names
    assert [scores.better_combo.itemText(i) for i in range(2)] == ["높을수록 좋음", "낮을수록 좋음"]
    words = [w.text() for w in scores.findChildren(QLabel) if w.text() in ("최솟값", "최댓값")]
    assert sorted(words) == ["최댓값", "최솟값"]
    assert scores.scale_note.text() == "파일을 읽으면 값에 맞춰 채워집니다."
    note = next(w.text() for w in scores.findChildren(QLabel) if "sys.NAME.tsv" in w.text())
    assert note.startswith(f"시스템({', '.join(systems)})마다 세그먼트당 값 하나(529개)")
    scores.name_edit.setText("MQM")
    scores.set_files(paths)
    scores.column_edit.setText("mqm")
    scores.preview()
    wait_job(qtbot, scores.preview_job)
    finite = values[np.isfinite(values)]
    assert scores.scale_note.text() == (
        f"값의 범위는 {finite.min():.4g}~{finite.max():.4g}이며, 위의 척도는 이 값에 맞춘 것입니다."
    )
    assert scores.better_combo.currentText() == "낮을수록 좋음"  # the name says MQM
    scores.low_edit.setText("x")
    scores.scale_chosen = True
    accept(qtbot, scores)
    assert scores.error_label.text() == "최솟값 'x'은(는) 숫자가 아닙니다."
    scores.low_edit.setText("0")
    settle()
    shoot(scores, "import-scores-ko")
    scores.reject()
