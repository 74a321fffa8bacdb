"""The table header's "scale" entries for a column the user added (imported scores): which way
is better, and how many decimals it shows.

The choice goes to the comparison (:meth:`~core.session.comparison.ComparisonSession.
set_column_scale`), which replaces the column and announces it, so the table, the filters, the
charts and a saved session all follow. A metric's own column (BLEU, chrF) keeps the scale its
metric gives it: its entries are shown disabled, saying so.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from matchlight.core.metrics.base import Scale
from matchlight.core.session.comparison import ComparisonSession

__all__ = ["MAX_DECIMALS", "add_scale_menu"]

# The most decimals the menu offers.
MAX_DECIMALS = 6


def add_scale_menu(menu: QMenu, session: ComparisonSession, key: str) -> QMenu | None:
    """Add a submenu "<column>: scale" to ``menu`` for column ``key`` of ``session``'s table:
    "Higher is better", "Lower is better" and "Decimals" 0 to :data:`MAX_DECIMALS`, checked as
    the column is now. Returns the submenu (None when the table has no such column)."""
    table = session.table
    if not table.has(key) or table.column_info(key).kind != "score":
        return None
    column = table.column_info(key)
    own = key not in table.external
    sub = menu.addMenu(QCoreApplication.translate("scalemenu", "{0}: scale").format(column.label))
    sub.setObjectName("column-scale")
    if own:
        sub.setToolTipsVisible(True)
    directions = QActionGroup(sub)
    for better, text in (
        (
            "higher",
            QCoreApplication.translate("scalemenu", "Higher is better"),
        ),
        (
            "lower",
            QCoreApplication.translate("scalemenu", "Lower is better"),
        ),
    ):
        action = QAction(text, sub)
        action.setCheckable(True)
        action.setChecked(column.better == better)
        action.setData(better)
        directions.addAction(action)
        sub.addAction(action)
    decimals = sub.addMenu(QCoreApplication.translate("scalemenu", "Decimals"))
    places = QActionGroup(decimals)
    for n in range(MAX_DECIMALS + 1):
        action = QAction(str(n), decimals)
        action.setCheckable(True)
        action.setChecked(column.decimals == n)
        action.setData(n)
        places.addAction(action)
        decimals.addAction(action)
    if own:
        for action in (*directions.actions(), *places.actions()):
            action.setEnabled(False)
            action.setToolTip(
                QCoreApplication.translate("scalemenu", "{0}'s scale is its metric's").format(
                    column.label
                )
            )
        return sub

    def choose_direction(action: QAction) -> None:
        scale = session.table.column_info(key).scale
        better = "lower" if action.data() == "lower" else "higher"
        session.set_column_scale(key, Scale(better, scale.low, scale.high, scale.decimals))

    def choose_decimals(action: QAction) -> None:
        scale = session.table.column_info(key).scale
        session.set_column_scale(key, Scale(scale.better, scale.low, scale.high, action.data()))

    directions.triggered.connect(choose_direction)
    places.triggered.connect(choose_decimals)
    return sub
