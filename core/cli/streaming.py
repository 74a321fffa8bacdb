"""How ``score``, ``compare`` and ``metaeval`` read and score their inputs: as streams.

The inputs are checked and counted first (:func:`~core.io.inputs.scan_comparison`: every
problem, and unequal line counts, before any scoring), then read again a chunk at a time and
scored on an engine (:mod:`core.scoring.engines`: worker processes here, or a Dask or Ray
cluster) by :func:`~core.io.segmentrows.score_rows`, the results coming back in order. Nothing
holds the texts: a command keeps what it needs of each chunk (summed statistics, rendered rows,
the per-row statistics of a test) and drops the rest, so memory does not grow with the texts.

Beside the scores, each chunk is checked where it is scored (:func:`score_chunk`): its lines
identical to a reference (summed: the reference-leak warnings of
:func:`~core.analysis.references.counted_leaks`) and, for ``score``, the language check
(:func:`~core.analysis.language.flag_rows`, with the references' language read from their
first lines before any chunk): the counts the in-memory functions give, from additive counts.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import math
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.language import (
    EXPECT_LINES,
    Expectation,
    expect_language,
    flag_rows,
    prepare,
)
from matchlight.core.analysis.references import counted_leaks, identical_counts
from matchlight.core.cli.options import (
    Failed,
    check_names,
    check_targets,
    config_from_args,
    input_specs,
    segment_rows,
)
from matchlight.core.io.export import comparison_inputs, input_paths
from matchlight.core.io.inputs import ColumnScan, ComparisonScan, InputError, InputSpec
from matchlight.core.io.reading import (
    SegmentReader,
    head_segments,
    scan_column,
    scan_comparison,
)
from matchlight.core.io.segmentrows import RowJob, RowResult, prime, score_rows
from matchlight.core.io.usercache import user_cache
from matchlight.core.metrics.base import SettingError
from matchlight.core.scoring.advice import (
    SCRIPT_SAMPLE_LINES,
    Advice,
    ScoredRows,
    advice_for,
    detect_script,
    has_sentence_marker,
    is_presegmented,
)
from matchlight.core.scoring.engine import process_context
from matchlight.core.scoring.engines import (
    Engine,
    EngineError,
    LocalProcesses,
    open_engine,
    ordered,
)
from matchlight.core.scoring.summary import StreamedCorpus

if TYPE_CHECKING:
    from matchlight.core.scoring.config import ScoringConfig
    from matchlight.core.scoring.results import ScoreTable

__all__ = [
    "MAX_TASK_ROWS",
    "ChunkChecks",
    "ChunkCounts",
    "LanguageCounts",
    "StreamSetup",
    "Streamed",
    "read_stream_setup",
    "score_chunk",
    "scored_table",
    "task_rows",
]

#: The most rows scored in one task (a few megabytes of text each way).
MAX_TASK_ROWS = 2048
#: The fewest rows of a task, unless there are fewer.
_MIN_TASK_ROWS = 64


@dataclass(frozen=True, slots=True)
class StreamSetup:
    """A streaming command's inputs checked and counted, its configuration, the rows asked for
    (None: all) and the inputs' record that no written file may replace."""

    scan: ComparisonScan
    config: ScoringConfig
    rows: np.ndarray | None
    inputs: dict[str, Any]

    @property
    def segments(self) -> str | None:
        """``--segments`` as written to the JSON (normalised), None for all rows."""
        from matchlight.core.analysis.selection import format_segments

        return None if self.rows is None else format_segments(self.rows)

    @property
    def n_rows(self) -> int:
        """How many rows are scored."""
        return len(self.scan) if self.rows is None else len(self.rows)

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.scan.systems)

    @property
    def nrefs(self) -> int:
        return len(self.scan.references)


@dataclass(frozen=True, slots=True)
class ChunkChecks:
    """What each chunk is checked for beside its scores: identical lines of each reference and
    system (``leaks``), and the language check (``language``; ``expectation`` is the
    references' language, None when it cannot be told: then only copies are looked for)."""

    leaks: bool = False
    language: bool = False
    expectation: Expectation | None = None


@dataclass(frozen=True, slots=True)
class ChunkCounts:
    """A chunk's checks, counts that add up over chunks: ``identical[r, s]`` (None: not
    counted), and per system the outputs in another language and those copying the source
    (None: no language check)."""

    identical: npt.NDArray[np.int64] | None
    wrong_language: npt.NDArray[np.int64] | None
    copies_source: npt.NDArray[np.int64] | None


def score_chunk(
    job: RowJob,
    checks: ChunkChecks,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    source: Sequence[str] | None,
    segments: npt.NDArray[np.int64],
) -> tuple[RowResult, ChunkCounts]:
    """The task every engine runs: :func:`~core.io.segmentrows.score_rows` on one chunk, and
    its :class:`ChunkChecks` counted."""
    result = score_rows(job, references, systems, segments)
    identical = identical_counts(references, systems) if checks.leaks else None
    wrong = copies = None
    if checks.language:
        flags = flag_rows(checks.expectation, references=references, systems=systems, source=source)
        wrong = flags.wrong_language.sum(axis=1, dtype=np.int64)
        copies = flags.copies_source.sum(axis=1, dtype=np.int64)
    return result, ChunkCounts(identical, wrong, copies)


@dataclass(frozen=True, slots=True)
class LanguageCounts:
    """The language check of a run: the references' language (None: it could not be told, no
    output is counted as another language), whether a source was given (without one no
    output is counted as a copy), and per system (outputs in another language, outputs
    copying the source) over the rows scored."""

    expectation: Expectation | None
    has_source: bool
    counts: tuple[tuple[int, int], ...]


def read_stream_setup(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    outputs: Sequence[tuple[str, str | None]],
    check: Callable[[ScoringConfig], None] | None = None,
    *,
    language: bool = False,
) -> StreamSetup:
    """Check everything a streaming command needs before it scores: the configuration (a usage
    error exits 2 with one line), the inputs (read and counted, not kept), ``--segments`` and
    the ``outputs`` (``(option, path)``; none may replace an input). Raises :class:`Failed`.
    With ``language``, the language check's model is loaded while the inputs are read."""
    try:
        config = config_from_args(args)
        if check is not None:
            check(config)
    except SettingError as error:
        parser.error(str(error))
    check_names(parser, outputs)
    source, references, systems = input_specs(args)
    specs = [spec for spec in (source, *references, *systems) if spec is not None]
    parallel = bool(references and systems) and _big(specs)
    with _scanning(specs if parallel else []) as scan_one:
        # While the scans run in processes of their own, the narrow table is made too.
        loading = _preload_language(references if parallel else ()) if language else None
        try:
            scan = scan_comparison(
                source=source, references=references, systems=systems, scan=scan_one
            )
        except InputError as error:
            raise Failed(str(error)) from None
        finally:
            if loading is not None:
                loading.join()
    if len(scan) == 0:
        raise Failed("the input files hold no segments")
    rows = segment_rows(parser, args.segments, len(scan))
    inputs = comparison_inputs(scan)
    check_targets(outputs, protect=input_paths(inputs))
    if not args.quiet:
        import sys

        for column in scan.columns:
            for warning in column.warnings:
                print(f"matchlight: warning: {column.path}: {warning}", file=sys.stderr)
    return StreamSetup(scan, config, rows, inputs)


#: Inputs of at least this many bytes in all are scanned in parallel (:func:`_scanning`).
PARALLEL_SCAN_BYTES = 32 << 20


def _big(specs: Sequence[InputSpec]) -> bool:
    """Whether the inputs hold :data:`PARALLEL_SCAN_BYTES` or more."""
    try:
        return sum(os.stat(spec.path).st_size for spec in specs) >= PARALLEL_SCAN_BYTES
    except (OSError, ValueError):
        return False  # the scan names the problem


@contextlib.contextmanager
def _scanning(specs: Sequence[InputSpec]) -> Iterator[Callable[[InputSpec], ColumnScan]]:
    """How inputs are scanned (:func:`~core.io.reading.scan_column`, the function yielded,
    called once per input in their order): each of ``specs`` in a process of its own, forked
    here, all at once, so that the scan of big inputs runs on every core and the language
    model loads beside it without waiting for the interpreter (a failing input waits for the
    others' scans to end); with fewer than two ``specs``, or where workers cannot be forked,
    here, one after the other."""
    if len(specs) < 2 or process_context().get_start_method() != "fork":
        yield scan_column
        return
    with LocalProcesses(len(specs)) as pool:
        handles = [(spec, pool.submit(scan_column, spec)) for spec in specs]
        pending = iter(handles)

        def scanned(spec: InputSpec) -> ColumnScan:
            expected, handle = next(pending, (None, None))
            if spec is not expected:  # not asked in the order given: scan it here
                return scan_column(spec)
            return pool.result(handle)  # type: ignore[no-any-return]

        yield scanned


def _preload_language(references: Sequence[InputSpec] = ()) -> threading.Thread:
    """Start loading the language check's model (:func:`~core.analysis.language.prepare`,
    seconds of decompressing) in a thread, beside the scan of the inputs, then the narrow table
    of the language of the first lines of ``references`` (a fraction of a second more, kept by
    ``prepare``; :meth:`Streamed._expectation` reads those lines again from the checked
    inputs and finds it made). Joined before an engine starts: workers are forked only from a
    process with one thread. A failure is left to the later call, which reports it where the
    check runs."""

    def load() -> None:
        with contextlib.suppress(Exception):
            cache = user_cache()
            prepare(cache=cache)
            if references:
                heads = [head_segments(spec, EXPECT_LINES) for spec in references]
                prepare(expect_language(heads), cache=cache)

    thread = threading.Thread(target=load, name="matchlight-language-model", daemon=True)
    thread.start()
    return thread


def task_rows(n_rows: int, workers: int) -> int:
    """Rows per task: :data:`MAX_TASK_ROWS`, fewer for a small input so that every worker
    gets several tasks."""
    share = math.ceil(n_rows / max(1, 4 * workers))
    return max(_MIN_TASK_ROWS, min(MAX_TASK_ROWS, share))


def open_command_engine(args: argparse.Namespace, pairs: int | None = None) -> Engine:
    """The engine of ``--engine``, ``--engine-address`` and ``--workers`` for ``pairs``
    (row, system) pairs (see :func:`~core.scoring.engines.open_engine`); raises
    :class:`Failed` with the engine's message."""
    try:
        return open_engine(
            getattr(args, "engine", "local"),
            workers=args.workers,
            address=getattr(args, "engine_address", None),
            pairs=pairs,
        )
    except EngineError as error:
        raise Failed(str(error)) from None


class Streamed:
    """One run over a setup's rows: read from the inputs' streams a chunk at a time, scored
    on ``engine``, the results handed out in order (:meth:`results`). Also gathers what the
    warnings need: the first lines of each reference and, from the results, the references
    rouge-score's tokenizer empties."""

    def __init__(
        self,
        setup: StreamSetup,
        job: RowJob,
        engine: Engine,
        *,
        rows: int | None = None,
        leaks: bool = False,
        language: bool = False,
    ) -> None:
        """``rows`` per task (None: :func:`task_rows`); ``leaks``: count identical lines for
        :meth:`leaks`; ``language``: run the language check (:meth:`language`)."""
        self.setup = setup
        self.job = job
        self.engine = engine
        self.rows = rows or task_rows(setup.n_rows, engine.workers)
        self.head: list[list[str]] = [[] for _ in setup.scan.references]
        self.dropped = 0
        n_refs, n_sys = len(setup.scan.references), len(setup.scan.systems)
        self.checks = ChunkChecks(
            leaks=leaks and n_sys >= 2,
            language=language,
            expectation=self._expectation() if language else None,
        )
        self.identical = np.zeros((n_refs, n_sys), dtype=np.int64)
        self._language = np.zeros((2, n_sys), dtype=np.int64)
        if engine.forks:
            prime(job, len(setup.systems))

    def _expectation(self) -> Expectation | None:
        """The references' language from their first lines (as
        :func:`~core.analysis.language.expect_language` reads a whole file); its model (and
        the expectation's tables) are made here, before forked workers inherit them."""
        heads = []
        for column in self.setup.scan.references:
            reader = SegmentReader(column)
            try:
                heads.append(reader.take(EXPECT_LINES))
            except InputError as error:
                raise Failed(str(error)) from None
            finally:
                reader.close()
        expectation = expect_language(heads)
        prepare(expectation, cache=user_cache())
        return expectation

    def _tasks(self) -> Iterator[tuple[Any, ...]]:
        scan = self.setup.scan
        with_source = self.checks.language and scan.source is not None
        inputs = (*scan.references, *scan.systems, *((scan.source,) if with_source else ()))
        readers = [SegmentReader(c) for c in inputs if c is not None]
        n_refs, n_sys = len(scan.references), len(scan.systems)
        mask = None
        if self.setup.rows is not None:
            mask = np.zeros(len(scan), dtype=np.bool_)
            mask[self.setup.rows] = True
        pending: list[list[str]] = [[] for _ in readers]
        ids: list[np.ndarray] = []
        kept = 0
        start = 0
        total = len(scan)

        def task() -> tuple[Any, ...]:
            return (
                self.job,
                self.checks,
                pending[:n_refs],
                pending[n_refs : n_refs + n_sys],
                pending[-1] if with_source else None,
                np.concatenate(ids),
            )

        while start < total:
            size = min(self.rows, total - start)
            columns = [reader.take(size) for reader in readers]
            for r in range(n_refs):
                missing = SCRIPT_SAMPLE_LINES - len(self.head[r])
                if missing > 0:
                    self.head[r] += columns[r][:missing]
            selected = None if mask is None else mask[start : start + size]
            if selected is None or selected.all():
                rows = np.arange(start, start + size)
            else:
                rows = start + np.flatnonzero(selected)
                columns = [list(itertools.compress(c, selected)) for c in columns]
            start += size
            if not len(rows):
                continue
            for held, column in zip(pending, columns, strict=True):
                held += column
            ids.append(rows)
            kept += len(rows)
            if kept >= self.rows or start >= total:
                yield task()
                pending = [[] for _ in readers]
                ids, kept = [], 0
        if kept:
            yield task()
        for reader in readers:
            reader.finish()

    def results(self) -> Iterator[RowResult]:
        """Every chunk's result, in the order of the rows; its checks are summed here. An
        input that is no longer what was checked raises :class:`Failed` with its message."""
        try:
            for result, counts in ordered(self.engine, score_chunk, self._tasks()):
                self.dropped += result.dropped
                if counts.identical is not None:
                    self.identical += counts.identical
                if counts.wrong_language is not None and counts.copies_source is not None:
                    self._language[0] += counts.wrong_language
                    self._language[1] += counts.copies_source
                yield result
        except InputError as error:
            raise Failed(str(error)) from None

    def leaks(self) -> tuple[str, ...]:
        """The reference-leak warnings of the rows scored
        (:func:`~core.analysis.references.counted_leaks`)."""
        if not self.checks.leaks:
            return ()
        return counted_leaks(
            identical=self.identical,
            n_rows=self.setup.n_rows,
            reference_names=[column.name for column in self.setup.scan.references],
            system_names=self.setup.systems,
        )

    def language(self) -> LanguageCounts | None:
        """The language check of the rows scored (None: not asked for)."""
        if not self.checks.language:
            return None
        return LanguageCounts(
            expectation=self.checks.expectation,
            has_source=self.setup.scan.source is not None,
            counts=tuple((int(w), int(c)) for w, c in self._language.T),
        )

    def advice(self, corpus: StreamedCorpus) -> list[Advice]:
        """The app's warnings banner for the rows scored (:func:`~core.scoring.advice.advice_for`):
        the script and sentence markers from each reference's first lines."""
        script = detect_script(self.head)
        scored = ScoredRows(
            config=corpus.config,
            rows=corpus.count,
            nrefs=corpus.nrefs,
            empty_refs=corpus.flags.get("empty_refs", 0),
            lsum_fallback=corpus.flags.get("lsum_fallback", 0),
            dropped=self.dropped if self.job.count_dropped else None,
        )
        return advice_for(
            scored,
            script=script,
            segmented=script in ("zh", "ja") and is_presegmented(self.head),
            has_marker=has_sentence_marker(self.head),
        )


def scored_table(setup: StreamSetup, args: argparse.Namespace) -> ScoreTable:
    """Every selected row scored into a :class:`~core.scoring.results.ScoreTable` (its scores
    and statistics; no text is held), on the engine of ``args``: for a command that needs
    every column of every row (``metaeval``)."""
    from matchlight.core.scoring.results import ScoreTable

    table = ScoreTable(
        systems=setup.systems, n_segments=len(setup.scan), config=setup.config, nrefs=setup.nrefs
    )
    with open_command_engine(args) as engine:
        streamed = Streamed(setup, RowJob(setup.config), engine, rows=args.task_rows)
        for result in streamed.results():
            table.apply(result.chunk, rows=result.segments)
    return table
