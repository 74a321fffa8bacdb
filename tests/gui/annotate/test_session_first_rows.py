"""A session over a big comparison: the app shows the comparison's first rows while the rest is
read, and announces it as opened a few turns of the event loop after the rest is appended. The
session's annotations must still come back (the opening waited for that announcement)."""

from __future__ import annotations

from matchlight.core.session.comparison import ComparisonSession
from tests.gui.annotate.annotatekit import Harness, add
from tests.gui.shell.windowkit import TIMEOUT


def test_a_session_over_a_big_comparison_reopens_with_its_annotations(
    qtbot, small, tmp_path, monkeypatch
):
    h, c = small, small.c
    add(c, 0, 2, 0, 4, "major", "Accuracy")
    add(c, 1, 5, 2, 6, "minor", "Fluency")
    path = tmp_path / "saved" / "big.matchlight"
    h.paths.append(str(path))
    assert h.s.save_session_as() == path
    spans = c.workspace.spans()
    h.window.close()

    grown: list[int] = []
    grow = ComparisonSession.grow

    def counted(self, text, **kwargs):
        grown.append(len(text))
        return grow(self, text, **kwargs)

    monkeypatch.setattr(ComparisonSession, "grow", counted)
    other = Harness(qtbot, tmp_path, name="second")
    other.window.lifecycle.first_rows = 2  # as a big comparison's: first rows, then the rest
    other.window.lifecycle.first_rows_from_bytes = 0
    other.window.show()
    assert other.s.open_session(path), other.errors
    qtbot.waitUntil(
        lambda: other.c.workspace is not None and other.c.workspace.spans() == spans,
        timeout=TIMEOUT,
    )
    assert grown == [6]  # the rest was appended to the first rows shown
    assert other.errors == [] and other.s.status_label.text() == "Session: big.matchlight"
