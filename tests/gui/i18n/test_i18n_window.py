"""A Korean main window on real data (wmt22-en-zh): the banner's advice and buttons, the table's
headers and the status bar speak Korean; in English the banner says exactly core's words."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from matchlight.core.scoring.advice import scoring_advice
from matchlight.gui.shell.advicetext import advice_button, advice_text
from matchlight.gui.shell.language import install_translators
from tests.gui.shell.windowkit import SHOTS, Harness, zh_specs

SHOT_DIR = SHOTS / "i18n"
HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.fixture
def korean(qapp):
    assert install_translators(qapp, "ko")
    yield
    install_translators(qapp, "en")


def test_a_korean_window_on_real_data(korean, qtbot, tmp_path) -> None:
    h = Harness(qtbot, tmp_path)
    try:
        w = h.window
        w.resize(1280, 720)
        w.show()
        h.open_and_wait(zh_specs())
        n = w.lifecycle.table.n_segments
        assert w.statusBar().currentMessage() == f"{n:,}행을 채점했습니다."
        # Chinese references under 13a: core advises the zh tokenizer; the banner says so in
        # Korean, and its button too.
        banner = w.banner
        assert "cjk-tokenizer" in [item.key for item in banner.items()]
        assert banner.text_of("cjk-tokenizer") == (
            "참조 번역이 중국어로 보이지만 BLEU가 13a 토크나이저를 쓰고 있습니다. 이 토크나이저는 "
            "중국어를 단어로 나누지 않아 절 전체가 토큰 하나로 계산됩니다."
        )
        assert banner.button("cjk-tokenizer").text() == "zh 토크나이저 사용"
        for key in [item.key for item in banner.items()]:
            assert HANGUL.search(banner.text_of(key)), banner.text_of(key)
            button = banner.button(key)
            if button is not None:
                assert HANGUL.search(button.text()), button.text()
        model = w.table_view.model()
        headers = [
            model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
        ]
        assert headers[:4] == ["#", "원문", "ref", "ref2"]  # references keep their file names
        assert "HuaweiTSC BLEU" in headers or "BLEU" in headers
        panel_titles = [p.title for p in w.comparison_docks.panel.panels()]
        assert "분포" in panel_titles and "유의성" in panel_titles
        w.comparison_docks.dock.show()
        w.comparison_docks.dock.raise_()
        h.select(3)
        for _ in range(10):
            QApplication.processEvents()
        SHOT_DIR.mkdir(parents=True, exist_ok=True)
        assert w.grab().save(str(SHOT_DIR / "main-dock-ko.png"))
    finally:
        h.window.close()


def test_in_english_the_banner_says_cores_words(qtbot, tmp_path) -> None:
    h = Harness(qtbot, tmp_path)
    try:
        w = h.window
        h.open_and_wait(zh_specs())
        advice = scoring_advice(w.lifecycle.table, profile=w.lifecycle.profile)
        assert {a.key for a in advice} >= {"cjk-tokenizer", "rouge-empty"}
        for a in advice:
            assert advice_text(a) == a.message
            assert advice_button(a) == a.fix_label
            assert w.banner.text_of(a.key) == a.message
    finally:
        h.window.close()
