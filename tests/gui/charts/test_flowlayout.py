"""FlowLayout (a chart's controls, wrapped): its height for a width is kept between layout
passes, and is computed again once its widgets change."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from matchlight.gui.charts.base import FlowLayout


def _host(qtbot, count: int) -> tuple[QWidget, FlowLayout, list[QPushButton]]:
    host = QWidget()
    qtbot.addWidget(host)
    layout = FlowLayout(host, spacing=6)
    buttons = []
    for i in range(count):
        button = QPushButton(f"b{i}")
        button.setFixedSize(100, 30)
        layout.addWidget(button)
        buttons.append(button)
    host.show()
    return host, layout, buttons


def test_the_height_for_a_width_is_kept_until_the_widgets_change(qtbot, monkeypatch) -> None:
    _host_widget, layout, buttons = _host(qtbot, 4)
    placed: list[int] = []
    place = layout._place

    def counting(rect, *, move):
        if not move:
            placed.append(rect.width())
        return place(rect, move=move)

    monkeypatch.setattr(layout, "_place", counting)
    assert layout.heightForWidth(250) == 30 + 6 + 30  # two a line
    assert layout.heightForWidth(500) == 30  # all four on one line (418 px)
    assert layout.heightForWidth(250) == 66 and layout.heightForWidth(500) == 30
    assert placed == [250, 500]  # asked again: kept
    buttons[0].hide()
    buttons[1].hide()
    qtbot.waitUntil(lambda: layout.heightForWidth(250) == 30)  # the two left share a line
    added = QPushButton("wide")
    added.setFixedSize(300, 40)
    layout.addWidget(added)
    added.show()
    qtbot.waitUntil(lambda: layout.heightForWidth(250) == 30 + 6 + 40)  # on a line of its own
    buttons[2].setFixedSize(100, 50)
    qtbot.waitUntil(lambda: layout.heightForWidth(250) == 50 + 6 + 40)
