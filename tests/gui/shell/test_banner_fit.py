"""The warnings banner never shows as an empty strip: right after a comparison opens, its
height fits its text (issue 16, finding 8: on wmt22-en-zh it was an empty strip until the
window was resized)."""

from __future__ import annotations

import shutil

from PySide6.QtWidgets import QApplication

from tests.gui.shell.windowkit import SHOTS, zh_specs


def _misfits(banner) -> list[tuple[str, int, int, int]]:
    """The advice rows not wholly shown: (key, top, height needed, banner height)."""
    misfits = []
    for key in banner.keys():  # noqa: SIM118 (keys() is the banner's own method)
        label = banner.label_of(key)
        need = label.heightForWidth(label.width())
        top = label.mapTo(banner, label.rect().topLeft()).y()
        shown = label.isVisible() and label.height() >= need
        if not shown or top < 0 or top + need > banner.height():
            misfits.append((key, top, need, banner.height()))
    return misfits


def test_the_banner_fits_its_text_right_after_the_open(harness, tmp_path) -> None:
    """Rows come as the comparison is read and as it is scored (the ROUGE advice needs the
    scores); each fits as soon as the event loop has laid it out, with no resize. (The old
    banner kept a new row hidden and its old height for good: this waits a few seconds at
    most, and fails then.)"""
    window = harness.window
    window.resize(1280, 800)
    window.show()
    harness.qtbot.waitExposed(window)
    harness.open_and_wait(zh_specs())
    banner = window.banner
    assert banner.isVisible() and banner.keys(), "wmt22-en-zh has scoring advice"
    harness.qtbot.waitUntil(lambda: not _misfits(banner), timeout=10_000)
    QApplication.processEvents()
    path = tmp_path / "banner-zh.png"
    assert window.grab().save(str(path))
    (SHOTS / "focus").mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / "focus" / "banner-zh.png")
    assert len(banner.keys()) >= 2  # the zh tokenizer and ROUGE's empty rows, at least
