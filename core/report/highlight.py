"""A line of text with core's highlight ranges and annotation spans, as escaped HTML.

The app paints :class:`~core.metrics.base.Range` lists with ``QTextCharFormat`` merges, later
ranges over earlier ones; here every character gets the tint and the underline of the last range
covering it, and runs of characters with the same look become one ``<span>``. Error spans
(:class:`~core.annotation.model.ErrorSpan`) are boxes around their characters, numbered after
their end; an omission is a caret at its point. The text itself only ever goes through
:func:`html.escape`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from matchlight.core.annotation.model import ErrorSpan, Severity, Status
from matchlight.core.metrics.base import Range

__all__ = [
    "MAX_CHARS",
    "SEVERITY_ORDER",
    "clean_text",
    "esc",
    "highlight_classes",
    "highlighted_html",
]

#: At most this many characters of one text are shown (the app's cells and detail pane too).
MAX_CHARS: Final = 2000

#: Severities from least to most severe: the box of overlapping spans shows the worst.
SEVERITY_ORDER: Final = (Severity.NEUTRAL, Severity.MINOR, Severity.MAJOR, Severity.CRITICAL)

# Lone surrogates cannot be written as UTF-8, and C0 controls other than tab, newline and
# carriage return are not allowed in HTML text: each becomes U+FFFD, one for one, so that
# character offsets stay those of the original line.
_UNWRITABLE: Final = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_TINTED: Final = frozenset({"match", "missed", "lcs"})
_UNDERLINED: Final = {"unmatched": "uu", "missed": "ux", "lcs": "ul"}
# TER's edits (core.metrics.ter.TerEditLayer): a word's tint and line, and the marks at a point
# (an empty range), drawn by CSS generated content so the text itself stays the line's.
_TER_TINT: Final = {"ter_sub": "tsb", "ter_ins": "tin"}
_TER_LINE: Final = {"ter_sub": "tsb-l", "ter_del": "tdl", "ter_shift": "tsh"}
_TER_POINT: Final = {"ter_dest": "tdest", "ter_gap": "tgap"}


def clean_text(text: str) -> str:
    """``text`` with characters HTML cannot carry replaced one for one by U+FFFD."""
    return _UNWRITABLE.sub("\ufffd", text)


def esc(text: str) -> str:
    """User text as HTML text or attribute content: cleaned, then every markup character
    escaped (``& < > " '``)."""
    return html.escape(clean_text(text), quote=True)


def highlight_classes(kind: str, level: int) -> tuple[str | None, str | None]:
    """The CSS classes (tint, underline) a range of ``kind`` gives its characters."""
    tint = _TER_TINT.get(kind)
    if kind in _TINTED:
        tint = f"m{level}" if kind == "match" else ("tx" if kind == "missed" else "tl")
    return tint, _UNDERLINED.get(kind, _TER_LINE.get(kind))


@dataclass(frozen=True, slots=True)
class _Mark:
    number: int
    span: ErrorSpan


def _error_class(spans: Iterable[ErrorSpan]) -> str:
    worst = max(
        spans, key=lambda s: (SEVERITY_ORDER.index(s.severity), s.status is Status.CONFIRMED)
    )
    style = "" if worst.status is Status.CONFIRMED else " undecided"
    return f"err sev-{worst.severity.value}{style}"


def highlighted_html(
    text: str,
    ranges: Iterable[Range],
    *,
    spans: Sequence[ErrorSpan] = (),
    max_chars: int = MAX_CHARS,
    titles: Sequence[tuple[int, int, str]] = (),
) -> tuple[str, bool]:
    """``text`` as HTML with ``ranges`` painted and ``spans`` boxed (spans are numbered 1, 2...
    in the order given). Returns the HTML and whether the text was cut at ``max_chars``.

    Empty ranges of TER's point kinds (``ter_dest``, ``ter_gap``) become empty marks at their
    place; ``titles`` ``(start, end, text)`` give the characters ``start:end`` (or the point
    mark at ``start`` when ``start == end``) a tooltip, the first title covering them."""
    shown = clean_text(text[:max_chars])
    cut = len(text) > max_chars
    n = len(shown)
    tints: list[str | None] = [None] * n
    lines: list[str | None] = [None] * n
    tips: list[str | None] = [None] * n
    pointed: dict[int, list[str]] = {}
    for start, end, text_ in reversed(titles):
        a, b = max(start, 0), min(end, n)
        if start == end and 0 <= start <= n:
            pointed.setdefault(start, []).insert(0, text_)
        elif a < b:
            tips[a:b] = [text_] * (b - a)
    point_marks: dict[int, list[str]] = {}
    for start, end, kind, level in ranges:
        a, b = max(start, 0), min(end, n)
        if start == end and kind in _TER_POINT and 0 <= start <= n:
            title = pointed.get(start, [])
            tip = f' title="{html.escape(title.pop(0), quote=True)}"' if title else ""
            point_marks.setdefault(start, []).append(
                f'<span class="{_TER_POINT[kind]}"{tip}></span>'
            )
            continue
        if a >= b:
            continue
        tint, line = highlight_classes(kind, level)
        if tint is not None:
            tints[a:b] = [tint] * (b - a)
        if line is not None:
            lines[a:b] = [line] * (b - a)
    covering: list[list[ErrorSpan]] = [[] for _ in range(n)]
    ends: dict[int, list[_Mark]] = {}
    points: dict[int, list[_Mark]] = {}
    for number, span in enumerate(spans, start=1):
        mark = _Mark(number, span)
        if span.start > n:
            continue
        if span.is_omission:
            points.setdefault(span.start, []).append(mark)
            continue
        for k in range(span.start, min(span.end, n)):
            covering[k].append(span)
        if span.end <= n:
            ends.setdefault(span.end, []).append(mark)

    out: list[str] = []

    def markers(position: int) -> None:
        out.extend(point_marks.get(position, ()))
        for mark in points.get(position, ()):
            sev = mark.span.severity.value
            out.append(
                f'<span class="omit sev-{sev}" title="omission">\u2038'
                f'<sup class="enum">{mark.number}</sup></span>'
            )
        for mark in ends.get(position, ()):
            out.append(f'<sup class="enum sev-{mark.span.severity.value}">{mark.number}</sup>')

    markers(0)
    k = 0
    while k < n:
        errors = covering[k]
        stop = k + 1
        while (
            stop < n
            and covering[stop] == errors
            and stop not in ends
            and stop not in points
            and stop not in point_marks
        ):
            stop += 1
        if errors:
            out.append(f'<span class="{_error_class(errors)}">')
        j = k
        while j < stop:
            look = (tints[j], lines[j], tips[j])
            e = j + 1
            while e < stop and (tints[e], lines[e], tips[e]) == look:
                e += 1
            piece = html.escape(shown[j:e], quote=True)
            classes = " ".join(c for c in look[:2] if c)
            tip = "" if look[2] is None else f' title="{html.escape(look[2], quote=True)}"'
            if classes or tip:
                attr = f' class="{classes}"' if classes else ""
                out.append(f"<span{attr}{tip}>{piece}</span>")
            else:
                out.append(piece)
            j = e
        if errors:
            out.append("</span>")
        markers(stop)
        k = stop
    return "".join(out), cut
