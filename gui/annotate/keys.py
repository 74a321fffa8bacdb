"""The annotation keyboard: every shortcut in one table, for the actions and for Help ▸ Keyboard.

The single-key shortcuts act while the keyboard focus is in the segment table, the detail pane,
the annotation panel or the annotation view (never while typing in a search field or a note).
Keys are written the portable way :class:`QKeySequence` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

__all__ = ["SHORTCUTS", "Shortcut", "annotation_shortcuts", "keys_of"]


@dataclass(frozen=True, slots=True)
class Shortcut:
    """One annotation command: its name, keys, menu text and what it does (``text`` and
    ``help`` in English, as the translation catalogue knows them; :meth:`menu_text` and
    :meth:`help_text` say them in the interface language). The keys are never translated."""

    name: str
    keys: tuple[str, ...]
    text: str
    help: str

    def menu_text(self) -> str:
        return QCoreApplication.translate("keys", self.text)

    def help_text(self) -> str:
        return QCoreApplication.translate("keys", self.help)


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut(
        "focus_text",
        ("T",),
        QT_TRANSLATE_NOOP("keys", "Select in the &output"),
        QT_TRANSLATE_NOOP(
            "keys", "Put the text cursor in the current system's output (select with Shift+arrows)"
        ),
    ),
    Shortcut(
        "focus_source",
        ("Shift+T",),
        QT_TRANSLATE_NOOP("keys", "Select in the s&ource"),
        QT_TRANSLATE_NOOP(
            "keys",
            "Put the text cursor in the source, to mark a source error or an omission (the source "
            "words the output left out); in the annotation view",
        ),
    ),
    Shortcut(
        "minor",
        ("M",),
        QT_TRANSLATE_NOOP("keys", "&Minor"),
        QT_TRANSLATE_NOOP(
            "keys", "Severity minor (m) for the drafted error or the error under the cursor"
        ),
    ),
    Shortcut(
        "major",
        ("Shift+M",),
        QT_TRANSLATE_NOOP("keys", "M&ajor"),
        QT_TRANSLATE_NOOP(
            "keys",
            "Severity major (Shift+M, capital M) for the drafted error or the error under the "
            "cursor",
        ),
    ),
    Shortcut(
        "critical",
        ("C", "Shift+C"),
        QT_TRANSLATE_NOOP("keys", "&Critical"),
        QT_TRANSLATE_NOOP(
            "keys", "Severity critical for the drafted error or the error under the cursor"
        ),
    ),
    Shortcut(
        "confirm",
        ("Return", "Enter"),
        QT_TRANSLATE_NOOP("keys", "&Add or confirm error"),
        QT_TRANSLATE_NOOP(
            "keys", "Add the drafted error; confirm the pre-annotated error under the cursor"
        ),
    ),
    Shortcut(
        "remove",
        ("Backspace", "Del"),
        QT_TRANSLATE_NOOP("keys", "&Remove error"),
        QT_TRANSLATE_NOOP(
            "keys", "Delete the error under the cursor (a pre-annotation is rejected)"
        ),
    ),
    Shortcut(
        "cancel",
        ("Esc",),
        QT_TRANSLATE_NOOP("keys", "Drop the &draft"),
        QT_TRANSLATE_NOOP(
            "keys",
            "Drop the drafted error and the selection; from a field of the annotation view, back "
            "to the text",
        ),
    ),
    Shortcut(
        "note",
        ("F2",),
        QT_TRANSLATE_NOOP("keys", "&Note…"),
        QT_TRANSLATE_NOOP(
            "keys", "Write the note of the drafted error or the one under the cursor"
        ),
    ),
    Shortcut(
        "done",
        ("D",),
        QT_TRANSLATE_NOOP("keys", "Output &done"),
        QT_TRANSLATE_NOOP(
            "keys", "Mark this output as annotated (no further errors; in ESA mode: save the score)"
        ),
    ),
    Shortcut(
        "score",
        ("E",),
        QT_TRANSLATE_NOOP("keys", "ESA &score…"),
        QT_TRANSLATE_NOOP("keys", "Type this output's ESA score (0–100)"),
    ),
    Shortcut(
        "next_span",
        ("]",),
        QT_TRANSLATE_NOOP("keys", "Next error"),
        QT_TRANSLATE_NOOP("keys", "Select the next error in this output"),
    ),
    Shortcut(
        "previous_span",
        ("[",),
        QT_TRANSLATE_NOOP("keys", "Previous error"),
        QT_TRANSLATE_NOOP("keys", "Select the previous error in this output"),
    ),
    Shortcut(
        "next_segment",
        ("N",),
        QT_TRANSLATE_NOOP("keys", "&Next segment"),
        QT_TRANSLATE_NOOP("keys", "Next row of the table"),
    ),
    Shortcut(
        "previous_segment",
        ("P",),
        QT_TRANSLATE_NOOP("keys", "&Previous segment"),
        QT_TRANSLATE_NOOP("keys", "Previous row of the table"),
    ),
    Shortcut(
        "next_system",
        ("S",),
        QT_TRANSLATE_NOOP("keys", "Next s&ystem"),
        QT_TRANSLATE_NOOP("keys", "Annotate the next system's output"),
    ),
    Shortcut(
        "previous_system",
        ("Shift+S",),
        QT_TRANSLATE_NOOP("keys", "Previous sys&tem"),
        QT_TRANSLATE_NOOP("keys", "Annotate the previous system's output"),
    ),
    Shortcut(
        "next_unannotated",
        ("U",),
        QT_TRANSLATE_NOOP("keys", "Next &unannotated"),
        QT_TRANSLATE_NOOP(
            "keys", "The next row whose output of the current system is not annotated yet"
        ),
    ),
    Shortcut(
        "previous_unannotated",
        ("Shift+U",),
        QT_TRANSLATE_NOOP("keys", "Previous unannotated"),
        QT_TRANSLATE_NOOP(
            "keys", "The previous row whose output of the current system is not annotated yet"
        ),
    ),
    Shortcut(
        "go_to_segment",
        ("Ctrl+G",),
        QT_TRANSLATE_NOOP("keys", "&Go to segment…"),
        QT_TRANSLATE_NOOP(
            "keys", "Go to a segment by its number (Enter goes, Escape returns to the text)"
        ),
    ),
    Shortcut(
        "annotation_view",
        ("Ctrl+Shift+A",),
        QT_TRANSLATE_NOOP("keys", "Annotation &view"),
        QT_TRANSLATE_NOOP(
            "keys",
            "A window made for annotating: the output with its source, its document's neighbouring "
            "segments, every category, severity and the score in sight",
        ),
    ),
    Shortcut(
        "evidence",
        ("V",),
        QT_TRANSLATE_NOOP("keys", "Metric e&vidence"),
        QT_TRANSLATE_NOOP(
            "keys",
            "In the annotation view: show or hide the references with this output's matches, its "
            "scores and why (Escape hides it too)",
        ),
    ),
    Shortcut(
        "undo",
        ("Ctrl+Z",),
        QT_TRANSLATE_NOOP("keys", "&Undo"),
        QT_TRANSLATE_NOOP("keys", "Undo the last annotation edit"),
    ),
    Shortcut(
        "redo",
        ("Ctrl+Shift+Z", "Ctrl+Y"),
        QT_TRANSLATE_NOOP("keys", "&Redo"),
        QT_TRANSLATE_NOOP("keys", "Redo the annotation edit undone last"),
    ),
)

_BY_NAME = {s.name: s for s in SHORTCUTS}


def keys_of(name: str) -> tuple[str, ...]:
    """The keys of the shortcut ``name`` (KeyError for an unknown name)."""
    return _BY_NAME[name].keys


def annotation_shortcuts() -> list[tuple[str, str]]:
    """(what it does, keys) of every annotation shortcut, for Help ▸ Keyboard shortcuts (the
    rows of its table).

    The category keys come first: 1–9 pick the typology's categories in order; pressing the
    same number again steps through that category's sub-categories.
    """
    rows = [
        (
            QCoreApplication.translate(
                "keys", "Error category 1–9 (press again for its sub-categories; not in ESA mode)"
            ),
            "1 … 9",
        )
    ]
    either = QCoreApplication.translate("keys", "  or  ")
    rows += [(s.help_text(), either.join(s.keys)) for s in SHORTCUTS]
    rows += [
        (
            QCoreApplication.translate(
                "keys",
                "Annotation view: select an error by clicking its first word, then its last word "
                "(one word: one click), or by dragging (whole words are taken)",
            ),
            QCoreApplication.translate("keys", "Click, click  or  drag"),
        ),
        (
            QCoreApplication.translate(
                "keys", "Annotation view: move by words, or select word by word, as a click does"
            ),
            QCoreApplication.translate("keys", "Ctrl+Left / Ctrl+Right  (with Shift: select)"),
        ),
        (
            QCoreApplication.translate("keys", "Annotation view: the ESA score by one, by ten"),
            QCoreApplication.translate("keys", "Arrows, Page Up / Page Down"),
        ),
        (QCoreApplication.translate("keys", "Open a session file"), "Ctrl+Shift+O"),
        (QCoreApplication.translate("keys", "Save the session as…"), "Ctrl+Shift+S"),
    ]
    return rows
