"""What separates two systems, from their texts: compare-mt's n-gram differences on BLEU's
tokens, as one picklable call.

:func:`ngram_report` tokenizes the references and both outputs with a BLEU tokenizer and runs
:func:`core.analysis.compare.ngram_differences` on the rows asked for. It takes and returns
plain data, so that a caller with a GUI thread can run it in a worker process
(:func:`ngram_report_in_process`): counting the n-grams of a large corpus spends seconds in
single C calls that hold the GIL, which a worker thread would take from the window.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.compare import (
    NgramDifference,
    NgramDifferences,
    ngram_differences,
    row_index,
)
from matchlight.core.scoring.engine import background_process_pool
from matchlight.core.text.tokenizers import bleu_tokenizer

__all__ = [
    "ALPHA",
    "MAX_ORDER",
    "TOP",
    "NgramsCancelled",
    "ngram_report",
    "ngram_report_in_process",
]

IntArray = npt.NDArray[np.int64]

#: compare-mt's defaults: smoothing α, n-gram orders 1..MAX_ORDER, entries per list.
ALPHA = 1.0
MAX_ORDER = 4
TOP = 50
#: How often a caller waiting for the worker process looks at its cancel flag, in seconds.
POLL_SECONDS = 0.05


class NgramsCancelled(Exception):
    """The caller's cancel flag stopped :func:`ngram_report_in_process`."""


def ngram_report(
    *,
    references: Sequence[Sequence[str]],
    system_a: Sequence[str],
    system_b: Sequence[str],
    tokenize: str = "13a",
    lowercase: bool = False,
    rows: npt.ArrayLike | None = None,
    top: int = TOP,
) -> NgramDifferences:
    """compare-mt's n-gram differences (orders 1-:data:`MAX_ORDER`, α = :data:`ALPHA`) of
    ``system_a`` and ``system_b`` against ``references`` on ``rows`` (None: all), on the
    tokens of BLEU's ``tokenize`` tokenizer. Only the rows asked for are tokenized."""
    tokenizer = bleu_tokenizer(tokenize, lowercase=lowercase)
    chosen = row_index(rows, len(system_a))
    picked = chosen.tolist()
    columns = [*references, system_a, system_b]
    tokens = [[tokenizer(column[i]) for i in picked] for column in columns]
    n_refs = len(references)
    found = ngram_differences(
        references=tokens[:n_refs],
        system_a=tokens[n_refs],
        system_b=tokens[n_refs + 1],
        max_order=MAX_ORDER,
        alpha=ALPHA,
        top=top,
    )
    # Row numbers of the whole corpus, as ngram_differences gives them for its own ``rows``.
    return NgramDifferences(
        a_better=tuple(_renumbered(e, chosen) for e in found.a_better),
        b_better=tuple(_renumbered(e, chosen) for e in found.b_better),
        alpha=found.alpha,
        min_order=found.min_order,
        max_order=found.max_order,
        n_ngrams=found.n_ngrams,
    )


def _renumbered(entry: NgramDifference, chosen: IntArray) -> NgramDifference:
    return replace(entry, rows=chosen[entry.rows])


def ngram_report_in_process(
    *,
    cancel: Callable[[], bool] | None = None,
    **arguments: object,
) -> NgramDifferences:
    """:func:`ngram_report` in a worker process (niced, as the scoring workers), waiting with
    the GIL released. ``cancel`` is polled every :data:`POLL_SECONDS`; when it returns True the
    worker is stopped and :class:`NgramsCancelled` raised."""
    pool = background_process_pool(1)
    finished = False
    try:
        future = pool.submit(_report, arguments)
        while True:
            # The flag first: a run cancelled before its result arrives is cancelled, however
            # fast the worker was.
            if cancel is not None and cancel():
                raise NgramsCancelled("n-gram differences cancelled")
            try:
                result = future.result(timeout=POLL_SECONDS)
            except TimeoutError:
                continue
            finished = True
            return result
    finally:
        # A stale run is not waited for: its worker is stopped (the executor has no public
        # way to do that before Python 3.14's terminate_workers).
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        if not finished:
            for worker in workers:
                with contextlib.suppress(Exception):
                    worker.terminate()


def _report(arguments: dict[str, object]) -> NgramDifferences:
    return ngram_report(**arguments)  # type: ignore[arg-type]  # the caller's keywords
