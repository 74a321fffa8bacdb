"""SegmentTableView repaints changed rows only when they are on screen."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication

from matchlight.gui.table.tableview import SegmentTableView


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.rects: list[tuple[int, int, int, int]] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            rect = event.rect()  # type: ignore[attr-defined]
            self.rects.append((rect.x(), rect.y(), rect.width(), rect.height()))
        return False


def _view(
    qtbot: Any, rows: int = 5000
) -> tuple[SegmentTableView, QStandardItemModel, PaintCounter]:
    model = QStandardItemModel(rows, 3)
    for r in range(0, rows, 97):
        model.setItem(r, 0, QStandardItem(f"row {r}"))
    view = SegmentTableView()
    view.setModel(model)
    view.verticalHeader().setDefaultSectionSize(20)
    view.resize(500, 300)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    QApplication.processEvents()
    counter = PaintCounter()
    view.viewport().installEventFilter(counter)
    return view, model, counter


def _settle(qtbot: Any) -> None:
    qtbot.wait(30)
    QApplication.processEvents()


def test_visible_rows_are_the_rows_on_screen(qtbot: Any) -> None:
    view, model, _ = _view(qtbot)
    first, last = view.visible_rows()
    assert first == 0
    assert last == view.rowAt(view.viewport().height() - 1) > 5
    view.scrollTo(model.index(1000, 0), SegmentTableView.ScrollHint.PositionAtTop)
    assert view.visible_rows()[0] == 1000
    model.removeRows(0, model.rowCount())
    assert view.visible_rows() == (0, -1)


def test_a_change_below_the_screen_paints_nothing(qtbot: Any) -> None:
    _, model, counter = _view(qtbot)
    _settle(qtbot)
    counter.rects.clear()
    model.dataChanged.emit(model.index(1000, 0), model.index(2023, 2), [])
    _settle(qtbot)
    assert counter.rects == []


def test_a_change_reaching_the_screen_paints_only_the_visible_part(qtbot: Any) -> None:
    view, model, counter = _view(qtbot)
    _settle(qtbot)
    counter.rects.clear()
    model.dataChanged.emit(model.index(3, 1), model.index(4000, 1), [])
    _settle(qtbot)
    assert counter.rects, "the visible changed cells were not repainted"
    row_top = view.rowViewportPosition(3)
    col_left = view.columnViewportPosition(1)
    for x, y, w, _h in counter.rects:
        assert y >= row_top  # rows above the change are not repainted
        assert x >= col_left and x + w <= col_left + view.columnWidth(1) + 1  # + grid line


def test_a_real_edit_on_screen_is_shown(qtbot: Any) -> None:
    view, model, counter = _view(qtbot)
    _settle(qtbot)
    counter.rects.clear()
    model.setData(model.index(2, 0), "changed", Qt.ItemDataRole.DisplayRole)
    _settle(qtbot)
    assert counter.rects
    assert view.model().index(2, 0).data() == "changed"


def test_a_paint_budget_delegate_is_told_where_each_paint_starts_and_ends(qtbot: Any) -> None:
    """The view brackets each paint for a delegate that spreads its work over several."""
    from PySide6.QtWidgets import QStyledItemDelegate

    from matchlight.gui.table.tableview import PaintBudget

    class Budgeted(QStyledItemDelegate):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[str] = []

        def begin_paint(self) -> None:
            self.calls.append("begin")

        def end_paint(self) -> None:
            self.calls.append("end")

        def paint(self, painter: Any, option: Any, index: Any) -> None:
            self.calls.append("cell")
            super().paint(painter, option, index)

    view, _, _ = _view(qtbot, rows=50)
    delegate = Budgeted()
    assert isinstance(delegate, PaintBudget)
    view.setItemDelegate(delegate)
    view.viewport().grab()
    calls = delegate.calls
    assert calls[0] == "begin" and calls[-1] == "end" and "cell" in calls
    assert calls.count("begin") == calls.count("end")
    plain = QStyledItemDelegate()
    assert not isinstance(plain, PaintBudget)
    view.setItemDelegate(plain)
    view.viewport().grab()  # and a plain delegate paints as usual
