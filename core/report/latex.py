"""A LaTeX table of corpus scores for a paper: booktabs rules, the best score per column in
bold, marks for a significant difference from the baseline, and each system's significance
cluster per column.

:func:`latex_table` formats results already computed (``matchlight compare --latex`` passes
its paired tests and clusters); :func:`paired_latex_table` computes them on a fully scored
table first (the app's File ▸ Export LaTeX table, in a worker thread) and formats them the
same way; :func:`write_latex` writes the file through :mod:`core.io.safewrite`.

The table needs ``\\usepackage{booktabs}``. Numbers are printed at each column's corpus
precision (:func:`~core.analysis.scales.corpus_decimals`, BLEU two decimals as sacreBLEU
quotes it); the best is the best *printed* number, by the column's direction, so equal
printed scores are bold together. System names and labels are user text: every character
LaTeX treats specially is escaped (:func:`latex_escape`). The signatures go into comments
above the table, so the file says how its numbers were made.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import numpy.typing as npt

from matchlight.core import __version__
from matchlight.core.analysis.clusters import (
    SIGNIFICANCE_THRESHOLD,
    SystemClusters,
    rank_clusters,
)
from matchlight.core.analysis.columnstats import (
    ALPHA,
    NotTestable,
    pairwise_for_column,
    significance_by_column,
    significance_columns,
)
from matchlight.core.analysis.scales import corpus_decimals
from matchlight.core.analysis.significance import (
    DEFAULT_AR_TRIALS,
    DEFAULT_BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    SignificanceResult,
    signature_with,
)
from matchlight.core.io.safewrite import write_file_atomic
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "BETTER_MARK",
    "WORSE_MARK",
    "LatexColumn",
    "latex_column",
    "latex_escape",
    "latex_table",
    "paired_latex_table",
    "write_latex",
]

#: The marks of a score significantly better / worse than the baseline's (p <= 0.05), in a
#: box of no width, so that marked and unmarked numbers stay aligned on their last digit.
BETTER_MARK: Final = r"\rlap{$^{\dagger}$}"
WORSE_MARK: Final = r"\rlap{$^{\ddagger}$}"

_TEST_NAMES: Final = {
    "bs": "paired bootstrap resampling",
    "ar": "paired approximate randomization",
}

# Characters LaTeX reads as commands, and what prints them in running text.
_ESCAPES: Final = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX prints it literally: special characters escaped, ``--`` kept two
    hyphens (not an en dash), line breaks and other control characters made spaces."""
    out: list[str] = []
    for i, char in enumerate(text):
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char == "-" and text[i + 1 : i + 2] == "-":
            out.append("-{}")
        elif char.isspace() or (ord(char) < 32 or 0x7F <= ord(char) < 0xA0):
            out.append(" ")
        else:
            out.append(char)
    return "".join(out)


def _comment(text: str) -> str:
    """One comment line: nothing in it can end the comment early."""
    return "% " + " ".join(text.split())


@dataclass(frozen=True, slots=True)
class LatexColumn:
    """One column of the table, systems in the table's order: ``scores`` (corpus figures),
    ``p_values`` against the baseline (None for the baseline and where untested) and
    ``clusters`` (1 = best; None when the column was not ranked)."""

    column: ScoreColumn
    scores: tuple[float, ...]
    p_values: tuple[float | None, ...]
    clusters: tuple[int, ...] | None


def latex_column(
    column: ScoreColumn,
    systems: Sequence[str],
    result: SignificanceResult | None,
    clusters: SystemClusters | None,
    scores: Sequence[float] | None = None,
) -> LatexColumn:
    """A :class:`LatexColumn` from a paired test against the baseline (its lines in any order,
    matched by name) and the column's clusters; ``scores`` when there is no ``result``."""
    lines = {} if result is None else {line.name: line for line in result.systems}
    if scores is None:
        if result is None:
            raise ValueError(f"{column.label}: no scores and no test to take them from")
        scores = [lines[name].score for name in systems]
    p_values = tuple(lines[name].p_value if name in lines else None for name in systems)
    ranks = None if clusters is None else tuple(clusters.cluster_of(name) for name in systems)
    return LatexColumn(column, tuple(float(s) for s in scores), p_values, ranks)


def _printed(value: float, digits: int) -> str:
    return "--" if not math.isfinite(value) else f"{value:.{digits}f}"


def _best(column: LatexColumn) -> set[int]:
    """The systems whose printed score is the best printed score, by the column's direction."""
    digits = corpus_decimals(column.column)
    printed = {
        s: round(v, digits) for s, v in enumerate(column.scores) if math.isfinite(v)
    }  # the number shown, as a number
    if not printed:
        return set()
    pick = max if column.column.higher_is_better else min
    best = pick(printed.values())
    return {s for s, v in printed.items() if v == best}


def _mark(column: LatexColumn, system: int, baseline: int, alpha: float) -> str:
    p = column.p_values[system]
    if system == baseline or p is None or p > alpha:
        return ""
    base = column.scores[baseline]
    score = column.scores[system]
    if not (math.isfinite(base) and math.isfinite(score)) or score == base:
        return ""
    return BETTER_MARK if column.column.is_better(score, base) else WORSE_MARK


def latex_table(
    *,
    systems: Sequence[str],
    baseline: int,
    columns: Sequence[LatexColumn],
    test: Literal["bs", "ar"],
    n_samples: int,
    seed: int,
    n_segments: int,
    signatures: Mapping[str, str] | None = None,
    label: str = "tab:matchlight-scores",
    alpha: float = ALPHA,
) -> str:
    """The table as LaTeX source: a ``table`` float holding a booktabs ``tabular``, one row
    per system (in ``systems``' order, the baseline named in the caption), a score and a
    cluster column per score column. A score significantly different from the baseline's
    (p at most ``alpha``) carries :data:`BETTER_MARK` or :data:`WORSE_MARK` by the column's
    direction; the best printed score of each column is bold."""
    if not 0 <= baseline < len(systems):
        raise ValueError(f"no system {baseline + 1}; there are {len(systems)}")
    for column in columns:
        if len(column.scores) != len(systems) or len(column.p_values) != len(systems):
            raise ValueError(f"{column.column.label}: one score per system is needed")
    ranked = any(c.clusters is not None for c in columns)
    spec = "l" + "".join("rr" if c.clusters is not None else "r" for c in columns)
    lines = [
        _comment(f"Matchlight {__version__}: corpus scores, paired tests and clusters."),
        _comment("Needs \\usepackage{booktabs}."),
    ]
    for name, signature in (signatures or {}).items():
        lines.append(_comment(f"{name}: {signature}"))
    lines += ["\\begin{table}[t]", "\\centering", f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    if ranked:
        head, rules, at = ["System"], [], 2
        for c in columns:
            label_text = latex_escape(c.column.label)
            if c.clusters is None:
                head.append(label_text)
                at += 1
                continue
            head.append(f"\\multicolumn{{2}}{{c}}{{{label_text}}}")
            rules.append(f"\\cmidrule(lr){{{at}-{at + 1}}}")
            at += 2
        lines.append(" & ".join(head) + " \\\\")
        lines.append("".join(rules))
        sub = [""]
        for c in columns:
            sub += ["Score", "Cl."] if c.clusters is not None else [""]
        lines.append(" & ".join(sub) + " \\\\")
    else:
        lines.append(
            " & ".join(["System", *(latex_escape(c.column.label) for c in columns)]) + " \\\\"
        )
    lines.append("\\midrule")
    best = [_best(c) for c in columns]
    for s, name in enumerate(systems):
        cells = [latex_escape(name)]
        for c, winners in zip(columns, best, strict=True):
            text = _printed(c.scores[s], corpus_decimals(c.column))
            if s in winners:
                text = f"\\textbf{{{text}}}"
            cells.append(text + _mark(c, s, baseline, alpha))
            if c.clusters is not None:
                cells.append(str(c.clusters[s]))
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    lines.append(
        f"\\caption{{{_caption(systems, baseline, columns, test, n_samples, seed, n_segments)}}}"
    )
    lines += [f"\\label{{{latex_escape(label)}}}", "\\end{table}", ""]
    return "\n".join(lines)


def _caption(
    systems: Sequence[str],
    baseline: int,
    columns: Sequence[LatexColumn],
    test: str,
    n_samples: int,
    seed: int,
    n_segments: int,
) -> str:
    count = f"{n_samples:,} {'resamples' if test == 'bs' else 'trials'}".replace(",", "{,}")
    segments = f"{n_segments:,}".replace(",", "{,}")
    parts = [
        f"Corpus scores on {segments} segments; the best in each column in bold.",
        "$^{\\dagger}$/$^{\\ddagger}$: significantly better/worse than the baseline, "
        f"{latex_escape(systems[baseline])} ({_TEST_NAMES[test]}, {count}, seed {seed}, "
        f"$p \\le {ALPHA}$).",
    ]
    if any(c.clusters is not None for c in columns):
        parts.append(
            "Cl.: significance cluster; a system starts a new cluster when it is "
            f"significantly worse ($p < {SIGNIFICANCE_THRESHOLD}$) than the best system of "
            "the current cluster."
        )
    lower = [latex_escape(c.column.label) for c in columns if not c.column.higher_is_better]
    if lower:
        parts.append(f"Lower is better for {', '.join(lower)}.")
    return " ".join(parts)


def paired_latex_table(
    table: ScoreTable,
    *,
    baseline: int,
    keys: Sequence[str] | None = None,
    rows: npt.ArrayLike | None = None,
    test: Literal["bs", "ar"] = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> str:
    """:func:`latex_table` of a fully scored ``table`` over ``rows`` (None: all): every
    system tested against ``baseline`` and ranked into clusters on each column of ``keys``
    (default: the significance panel's columns, headline and added scores), all with one
    ``seed``. A column that cannot be tested is left out."""
    chosen = list(keys) if keys is not None else [c.key for c in significance_columns(table)]
    count = n_samples or (DEFAULT_BOOTSTRAP_SAMPLES if test == "bs" else DEFAULT_AR_TRIALS)
    steps = 2 * max(1, len(chosen))  # a test against the baseline, then all pairs, per column

    def part(step: float) -> Callable[[float], None]:
        def report(fraction: float) -> None:
            if progress is not None:
                progress((step + fraction) / steps)

        return report

    tests = significance_by_column(
        table,
        chosen,
        baseline=baseline,
        rows=rows,
        test=test,
        n_samples=count,
        seed=seed,
        cancel=cancel,
        progress=lambda f: part(0)(f * len(chosen)),
    )
    columns: list[LatexColumn] = []
    n_segments = 0
    for k, found in enumerate(tests):
        if found.result is None:
            continue
        n_segments = found.result.n_segments
        try:
            pairwise = pairwise_for_column(
                table,
                found.column.key,
                rows=rows,
                test=test,
                n_samples=count,
                seed=seed,
                cancel=cancel,
                progress=part(len(chosen) + k),
            )
        except NotTestable:
            clusters = None
        else:
            clusters = rank_clusters(
                found.column.label,
                table.systems,
                pairwise.scores,
                pairwise.p_value,
                better=found.column.better,
            )
        columns.append(latex_column(found.column, table.systems, found.result, clusters))
    if not columns:
        reasons = "; ".join(f"{t.column.label}: {t.reason}" for t in tests if t.reason)
        raise NotTestable(f"no column could be tested ({reasons or 'none chosen'})")
    signatures = table.signatures()
    tested = {t.column.metric: t.result for t in tests if t.result is not None}
    return latex_table(
        systems=table.systems,
        baseline=baseline,
        columns=columns,
        test=test,
        n_samples=count,
        seed=seed,
        n_segments=n_segments,
        signatures={
            key: signature_with(signatures[key], result.signature_fields())
            for key, result in tested.items()
            if key in signatures
        },
    )


def write_latex(
    path: str | os.PathLike[str], text: str, *, protect: Iterable[str | os.PathLike[str]] = ()
) -> Path:
    """Write the table ``text`` to ``path`` atomically, never over one of ``protect`` (the
    comparison's inputs); raises :class:`~core.io.safewrite.WriteError`."""
    return write_file_atomic(path, text.encode("utf-8"), protect=protect)
