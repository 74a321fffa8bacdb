"""The window checks the languages of a comparison it shows, off the GUI thread: the filter bar
offers the flagged rows and the corpus summary counts them per system; a comparison opened
next gets its own check, never the last one's.

WMT22 en-zh: HuaweiTSC left segment 884 untranslated, Online-B segment 1239 (the English
source, word for word); the other systems translate every segment.
"""

from __future__ import annotations

from matchlight.core.analysis.language import LanguageFlags
from matchlight.gui.dialogs.opendialog import sample_specs
from tests.gui.shell.windowkit import TIMEOUT, shot, zh_specs


def wait_language(harness) -> LanguageFlags:
    lifecycle = harness.window.lifecycle
    harness.qtbot.waitUntil(lambda: lifecycle.language is not None, timeout=TIMEOUT)
    flags = lifecycle.language
    assert flags is not None
    return flags


def test_the_shown_comparison_is_checked_filtered_and_counted(harness, tmp_path) -> None:
    harness.open_and_wait(zh_specs())
    w = harness.window
    flags = wait_language(harness)
    names = w.lifecycle.core.system_names
    assert flags.systems == names
    counts = dict(zip(names, flags.counts(), strict=True))
    assert counts == {
        "HuaweiTSC": (1, 1),
        "JDExploreAcademy": (0, 0),
        "LanguageX": (0, 0),
        "Online-B": (1, 1),
        "Online-Y": (0, 0),
    }
    assert w.summary.language_text() == (
        "Language check: output in another language than the references (zh): HuaweiTSC 1, "
        "Online-B 1, others 0 · copying the source: HuaweiTSC 1, Online-B 1, others 0"
    )
    combo = w.filter_bar.special_combo
    combo.setCurrentIndex(combo.findData("wrong-language"))
    assert w.proxy.visible_segments().tolist() == [883, 1238]
    harness.qtbot.waitUntil(lambda: "Filter keeps 2 rows" in w.summary.caption.text())
    harness.select(1238)
    shot(w, tmp_path, "language_filter_window")

    # The next comparison: the filter bar and the summary wait for its own check.
    harness.open_and_show(sample_specs())
    assert w.lifecycle.language is None or w.lifecycle.language.systems != names
    flags = wait_language(harness)
    assert flags.systems == w.lifecycle.core.system_names
    assert flags.n_segments == w.lifecycle.core.n_segments
    assert w.summary.language_text().startswith("Language check: ")
