"""The scoring settings dialog, built entirely from the metric registry.

One check box per registered metric (which ones to score; at least one), then for each metric a
group with one widget per :class:`~core.metrics.base.Setting`, chosen by its kind: a combo box
for a ``choice``, a check box for a ``flag`` (its label says what checked means), a spin box for
an ``int`` (with the setting's bounds), a line edit for a ``float`` (empty means "default"
where the setting is optional). Then the comparison's sentence separator. Tooltips are the
settings' help texts, so a metric added to :data:`~core.metrics.registry.METRICS` appears here
with no change, and the dialog can never offer what the engine or the CLI does not accept.

The panel always describes a :class:`~core.scoring.config.ScoringConfig`; a combination core
rejects is shown as core's message (a :class:`~core.metrics.base.SettingError`), never raised.
Nothing is remembered here: a comparison carries its own settings, and a new comparison starts
from the defaults.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from matchlight.core.metrics.base import Metric, MetricSettings, Setting, SettingError
from matchlight.core.metrics.registry import METRICS
from matchlight.core.scoring.config import LSUM_SEPARATORS, ScoringConfig

__all__ = [
    "CUSTOM_SEPARATOR",
    "NO_SEPARATOR",
    "SettingsDialog",
    "SettingsPanel",
]

CUSTOM_SEPARATOR = "custom…"
# Combo-box data standing for "no separator" (item data is never None: PySide6 6.12 on
# CPython 3.11 drops a reference to None whenever None item data comes back to Python).
NO_SEPARATOR = "\x00none"
# Spin-box bounds of an ``int`` setting without its own.
_INT_BOUND = 1_000_000
# The metrics' groups are laid out in this many columns.
_GROUP_COLUMNS = 2
# The tallest the settings get before they scroll, in pixels.
_MAX_SCROLL_HEIGHT = 560
# Translated where shown (set at import, before the translator is installed).
_SEPARATOR_HELP = QT_TRANSLATE_NOOP(
    "settings",
    "How the sentences of a segment are marked. ROUGE-Lsum scores sentence by "
    "sentence; BLEU and chrF read the marked sentences joined by spaces (the marker is "
    "never a word).",
)


def _setting_widget(metric: Metric, spec: Setting) -> QWidget:
    """The widget of one setting, by kind; its object name is ``metric.setting``."""
    widget: QWidget
    if spec.kind == "choice":
        combo = QComboBox()
        for choice in spec.choices:
            combo.addItem(choice, choice)
        widget = combo
    elif spec.kind == "flag":
        widget = QCheckBox(spec.label)
    elif spec.kind == "int":
        spin = QSpinBox()
        low = -_INT_BOUND if spec.minimum is None else int(spec.minimum)
        high = _INT_BOUND if spec.maximum is None else int(spec.maximum)
        spin.setRange(low, high)
        widget = spin
    else:
        edit = QLineEdit()
        if spec.optional:
            edit.setPlaceholderText(QCoreApplication.translate("settings", "default"))
        widget = edit
    widget.setObjectName(f"{metric.key}.{spec.key}")
    widget.setToolTip(f"{spec.help}\n({spec.cli})")
    return widget


class SettingsPanel(QWidget):
    """Every scoring setting of every registered metric, as form widgets.

    Signals:
        config_changed(object): the widgets describe a new valid :class:`ScoringConfig`
            (emitted on user edits, not by :meth:`set_config`).
        edited(): the user changed a widget (the configuration may now be invalid: see
            :meth:`error`).
    """

    config_changed = Signal(object)
    edited = Signal()

    def __init__(self, config: ScoringConfig | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._updating = False
        self._last = ScoringConfig()
        self._error = ""
        self._nrefs = 1
        # Per metric key: the check box that says whether it is scored, and its group.
        self.metric_checks: dict[str, QCheckBox] = {}
        self.metric_groups: dict[str, QGroupBox] = {}
        # Per (metric key, setting key): the setting's widget.
        self.setting_widgets: dict[tuple[str, str], QWidget] = {}

        metrics_box = QGroupBox(QCoreApplication.translate("SettingsPanel", "Metrics to score"))
        metrics_row = QHBoxLayout(metrics_box)
        for metric in METRICS.values():
            check = QCheckBox(metric.label)
            check.setObjectName(f"metric.{metric.key}")
            check.setToolTip(metric.description)
            check.toggled.connect(self._on_widget_changed)
            metrics_row.addWidget(check)
            self.metric_checks[metric.key] = check
        metrics_row.addStretch(1)

        groups = QWidget()
        groups_layout = QGridLayout(groups)
        groups_layout.setContentsMargins(0, 0, 0, 0)
        for n, metric in enumerate(METRICS.values()):
            box = QGroupBox(metric.label)
            box.setObjectName(f"group.{metric.key}")
            box.setToolTip(metric.description)
            form = QFormLayout(box)
            for spec in metric.settings:
                widget = _setting_widget(metric, spec)
                self.setting_widgets[(metric.key, spec.key)] = widget
                if spec.kind == "flag":
                    form.addRow("", widget)
                else:
                    label = QLabel(spec.label)
                    label.setToolTip(widget.toolTip())
                    label.setBuddy(widget)
                    form.addRow(label, widget)
                self._connect(widget)
            groups_layout.addWidget(box, n // _GROUP_COLUMNS, n % _GROUP_COLUMNS)
            self.metric_groups[metric.key] = box

        separator_help = QCoreApplication.translate("settings", _SEPARATOR_HELP)
        text_box = QGroupBox(QCoreApplication.translate("SettingsPanel", "Text"))
        text_form = QFormLayout(text_box)
        self.separator_combo = QComboBox()
        self.separator_combo.setObjectName("text.sentence_separator")
        for label, value in LSUM_SEPARATORS.items():
            self.separator_combo.addItem(label, NO_SEPARATOR if value is None else value)
        self.separator_combo.addItem(CUSTOM_SEPARATOR, CUSTOM_SEPARATOR)
        self.separator_combo.setToolTip(separator_help)
        self.separator_edit = QLineEdit()
        self.separator_edit.setObjectName("text.custom_separator")
        self.separator_edit.setPlaceholderText(
            QCoreApplication.translate("SettingsPanel", "separator text, e.g. </s>")
        )
        self.separator_edit.setToolTip(separator_help)
        separator_row = QHBoxLayout()
        separator_row.addWidget(self.separator_combo, 1)
        separator_row.addWidget(self.separator_edit, 1)
        separator_label = QLabel(QCoreApplication.translate("SettingsPanel", "Sentence separator"))
        separator_label.setToolTip(separator_help)
        separator_label.setBuddy(self.separator_combo)
        text_form.addRow(separator_label, separator_row)
        self.separator_combo.currentIndexChanged.connect(self._on_widget_changed)
        self.separator_edit.textChanged.connect(self._on_widget_changed)
        rows = (len(METRICS) + _GROUP_COLUMNS - 1) // _GROUP_COLUMNS
        groups_layout.addWidget(text_box, rows, 0, 1, _GROUP_COLUMNS)
        groups_layout.setRowStretch(rows + 1, 1)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(groups)
        # Everything visible at once where the screen allows; scrolled otherwise.
        hint = groups.sizeHint()
        scroll.setMinimumWidth(hint.width() + scroll.verticalScrollBar().sizeHint().width())
        scroll.setMinimumHeight(min(hint.height(), _MAX_SCROLL_HEIGHT))

        self.error_label = QLabel()
        self.error_label.setObjectName("error")
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setStyleSheet("color: #b00020;")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        self.signature_label = QLabel()
        self.signature_label.setObjectName("signature")
        self.signature_label.setTextFormat(Qt.TextFormat.PlainText)
        self.signature_label.setWordWrap(True)
        self.signature_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        layout = QVBoxLayout(self)
        layout.addWidget(metrics_box)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.signature_label)

        self.set_config(config or ScoringConfig())

    def _connect(self, widget: QWidget) -> None:
        if isinstance(widget, QComboBox):
            widget.currentIndexChanged.connect(self._on_widget_changed)
        elif isinstance(widget, QCheckBox):
            widget.toggled.connect(self._on_widget_changed)
        elif isinstance(widget, QSpinBox):
            widget.valueChanged.connect(self._on_widget_changed)
        elif isinstance(widget, QLineEdit):
            widget.textChanged.connect(self._on_widget_changed)

    # -- public API ----------------------------------------------------------------------------

    def config(self) -> ScoringConfig:
        """The configuration the widgets describe (the last valid one while they are invalid)."""
        return self._last

    def error(self) -> str:
        """Why the widgets describe no valid configuration ("" when they do)."""
        return self._error

    def widget(self, metric: str, setting: str) -> QWidget:
        """The widget of ``setting`` of ``metric``."""
        return self.setting_widgets[(metric, setting)]

    def set_config(self, config: ScoringConfig) -> None:
        """Show ``config`` in the widgets, without emitting :attr:`config_changed`."""
        self._updating = True
        try:
            for key, check in self.metric_checks.items():
                check.setChecked(key in config.metrics)
            for metric in METRICS.values():
                values = config.settings(metric.key).to_dict()
                for spec in metric.settings:
                    self._show_value(self.widget(metric.key, spec.key), spec, values[spec.key])
            sep = config.sentence_separator
            index = self.separator_combo.findData(NO_SEPARATOR if sep is None else sep)
            if index < 0:
                index = self.separator_combo.findData(CUSTOM_SEPARATOR)
                self.separator_edit.setText(sep or "")
            else:
                self.separator_edit.clear()
            self.separator_combo.setCurrentIndex(index)
        finally:
            self._updating = False
        self._last = config
        self._sync_enabled()
        self._show_state(config, "")

    def set_nrefs(self, nrefs: int) -> None:
        """The number of references, for the signature preview."""
        self._nrefs = max(1, nrefs)
        self._show_state(self._last, self._error)

    @Slot()
    def focus_lsum_separator(self) -> None:
        """Put the keyboard focus on the sentence separator chooser (ROUGE-Lsum's sentences)."""
        self.separator_combo.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- internals -----------------------------------------------------------------------------

    @staticmethod
    def _show_value(widget: QWidget, spec: Setting, value: object) -> None:
        if isinstance(widget, QComboBox):
            index = widget.findData(value)
            if index < 0:
                raise SettingError(f"{spec.cli}: no such choice {value!r}")
            widget.setCurrentIndex(index)
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QSpinBox):
            widget.setValue(int(value))  # type: ignore[call-overload]
        elif isinstance(widget, QLineEdit):
            widget.setText("" if value is None else repr(float(value)))  # type: ignore[arg-type]

    @staticmethod
    def _value(widget: QWidget, spec: Setting) -> object:
        if isinstance(widget, QComboBox):
            return widget.currentData()
        if isinstance(widget, QCheckBox):
            return widget.isChecked()
        if isinstance(widget, QSpinBox):
            return widget.value()
        text = widget.text().strip() if isinstance(widget, QLineEdit) else ""
        if not text:
            if spec.optional:
                return None
            raise SettingError(f"{spec.label} ({spec.cli}) needs a value")
        try:
            return float(text)
        except ValueError:
            raise SettingError(f"{spec.cli} must be a number; got {text!r}") from None

    def _read(self) -> ScoringConfig:
        """The configuration of the widgets; SettingError (core's message) when invalid."""
        metrics = tuple(key for key, check in self.metric_checks.items() if check.isChecked())
        options: list[MetricSettings] = []
        for metric in METRICS.values():
            values = {
                spec.key: self._value(self.widget(metric.key, spec.key), spec)
                for spec in metric.settings
            }
            options.append(metric.settings_type.from_dict(values))
        sep = self.separator_combo.currentData()
        if sep == NO_SEPARATOR:
            sep = None
        elif sep == CUSTOM_SEPARATOR:
            sep = self.separator_edit.text()
            if not sep:
                raise SettingError("type a custom sentence separator, or pick a named one")
        return ScoringConfig(metrics=metrics, sentence_separator=sep, options=tuple(options))

    def _sync_enabled(self) -> None:
        for key, check in self.metric_checks.items():
            self.metric_groups[key].setEnabled(check.isChecked())
        custom = self.separator_combo.currentData() == CUSTOM_SEPARATOR
        self.separator_edit.setVisible(custom)

    def _show_state(self, config: ScoringConfig, error: str) -> None:
        self._error = error
        signatures = config.signatures(self._nrefs)
        self.signature_label.setText("\n".join(f"{k}: {v}" for k, v in signatures.items()))
        self.signature_label.setToolTip(config.signature(self._nrefs))
        self.error_label.setText(error)
        self.error_label.setVisible(bool(error))

    @Slot()
    def _on_widget_changed(self) -> None:
        if self._updating:
            return
        self._sync_enabled()
        try:
            config = self._read()
        except (SettingError, TypeError) as exc:
            self._show_state(self._last, str(exc) or type(exc).__name__)
            self.edited.emit()
            return
        self._show_state(config, "")
        if config != self._last:
            self._last = config
            self.config_changed.emit(config)
        self.edited.emit()


class SettingsDialog(QDialog):
    """The settings panel with OK / Apply / Cancel / Restore Defaults; never blocks (use open()).

    OK and Apply are disabled while the widgets describe no valid configuration.

    Signals:
        config_applied(object): the user applied a :class:`ScoringConfig` (OK or Apply).
    """

    config_applied = Signal(object)

    def __init__(self, config: ScoringConfig, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            QCoreApplication.translate("SettingsDialog", "Scoring settings — Matchlight")
        )
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
        self.panel.edited.connect(self._update_buttons)
        self._update_buttons()

    def config(self) -> ScoringConfig:
        """The configuration the dialog shows (the last valid one)."""
        return self.panel.config()

    def set_nrefs(self, nrefs: int) -> None:
        self.panel.set_nrefs(nrefs)

    @Slot()
    def _update_buttons(self) -> None:
        valid = not self.panel.error()
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(valid)
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).setEnabled(
            valid and self.panel.config() != self._applied
        )

    @Slot(QAbstractButton)
    def _on_button_clicked(self, button: QAbstractButton) -> None:
        role = self.buttons.standardButton(button)
        if role == QDialogButtonBox.StandardButton.RestoreDefaults:
            self.panel.set_config(ScoringConfig())
            self._update_buttons()
            return
        if role == QDialogButtonBox.StandardButton.Cancel:
            self.reject()
            return
        if self.panel.error():
            return
        config = self.panel.config()
        if config != self._applied:
            self._applied = config
            self.config_applied.emit(config)
        self._update_buttons()
        if role == QDialogButtonBox.StandardButton.Ok:
            self.accept()
