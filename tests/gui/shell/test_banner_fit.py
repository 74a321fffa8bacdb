"""The warnings banner never shows as an empty strip: right after a comparison opens, its
height fits its text (issue 16, finding 8: on wmt22-en-zh it was an empty strip until the
window was resized)."""

from __future__ import annotations

import shutil

from PySide6.QtWidgets import QApplication

from tests.gui.shell.windowkit import SHOTS, zh_specs


def test_the_banner_fits_its_text_right_after_the_open(harness, tmp_path) -> None:
    window = harness.window
    window.resize(1280, 800)
    window.show()
    harness.qtbot.waitExposed(window)
    harness.open_and_show(zh_specs())
    QApplication.processEvents()
    path = tmp_path / "banner-zh.png"
    assert window.grab().save(str(path))
    (SHOTS / "focus").mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / "focus" / "banner-zh.png")
    banner = window.banner
    assert banner.isVisible() and banner.keys(), "wmt22-en-zh has scoring advice"
    keys = banner.keys()
    for key in keys:
        label = banner.label_of(key)
        assert label.isVisible(), key
        need = label.heightForWidth(label.width())
        assert label.height() >= need, (key, label.height(), need)
        # The whole label lies in the part of the banner that is shown.
        top = label.mapTo(banner, label.rect().topLeft()).y()
        assert top >= 0 and top + need <= banner.height(), (key, top, need, banner.height())
