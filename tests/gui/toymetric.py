"""A small metric registered by GUI tests, to show that the app follows the registry.

``toy`` matches *characters*, as chrF does: every non-space character of an output is shaded
by the longest character n-gram (1..``max_level``, up to 6) it is part of that also occurs in a
reference. It has one setting of each kind (choice, flag, int, float), a highlight layer with
links, a breakdown block, and a detail that is too large above :data:`TOY_DETAIL_LIMIT`
characters, so every registry-driven part of the GUI (modes, legend, cells, detail pane,
breakdown, settings dialog, notes) can be tested on a metric the GUI was not written for.
Register it with ``monkeypatch.setitem(METRICS, "toy", ToyMetric())``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np

from matchlight.core.metrics.base import (
    Block,
    ChunkText,
    CorpusView,
    DetailTooLarge,
    HighlightLayer,
    HighlightMode,
    Metric,
    MetricChunk,
    MetricCorpus,
    MetricRowDetail,
    MetricSettings,
    Range,
    Run,
    ScoreColumn,
    Setting,
)

#: Lines longer than this have no toy detail (their row's ``notes`` say why).
TOY_DETAIL_LIMIT = 200


@dataclass(frozen=True, slots=True)
class ToySettings(MetricSettings):
    SPECS: ClassVar[tuple[Setting, ...]] = (
        Setting(
            key="case",
            label="Case",
            kind="choice",
            choices=("mixed", "lower"),
            help="mixed: as written; lower: lowercase both sides first",
            cli="--toy-case",
        ),
        Setting(
            key="skip_digits",
            label="Ignore digits",
            kind="flag",
            help="digits never match",
            cli="--toy-skip-digits",
        ),
        Setting(
            key="max_level",
            label="Longest n-gram",
            kind="int",
            minimum=1,
            maximum=6,
            help="the longest character n-gram counted",
            cli="--toy-max-level",
        ),
        Setting(
            key="weight",
            label="Weight",
            kind="float",
            minimum=0.0,
            optional=True,
            help="a weight (default: none)",
            cli="--toy-weight",
        ),
    )

    case: str = "mixed"
    skip_digits: bool = False
    max_level: int = 6
    weight: float | None = None


def _chars(text: str, settings: ToySettings) -> list[tuple[int, str]]:
    """(original index, character) of every character that takes part in matching."""
    seen = text.lower() if settings.case == "lower" else text
    return [
        (i, c)
        for i, c in enumerate(seen)
        if not c.isspace() and not (settings.skip_digits and c.isdigit())
    ]


def char_levels(text: str, other: str, settings: ToySettings) -> dict[int, int]:
    """Original index -> the longest n-gram (<= max_level) of ``text`` covering it that occurs
    in ``other`` (0: none)."""
    mine, theirs = _chars(text, settings), "".join(c for _, c in _chars(other, settings))
    chars = "".join(c for _, c in mine)
    levels = [0] * len(mine)
    for n in range(1, settings.max_level + 1):
        grams = {theirs[j : j + n] for j in range(len(theirs) - n + 1)}
        for i in range(len(chars) - n + 1):
            if chars[i : i + n] in grams:
                levels[i : i + n] = [max(level, n) for level in levels[i : i + n]]
    return {index: level for (index, _), level in zip(mine, levels, strict=True)}


def output_levels(output: str, references: Sequence[str], settings: ToySettings) -> dict[int, int]:
    """Original index -> the longest n-gram covering it found in any reference."""
    per_ref = [char_levels(output, ref, settings) for ref in references]
    return {i: max(levels[i] for levels in per_ref) for i in per_ref[0]}


def _runs(levels: Mapping[int, int], kind_of: Callable[[int], tuple[str, int]]) -> list[Range]:
    """Ranges over runs of consecutive characters with the same kind and level."""
    ranges: list[Range] = []
    for index in sorted(levels):
        kind, level = kind_of(index)
        if ranges and ranges[-1][1] == index and ranges[-1][2:] == (kind, level):
            ranges[-1] = (ranges[-1][0], index + 1, kind, level)
        else:
            ranges.append((index, index + 1, kind, level))
    return ranges


class ToyLayer(HighlightLayer):
    key = "toy"
    label = "Toy characters"

    def __init__(
        self,
        max_level: int,
        hyp: Sequence[dict[int, int]],
        ref: Sequence[Sequence[dict[int, int]]],
        outputs: Sequence[str],
        references: Sequence[str],
    ) -> None:
        self.max_level = max_level
        self._hyp = hyp  # [system] index -> level
        self._ref = ref  # [system][reference] index -> level
        self._outputs = outputs
        self._references = references

    def hypothesis(self, system: int) -> list[Range]:
        levels = self._hyp[system]
        return _runs(levels, lambda i: ("match", levels[i]) if levels[i] else ("unmatched", 0))

    def reference(self, reference: int, system: int | None) -> list[Range]:
        per_system = [refs[reference] for refs in self._ref]

        def kind_of(i: int) -> tuple[str, int]:
            best = max(levels[i] for levels in per_system)
            level = best if system is None else per_system[system][i]
            if level:
                return "match", level
            return ("missed", 0) if not best else ("unmatched", 0)

        return _runs(per_system[0], kind_of)

    def links(self, system: int, reference: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """Each matched output character with the first matched reference character like it."""
        ref_levels = self._ref[system][reference]
        ref_text = self._references[reference]
        first: dict[str, int] = {}
        for j in sorted(ref_levels):
            if ref_levels[j]:
                first.setdefault(ref_text[j], j)
        out = self._outputs[system]
        return [
            ((i, i + 1), (first[out[i]], first[out[i]] + 1))
            for i, level in sorted(self._hyp[system].items())
            if level and out[i] in first
        ]


def toy_score(levels: Mapping[int, int]) -> float:
    return 100.0 * sum(1 for v in levels.values() if v) / len(levels) if levels else 0.0


class ToyRowDetail(MetricRowDetail):
    metric = "toy"

    def __init__(self, settings: ToySettings, references: Sequence[str], outputs: Sequence[str]):
        for line in (*references, *outputs):
            if len(line) > TOY_DETAIL_LIMIT:
                raise DetailTooLarge(
                    f"a line has {len(line)} characters; toy highlights stop at {TOY_DETAIL_LIMIT}"
                )
        hyp = [output_levels(out, references, settings) for out in outputs]
        ref = [[char_levels(r, out, settings) for r in references] for out in outputs]
        self._hyp = hyp
        self.layers = (ToyLayer(settings.max_level, hyp, ref, outputs, references),)

    def values(self, system: int) -> dict[str, float]:
        return {"toy": toy_score(self._hyp[system])}

    def breakdown(self, system: int, reference_names: Sequence[str]) -> tuple[Block, ...]:
        levels = self._hyp[system]
        top = max(levels.values(), default=0)
        rows = tuple(
            (f"{n}-gram", str(sum(1 for v in levels.values() if v == n))) for n in range(1, top + 1)
        )
        return (
            Block(
                title=(Run("Toy", bold=True), Run(" (characters)")),
                header=("longest", "characters"),
                rows=rows,
                right=(False, True),
                lines=((Run("toy = "), Run(f"{toy_score(levels):.2f}", bold=True)),),
            ),
        )


class ToyMetric(Metric):
    key = "toy"
    label = "Toy"
    description = "A test metric: characters shaded by their longest matched character n-gram"
    settings_type = ToySettings

    def columns(self, settings: MetricSettings) -> tuple[ScoreColumn, ...]:
        return (ScoreColumn("toy", "Toy", "Toy", self.key, "matched characters (%)"),)

    def stat_shapes(self, settings: MetricSettings) -> dict[str, tuple[int, ...]]:
        return {}

    def highlight_modes(self, settings: MetricSettings) -> tuple[HighlightMode, ...]:
        return (HighlightMode("toy", "Toy characters", cast(ToySettings, settings).max_level),)

    def signature(
        self, settings: MetricSettings, *, nrefs: int, separator: str | None = None
    ) -> str:
        s = cast(ToySettings, settings)
        return f"nrefs:{nrefs}|case:{s.case}|n:{s.max_level}|toy"

    def chunk_scorer(self, settings: MetricSettings) -> Callable[[ChunkText], MetricChunk]:
        s = cast(ToySettings, settings)

        def score(chunk: ChunkText) -> MetricChunk:
            scores = np.zeros((len(chunk.systems), chunk.n_rows, 1))
            for system, column in enumerate(chunk.systems):
                for row, line in enumerate(column):
                    refs = [ref[row] for ref in chunk.references]
                    scores[system, row, 0] = toy_score(output_levels(line, refs, s))
            return MetricChunk(scores=scores)

        return score

    def corpus(self, settings: MetricSettings, view: CorpusView) -> MetricCorpus:
        return MetricCorpus(values={"toy": view.mean("toy")})

    def detailer(
        self, settings: MetricSettings, separator: str | None
    ) -> Callable[[Sequence[str], Sequence[str]], MetricRowDetail]:
        s = cast(ToySettings, settings)

        def detail(references: Sequence[str], outputs: Sequence[str]) -> MetricRowDetail:
            return ToyRowDetail(s, references, outputs)

        return detail


def toy_settings_values() -> dict[str, list[Any]]:
    """Every value worth trying of each toy setting (for round trips)."""
    return {
        "case": ["mixed", "lower"],
        "skip_digits": [False, True],
        "max_level": [1, 4, 6],
        "weight": [None, 0.0, 0.25, 2.5],
    }
