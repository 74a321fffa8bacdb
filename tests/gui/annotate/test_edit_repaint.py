"""An annotation edit repaints what it changed: the edited row and the MQM cells, not the table.

A whole-table repaint lays out every visible output again (the highlight delegate's documents),
which is most of an edit's time in a large comparison; these tests pin what is repainted.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtGui import QRegion
from PySide6.QtWidgets import QApplication

from matchlight.core.metrics.base import Scale
from tests.gui.annotate.annotatekit import add


class _Painted(QObject):
    """Collects the regions painted on a widget."""

    def __init__(self, widget) -> None:
        super().__init__(widget)
        self.region = QRegion()
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.region = self.region.united(event.region())
        return False


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def _row_band(view, proxy, segment: int) -> QRect:
    row = proxy.proxy_row(segment)
    return QRect(0, view.rowViewportPosition(row), view.viewport().width(), view.rowHeight(row))


def _columns_rect(view, model, key: str) -> QRegion:
    region = QRegion()
    for col in range(model.columnCount()):
        info = model.column_info(col)
        if info.metric == key and not view.isColumnHidden(col):
            x = view.columnViewportPosition(col)
            # Qt repaints a cell with the grid line to its right.
            width = view.columnWidth(col) + 1
            region = region.united(QRect(x, 0, width, view.viewport().height()))
    return region


def test_an_edit_repaints_its_row_and_the_mqm_cells_only(small):
    c, window = small.c, small.window
    view, proxy, model = window.table_view, window.proxy, window.model
    add(c, 0, 0, 0, 3, "major")  # the first edit adds the MQM column (a new layout)
    _settle()
    headers: list[tuple] = []
    model.headerDataChanged.connect(lambda *args: headers.append(args))
    painted = _Painted(view.viewport())
    add(c, 0, 3, 0, 3, "minor", "Style")
    _settle()
    band = _row_band(view, proxy, 3)
    allowed = QRegion(band).united(_columns_rect(view, model, "mqm"))
    assert not painted.region.isEmpty()
    # Every pixel painted is in the edited row or an MQM column ...
    assert painted.region.subtracted(allowed).isEmpty(), painted.region.boundingRect()
    # ... the edited output's cell was among them (its span box is new) ...
    a_col = next(
        col
        for col in range(model.columnCount())
        if model.column_info(col).kind == "hypothesis" and model.column_info(col).system == 0
    )
    cell = view.visualRect(proxy.index(proxy.proxy_row(3), a_col))
    assert painted.region.contains(cell.center())
    # ... and another row's output was not.
    other = view.visualRect(proxy.index(proxy.proxy_row(1), a_col))
    assert not painted.region.contains(other.center())
    # Nor was another row's MQM cell: the comparison says which rows the edit changed.
    assert window.session.session.changed_rows("mqm").tolist() == [3]
    mqm_col = next(
        col
        for col in range(model.columnCount())
        if model.column_info(col).metric == "mqm" and model.column_info(col).kind == "score"
    )
    other_mqm = view.visualRect(proxy.index(proxy.proxy_row(1), mqm_col))
    assert not other_mqm.isEmpty() and not painted.region.contains(other_mqm.center())
    # The MQM column's name, direction and scale are as they were: its header is not told.
    assert headers == []
    assert model.index(proxy.proxy_row(3), model.score_column(0, "mqm")).data() == "1.00"


def test_a_new_scale_for_the_column_still_reaches_the_header(small):
    c, window = small.c, small.window
    model = window.model
    add(c, 0, 0, 0, 3, "major")
    _settle()
    headers: list[tuple] = []
    model.headerDataChanged.connect(lambda *args: headers.append(args))
    core = window.session.session
    core.set_column_scale("mqm", Scale(better="lower", low=0.0, high=None, decimals=3))
    _settle()
    assert headers, "a new precision must reach the header"
    assert model.index(0, model.score_column(0, "mqm")).data() == "5.000"
