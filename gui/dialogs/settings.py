"""The scoring settings: a panel built from the ``core.scoring.config`` registries, and their
storage.

Every choice offered here comes from a registry in :mod:`core.scoring.config`, so the GUI can never
offer
a setting the engine (or the CLI) does not know. Settings are remembered with ``QSettings`` as one
JSON object; :func:`load_config` falls back to the default of every field it cannot use.
"""

from __future__ import annotations

import json
import logging
from dataclasses import fields
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.scoring.config import (
    BLEU_FLAVOURS,
    BLEU_TOKENIZERS,
    DEFAULT_SMOOTH_VALUES,
    LSUM_SEPARATORS,
    MAX_ORDER_LIMIT,
    NLTK_SMOOTHING,
    ROUGE_N_LIMIT,
    ROUGE_TOKENIZERS,
    SMOOTH_METHODS,
    ConfigError,
    ScoringConfig,
)

log = logging.getLogger(__name__)

SETTINGS_KEY = "scoring/config"

FLAVOUR_LABELS = {"sacrebleu": "sacreBLEU", "nltk": "NLTK (corpus_bleu / sentence_bleu)"}
BLEU_TOKENIZER_LABELS = {
    "13a": "13a — mteval-v13a (sacreBLEU default)",
    "intl": "intl — Unicode punctuation and symbols",
    "char": "char — every character (CJK, Thai…)",
    "zh": "zh — Chinese characters split, rest 13a",
    "none": "none — split on spaces only",
}
SMOOTH_LABELS = {
    "exp": "exp (sacreBLEU default)",
    "floor": "floor",
    "add-k": "add-k",
    "none": "none",
}
ROUGE_TOKENIZER_LABELS = {
    "rouge-score": "rouge-score — lowercase a-z0-9 only",
    "unicode": "Unicode — letters and digits of any script",
}
CUSTOM_SEPARATOR = "custom…"
#: Combo-box data standing for ``lsum_separator=None`` (item data is never None: PySide6 6.12
#: on CPython 3.11 drops a reference to None whenever None item data comes back to Python).
NO_SEPARATOR = "\x00none"


def _labelled(mapping: dict[str, str], key: str) -> str:
    return mapping.get(key, key)


# -- storage -----------------------------------------------------------------------------------


def _coerce(name: str, value: Any, default: Any) -> Any:
    """``value`` if it has the right type for field ``name``, else raise ``TypeError``."""
    if name == "smooth_value":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(name)
        return float(value)
    if name == "lsum_separator":
        if value is None or isinstance(value, str):
            return value
        raise TypeError(name)
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise TypeError(name)
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise TypeError(name)
    if isinstance(default, str):
        if isinstance(value, str):
            return value
        raise TypeError(name)
    raise TypeError(name)


def config_from_stored(data: Any) -> ScoringConfig:
    """A config from a stored dict, keeping each usable field and defaulting the rest."""
    config = ScoringConfig()
    if not isinstance(data, dict):
        return config
    for field in fields(ScoringConfig):
        if field.name not in data:
            continue
        try:
            value = _coerce(field.name, data[field.name], getattr(config, field.name))
            config = config.replace(**{field.name: value})
        except (TypeError, ValueError, ConfigError):
            log.warning("ignoring stored setting %s=%r", field.name, data[field.name])
    return config


def load_config(settings: QSettings) -> ScoringConfig:
    """The remembered scoring settings; defaults for anything missing or unusable."""
    raw = settings.value(SETTINGS_KEY)
    if not isinstance(raw, str):
        return ScoringConfig()
    try:
        data = json.loads(raw)
    except ValueError:
        log.warning("ignoring unreadable stored scoring settings")
        return ScoringConfig()
    return config_from_stored(data)


def save_config(settings: QSettings, config: ScoringConfig) -> None:
    """Remember ``config``."""
    settings.setValue(SETTINGS_KEY, json.dumps(config.to_dict()))
    settings.sync()


# -- panel -------------------------------------------------------------------------------------


class SettingsPanel(QWidget):
    """Every scoring setting, as form widgets.

    Signals:
        config_changed(object): the widgets describe a new valid :class:`ScoringConfig`
            (emitted on user edits, not by :meth:`set_config`).
    """

    config_changed = Signal(object)

    def __init__(self, config: ScoringConfig | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._updating = False
        self._last: ScoringConfig = ScoringConfig()
        self._nrefs = 1

        # BLEU
        self.flavour_combo = self._combo(BLEU_FLAVOURS, FLAVOUR_LABELS, "bleu_flavour")
        self.tokenizer_combo = self._combo(BLEU_TOKENIZERS, BLEU_TOKENIZER_LABELS, "tokenize")
        self.lowercase_check = QCheckBox("Lowercase before matching")
        self.lowercase_check.setObjectName("lowercase")
        self.max_order_spin = QSpinBox()
        self.max_order_spin.setObjectName("max_order")
        self.max_order_spin.setRange(1, MAX_ORDER_LIMIT)
        self.smooth_combo = self._combo(SMOOTH_METHODS, SMOOTH_LABELS, "smooth_method")
        self.smooth_value_spin = QDoubleSpinBox()
        self.smooth_value_spin.setObjectName("smooth_value")
        self.smooth_value_spin.setRange(0.0, 1000.0)
        self.smooth_value_spin.setDecimals(3)
        self.smooth_value_spin.setSingleStep(0.05)
        self.effective_order_check = QCheckBox("Effective order (sentence level)")
        self.effective_order_check.setObjectName("effective_order")
        self.nltk_smoothing_combo = self._combo(NLTK_SMOOTHING, {}, "nltk_smoothing")

        # ROUGE
        self.rouge_tokenizer_combo = self._combo(
            ROUGE_TOKENIZERS, ROUGE_TOKENIZER_LABELS, "rouge_tokenizer"
        )
        self.rouge_stem_check = QCheckBox("Porter stemming")
        self.rouge_stem_check.setObjectName("rouge_stem")
        self.rouge_max_n_spin = QSpinBox()
        self.rouge_max_n_spin.setObjectName("rouge_max_n")
        self.rouge_max_n_spin.setRange(1, ROUGE_N_LIMIT)
        self.lsum_combo = QComboBox()
        self.lsum_combo.setObjectName("lsum_separator")
        for label, value in LSUM_SEPARATORS.items():
            self.lsum_combo.addItem(label, NO_SEPARATOR if value is None else value)
        self.lsum_combo.addItem(CUSTOM_SEPARATOR, CUSTOM_SEPARATOR)
        self.lsum_custom_edit = QLineEdit()
        self.lsum_custom_edit.setObjectName("lsum_custom")
        self.lsum_custom_edit.setPlaceholderText("separator text, e.g. </s>")

        self.signature_label = QLabel()
        self.signature_label.setObjectName("signature")
        self.signature_label.setWordWrap(True)
        self.signature_label.setStyleSheet("color: palette(dark); font-size: 9pt;")
        self.signature_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label = QLabel()
        self.error_label.setObjectName("error")
        self.error_label.setStyleSheet("color: #b00020;")
        self.error_label.setWordWrap(True)
        self.error_label.hide()

        smooth_row = QHBoxLayout()
        smooth_row.addWidget(self.smooth_combo, 1)
        smooth_row.addWidget(QLabel("value"))
        smooth_row.addWidget(self.smooth_value_spin)
        lsum_row = QHBoxLayout()
        lsum_row.addWidget(self.lsum_combo, 1)
        lsum_row.addWidget(self.lsum_custom_edit, 1)

        bleu_box = QGroupBox("BLEU")
        bleu_form = QFormLayout(bleu_box)
        bleu_form.addRow("Implementation", self.flavour_combo)
        bleu_form.addRow("Tokenizer", self.tokenizer_combo)
        bleu_form.addRow("", self.lowercase_check)
        bleu_form.addRow("Max n-gram order", self.max_order_spin)
        bleu_form.addRow("Smoothing", smooth_row)
        bleu_form.addRow("", self.effective_order_check)
        bleu_form.addRow("NLTK smoothing", self.nltk_smoothing_combo)

        rouge_box = QGroupBox("ROUGE")
        rouge_form = QFormLayout(rouge_box)
        rouge_form.addRow("Tokenizer", self.rouge_tokenizer_combo)
        rouge_form.addRow("", self.rouge_stem_check)
        rouge_form.addRow("ROUGE-N up to", self.rouge_max_n_spin)
        rouge_form.addRow("ROUGE-Lsum sentences", lsum_row)

        layout = QVBoxLayout(self)
        layout.addWidget(bleu_box)
        layout.addWidget(rouge_box)
        layout.addWidget(self.error_label)
        layout.addWidget(self.signature_label)
        layout.addStretch(1)

        self.set_config(config or ScoringConfig())

        for combo in (
            self.flavour_combo,
            self.tokenizer_combo,
            self.smooth_combo,
            self.nltk_smoothing_combo,
            self.rouge_tokenizer_combo,
            self.lsum_combo,
        ):
            combo.currentIndexChanged.connect(self._on_widget_changed)
        for check in (self.lowercase_check, self.effective_order_check, self.rouge_stem_check):
            check.toggled.connect(self._on_widget_changed)
        self.max_order_spin.valueChanged.connect(self._on_widget_changed)
        self.rouge_max_n_spin.valueChanged.connect(self._on_widget_changed)
        self.smooth_value_spin.valueChanged.connect(self._on_widget_changed)
        self.lsum_custom_edit.textChanged.connect(self._on_widget_changed)

    @staticmethod
    def _combo(keys: tuple[str, ...], labels: dict[str, str], name: str) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        for key in keys:
            combo.addItem(_labelled(labels, key), key)
        return combo

    # -- public API ----------------------------------------------------------------------------

    def config(self) -> ScoringConfig:
        """The configuration the widgets describe (the last valid one if they are invalid)."""
        try:
            return self._read()
        except ConfigError:
            return self._last

    def set_config(self, config: ScoringConfig) -> None:
        """Show ``config`` in the widgets, without emitting :attr:`config_changed`."""
        self._updating = True
        try:
            self._select(self.flavour_combo, config.bleu_flavour)
            self._select(self.tokenizer_combo, config.tokenize)
            self.lowercase_check.setChecked(config.lowercase)
            self.max_order_spin.setValue(config.max_order)
            self._select(self.smooth_combo, config.smooth_method)
            value = config.effective_smooth_value
            self.smooth_value_spin.setValue(value if value is not None else 0.0)
            self.effective_order_check.setChecked(config.effective_order)
            self._select(self.nltk_smoothing_combo, config.nltk_smoothing)
            self._select(self.rouge_tokenizer_combo, config.rouge_tokenizer)
            self.rouge_stem_check.setChecked(config.rouge_stem)
            self.rouge_max_n_spin.setValue(config.rouge_max_n)
            sep = config.lsum_separator
            index = self.lsum_combo.findData(NO_SEPARATOR if sep is None else sep)
            if sep is not None and index < 0:
                index = self.lsum_combo.findData(CUSTOM_SEPARATOR)
                self.lsum_custom_edit.setText(sep)
            self.lsum_combo.setCurrentIndex(index)
        finally:
            self._updating = False
        self._last = config
        self._sync_enabled()
        self._show_state(config, None)

    def set_nrefs(self, nrefs: int) -> None:
        """The number of references, for the signature preview."""
        self._nrefs = max(1, nrefs)
        self._show_state(self.config(), None)

    @Slot()
    def focus_lsum_separator(self) -> None:
        """Put the keyboard focus on the ROUGE-Lsum separator chooser."""
        self.lsum_combo.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- internals -----------------------------------------------------------------------------

    @staticmethod
    def _select(combo: QComboBox, key: str) -> None:
        index = combo.findData(key)
        if index < 0:
            raise ConfigError(f"{combo.objectName()}: unknown choice {key!r}")
        combo.setCurrentIndex(index)

    def _read(self) -> ScoringConfig:
        method = self.smooth_combo.currentData()
        smooth_value: float | None = None
        if method in ("floor", "add-k"):
            value = round(self.smooth_value_spin.value(), 6)
            if value != DEFAULT_SMOOTH_VALUES[method]:
                smooth_value = value
        sep = self.lsum_combo.currentData()
        if sep == NO_SEPARATOR:
            sep = None
        elif sep == CUSTOM_SEPARATOR:
            sep = self.lsum_custom_edit.text()
            if not sep:
                raise ConfigError("type a custom ROUGE-Lsum separator, or pick a named one")
        return ScoringConfig(
            bleu_flavour=self.flavour_combo.currentData(),
            tokenize=self.tokenizer_combo.currentData(),
            lowercase=self.lowercase_check.isChecked(),
            smooth_method=method,
            smooth_value=smooth_value,
            max_order=self.max_order_spin.value(),
            effective_order=self.effective_order_check.isChecked(),
            nltk_smoothing=self.nltk_smoothing_combo.currentData(),
            rouge_tokenizer=self.rouge_tokenizer_combo.currentData(),
            rouge_stem=self.rouge_stem_check.isChecked(),
            rouge_max_n=self.rouge_max_n_spin.value(),
            lsum_separator=sep,
        )

    def _sync_enabled(self) -> None:
        sacre = self.flavour_combo.currentData() == "sacrebleu"
        method = self.smooth_combo.currentData()
        self.smooth_combo.setEnabled(sacre)
        self.smooth_value_spin.setEnabled(sacre and method in ("floor", "add-k"))
        self.effective_order_check.setEnabled(sacre)
        self.nltk_smoothing_combo.setEnabled(not sacre)
        custom = self.lsum_combo.currentData() == CUSTOM_SEPARATOR
        self.lsum_custom_edit.setVisible(custom)

    def _show_state(self, config: ScoringConfig, error: str | None) -> None:
        bleu = config.bleu_signature(self._nrefs)
        rouge = config.rouge_signature(self._nrefs)
        self.signature_label.setText(f"BLEU {bleu}\nROUGE {rouge}")
        self.signature_label.setToolTip(config.signature(self._nrefs))
        self.error_label.setText(error or "")
        self.error_label.setVisible(bool(error))

    @Slot()
    def _on_widget_changed(self) -> None:
        if self._updating:
            return
        if self.sender() is self.smooth_combo:
            method = self.smooth_combo.currentData()
            default = DEFAULT_SMOOTH_VALUES.get(method)
            self._updating = True
            self.smooth_value_spin.setValue(default if default is not None else 0.0)
            self._updating = False
        self._sync_enabled()
        try:
            config = self._read()
        except ConfigError as exc:
            self._show_state(self._last, str(exc))
            return
        self._show_state(config, None)
        if config != self._last:
            self._last = config
            self.config_changed.emit(config)


class SettingsDialog(QDialog):
    """The settings panel with OK / Apply / Cancel / Restore Defaults; never blocks (use open()).

    Signals:
        config_applied(object): the user applied a :class:`ScoringConfig` (OK or Apply).
    """

    config_applied = Signal(object)

    def __init__(self, config: ScoringConfig, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scoring settings — Matchlight")
        self._applied = config
        self.panel = SettingsPanel(config, self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Apply
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.panel)
        layout.addWidget(self.buttons)
        self.buttons.clicked.connect(self._on_button_clicked)
        self.panel.config_changed.connect(self._on_config_changed)
        self._on_config_changed(config)

    def set_nrefs(self, nrefs: int) -> None:
        self.panel.set_nrefs(nrefs)

    @Slot(object)
    def _on_config_changed(self, config: object) -> None:
        apply = self.buttons.button(QDialogButtonBox.StandardButton.Apply)
        apply.setEnabled(config != self._applied)

    @Slot(QAbstractButton)
    def _on_button_clicked(self, button: QAbstractButton) -> None:
        role = self.buttons.standardButton(button)
        if role == QDialogButtonBox.StandardButton.RestoreDefaults:
            self.panel.set_config(ScoringConfig())
            self._on_config_changed(ScoringConfig())
            return
        if role == QDialogButtonBox.StandardButton.Cancel:
            self.reject()
            return
        config = self.panel.config()
        if config != self._applied:
            self._applied = config
            self.config_applied.emit(config)
        self._on_config_changed(config)
        if role == QDialogButtonBox.StandardButton.Ok:
            self.accept()
