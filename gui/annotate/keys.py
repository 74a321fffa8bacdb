"""The annotation keyboard: every shortcut in one table, for the actions and for Help ▸ Keyboard.

The single-key shortcuts act while the keyboard focus is in the segment table, the detail pane,
the annotation panel or the annotation view (never while typing in a search field or a note).
Keys are written the portable way :class:`QKeySequence` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SHORTCUTS", "Shortcut", "annotation_shortcuts", "keys_of"]


@dataclass(frozen=True, slots=True)
class Shortcut:
    """One annotation command: its name, keys, menu text and what it does."""

    name: str
    keys: tuple[str, ...]
    text: str
    help: str


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut(
        "focus_text",
        ("T",),
        "Select in the &output",
        "Put the text cursor in the current system's output (select with Shift+arrows)",
    ),
    Shortcut(
        "focus_source",
        ("Shift+T",),
        "Select in the s&ource",
        "Put the text cursor in the source, to mark a source error or an omission (the source "
        "words the output left out); in the annotation view",
    ),
    Shortcut(
        "minor",
        ("M",),
        "&Minor",
        "Severity minor (m) for the drafted error or the error under the cursor",
    ),
    Shortcut(
        "major",
        ("Shift+M",),
        "M&ajor",
        "Severity major (Shift+M, capital M) for the drafted error or the error under the cursor",
    ),
    Shortcut(
        "critical",
        ("C", "Shift+C"),
        "&Critical",
        "Severity critical for the drafted error or the error under the cursor",
    ),
    Shortcut(
        "confirm",
        ("Return", "Enter"),
        "&Add or confirm error",
        "Add the drafted error; confirm the pre-annotated error under the cursor",
    ),
    Shortcut(
        "remove",
        ("Backspace", "Del"),
        "&Remove error",
        "Delete the error under the cursor (a pre-annotation is rejected)",
    ),
    Shortcut(
        "cancel",
        ("Esc",),
        "Drop the &draft",
        "Drop the drafted error and the selection; from a field of the annotation view, back to "
        "the text",
    ),
    Shortcut(
        "note", ("F2",), "&Note…", "Write the note of the drafted error or the one under the cursor"
    ),
    Shortcut(
        "done",
        ("D",),
        "Output &done",
        "Mark this output as annotated (no further errors; in ESA mode: save the score)",
    ),
    Shortcut("score", ("E",), "ESA &score…", "Type this output's ESA score (0–100)"),
    Shortcut("next_span", ("]",), "Next error", "Select the next error in this output"),
    Shortcut("previous_span", ("[",), "Previous error", "Select the previous error in this output"),
    Shortcut("next_segment", ("N",), "&Next segment", "Next row of the table"),
    Shortcut("previous_segment", ("P",), "&Previous segment", "Previous row of the table"),
    Shortcut("next_system", ("S",), "Next s&ystem", "Annotate the next system's output"),
    Shortcut(
        "previous_system", ("Shift+S",), "Previous sys&tem", "Annotate the previous system's output"
    ),
    Shortcut(
        "next_unannotated",
        ("U",),
        "Next &unannotated",
        "The next row whose output of the current system is not annotated yet",
    ),
    Shortcut(
        "previous_unannotated",
        ("Shift+U",),
        "Previous unannotated",
        "The previous row whose output of the current system is not annotated yet",
    ),
    Shortcut(
        "go_to_segment",
        ("Ctrl+G",),
        "&Go to segment…",
        "Go to a segment by its number (Enter goes, Escape returns to the text)",
    ),
    Shortcut(
        "annotation_view",
        ("Ctrl+Shift+A",),
        "Annotation &view",
        "A window made for annotating: the output with its source, its document's neighbouring "
        "segments, every category, severity and the score in sight",
    ),
    Shortcut(
        "evidence",
        ("V",),
        "Metric e&vidence",
        "In the annotation view: show or hide the references with this output's matches, its "
        "scores and why (Escape hides it too)",
    ),
    Shortcut("undo", ("Ctrl+Z",), "&Undo", "Undo the last annotation edit"),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "&Redo", "Redo the annotation edit undone last"),
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
            "Error category 1–9 (press again for its sub-categories; not in ESA mode)",
            "1 … 9",
        )
    ]
    rows += [(s.help, "  or  ".join(s.keys)) for s in SHORTCUTS]
    rows += [
        (
            "Annotation view: select an error by clicking its first word, then its last word "
            "(one word: one click), or by dragging (whole words are taken)",
            "Click, click  or  drag",
        ),
        (
            "Annotation view: move by words, or select word by word, as a click does",
            "Ctrl+Left / Ctrl+Right  (with Shift: select)",
        ),
        ("Annotation view: the ESA score by one, by ten", "Arrows, Page Up / Page Down"),
        ("Open a session file", "Ctrl+Shift+O"),
        ("Save the session as…", "Ctrl+Shift+S"),
    ]
    return rows
