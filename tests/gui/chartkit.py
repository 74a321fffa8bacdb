"""Helpers of the comparison-chart tests: scored real comparisons, a chart link over them, real
mouse events at data coordinates of a plot, a dark palette, waiting for background jobs."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QWidget

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.gui.charts.jobs import BackgroundJob
from matchlight.gui.charts.link import ChartLink
from matchlight.gui.state.session import SessionModel
from tests.gui.conftest import DATA_DIR, Scored, rgb_pixels, scored
from tests.kit import read_lines

DE_EN = DATA_DIR / "wmt22-de-en"
EN_ZH = DATA_DIR / "wmt22-en-zh"
DE_EN_SYSTEMS = ("JDExploreAcademy", "LT22", "Lan-Bridge", "Online-W", "PROMT")
EN_ZH_SYSTEMS = ("HuaweiTSC", "JDExploreAcademy", "LanguageX", "Online-B", "Online-Y")
JOB_TIMEOUT = 120_000


def _dataset(folder: Path, systems: tuple[str, ...], config: ScoringConfig) -> Scored:
    import pytest

    if not (folder / "ref.txt").exists():
        pytest.skip(f"{folder} is not there")
    return scored(
        references=[read_lines(folder / "ref.txt"), read_lines(folder / "ref2.txt")],
        systems={s: read_lines(folder / f"sys.{s}.txt") for s in systems},
        source=read_lines(folder / "src.txt"),
        config=config,
        reference_names=("ref", "ref2"),
    )


@cache
def de_en() -> Scored:
    """All of wmt22-de-en: 1,984 rows, two references, five systems, BLEU, chrF and ROUGE."""
    return _dataset(DE_EN, DE_EN_SYSTEMS, ScoringConfig(metrics=("bleu", "chrf", "rouge")))


@cache
def en_zh() -> Scored:
    """All of wmt22-en-zh: 2,037 rows, two references, five systems, tokenized for Chinese."""
    config = ScoringConfig(metrics=("bleu", "chrf", "rouge")).with_settings("bleu", tokenize="zh")
    return _dataset(EN_ZH, EN_ZH_SYSTEMS, config.with_settings("rouge", tokenizer="unicode"))


def session_of(data: Scored, *, own_table: bool = False) -> SessionModel:
    """A fresh session over ``data``'s (shared, already scored) table, or over a copy of it
    (``own_table``) for a test that adds columns: the fixtures' tables are shared."""
    core = ComparisonSession(
        data.text,
        config=data.config,
        source=data.source,
        reference_names=data.reference_names,
        table=copy.deepcopy(data.table) if own_table else data.table,
    )
    return SessionModel(core)


def linked(data: Scored, table_view: Any = None) -> tuple[ChartLink, SessionModel]:
    link = ChartLink(table_view=table_view)
    session = session_of(data)
    link.set_session(session)
    return link, session


def show_panel(
    qtbot: Any, panel_type: Any, link: ChartLink, session: SessionModel, size: Any
) -> Any:
    """A chart panel of ``panel_type`` on ``link``, shown at ``size`` (it keeps ``session``)."""
    panel = panel_type(link)
    qtbot.addWidget(panel)
    panel.resize(*size)
    panel.show()
    qtbot.waitExposed(panel)
    panel.keep = session
    return panel


def computed(qtbot: Any, panel: Any, **choices: Any) -> Any:
    """The panel's result for ``choices``, computed now (its job waited for)."""
    panel.set_choices(**choices)
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    assert panel.result is not None
    return panel.result


def settle(rounds: int = 5) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


def wait_job(qtbot: Any, job: BackgroundJob) -> None:
    """Wait until ``job`` is idle (its signals delivered)."""
    qtbot.waitUntil(lambda: not job.running, timeout=JOB_TIMEOUT)
    settle()


def widget_pos(graphics: pg.GraphicsView, box: pg.ViewBox, x: float, y: float) -> QPoint:
    """Where data point ``(x, y)`` of ``box`` is on ``graphics``'s viewport."""
    scene = box.mapViewToScene(QPointF(x, y))
    return graphics.mapFromScene(scene)


def click_at(qtbot: Any, graphics: pg.GraphicsView, box: pg.ViewBox, x: float, y: float) -> None:
    """A real left click at data coordinates ``(x, y)``."""
    qtbot.mouseClick(
        graphics.viewport(), Qt.MouseButton.LeftButton, pos=widget_pos(graphics, box, x, y)
    )
    settle()


def _send(widget: QWidget, kind: QEvent.Type, pos: QPoint, buttons: Qt.MouseButton) -> None:
    button = Qt.MouseButton.LeftButton if kind != QEvent.Type.MouseMove else Qt.MouseButton.NoButton
    event = QMouseEvent(
        kind,
        QPointF(pos),
        QPointF(widget.mapToGlobal(pos)),
        button,
        buttons,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def drag(
    graphics: pg.GraphicsView,
    box: pg.ViewBox,
    start: tuple[float, float],
    end: tuple[float, float],
    steps: int = 6,
) -> None:
    """A real left-button drag from ``start`` to ``end`` (data coordinates)."""
    viewport = graphics.viewport()
    a = widget_pos(graphics, box, *start)
    b = widget_pos(graphics, box, *end)
    held = Qt.MouseButton.LeftButton
    _send(viewport, QEvent.Type.MouseButtonPress, a, held)
    for i in range(1, steps + 1):
        point = QPoint(a.x() + (b.x() - a.x()) * i // steps, a.y() + (b.y() - a.y()) * i // steps)
        _send(viewport, QEvent.Type.MouseMove, point, held)
    _send(viewport, QEvent.Type.MouseButtonRelease, b, Qt.MouseButton.NoButton)
    settle()


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in {
        QPalette.ColorRole.Window: "#2b2b2b",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1e1e",
        QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#3a3a3a",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#2f5f8f",
        QPalette.ColorRole.HighlightedText: "#ffffff",
    }.items():
        palette.setColor(role, QColor(colour))
    return palette


def colours_in(image: Any) -> set[tuple[int, int, int]]:
    """The distinct RGB colours of a QImage (sampled every other pixel)."""
    sampled = rgb_pixels(image)[::2, ::2].reshape(-1, 3)
    return {(int(r), int(g), int(b)) for r, g, b in np.unique(sampled, axis=0)}


def accept(qtbot, dialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    wait_job(qtbot, dialog.job)
