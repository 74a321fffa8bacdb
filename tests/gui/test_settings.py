"""The settings panel: built from the core registries, round-trips, survives garbage."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox

from matchlight.core.scoring.config import (
    BLEU_FLAVOURS,
    BLEU_TOKENIZERS,
    LSUM_SEPARATORS,
    MAX_ORDER_LIMIT,
    NLTK_SMOOTHING,
    ROUGE_N_LIMIT,
    ROUGE_TOKENIZERS,
    SMOOTH_METHODS,
    ScoringConfig,
)
from matchlight.gui.dialogs.settings import (
    CUSTOM_SEPARATOR,
    NO_SEPARATOR,
    SETTINGS_KEY,
    SettingsDialog,
    SettingsPanel,
    config_from_stored,
    load_config,
    save_config,
)


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "matchlight.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def panel(qtbot):
    widget = SettingsPanel()
    qtbot.addWidget(widget)
    return widget


def every_choice() -> list[ScoringConfig]:
    """One config per registry choice (and per value of every other setting)."""
    base = ScoringConfig()
    configs = [base]
    configs += [base.replace(bleu_flavour=v) for v in BLEU_FLAVOURS]
    configs += [base.replace(tokenize=v) for v in BLEU_TOKENIZERS]
    configs += [base.replace(smooth_method=v) for v in SMOOTH_METHODS]
    configs += [base.replace(smooth_method="floor", smooth_value=0.25)]
    configs += [base.replace(smooth_method="add-k", smooth_value=2.0)]
    configs += [base.replace(bleu_flavour="nltk", nltk_smoothing=v) for v in NLTK_SMOOTHING]
    configs += [base.replace(rouge_tokenizer=v) for v in ROUGE_TOKENIZERS]
    configs += [base.replace(lsum_separator=v) for v in LSUM_SEPARATORS.values()]
    configs += [base.replace(lsum_separator="</s>")]
    configs += [base.replace(max_order=n) for n in range(1, MAX_ORDER_LIMIT + 1)]
    configs += [base.replace(rouge_max_n=n) for n in range(1, ROUGE_N_LIMIT + 1)]
    configs += [
        base.replace(lowercase=True),
        base.replace(effective_order=False),
        base.replace(rouge_stem=True),
        ScoringConfig(
            bleu_flavour="nltk",
            tokenize="zh",
            lowercase=True,
            smooth_method="add-k",
            smooth_value=0.5,
            max_order=3,
            effective_order=False,
            nltk_smoothing="method4",
            rouge_tokenizer="unicode",
            rouge_stem=True,
            rouge_max_n=3,
            lsum_separator="<n>",
        ),
    ]
    return configs


def combo_keys(combo) -> list[object]:
    return [combo.itemData(i) for i in range(combo.count())]


def test_combos_come_from_the_registries(panel):
    assert combo_keys(panel.flavour_combo) == list(BLEU_FLAVOURS)
    assert combo_keys(panel.tokenizer_combo) == list(BLEU_TOKENIZERS)
    assert combo_keys(panel.smooth_combo) == list(SMOOTH_METHODS)
    assert combo_keys(panel.nltk_smoothing_combo) == list(NLTK_SMOOTHING)
    assert combo_keys(panel.rouge_tokenizer_combo) == list(ROUGE_TOKENIZERS)
    separators = [None if k == NO_SEPARATOR else k for k in combo_keys(panel.lsum_combo)]
    assert separators == [*LSUM_SEPARATORS.values(), CUSTOM_SEPARATOR]
    assert panel.max_order_spin.maximum() == MAX_ORDER_LIMIT
    assert panel.rouge_max_n_spin.maximum() == ROUGE_N_LIMIT


@pytest.mark.parametrize("config", every_choice(), ids=lambda c: c.signature(1)[:90])
def test_panel_round_trips_every_choice(panel, settings, config):
    panel.set_config(config)
    assert panel.config() == config
    save_config(settings, config)
    assert load_config(settings) == config
    # The signature preview shows exactly this config's signature.
    assert panel.signature_label.toolTip() == config.signature(1)
    assert panel.signature_label.text() == (
        f"BLEU {config.bleu_signature(1)}\nROUGE {config.rouge_signature(1)}"
    )


def test_user_edits_emit_config_changed(qtbot, panel):
    with qtbot.waitSignal(panel.config_changed) as blocker:
        panel.tokenizer_combo.setCurrentIndex(panel.tokenizer_combo.findData("zh"))
    assert blocker.args[0] == ScoringConfig(tokenize="zh")
    with qtbot.waitSignal(panel.config_changed) as blocker:
        panel.lowercase_check.setChecked(True)
    assert blocker.args[0] == ScoringConfig(tokenize="zh", lowercase=True)
    # Choosing floor smoothing shows its default value; editing it sets smooth_value.
    with qtbot.waitSignal(panel.config_changed) as blocker:
        panel.smooth_combo.setCurrentIndex(panel.smooth_combo.findData("floor"))
    assert panel.smooth_value_spin.value() == pytest.approx(0.1)
    assert panel.smooth_value_spin.isEnabled()
    assert blocker.args[0].smooth_method == "floor"
    assert blocker.args[0].smooth_value is None
    with qtbot.waitSignal(panel.config_changed) as blocker:
        panel.smooth_value_spin.setValue(0.3)
    assert blocker.args[0].smooth_value == pytest.approx(0.3)
    assert blocker.args[0].effective_smooth_value == pytest.approx(0.3)


def test_set_config_does_not_emit(qtbot, panel):
    with qtbot.assertNotEmitted(panel.config_changed, wait=10):
        panel.set_config(ScoringConfig(tokenize="char", rouge_stem=True))
    assert panel.tokenizer_combo.currentData() == "char"


def test_flavour_enables_the_matching_options(panel):
    panel.set_config(ScoringConfig(bleu_flavour="nltk"))
    assert panel.nltk_smoothing_combo.isEnabled()
    assert not panel.smooth_combo.isEnabled()
    assert not panel.effective_order_check.isEnabled()
    panel.set_config(ScoringConfig())
    assert not panel.nltk_smoothing_combo.isEnabled()
    assert panel.smooth_combo.isEnabled()
    assert not panel.smooth_value_spin.isEnabled()  # exp has no value


def test_custom_separator(qtbot, panel):
    panel.show()
    custom = panel.lsum_combo.findData(CUSTOM_SEPARATOR)
    with qtbot.assertNotEmitted(panel.config_changed, wait=10):
        panel.lsum_combo.setCurrentIndex(custom)  # empty custom text: not a valid config
    assert panel.lsum_custom_edit.isVisible()
    assert "custom ROUGE-Lsum separator" in panel.error_label.text()
    assert panel.error_label.isVisible()
    assert panel.config() == ScoringConfig()  # the last valid one
    with qtbot.waitSignal(panel.config_changed) as blocker:
        panel.lsum_custom_edit.setText(" ||| ")
    assert blocker.args[0].lsum_separator == " ||| "
    assert not panel.error_label.isVisible()


@pytest.mark.parametrize(
    "stored",
    [
        "not json at all {",
        "[1, 2, 3]",
        "42",
        "null",
        json.dumps({"tokenize": "klingon", "max_order": "4", "lowercase": "yes"}),
        json.dumps({"smooth_value": -1, "lsum_separator": "", "rouge_max_n": 0}),
        json.dumps({"max_order": True, "smooth_value": "0.1", "lsum_separator": 7}),
    ],
)
def test_garbage_in_qsettings_falls_back_to_defaults(settings, stored):
    settings.setValue(SETTINGS_KEY, stored)
    assert load_config(settings) == ScoringConfig()


def test_garbage_fields_are_dropped_one_by_one(settings):
    settings.setValue(
        SETTINGS_KEY,
        json.dumps(
            {
                "tokenize": "klingon",
                "bleu_flavour": "nltk",
                "max_order": 99,
                "rouge_max_n": 3,
                "lowercase": "true",
                "rouge_stem": True,
                "unknown_setting": 1,
            }
        ),
    )
    assert load_config(settings) == ScoringConfig(
        bleu_flavour="nltk", rouge_max_n=3, rouge_stem=True
    )


def test_non_string_values_in_the_ini_file(tmp_path):
    path = tmp_path / "garbage.ini"
    path.write_text("[scoring]\nconfig=1, 2, 3\n", encoding="utf-8")
    settings = QSettings(str(path), QSettings.Format.IniFormat)
    assert not isinstance(settings.value(SETTINGS_KEY), str)
    assert load_config(settings) == ScoringConfig()
    assert config_from_stored(["tokenize", "zh"]) == ScoringConfig()


def test_missing_settings_give_defaults(settings):
    assert load_config(settings) == ScoringConfig()


def test_dialog_apply_ok_cancel_and_defaults(qtbot):
    start = ScoringConfig(tokenize="zh")
    dialog = SettingsDialog(start)
    qtbot.addWidget(dialog)
    dialog.open()
    apply = dialog.buttons.button(QDialogButtonBox.StandardButton.Apply)
    assert not apply.isEnabled()
    dialog.panel.rouge_tokenizer_combo.setCurrentIndex(
        dialog.panel.rouge_tokenizer_combo.findData("unicode")
    )
    assert apply.isEnabled()
    with qtbot.waitSignal(dialog.config_applied) as blocker:
        apply.click()
    assert blocker.args[0] == ScoringConfig(tokenize="zh", rouge_tokenizer="unicode")
    assert dialog.isVisible()
    assert not apply.isEnabled()
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    assert dialog.panel.config() == ScoringConfig()
    with qtbot.waitSignal(dialog.config_applied) as blocker:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert blocker.args[0] == ScoringConfig()
    assert not dialog.isVisible()


def test_dialog_cancel_applies_nothing(qtbot):
    dialog = SettingsDialog(ScoringConfig())
    qtbot.addWidget(dialog)
    dialog.open()
    dialog.panel.lowercase_check.setChecked(True)
    with qtbot.assertNotEmitted(dialog.config_applied, wait=10):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert not dialog.isVisible()


def test_screenshot(qtbot, tmp_path):
    dialog = SettingsDialog(ScoringConfig(tokenize="zh", rouge_tokenizer="unicode"))
    qtbot.addWidget(dialog)
    dialog.set_nrefs(2)
    dialog.show()
    qtbot.waitExposed(dialog)
    shot = tmp_path / "settings.png"
    assert dialog.grab().save(str(shot))
    out = os.environ.get("MATCHLIGHT_SHOTS", "/tmp/matchlight-shots")
    os.makedirs(out, exist_ok=True)
    dialog.grab().save(os.path.join(out, "settings-dialog.png"))
