"""The segment table under test: a :class:`Harness` with the app's view, proxy, highlight delegate
and detail cache, and what the table tests share (a dark palette, the CIEDE2000 measure)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QRect, QSortFilterProxyModel
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QHeaderView

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import RowDetail
from matchlight.gui.highlight.detailcache import DetailCache
from matchlight.gui.table.delegate import HighlightDelegate
from matchlight.gui.table.model import SEGMENT_ROLE
from matchlight.gui.table.tableview import SegmentTableView
from tests.gui.rolemodel import TextModel

WAIT_MS = 10_000


def wait_detail(qtbot, cache: DetailCache, segment: int) -> RowDetail:
    if cache.peek(segment) is None:
        with qtbot.waitSignal(
            cache.detail_ready, timeout=WAIT_MS, check_params_cb=lambda s: s == segment
        ):
            cache.get(segment)
    detail = cache.peek(segment)
    assert detail is not None
    return detail


def dark_palette() -> QPalette:
    pal = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#2b2b2b",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e",
        QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#333333",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#2f5f8f",
        QPalette.ColorRole.HighlightedText: "#ffffff",
    }
    for role, color in colors.items():
        pal.setColor(role, QColor(color))
    return pal


class Harness:
    """A table as the app has it: a model of the texts behind a proxy, the segment view and
    the highlight delegate with its detail cache."""

    def __init__(
        self,
        qtbot,
        data: Any,
        *,
        config: ScoringConfig | None = None,
        row_height: int = 26,
        order: Sequence[int] | None = None,
        scores: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.data = data
        self.config = config or data.config
        self.model = TextModel(data.text, data.source, data.table if scores else None, order)
        self.proxy = QSortFilterProxyModel()
        self.proxy.setSourceModel(self.model)
        self.view = SegmentTableView()  # as in the app: it tells the delegate where paints start
        qtbot.addWidget(self.view)
        self.cache = DetailCache(data.text, data.source, self.config)
        self.delegate = HighlightDelegate(self.cache, self.view, clock=clock)
        self.view.setItemDelegate(self.delegate)
        self.view.setModel(self.proxy)
        header = self.view.verticalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setDefaultSectionSize(row_height)
        header.hide()
        for col in range(self.model.columnCount()):
            text = self.model.kind(col) in ("source", "reference", "hypothesis")
            self.view.setColumnWidth(col, 250 if text else 62)
        self.view.setColumnWidth(0, 36)

    def index(self, segment: int, col: int) -> Any:
        return self.proxy.mapFromSource(self.model.index(self.model.rows[segment], col))

    def visible_segments(self) -> list[int]:
        first = self.view.rowAt(0)
        last = self.view.rowAt(self.view.viewport().height() - 1)
        last = self.proxy.rowCount() - 1 if last < 0 else last
        return [self.proxy.index(r, 0).data(SEGMENT_ROLE) for r in range(first, last + 1)]

    def rect(self, segment: int, col: int) -> QRect:
        return self.view.visualRect(self.index(segment, col))

    def grab(self) -> QImage:
        """The viewport with every cell painted in full (no paint budget)."""
        with self.delegate.unbounded():
            image = self.view.viewport().grab().toImage()
        assert self.delegate.paint_complete()
        return image

    def show_and_settle(self, qtbot) -> None:
        self.view.show()
        qtbot.waitExposed(self.view)
        self.view.grab()  # paints once: schedules the visible rows
        qtbot.waitUntil(
            lambda: all(self.cache.peek(s) is not None for s in self.visible_segments()),
            timeout=WAIT_MS,
        )
        qtbot.wait(20)


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    d_lp, d_cp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        d_hp = 0.0
    elif abs(h2p - h1p) <= 180:
        d_hp = h2p - h1p
    else:
        d_hp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    d_big_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(d_hp / 2))
    l_bar, c_bar_p = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar_p**7 / (c_bar_p**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar_p
    s_h = 1 + 0.015 * c_bar_p * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (d_lp / s_l) ** 2
        + (d_cp / s_c) ** 2
        + (d_big_hp / s_h) ** 2
        + r_t * (d_cp / s_c) * (d_big_hp / s_h)
    )
