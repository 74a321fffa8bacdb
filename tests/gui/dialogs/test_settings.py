"""The settings dialog: built from the metric registry, says exactly the config it returns,
shows core's message for what core rejects, remembers nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialogButtonBox, QLineEdit, QSpinBox

from matchlight.core.metrics.base import Setting, SettingError
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import LSUM_SEPARATORS, ScoringConfig
from matchlight.gui.dialogs.settings import (
    CUSTOM_SEPARATOR,
    NO_SEPARATOR,
    SettingsDialog,
    SettingsPanel,
)
from tests.gui.toymetric import ToyMetric, toy_settings_values

WIDGET_OF_KIND = {"choice": QComboBox, "flag": QCheckBox, "int": QSpinBox, "float": QLineEdit}


@pytest.fixture
def panel(qtbot) -> SettingsPanel:
    widget = SettingsPanel()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def toy(monkeypatch) -> None:
    monkeypatch.setitem(METRICS, "toy", ToyMetric())


def shown_value(widget: Any, spec: Setting) -> object:
    """What a widget says, read the way a user reads it."""
    if isinstance(widget, QComboBox):
        return widget.currentData()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QSpinBox):
        return widget.value()
    text = widget.text()
    return None if text == "" else float(text)


def edit(widget: Any, value: object) -> None:
    """Set a widget as a user would."""
    if isinstance(widget, QComboBox):
        widget.setCurrentIndex(widget.findData(value))
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))
    elif isinstance(widget, QSpinBox):
        widget.setValue(value)
    else:
        widget.setText("" if value is None else str(value))


def assert_widgets_say(panel: SettingsPanel, config: ScoringConfig) -> None:
    for key, check in panel.metric_checks.items():
        assert check.isChecked() == (key in config.metrics), key
        assert panel.metric_groups[key].isEnabled() == check.isChecked()
    for metric in METRICS.values():
        values = config.settings(metric.key).to_dict()
        for spec in metric.settings:
            got = shown_value(panel.widget(metric.key, spec.key), spec)
            assert got == values[spec.key], (metric.key, spec.key)
    sep = panel.separator_combo.currentData()
    if sep == CUSTOM_SEPARATOR:
        sep = panel.separator_edit.text()
    assert (None if sep == NO_SEPARATOR else sep) == config.sentence_separator


def test_a_widget_per_setting_of_every_registered_metric(qtbot, toy) -> None:
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    assert list(panel.metric_checks) == list(METRICS)
    assert {"bleu", "rouge", "nltk_bleu", "toy"} <= set(METRICS)
    assert [panel.metric_checks[k].text() for k in METRICS] == [m.label for m in METRICS.values()]
    expected = {(m.key, spec.key) for m in METRICS.values() for spec in m.settings}
    assert set(panel.setting_widgets) == expected
    for metric in METRICS.values():
        assert panel.metric_groups[metric.key].title() == metric.label
        for spec in metric.settings:
            widget = panel.widget(metric.key, spec.key)
            assert isinstance(widget, WIDGET_OF_KIND[spec.kind]), (metric.key, spec.key)
            assert spec.help in widget.toolTip()
            if spec.kind == "choice":
                assert [widget.itemData(i) for i in range(widget.count())] == list(spec.choices)
            elif spec.kind == "flag":
                assert widget.text() == spec.label  # what checked means
            elif spec.kind == "int":
                assert (widget.minimum(), widget.maximum()) == (spec.minimum, spec.maximum)
            elif spec.optional:
                assert widget.placeholderText() == "default"
    separators = [panel.separator_combo.itemData(i) for i in range(panel.separator_combo.count())]
    labels = [panel.separator_combo.itemText(i) for i in range(panel.separator_combo.count())]
    assert [None if s == NO_SEPARATOR else s for s in separators[:-1]] == list(
        LSUM_SEPARATORS.values()
    )
    assert labels == [*LSUM_SEPARATORS, CUSTOM_SEPARATOR]


def every_choice() -> list[ScoringConfig]:
    """One config per value worth trying of every setting of every metric, and more."""
    base = ScoringConfig()
    configs = [base]
    for metric in METRICS.values():
        for spec in metric.settings:
            if spec.kind == "choice":
                values: list[object] = list(spec.choices)
            elif spec.kind == "flag":
                values = [True, False]
            elif spec.kind == "int":
                low, high = int(spec.minimum or 0), int(spec.maximum or 9)
                values = sorted({low, (low + high) // 2, high})
            else:
                values = [None, 0.0, 0.25, 3.5] if spec.optional else [0.0, 0.25, 3.5]
            for v in values:
                try:
                    configs.append(base.with_settings(metric.key, **{spec.key: v}))
                except SettingError:  # invalid alone, e.g. chrF's character order 0 (no n-grams)
                    continue
    configs += [base.with_separator(v) for v in LSUM_SEPARATORS.values()]
    configs += [base.with_separator("</s>"), base.with_metrics("rouge")]
    configs += [base.with_metrics("nltk_bleu"), base.with_metrics("bleu,rouge,nltk_bleu")]
    return configs


@pytest.mark.parametrize("config", every_choice(), ids=lambda c: repr(c.changed())[:80])
def test_panel_shows_every_choice_and_gives_it_back(qtbot, panel, config) -> None:
    panel.set_config(config)
    assert panel.config() == config
    assert_widgets_say(panel, config)
    assert panel.error() == ""
    # The signature preview is this config's signatures.
    assert panel.signature_label.text() == "\n".join(
        f"{k}: {v}" for k, v in config.signatures(1).items()
    )
    # Back to the defaults and to the config again, by hand: the same config comes back.
    panel.set_config(ScoringConfig())
    for metric in METRICS.values():
        values = config.settings(metric.key).to_dict()
        for spec in metric.settings:
            edit(panel.widget(metric.key, spec.key), values[spec.key])
    for key, check in panel.metric_checks.items():
        check.setChecked(key in config.metrics)
    sep = config.sentence_separator
    index = panel.separator_combo.findData(NO_SEPARATOR if sep is None else sep)
    if index < 0:
        panel.separator_combo.setCurrentIndex(panel.separator_combo.findData(CUSTOM_SEPARATOR))
        panel.separator_edit.setText(sep)
    else:
        panel.separator_combo.setCurrentIndex(index)
    assert panel.config() == config


def setting_values(metric_key: str) -> st.SearchStrategy[dict[str, object]]:
    """Any valid values of a metric's settings, from its specs."""
    fields = {}
    for spec in METRICS[metric_key].settings:
        if spec.kind == "choice":
            fields[spec.key] = st.sampled_from(spec.choices)
        elif spec.kind == "flag":
            fields[spec.key] = st.booleans()
        elif spec.kind == "int":
            fields[spec.key] = st.integers(int(spec.minimum or 0), int(spec.maximum or 20))
        else:
            number = st.floats(spec.minimum or 0.0, 1000.0, allow_nan=False).map(
                lambda x: round(x, 3)
            )
            fields[spec.key] = st.none() | number if spec.optional else number
    return st.fixed_dictionaries(fields)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    metrics=st.sets(st.sampled_from(["bleu", "rouge", "nltk_bleu"]), min_size=1),
    bleu=setting_values("bleu"),
    rouge=setting_values("rouge"),
    nltk=setting_values("nltk_bleu"),
    separator=st.sampled_from([*LSUM_SEPARATORS.values(), "</s>", " ||| "]),
)
def test_the_dialog_returns_the_config_its_widgets_say(
    qtbot, metrics, bleu, rouge, nltk, separator
) -> None:
    """Whatever a user sets, the dialog gives back core's config of exactly those values."""
    dialog = SettingsDialog(ScoringConfig())
    qtbot.addWidget(dialog)
    panel = dialog.panel
    for key, values in (("bleu", bleu), ("rouge", rouge), ("nltk_bleu", nltk)):
        for name, value in values.items():
            edit(panel.widget(key, name), value)
    for key, check in panel.metric_checks.items():
        check.setChecked(key in metrics)
    index = panel.separator_combo.findData(NO_SEPARATOR if separator is None else separator)
    if index < 0:
        panel.separator_combo.setCurrentIndex(panel.separator_combo.findData(CUSTOM_SEPARATOR))
        panel.separator_edit.setText(separator)
    else:
        panel.separator_combo.setCurrentIndex(index)
    expected = (
        ScoringConfig()
        .with_metrics(",".join(metrics))
        .with_settings("bleu", **bleu)
        .with_settings("rouge", **rouge)
        .with_settings("nltk_bleu", **nltk)
        .with_separator(separator)
    )
    assert panel.error() == ""
    assert dialog.config() == expected
    assert_widgets_say(panel, expected)
    dialog.deleteLater()


def test_a_registered_metric_is_offered_and_configured(qtbot, toy) -> None:
    dialog = SettingsDialog(ScoringConfig())
    qtbot.addWidget(dialog)
    panel = dialog.panel
    assert not panel.metric_groups["toy"].isEnabled()  # not scored by default
    with qtbot.waitSignal(panel.config_changed) as changed:
        panel.metric_checks["toy"].setChecked(True)
    assert changed.args[0].metrics == ("bleu", "rouge", "toy")
    assert panel.metric_groups["toy"].isEnabled()
    for name, values in toy_settings_values().items():
        for value in values:
            edit(panel.widget("toy", name), value)
            assert dialog.config().settings("toy").to_dict()[name] == value
    assert dialog.config().highlight_modes()[-1].key == "toy"
    assert "toy: nrefs:1" in panel.signature_label.text()


def test_user_edits_emit_config_changed_and_set_config_does_not(qtbot, panel) -> None:
    with qtbot.waitSignal(panel.config_changed) as changed:
        edit(panel.widget("bleu", "tokenize"), "zh")
    assert changed.args[0] == ScoringConfig().with_settings("bleu", tokenize="zh")
    with qtbot.waitSignal(panel.config_changed) as changed:
        edit(panel.widget("rouge", "stem"), True)
    assert changed.args[0] == (
        ScoringConfig().with_settings("bleu", tokenize="zh").with_settings("rouge", stem=True)
    )
    with qtbot.waitSignal(panel.config_changed) as changed:
        edit(panel.widget("bleu", "smooth_value"), 0.3)
    assert changed.args[0].settings("bleu").smooth_value == pytest.approx(0.3)
    with qtbot.assertNotEmitted(panel.config_changed, wait=10):
        panel.set_config(ScoringConfig().with_settings("bleu", tokenize="char"))
    assert panel.widget("bleu", "tokenize").currentData() == "char"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.metric_checks["bleu"].setChecked(False), "at least one metric"),
        (lambda p: edit(p.widget("bleu", "smooth_value"), -1), "--smooth-value must be at least 0"),
        (lambda p: p.widget("bleu", "smooth_value").setText("a lot"), "must be a number"),
        (
            lambda p: p.separator_combo.setCurrentIndex(
                p.separator_combo.findData(CUSTOM_SEPARATOR)
            ),
            "custom sentence separator",
        ),
    ],
    ids=["no metric", "negative", "not a number", "empty separator"],
)
def test_invalid_settings_show_core_message_never_raise(qtbot, change, message) -> None:
    start = ScoringConfig().with_metrics("bleu").with_settings("bleu", tokenize="zh")
    dialog = SettingsDialog(start)
    qtbot.addWidget(dialog)
    dialog.show()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    apply = dialog.buttons.button(QDialogButtonBox.StandardButton.Apply)
    with qtbot.assertNotEmitted(dialog.panel.config_changed, wait=10):
        change(dialog.panel)
    assert message in dialog.panel.error()
    assert dialog.panel.error_label.isVisible() and message in dialog.panel.error_label.text()
    assert not ok.isEnabled() and not apply.isEnabled()
    assert dialog.config() == start  # the last valid one
    with qtbot.assertNotEmitted(dialog.config_applied, wait=10):
        ok.click()  # disabled: nothing happens
    assert dialog.isVisible()
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    assert dialog.panel.error() == "" and not dialog.panel.error_label.isVisible()
    assert ok.isEnabled() and dialog.config() == ScoringConfig()


def test_custom_separator(qtbot, panel) -> None:
    panel.show()
    custom = panel.separator_combo.findData(CUSTOM_SEPARATOR)
    panel.separator_combo.setCurrentIndex(custom)
    assert panel.separator_edit.isVisible()
    with qtbot.waitSignal(panel.config_changed) as changed:
        panel.separator_edit.setText(" ||| ")
    assert changed.args[0] == ScoringConfig().with_separator(" ||| ")
    assert panel.error() == ""
    panel.set_config(ScoringConfig().with_separator("<n>"))
    assert not panel.separator_edit.isVisible()


def test_dialog_apply_ok_cancel_and_defaults(qtbot) -> None:
    start = ScoringConfig().with_settings("bleu", tokenize="zh")
    dialog = SettingsDialog(start)
    qtbot.addWidget(dialog)
    dialog.open()
    apply = dialog.buttons.button(QDialogButtonBox.StandardButton.Apply)
    assert not apply.isEnabled()
    edit(dialog.panel.widget("rouge", "tokenizer"), "unicode")
    assert apply.isEnabled()
    with qtbot.waitSignal(dialog.config_applied) as applied:
        apply.click()
    assert applied.args[0] == start.with_settings("rouge", tokenizer="unicode")
    assert dialog.isVisible()
    assert not apply.isEnabled()
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    assert dialog.config() == ScoringConfig()
    with qtbot.waitSignal(dialog.config_applied) as applied:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert applied.args[0] == ScoringConfig()
    assert not dialog.isVisible()


def test_dialog_cancel_applies_nothing(qtbot) -> None:
    dialog = SettingsDialog(ScoringConfig())
    qtbot.addWidget(dialog)
    dialog.open()
    edit(dialog.panel.widget("bleu", "lowercase"), True)
    with qtbot.assertNotEmitted(dialog.config_applied, wait=10):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert not dialog.isVisible()


def test_nothing_is_remembered_between_dialogs(qtbot) -> None:
    """A new comparison starts from the defaults: the dialog keeps no settings of its own."""
    first = SettingsDialog(ScoringConfig())
    qtbot.addWidget(first)
    edit(first.panel.widget("bleu", "tokenize"), "char")
    first.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    second = SettingsDialog(ScoringConfig())
    qtbot.addWidget(second)
    assert second.config() == ScoringConfig()
    assert_widgets_say(second.panel, ScoringConfig())


def test_screenshot(qtbot, toy, save_shot) -> None:
    config = ScoringConfig().with_metrics("bleu,rouge,toy").with_settings("bleu", tokenize="zh")
    dialog = SettingsDialog(config)
    qtbot.addWidget(dialog)
    dialog.set_nrefs(2)
    dialog.show()
    qtbot.waitExposed(dialog)
    # Everything fits without scrolling, and nothing is cut off.
    assert dialog.panel.metric_groups["toy"].visibleRegion().boundingRect().height() == (
        dialog.panel.metric_groups["toy"].height()
    )
    save_shot(dialog, "settings-dialog")
