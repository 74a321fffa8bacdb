"""TER on one row: the edit path as character spans, the highlights, and the "why this score"
block.

:func:`ter_row` finds every output's path against every reference of a row
(:mod:`core.metrics.teralign`) and :func:`ter_path` turns one into spans of the original lines;
:class:`TerLayer` and :class:`TerEditLayer` are what the app paints, :class:`TerRowDetail`
what its detail pane and the report show for a row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from matchlight.core.metrics.base import (
    Block,
    HighlightLayer,
    MetricRowDetail,
    Range,
    Run,
    check_detail_size,
    mask_separator,
)
from matchlight.core.metrics.teralign import (
    EditKind,
    TerAlignment,
    perform_shift,
    ter_alignments,
    ter_from_stats,
)
from matchlight.core.text.tercom import TercomTokenizer
from matchlight.core.text.types import Span, Tokens

__all__ = [
    "TER_DEL",
    "TER_DEST",
    "TER_EDIT_KINDS",
    "TER_GAP",
    "TER_INS",
    "TER_SHIFT",
    "TER_SUB",
    "TerEdit",
    "TerEditLayer",
    "TerGapMark",
    "TerLayer",
    "TerMove",
    "TerPath",
    "TerRow",
    "TerRowDetail",
    "TerShiftMark",
    "ter_block",
    "ter_gap_marks",
    "ter_path",
    "ter_row",
    "ter_shift_marks",
]


@dataclass(frozen=True, slots=True)
class TerEdit:
    """One step of the final alignment, as spans of the original lines: a ``match`` or
    ``substitution`` has both, a ``deletion`` (an output word the reference lacks) only
    ``output``, an ``insertion`` (a reference word the output lacks) only ``reference``.
    ``shifted``: the output word is one a shift moved."""

    kind: EditKind
    output: Span | None
    reference: Span | None
    shifted: bool


@dataclass(frozen=True, slots=True)
class TerMove:
    """One shift as spans of the original lines: the moved output words (``words``, in the
    order they move); the output word they end up before (``before``; None: after the last
    word) and its start, the character offset they move to (``to``; the end of the last word
    when ``before`` is None); and the reference words they are aligned with once all shifts
    are made (``reference``; empty when none)."""

    words: tuple[Span, ...]
    before: Span | None
    to: int
    reference: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class TerPath:
    """An output's TER path against one reference, word indices and character spans.

    ``alignment`` is :func:`ter_alignments`' result; ``edits`` its final alignment and
    ``moves`` its shifts as spans of ``output`` and ``reference`` (the original lines).
    """

    output: Tokens
    reference: Tokens
    alignment: TerAlignment
    edits: tuple[TerEdit, ...]
    moves: tuple[TerMove, ...]

    @property
    def num_edits(self) -> int:
        return self.alignment.num_edits


def ter_path(output: Tokens, reference: Tokens, alignment: TerAlignment) -> TerPath:
    """:class:`TerPath` of ``alignment``, found between ``output.words`` and
    ``reference.words``."""
    if len(alignment.order) != len(output) or alignment.ref_length != len(reference):
        raise ValueError("the alignment is not one of these words")
    out, ref = output.spans, reference.spans
    moved = {w for shift in alignment.shifts for w in shift.words}
    partner: dict[int, int] = {}
    edits: list[TerEdit] = []
    for kind, h, r in alignment.steps:
        if h >= 0 and r >= 0:
            partner[h] = r
        edits.append(
            TerEdit(kind, out[h] if h >= 0 else None, ref[r] if r >= 0 else None, h in moved)
        )
    moves: list[TerMove] = []
    order = list(range(len(output)))
    for shift in alignment.shifts:
        order = perform_shift(order, shift.start, shift.length, shift.target)
        at = order.index(shift.words[-1]) + 1
        before = out[order[at]] if at < len(order) else None
        moves.append(
            TerMove(
                words=tuple(out[w] for w in shift.words),
                before=before,
                to=out[-1][1] if before is None else before[0],
                reference=tuple(ref[partner[w]] for w in shift.words if w in partner),
            )
        )
    return TerPath(output, reference, alignment, tuple(edits), tuple(moves))


@dataclass(frozen=True, slots=True)
class TerRow:
    """TER on one row: ``paths[s][r]`` is system ``s``'s path against reference ``r``;
    ``best[s]`` the reference sacreBLEU keeps (fewest edits, the first on a tie) and
    ``scores[s]`` the sentence TER."""

    references: tuple[Tokens, ...]
    outputs: tuple[Tokens, ...]
    paths: tuple[tuple[TerPath, ...], ...]
    best: tuple[int, ...]
    scores: tuple[float, ...]

    def path(self, system: int) -> TerPath:
        return self.paths[system][self.best[system]]

    def average_length(self) -> float:
        return sum(len(t) for t in self.references) / len(self.references)


def ter_row(
    tokenizer: TercomTokenizer,
    references: Sequence[str],
    outputs: Sequence[str],
    *,
    separator: str | None = None,
) -> TerRow:
    """Every output's TER path against every reference of one row (sentence separators
    blanked, see :func:`~core.metrics.base.mask_separator`)."""
    if len(references) == 0:
        raise ValueError("TER needs at least one reference")
    refs = tuple(tokenizer.tokenize_reference(mask_separator(x, separator)) for x in references)
    outs = tuple(tokenizer.tokenize(mask_separator(x, separator)) for x in outputs)
    check_detail_size(max(len(t) for t in (*refs, *outs)))
    found = ter_alignments([(o.words, r.words) for o in outs for r in refs])
    paths = tuple(
        tuple(ter_path(o, r, found[s * len(refs) + k]) for k, r in enumerate(refs))
        for s, o in enumerate(outs)
    )
    # The first reference with the fewest edits, as sacreBLEU's strict ``<``.
    best = tuple(int(np.argmin([q.num_edits for q in p])) for p in paths)
    total = sum(len(r) for r in refs)
    scores = ter_from_stats([p[b].num_edits for p, b in zip(paths, best)], total, len(refs))
    return TerRow(refs, outs, paths, best, tuple(float(x) for x in np.atleast_1d(scores)))


class TerLayer(HighlightLayer):
    """The words TER's alignment matched: an output against the reference sacreBLEU keeps for
    it (words substituted or deleted are ``unmatched``); a reference as each system's path
    against it alone aligned it (words no system matched are ``missed``). Links pair the
    matched words."""

    key = "ter"
    label = "TER alignment"
    max_level = 1

    def __init__(self, row: TerRow) -> None:
        self._row = row
        # The matched (output word, reference word) pairs of every path, [system][reference].
        self._pairs = [
            [[(h, r) for kind, h, r in path.alignment.steps if kind == "match"] for path in paths]
            for paths in row.paths
        ]

    def hypothesis(self, system: int) -> list[Range]:
        path = self._row.path(system)
        matched = {h for h, _ in self._pairs[system][self._row.best[system]]}
        return [
            (a, b, "match", 1) if i in matched else (a, b, "unmatched", 0)
            for i, (a, b) in enumerate(path.output.spans)
        ]

    def reference(self, reference: int, system: int | None) -> list[Range]:
        per_system = [{r for _, r in pairs[reference]} for pairs in self._pairs]
        anyone: set[int] = set()
        for matched in per_system:
            anyone |= matched
        mine = anyone if system is None else per_system[system]
        ranges: list[Range] = []
        for j, (a, b) in enumerate(self._row.references[reference].spans):
            if j in mine:
                ranges.append((a, b, "match", 1))
            else:
                ranges.append((a, b, "unmatched" if j in anyone else "missed", 0))
        return ranges

    def links(self, system: int, reference: int) -> list[tuple[Span, Span]]:
        path = self._row.paths[system][reference]
        out, ref = path.output.spans, path.reference.spans
        return [(out[h], ref[r]) for h, r in self._pairs[system][reference]]


def _quoted(text: str, spans: Sequence[Span]) -> str:
    words = " ".join(text[a:b] for a, b in spans)
    return f"“{words[:40]}…”" if len(words) > 40 else f"“{words}”"


# -- the edit path as marks to paint -----------------------------------------------------------

#: Range kinds of the "TER edits" layer. Words: ``ter_sub`` (a substituted word, on both
#: sides), ``ter_del`` (an output word the reference lacks), ``ter_ins`` (a reference word the
#: output lacks), ``ter_shift`` (a run of words a shift moved, and the reference words they end
#: up aligned with). Points, as empty ranges ``(p, p, kind, 0)``: ``ter_dest`` where a shifted
#: phrase moves to, ``ter_gap`` where reference words are missing from the output.
TER_SUB: Final = "ter_sub"
TER_DEL: Final = "ter_del"
TER_INS: Final = "ter_ins"
TER_SHIFT: Final = "ter_shift"
TER_DEST: Final = "ter_dest"
TER_GAP: Final = "ter_gap"
TER_EDIT_KINDS: Final = (TER_SUB, TER_DEL, TER_INS, TER_SHIFT, TER_DEST, TER_GAP)


@dataclass(frozen=True, slots=True)
class TerShiftMark:
    """One shift of an output, to paint: ``number`` (1, 2... in the order sacreBLEU makes
    them); the moved words as runs of adjacent words of the original line (``phrases``); the
    character offset they move to (``to``, see :class:`TerMove`); the output word (1-based,
    as written) the phrase starts at, and the place it takes once moved (``to_word``, 1-based
    in the output as the shift leaves it); ``text`` says it in words."""

    number: int
    phrases: tuple[Span, ...]
    to: int
    from_word: int
    to_word: int
    text: str


@dataclass(frozen=True, slots=True)
class TerGapMark:
    """Reference words the output lacks (TER insertions), at the character offset ``at`` of
    the output where the alignment puts them; ``words`` are their spans in the reference and
    ``text`` says it in words."""

    at: int
    words: tuple[Span, ...]
    text: str


def _runs(indices: Sequence[int]) -> list[tuple[int, int]]:
    """Runs ``(first, last)`` of consecutive integers in ``indices`` (sorted first)."""
    runs: list[tuple[int, int]] = []
    for i in sorted(set(indices)):
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def ter_shift_marks(path: TerPath, output: str) -> tuple[TerShiftMark, ...]:
    """The shifts of ``path`` as :class:`TerShiftMark` (spans of ``output``, the line whose
    words ``path.output`` are)."""
    out = path.output.spans
    text = output
    order = list(range(len(out)))
    marks: list[TerShiftMark] = []
    for number, (shift, move) in enumerate(
        zip(path.alignment.shifts, path.moves, strict=True), start=1
    ):
        order = perform_shift(order, shift.start, shift.length, shift.target)
        phrases = tuple((out[a][0], out[b][1]) for a, b in _runs(shift.words))
        to_word = order.index(shift.words[0]) + 1
        place = "to the end" if move.before is None else f"before {_quoted(text, [move.before])}"
        n = shift.length
        first = shift.words[0] + 1
        moved_from = f"word {first}" if n == 1 else f"words {first}–{first + n - 1}"
        moved_to = f"word {to_word}" if n == 1 else f"words {to_word}–{to_word + n - 1}"
        marks.append(
            TerShiftMark(
                number=number,
                phrases=phrases,
                to=move.to,
                from_word=first,
                to_word=to_word,
                text=f"shift {number}: {_quoted(text, move.words)} moved from {moved_from} to "
                f"{moved_to}, {place}",
            )
        )
    return tuple(marks)


def ter_gap_marks(path: TerPath, reference: str) -> tuple[TerGapMark, ...]:
    """The words of ``reference`` (the line whose words ``path.reference`` are) that
    ``path``'s output lacks, grouped by the gap of the output where
    they belong: after the nearest earlier output word (in the shifted order) that no shift
    moved, else before the nearest later one, so that a caret never sits inside a moved
    phrase's old place."""
    out = path.output.spans
    ref = path.reference
    order = path.alignment.order
    moved = {w for shift in path.alignment.shifts for w in shift.words}

    def anchor(k: int) -> int:
        for j in range(k - 1, -1, -1):
            if order[j] not in moved:
                return out[order[j]][1]
        for j in range(k, len(order)):
            if order[j] not in moved:
                return out[order[j]][0]
        if k > 0:
            return out[order[k - 1]][1]
        return out[order[0]][0] if order else 0

    groups: list[tuple[int, list[int]]] = []
    consumed = 0  # output words aligned so far, in the shifted order
    last_gap = -1
    for kind, h, r in path.alignment.steps:
        if h >= 0:
            consumed += 1
            continue
        if kind == "insertion":
            if groups and last_gap == consumed:
                groups[-1][1].append(r)
            else:
                groups.append((consumed, [r]))
                last_gap = consumed
    marks: list[TerGapMark] = []
    for k, words in groups:
        spans = tuple(ref.spans[r] for r in words)
        n = len(words)
        count = "1 word" if n == 1 else f"{n} words"
        marks.append(
            TerGapMark(
                at=anchor(k),
                words=spans,
                text=f"missing here: {_quoted(reference, spans)} ({count} TER inserts)",
            )
        )
    return tuple(marks)


class TerEditLayer(HighlightLayer):
    """TER's edits, to see why a segment needs them: on an output (against the reference
    sacreBLEU keeps for it, :meth:`best`) its substituted and deleted words, the phrases its
    shifts move with the place each moves to, and the gaps where reference words are missing;
    on a reference, as one system's path against it aligned it, the words it substitutes, the
    words it inserts and the words moved output words end up on (with no system: the words no
    system's path aligned). Matched words carry no mark; links pair them with their reference
    words (hovering a shifted word shows where it ends up)."""

    key = "ter_edits"
    label = "TER edits"
    max_level = 1

    def __init__(self, row: TerRow, outputs: Sequence[str], references: Sequence[str]) -> None:
        """``outputs`` and ``references``: the lines ``row`` was found in."""
        self._row = row
        self._outputs = outputs
        self._references = references
        self._shifts: dict[int, tuple[TerShiftMark, ...]] = {}
        self._gaps: dict[int, tuple[TerGapMark, ...]] = {}

    def best(self, system: int) -> int:
        """The reference whose path is shown on ``system``'s output (the fewest edits, the
        first on a tie, as sacreBLEU keeps)."""
        return self._row.best[system]

    def path(self, system: int, reference: int | None = None) -> TerPath:
        """``system``'s path against ``reference`` (None: the one sacreBLEU keeps)."""
        r = self.best(system) if reference is None else reference
        return self._row.paths[system][r]

    def shift_marks(self, system: int) -> tuple[TerShiftMark, ...]:
        found = self._shifts.get(system)
        if found is None:
            found = self._shifts[system] = ter_shift_marks(self.path(system), self._outputs[system])
        return found

    def gap_marks(self, system: int) -> tuple[TerGapMark, ...]:
        found = self._gaps.get(system)
        if found is None:
            found = self._gaps[system] = ter_gap_marks(
                self.path(system), self._references[self.best(system)]
            )
        return found

    def notes(self, system: int) -> list[tuple[int, int, str]]:
        """``(start, end, text)``: what each mark of ``system``'s output means, in words (for
        tooltips); a point mark (a destination, a gap) has ``start == end``."""
        notes: list[tuple[int, int, str]] = []
        for mark in self.shift_marks(system):
            notes += [(a, b, mark.text) for a, b in mark.phrases]
            notes.append((mark.to, mark.to, mark.text))
        notes += [(gap.at, gap.at, gap.text) for gap in self.gap_marks(system)]
        output = self._outputs[system]
        reference = self._references[self.best(system)]
        for edit in self.path(system).edits:
            if edit.output is None:
                continue
            a, b = edit.output
            if edit.kind == "substitution" and edit.reference is not None:
                partner = reference[edit.reference[0] : edit.reference[1]]
                notes.append(
                    (a, b, f"substituted: “{output[a:b]}” for the reference's “{partner}”")
                )
            elif edit.kind == "deletion":
                notes.append((a, b, f"deleted: “{output[a:b]}” (the reference has no word for it)"))
        return notes

    def hypothesis(self, system: int) -> list[Range]:
        path = self.path(system)
        ranges: list[Range] = []
        for edit in path.edits:
            if edit.output is None:
                continue
            if edit.kind == "substitution":
                ranges.append((*edit.output, TER_SUB, 0))
            elif edit.kind == "deletion":
                ranges.append((*edit.output, TER_DEL, 0))
        shifts = self.shift_marks(system)
        ranges += [(a, b, TER_SHIFT, 0) for mark in shifts for a, b in mark.phrases]
        ranges += [(mark.to, mark.to, TER_DEST, 0) for mark in shifts]
        ranges += [(mark.at, mark.at, TER_GAP, 0) for mark in self.gap_marks(system)]
        return ranges

    def reference(self, reference: int, system: int | None) -> list[Range]:
        spans = self._row.references[reference].spans
        if system is None:
            aligned: set[int] = set()
            for paths in self._row.paths:
                aligned |= {r for _, h, r in paths[reference].alignment.steps if h >= 0}
            return [(a, b, TER_INS, 0) for j, (a, b) in enumerate(spans) if j not in aligned]
        path = self._row.paths[system][reference]
        moved = {w for shift in path.alignment.shifts for w in shift.words}
        ranges: list[Range] = []
        landed: list[int] = []
        for kind, h, r in path.alignment.steps:
            if kind == "substitution":
                ranges.append((*spans[r], TER_SUB, 0))
            elif kind == "insertion":
                ranges.append((*spans[r], TER_INS, 0))
            if h in moved and r >= 0:
                landed.append(r)
        ranges += [(spans[a][0], spans[b][1], TER_SHIFT, 0) for a, b in _runs(landed)]
        return ranges

    def links(self, system: int, reference: int) -> list[tuple[Span, Span]]:
        path = self._row.paths[system][reference]
        out, ref = path.output.spans, path.reference.spans
        return [(out[h], ref[r]) for kind, h, r in path.alignment.steps if kind == "match"]


#: The shifts a breakdown lists one by one; the rest are counted.
_LISTED_SHIFTS: Final = 5


def ter_block(row: TerRow, system: int, output: str, *, reference: str) -> Block:
    """The "why this score" block of one output's sentence TER."""
    path = row.path(system)
    a = path.alignment
    counts = [
        ("shifts", a.count("shift")),
        ("substitutions", a.count("substitution")),
        ("deletions", a.count("deletion")),
        ("insertions", a.count("insertion")),
    ]
    rows = [(name, str(count)) for name, count in counts]
    rows.append(("edits", str(a.num_edits)))
    length = row.average_length()
    nrefs = len(row.references)
    matched = a.count("match")
    lines: list[tuple[Run, ...]] = [
        (Run(f"{matched} word{'' if matched == 1 else 's'} matched"),),
        (
            Run(
                f"reference length {length:g}"
                + (f" (average of {nrefs} references)" if nrefs > 1 else "")
            ),
        ),
        (Run(f"TER = {a.num_edits} / {length:g} = "), Run(f"{row.scores[system]:.2f}", bold=True)),
    ]
    for move in path.moves[:_LISTED_SHIFTS]:
        place = "to the end" if move.before is None else f"before {_quoted(output, [move.before])}"
        lines.append((Run(f"shift: {_quoted(output, move.words)} moved {place}"),))
    if len(path.moves) > _LISTED_SHIFTS:
        lines.append((Run(f"… and {len(path.moves) - _LISTED_SHIFTS} more shifts"),))
    if nrefs > 1:
        lines.append(
            (Run(f"edits against {reference}, the fewest of {nrefs} references", italic=True),)
        )
    else:
        lines.append((Run(f"against {reference}", italic=True),))
    return Block(
        title=(Run("TER", bold=True),),
        header=("edit", "count"),
        rows=tuple(rows),
        right=(False, True),
        lines=tuple(lines),
        min_text="reference length 00.5 (average of 2 references)",
    )


class TerRowDetail(MetricRowDetail):
    metric = "ter"

    def __init__(self, row: TerRow, outputs: Sequence[str], references: Sequence[str] = ()) -> None:
        """``references``: the reference lines (the edit layer quotes them; blank without)."""
        self._row = row
        self._outputs = outputs
        refs = references or [" " * max((b for _, b in t.spans), default=0) for t in row.references]
        self.layers = (TerLayer(row), TerEditLayer(row, outputs, refs))

    @property
    def row(self) -> TerRow:
        return self._row

    def path(self, system: int) -> TerPath:
        """``system``'s path against the reference sacreBLEU keeps."""
        return self._row.path(system)

    def values(self, system: int) -> dict[str, float]:
        return {"ter": self._row.scores[system]}

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        r = self._row.best[system]
        name = reference_names[r] if r < len(reference_names) else f"Ref {r + 1}"
        return (ter_block(self._row, system, self._outputs[system], reference=name),)
