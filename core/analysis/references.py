"""Multi-reference honesty: what each reference contributes, and references that are too close
to one system.

A corpus score against several references is not a function of the scores against each one:
BLEU clips every n-gram to its largest count in any single reference, so the statistics of the
union have to be counted again. :func:`score_by_reference` therefore takes a function that
scores with any subset of the references (for the engine: one scoring run per reference plus
one with all). ROUGE with several references (the maximum F per row) would be derivable from
the per-reference rows, but going through the same function keeps one path for every metric.

:func:`audit_references` looks for a reference that was made from (or leaked into) one
system's output: such a reference equals that system's line far more often than it equals any
other system's. Each (reference, system) pair is compared with the *other systems* against the
same reference, so a good system (close to every reference) or an easy test set (short
titles every system gets right) does not look suspicious. :func:`leak_messages` says what it
found in sentences, and :func:`reference_leaks` runs the audit on identical lines and says it:
what the app's summary and comparison docks, ``matchlight score`` / ``compare`` and the HTML
report warn with.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import row_index

__all__ = [
    "MIN_EXCESS_SHARE",
    "MIN_RATIO",
    "NEAR_THRESHOLD",
    "ReferenceAudit",
    "ReferenceBreakdown",
    "ReferenceCloseness",
    "audit_references",
    "counted_leaks",
    "identical_counts",
    "leak_messages",
    "normalise_whitespace",
    "reference_leaks",
    "score_by_reference",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: A pair is flagged when its count exceeds the other systems' median by this share of rows ...
MIN_EXCESS_SHARE = 0.05
#: ... and is at least this many times that median.
MIN_RATIO = 2.0
#: Sentence similarity (0-100, e.g. sentence BLEU against that reference alone) from which a
#: line counts as near-identical.
NEAR_THRESHOLD = 90.0


@dataclass(frozen=True, slots=True)
class ReferenceBreakdown:
    """Corpus scores per system: against each reference alone (``single[s, r]``) and against
    all references together (``combined[s]``)."""

    systems: tuple[str, ...]
    references: tuple[str, ...]
    single: FloatArray
    combined: FloatArray


def score_by_reference(
    *,
    systems: Sequence[str],
    references: Sequence[str],
    score_with: Callable[[tuple[int, ...]], npt.ArrayLike],
) -> ReferenceBreakdown:
    """Score every system against each reference alone and against all of them.

    ``score_with(subset)`` returns the corpus score of every system (``(S,)``) against the
    references numbered in ``subset``; it is called once per reference and once with all.
    """
    n_sys = len(systems)
    n_refs = len(references)
    if n_refs == 0:
        raise ValueError("at least one reference is needed")

    def call(subset: tuple[int, ...]) -> FloatArray:
        scores = np.asarray(score_with(subset), np.float64)
        if scores.shape != (n_sys,):
            raise ValueError(f"score_with must return {n_sys} scores, got shape {scores.shape}")
        return scores

    single = np.stack([call((r,)) for r in range(n_refs)], axis=1)
    combined = single[:, 0].copy() if n_refs == 1 else call(tuple(range(n_refs)))
    return ReferenceBreakdown(tuple(systems), tuple(references), single, combined)


def normalise_whitespace(line: str) -> str:
    """The line with runs of whitespace made one space and none at either end."""
    return " ".join(line.split())


#: Lines normalised per slice by :func:`_normalised`: each slice runs in C with the GIL held
#: for a few milliseconds, and a thread switch can come between slices (the app audits in a
#: background thread while the window paints).
_SLICE: Final = 16_384


def _normalised(column: Sequence[str], rows: list[int] | None) -> list[str]:
    """:func:`normalise_whitespace` of ``column[i]`` for each of ``rows`` (None: all), at C
    speed."""
    picked = list(column) if rows is None or len(rows) == len(column) else [column[i] for i in rows]
    out: list[str] = []
    for start in range(0, len(picked), _SLICE):
        out.extend(map(" ".join, map(str.split, picked[start : start + _SLICE])))
    return out


def _identical_counts(norm_refs: Sequence[list[str]], norm_sys: Sequence[list[str]]) -> IntArray:
    """``(R, S)``: the rows where each normalised reference equals each normalised output."""
    return np.array(
        [[sum(map(str.__eq__, ref, out)) for out in norm_sys] for ref in norm_refs], np.int64
    ).reshape(len(norm_refs), len(norm_sys))


def identical_counts(
    references: Sequence[Sequence[str]], systems: Sequence[Sequence[str]]
) -> IntArray:
    """``identical[r, s]``: the rows where reference ``r`` and system ``s`` are the same line
    after whitespace normalisation. The counts add up over slices of rows, so a streaming
    caller sums them chunk by chunk and hands the sum to :func:`counted_leaks`."""
    return _identical_counts(
        [_normalised(column, None) for column in references],
        [_normalised(column, None) for column in systems],
    )


def identical_counts_in_steps(
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    *,
    step: int = 2_048,
) -> Generator[int, None, IntArray]:
    """``identical[r, s]``: the rows where reference ``r`` and system ``s`` are the same line
    after whitespace normalisation, counted ``step`` rows at a time.

    Yields the rows done after each step and returns the counts, so a caller with an event
    loop can spread the work over its idle turns (a thread of the same process would compete
    with painting for the GIL). ``audit_references(identical=...)`` takes the result.
    """
    n = len(references[0]) if references else 0
    counts = np.zeros((len(references), len(systems)), np.int64)
    for start in range(0, n, step):
        stop = min(n, start + step)
        norm_refs = [_normalised(column[start:stop], None) for column in references]
        norm_sys = [_normalised(column[start:stop], None) for column in systems]
        counts += _identical_counts(norm_refs, norm_sys)
        yield stop
    return counts


@dataclass(frozen=True, slots=True)
class ReferenceCloseness:
    """How close one reference is to one system, next to the other systems.

    ``identical``: rows where the two lines are equal after :func:`normalise_whitespace`;
    ``identical_baseline``: the median of that count over the other systems (NaN when there
    is no other system). ``near`` / ``near_baseline`` / ``mean_similarity`` are the same for
    rows whose similarity reaches the audit's threshold (None without similarities).
    ``flagged`` says the reference looks made from this system; ``reason`` says why.
    """

    reference: str
    system: str
    n_rows: int
    identical: int
    identical_baseline: float
    near: int | None
    near_baseline: float | None
    mean_similarity: float | None
    flagged: bool
    reason: str

    @property
    def identical_share(self) -> float:
        return self.identical / self.n_rows if self.n_rows else 0.0


@dataclass(frozen=True, slots=True)
class ReferenceAudit:
    """Every (reference, system) pair of :func:`audit_references`, reference by reference."""

    pairs: tuple[ReferenceCloseness, ...]
    min_excess_share: float
    min_ratio: float
    near_threshold: float

    @property
    def flagged(self) -> tuple[ReferenceCloseness, ...]:
        return tuple(pair for pair in self.pairs if pair.flagged)


def _baselines(counts: IntArray) -> FloatArray:
    """``(R, S)`` counts -> the median over the other systems of each pair (NaN if none)."""
    n_refs, n_sys = counts.shape
    baseline = np.full((n_refs, n_sys), np.nan)
    if n_sys < 2:
        return baseline
    for s in range(n_sys):
        others = np.delete(counts, s, axis=1)
        baseline[:, s] = np.median(others, axis=1)
    return baseline


def _excess(count: int, baseline: float, n_rows: int, share: float, ratio: float) -> bool:
    if np.isnan(baseline):
        return False
    return count - baseline >= share * n_rows and count >= ratio * baseline


def _closeness(
    counts: IntArray,
    identical_base: FloatArray,
    n_rows: int,
    *,
    reference_names: Sequence[str],
    system_names: Sequence[str],
    near: IntArray | None,
    near_base: FloatArray | None,
    mean_sim: FloatArray | None,
    near_threshold: float,
    min_excess_share: float,
    min_ratio: float,
) -> list[ReferenceCloseness]:
    """Every (reference, system) pair of :func:`audit_references`, judged from its counts."""
    pairs: list[ReferenceCloseness] = []
    for r, ref_name in enumerate(reference_names):
        for s, sys_name in enumerate(system_names):
            count = int(counts[r, s])
            base = float(identical_base[r, s])
            reasons: list[str] = []
            if _excess(count, base, n_rows, min_excess_share, min_ratio):
                reasons.append(
                    f"{count} of {n_rows} lines identical to {sys_name}, other systems "
                    f"{base:g} (median)"
                )
            near_count: int | None = None
            near_baseline: float | None = None
            mean: float | None = None
            if near is not None and near_base is not None and mean_sim is not None:
                near_count = int(near[r, s])
                near_baseline = float(near_base[r, s])
                mean = float(mean_sim[r, s])
                if _excess(near_count, near_baseline, n_rows, min_excess_share, min_ratio):
                    reasons.append(
                        f"{near_count} of {n_rows} lines at least {near_threshold:g} similar "
                        f"to {sys_name}, other systems {near_baseline:g} (median)"
                    )
            pairs.append(
                ReferenceCloseness(
                    reference=ref_name,
                    system=sys_name,
                    n_rows=n_rows,
                    identical=count,
                    identical_baseline=base,
                    near=near_count,
                    near_baseline=near_baseline,
                    mean_similarity=mean,
                    flagged=bool(reasons),
                    reason="; ".join(reasons),
                )
            )
    return pairs


def audit_references(
    *,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    reference_names: Sequence[str],
    system_names: Sequence[str],
    similarity: npt.ArrayLike | None = None,
    near_threshold: float = NEAR_THRESHOLD,
    min_excess_share: float = MIN_EXCESS_SHARE,
    min_ratio: float = MIN_RATIO,
    rows: npt.ArrayLike | None = None,
    identical: npt.ArrayLike | None = None,
) -> ReferenceAudit:
    """Find references suspiciously close to one system.

    For each reference and system: the rows where the lines are identical after whitespace
    normalisation, and (given ``similarity`` ``(R, S, n)`` on a 0-100 scale, e.g. sentence
    BLEU against that reference alone) the rows at least ``near_threshold`` similar and
    the mean similarity. A pair is flagged when its identical (or near-identical) count exceeds
    the median of the other systems' counts against the same reference by at least
    ``min_excess_share`` of the rows *and* is at least ``min_ratio`` times that median. With a
    single system there is nothing to compare with and nothing is flagged. ``identical``
    ``(R, S)``, when given, are the identical-line counts over the same rows, computed
    beforehand (:func:`identical_counts_in_steps`).
    """
    if len(reference_names) != len(references) or len(system_names) != len(systems):
        raise ValueError("one name per reference and per system is needed")
    n_total = len(references[0]) if references else 0
    for column in (*references, *systems):
        if len(column) != n_total:
            raise ValueError("references and systems must have the same number of rows")
    index = row_index(rows, n_total)
    n_rows = len(index)
    counts: IntArray
    if identical is None:
        selected = index.tolist()
        norm_refs = [_normalised(column, selected) for column in references]
        norm_sys = [_normalised(column, selected) for column in systems]
        counts = _identical_counts(norm_refs, norm_sys)
    else:
        counts = np.asarray(identical, np.int64)
        if counts.shape != (len(references), len(systems)):
            raise ValueError(
                f"identical must have shape {(len(references), len(systems))}, got {counts.shape}"
            )
    identical_base = _baselines(counts)

    near: IntArray | None = None
    near_base: FloatArray | None = None
    mean_sim: FloatArray | None = None
    if similarity is not None:
        sim = np.asarray(similarity, np.float64)
        if sim.shape != (len(references), len(systems), n_total):
            raise ValueError(
                f"similarity must have shape {(len(references), len(systems), n_total)}, "
                f"got {sim.shape}"
            )
        sim = sim[:, :, index]
        near = (sim >= near_threshold).sum(axis=2).astype(np.int64)
        near_base = _baselines(near)
        with np.errstate(invalid="ignore"):
            mean_sim = sim.mean(axis=2) if n_rows else np.full(near.shape, np.nan)

    pairs = _closeness(
        counts,
        identical_base,
        n_rows,
        reference_names=reference_names,
        system_names=system_names,
        near=near,
        near_base=near_base,
        mean_sim=mean_sim,
        near_threshold=near_threshold,
        min_excess_share=min_excess_share,
        min_ratio=min_ratio,
    )
    return ReferenceAudit(tuple(pairs), min_excess_share, min_ratio, near_threshold)


def leak_messages(audit: ReferenceAudit) -> tuple[str, ...]:
    """A sentence per flagged (reference, system) pair: the reference looks made from that
    system's output, why, and what it does to the scores."""
    return tuple(
        f"{pair.reference} looks made from {pair.system}'s output: {pair.reason}. Scores "
        f"against {pair.reference} favour {pair.system}."
        for pair in audit.flagged
    )


def reference_leaks(
    *,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    reference_names: Sequence[str],
    system_names: Sequence[str],
    rows: npt.ArrayLike | None = None,
) -> tuple[str, ...]:
    """:func:`leak_messages` of the audit on identical lines (no scoring) over ``rows``
    (None: all): on wmt22-en-zh, that ref2 is Online-B's output on 373 of 2,037 lines."""
    if len(systems) < 2:
        return ()
    return leak_messages(
        audit_references(
            references=references,
            systems=systems,
            reference_names=reference_names,
            system_names=system_names,
            rows=rows,
        )
    )


def counted_leaks(
    *,
    identical: npt.ArrayLike,
    n_rows: int,
    reference_names: Sequence[str],
    system_names: Sequence[str],
) -> tuple[str, ...]:
    """:func:`reference_leaks` from identical-line counts ``(R, S)`` over ``n_rows`` rows,
    summed elsewhere (:func:`identical_counts` chunk by chunk): the same sentences, without
    holding the texts."""
    counts = np.asarray(identical, np.int64)
    if counts.shape != (len(reference_names), len(system_names)):
        raise ValueError(
            f"identical must have shape {(len(reference_names), len(system_names))}, "
            f"got {counts.shape}"
        )
    if len(system_names) < 2:
        return ()
    pairs = _closeness(
        counts,
        _baselines(counts),
        n_rows,
        reference_names=reference_names,
        system_names=system_names,
        near=None,
        near_base=None,
        mean_sim=None,
        near_threshold=NEAR_THRESHOLD,
        min_excess_share=MIN_EXCESS_SHARE,
        min_ratio=MIN_RATIO,
    )
    return leak_messages(ReferenceAudit(tuple(pairs), MIN_EXCESS_SHARE, MIN_RATIO, NEAR_THRESHOLD))
