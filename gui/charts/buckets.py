"""How each system does per bucket of segments: by reference length, by length ratio, by word
frequency, or by any label column (domain, document), with bootstrap confidence intervals.

Every number comes from :mod:`core.analysis.buckets`: per bucket of segments either the mean of
a score column's segment values (:func:`~core.analysis.buckets.bucket_means`) or the column's
corpus figure of the bucket's rows (:func:`~core.analysis.buckets.bucket_corpus`: corpus BLEU
of each bucket from its summed statistics, what compare-mt plots), each with a seeded 95%
bootstrap interval and the count; and for words :func:`~core.analysis.buckets.
word_accuracy_by_frequency` (compare-mt's word F-measure per frequency bucket, edges 1, 2, 3, 4,
5, 10, 100, 1000). Reference length is the first reference's length in BLEU's tokens; the length
ratio is each system's output length over its reference length as BLEU counts them (so its
buckets differ per system). Word frequencies are counts in the first reference, or, loaded from
a file, a training corpus's (compare-mt's ``--freq_count_file``: ``word<TAB>count``, or its
``--freq_corpus_file``: the training text, split by BLEU's tokenizer); the file is read in the
background job and kept for later runs. A label column with many values shows its largest
:data:`MAX_LABELS` labels and one "other" bucket.

The bootstrap runs in a background job (a new selection cancels a stale run). Clicking a bar
selects that bucket's segments (for the length ratio, that system's bucket).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, Slot
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QWidget

from matchlight.core.analysis.buckets import (
    FREQUENCY_EDGES,
    Buckets,
    BucketTable,
    WordAccuracy,
    bucket_corpus,
    bucket_means,
    length_buckets,
    ratio_buckets,
    word_accuracy_by_frequency,
)
from matchlight.core.analysis.significance import table_statistics
from matchlight.core.io.wordcounts import count_corpus_words, read_word_counts
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.tokenizers import Tokenizer, bleu_tokenizer
from matchlight.gui.charts.base import compact, fill_combo, legend_html, make_plot
from matchlight.gui.charts.brush import BrushViewBox
from matchlight.gui.charts.jobpanel import JobPanel
from matchlight.gui.charts.jobs import JobCancelled
from matchlight.gui.charts.link import ChartLink

__all__ = [
    "BOOTSTRAP",
    "MAX_LABELS",
    "SEED",
    "BucketResult",
    "BucketsPanel",
    "FrequencySource",
    "compute_buckets",
    "read_frequencies",
    "top_labels",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# Bootstrap resamples and seed of the confidence intervals (compare-mt's count).
BOOTSTRAP = 1000
SEED = 0
# A label column shows at most this many labels (the most frequent), then "other".
MAX_LABELS = 12
# Width of a bucket's group of bars (the gap between groups is the rest of 1).
GROUP_WIDTH = 0.8

# The "By" choices that are not label columns.
BY_LENGTH = "length"
BY_RATIO = "ratio"
BY_FREQUENCY = "frequency"
LABEL_PREFIX = "label:"

# What a bucket of segments shows: the mean of the segment scores, or the corpus score.
STAT_MEAN = "mean"
STAT_CORPUS = "corpus"
# Where word frequencies come from: the reference, a count file, a training text.
FREQ_REFERENCE = "reference"
FREQ_COUNTS = "counts"
FREQ_TEXT = "text"

# ``ask(parent, caption, start folder) -> path or None``: the file dialog (injectable).
AskFile = Callable[[QWidget, str, str], "str | None"]


def ask_frequency_file(parent: QWidget, caption: str, folder: str) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, caption, folder)
    return path or None


@dataclass(frozen=True, slots=True)
class FrequencySource:
    """A file of word frequencies: ``kind`` :data:`FREQ_COUNTS` (``word<TAB>count`` lines) or
    :data:`FREQ_TEXT` (a training text, counted with the comparison's BLEU tokenizer)."""

    kind: str
    path: str

    @property
    def name(self) -> str:
        return Path(self.path).name


def read_frequencies(
    source: FrequencySource, table: ScoreTable, cancelled: Callable[[], bool] = lambda: False
) -> Mapping[str, int]:
    """The word counts of ``source`` (read in the background job; a bad line is a
    :class:`~core.io.files.FileError` naming the file and the line)."""
    if source.kind == FREQ_COUNTS:
        return read_word_counts(source.path)
    tokenizer = _bleu_tokenizer(table)
    return count_corpus_words(source.path, tokenizer)


@dataclass(frozen=True, slots=True, eq=False)
class BucketResult:
    """What the chart draws: ``means[b, s]`` with ``low``/``high`` bounds, ``counts[b, s]``
    (segments with a value, or reference words for word frequency), and ``rows[b][s]``: the
    segments a click on that bar selects."""

    by: str
    what: str  # the value shown ("sentence BLEU", "word F-measure")
    labels: tuple[str, ...]
    means: FloatArray
    low: FloatArray
    high: FloatArray
    counts: IntArray
    rows: tuple[tuple[IntArray, ...], ...]
    note: str = ""
    # The value shown is better lower (an MQM penalty's mean).
    lower_is_better: bool = False


def top_labels(labels: Sequence[str], limit: int = MAX_LABELS) -> Buckets:
    """Buckets of a label column: one per label when there are at most ``limit``, in order of
    first appearance; else the ``limit - 1`` most frequent (ties: first appearance) and one
    "other" bucket for the rest."""
    counts = Counter(labels)
    if len(counts) <= limit:
        names = list(counts)  # Counter keeps first-appearance order
        lookup = {name: i for i, name in enumerate(names)}
        index = np.fromiter((lookup[x] for x in labels), np.int64, len(labels))
        return Buckets("label", tuple(_shown(n) for n in names), index)
    first = {name: i for i, name in reversed(list(enumerate(labels)))}
    kept = sorted(counts, key=lambda n: (-counts[n], first[n]))[: limit - 1]
    lookup = {name: i for i, name in enumerate(kept)}
    other = len(kept)
    index = np.fromiter((lookup.get(x, other) for x in labels), np.int64, len(labels))
    rest = len(counts) - len(kept)
    return Buckets("label", (*(_shown(n) for n in kept), f"other ({rest} labels)"), index)


def _shown(label: str) -> str:
    return label if label else "(empty)"


def _tokens(
    lines: Sequence[str], tokenizer: Tokenizer, stop: Callable[[], bool]
) -> list[list[str]]:
    out: list[list[str]] = []
    for i, line in enumerate(lines):
        if i % 2048 == 0 and stop():
            raise JobCancelled
        out.append(tokenizer(line))
    return out


def _bleu_tokenizer(table: ScoreTable) -> Tokenizer:
    if "bleu" in table.metric_keys:
        settings = table.config.settings("bleu")
        return bleu_tokenizer(settings.tokenize, lowercase=settings.lowercase)  # type: ignore[attr-defined]
    return bleu_tokenizer("13a")


def _frequency_signature(source: FrequencySource, table: ScoreTable) -> tuple[object, ...]:
    """What a frequency file's counts depend on: the file as it is now (its time and size;
    the read says why when it cannot be looked at) and, for a text, the tokenizer. Called in
    the background job: a stat can wait on a slow disk."""
    try:
        info = os.stat(source.path)
        stamp: tuple[object, ...] = (info.st_mtime_ns, info.st_size)
    except OSError:
        stamp = ()
    tokenizer = None
    if source.kind == FREQ_TEXT and "bleu" in table.metric_keys:
        settings = table.config.settings("bleu")
        tokenizer = (getattr(settings, "tokenize", None), getattr(settings, "lowercase", None))
    return (*stamp, tokenizer)


def compute_buckets(
    *,
    text: CorpusText,
    table: ScoreTable,
    by: str,
    column: str | None,
    rows: IntArray,
    labels: Sequence[str] | None,
    label_name: str = "label",
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[float], None] = lambda f: None,
    n_boot: int = BOOTSTRAP,
    seed: int = SEED,
    statistic: str = STAT_MEAN,
    counts: Mapping[str, int] | None = None,
    counts_name: str | None = None,
) -> BucketResult:
    """The chart's numbers, from :mod:`core.analysis.buckets` (a pure function, run in the
    background job and called by the tests). ``statistic`` :data:`STAT_CORPUS` shows each
    bucket's corpus figure instead of the mean of its segment scores; ``counts`` (named
    ``counts_name``) are word frequencies from a training corpus instead of the reference's."""
    n_sys = len(text.systems)
    tokenizer = _bleu_tokenizer(table)
    if by == BY_FREQUENCY:
        reference = _tokens(text.references[0], tokenizer, cancelled)
        progress(0.2)
        systems = []
        for s, lines in enumerate(text.systems):
            systems.append(_tokens(lines, tokenizer, cancelled))
            progress(0.2 + 0.5 * (s + 1) / n_sys)
        words: WordAccuracy = word_accuracy_by_frequency(
            reference=reference,
            systems=systems,
            counts=counts,
            edges=FREQUENCY_EDGES,
            rows=rows,
            n_boot=n_boot,
            seed=seed,
        )
        progress(1.0)
        count = np.broadcast_to(words.ref_total, (n_sys, len(words.labels))).T.copy()
        where = (
            QCoreApplication.translate("buckets", "the reference")
            if counts is None
            else (counts_name or QCoreApplication.translate("buckets", "the training corpus"))
        )
        return BucketResult(
            by=QCoreApplication.translate("buckets", "word frequency in {where}").format(
                where=where
            ),
            what=QCoreApplication.translate("buckets", "word F-measure"),
            labels=words.labels,
            means=words.fmeasure.T.copy(),
            low=words.fmeasure_low.T.copy(),
            high=words.fmeasure_high.T.copy(),
            counts=count.astype(np.int64),
            rows=tuple(tuple(r for _ in range(n_sys)) for r in words.rows),
            note=QCoreApplication.translate(
                "buckets",
                "counts are reference words; a bucket's segments are those whose reference "
                "has such a word",
            ),
        )
    if column is None:
        raise ValueError("choose a score column")
    if by == BY_LENGTH:
        lengths = np.array([len(t) for t in _tokens(text.references[0], tokenizer, cancelled)])
        buckets = length_buckets(lengths)
        what_by = QCoreApplication.translate("buckets", "reference length (tokens)")
    elif by == BY_RATIO:
        if not (table.has("hyp_len") and table.has("ref_len")):
            raise ValueError("the length ratio needs BLEU's token counts: score BLEU")
        buckets = ratio_buckets(
            np.stack([table.column("hyp_len", s) for s in range(n_sys)]),
            np.stack([table.column("ref_len", s) for s in range(n_sys)]),
        )
        what_by = QCoreApplication.translate("buckets", "output length / reference length")
    else:
        if labels is None:
            raise ValueError("no such label column")
        buckets = top_labels(labels)
        what_by = label_name
    progress(0.1)
    values = np.stack([table.column(column, s) for s in range(n_sys)])
    info = table.column_info(column)
    corpus = statistic == STAT_CORPUS
    if corpus:
        stats, score = table_statistics(table, column)
    n_buckets = len(buckets.labels)
    means = np.full((n_buckets, n_sys), np.nan)
    low = np.full_like(means, np.nan)
    high = np.full_like(means, np.nan)
    counts = np.zeros((n_buckets, n_sys), np.int64)
    members: list[tuple[IntArray, ...]] = []
    selected = np.zeros(len(text), np.bool_)
    selected[rows] = True
    for b in range(n_buckets):
        if cancelled():
            raise JobCancelled
        # One bucket at a time (the same numbers as one call: each bucket has its own seed),
        # so that a stale run stops between buckets.
        in_bucket = (buckets.index == b) if not buckets.per_system else (buckets.index == b).any(0)
        chosen = np.flatnonzero(selected & in_bucket)
        result: BucketTable = (
            bucket_corpus(
                buckets,
                stats,
                score,
                present=~np.isnan(values),
                rows=chosen,
                n_boot=n_boot,
                seed=seed,
            )
            if corpus
            else bucket_means(buckets, values, rows=chosen, n_boot=n_boot, seed=seed)
        )
        cells = result.cells[b]
        for s, cell in enumerate(cells):
            means[b, s], low[b, s], high[b, s] = cell.mean, cell.low, cell.high
            counts[b, s] = cell.count
        members.append(tuple(cell.rows for cell in cells))
        progress(0.1 + 0.9 * (b + 1) / n_buckets)
    if not corpus:
        what = QCoreApplication.translate("buckets", "mean sentence {0}").format(info.label)
    elif info.corpus == "stats":
        what = QCoreApplication.translate("buckets", "corpus {0}").format(info.label)
    else:  # a mean's corpus figure is the mean
        what = QCoreApplication.translate("buckets", "mean {0}").format(info.label)
    return BucketResult(
        by=what_by,
        what=what,
        labels=buckets.labels,
        means=means,
        low=low,
        high=high,
        counts=counts,
        rows=tuple(members),
        lower_is_better=not info.higher_is_better,
    )


class BucketsPanel(JobPanel):
    """Grouped bars: buckets along the axis, one bar per system with its 95% interval."""

    DRAWS_CHOSEN_COLUMNS = True

    title = QT_TRANSLATE_NOOP("ChartPanel", "Buckets")
    job_name = "matchlight-buckets"
    failure = QT_TRANSLATE_NOOP("JobPanel", "The buckets could not be computed")

    def __init__(
        self, link: ChartLink, parent: QWidget | None = None, *, ask_file: AskFile | None = None
    ) -> None:
        super().__init__(link, parent)
        self.ask_file = ask_file or ask_frequency_file
        self.by_combo = QComboBox()
        self.by_combo.setToolTip(
            QCoreApplication.translate("BucketsPanel", "How segments are grouped")
        )
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip(
            QCoreApplication.translate("BucketsPanel", "The score column shown per bucket")
        )
        self.statistic_combo = QComboBox()
        self.statistic_combo.addItem(
            QCoreApplication.translate("BucketsPanel", "mean of segment scores"), STAT_MEAN
        )
        self.statistic_combo.addItem(
            QCoreApplication.translate("BucketsPanel", "corpus score per bucket"), STAT_CORPUS
        )
        self.statistic_combo.setToolTip(
            QCoreApplication.translate(
                "BucketsPanel",
                "Mean of the segment scores of each bucket, or the corpus score of the "
                "bucket's segments from their summed statistics (corpus BLEU per bucket, "
                "as compare-mt plots it); the same for a column whose corpus figure is a "
                "mean (ROUGE)",
            )
        )
        self.frequency_combo = QComboBox()
        self.frequency_combo.addItem(
            QCoreApplication.translate("BucketsPanel", "in the reference"), FREQ_REFERENCE
        )
        self.frequency_combo.addItem(
            QCoreApplication.translate("BucketsPanel", "from a count file…"), FREQ_COUNTS
        )
        self.frequency_combo.addItem(
            QCoreApplication.translate("BucketsPanel", "from a training text…"), FREQ_TEXT
        )
        self.frequency_combo.setToolTip(
            QCoreApplication.translate(
                "BucketsPanel",
                "Where word frequencies come from: the (first) reference, where no word is "
                "rarer than 1; or a training corpus, as a word<TAB>count file "
                "(compare-mt's --freq_count_file) or as its text (--freq_corpus_file, "
                "split by BLEU's tokenizer)",
            )
        )
        # The word frequencies' file (None: the reference's own counts).
        self.frequency_source: FrequencySource | None = None
        # (kind, path) -> (the file's signature, its counts): read once while unchanged.
        self._frequency_cache: dict[
            tuple[str, str], tuple[tuple[object, ...], Mapping[str, int]]
        ] = {}
        # "reference length" and "word frequency" whole; system names may be elided.
        for label, widget, characters in (
            (QCoreApplication.translate("BucketsPanel", "By:"), self.by_combo, 16),
            (QCoreApplication.translate("BucketsPanel", "Score:"), self.metric_combo, 8),
            (QCoreApplication.translate("BucketsPanel", "Show:"), self.statistic_combo, 12),
            (QCoreApplication.translate("BucketsPanel", "Frequencies:"), self.frequency_combo, 14),
        ):
            self.controls.addWidget(QLabel(label))
            self.controls.addWidget(widget)
            compact(widget, characters)
        for widget in (self.by_combo, self.metric_combo, self.statistic_combo):
            widget.currentIndexChanged.connect(self._on_choice_changed)
        self.frequency_combo.activated.connect(self._on_frequency_activated)
        self.controls.addWidget(self.progress)
        self.controls.addStretch(1)

        graphics = self.add_graphics()
        self.box = BrushViewBox("x")
        self.box.setMouseEnabled(x=False, y=False)
        self.plot = make_plot(view_box=self.box)
        graphics.addItem(self.plot, row=0, col=0)
        self.legend = pg.LabelItem(justify="center")
        graphics.addItem(self.legend, row=1, col=0)
        self.plot.getAxis("bottom").setHeight(44)
        self._bars: list[pg.BarGraphItem] = []
        self._errors: list[pg.ErrorBarItem] = []

        self.result: BucketResult | None = None

        self.box.clicked_at.connect(self._on_clicked)
        self.listen(link.labels_changed, self._on_labels_changed)
        self.listen(link.session_changed, self._on_session_changed)
        self.apply_theme()

    # -- choices --------------------------------------------------------------------------------

    @property
    def by(self) -> str:
        data = self.by_combo.currentData()
        return data if isinstance(data, str) else BY_LENGTH

    @property
    def score_key(self) -> str | None:
        data = self.metric_combo.currentData()
        return data if isinstance(data, str) else None

    @property
    def statistic(self) -> str:
        data = self.statistic_combo.currentData()
        return data if isinstance(data, str) else STAT_MEAN

    def set_choices(
        self, *, by: str | None = None, metric: str | None = None, statistic: str | None = None
    ) -> None:
        self._update_choices()
        for combo, value in (
            (self.by_combo, by),
            (self.metric_combo, metric),
            (self.statistic_combo, statistic),
        ):
            if value is not None:
                index = combo.findData(value)
                if index < 0:
                    raise ValueError(f"{value!r} is not offered")
                combo.setCurrentIndex(index)
        self._enable_choices()
        self.schedule()

    def set_frequency_source(self, source: FrequencySource | None) -> None:
        """Count word frequencies in ``source`` (None: in the reference); redraws."""
        self.frequency_source = source
        kind = FREQ_REFERENCE if source is None else source.kind
        self.frequency_combo.blockSignals(True)
        self.frequency_combo.setCurrentIndex(self.frequency_combo.findData(kind))
        self.frequency_combo.blockSignals(False)
        if source is not None:
            self.frequency_combo.setToolTip(
                QCoreApplication.translate("BucketsPanel", "Word frequencies from {0}").format(
                    source.path
                )
            )
        self.schedule()

    @Slot(int)
    def _on_frequency_activated(self, index: int) -> None:
        kind = self.frequency_combo.itemData(index)
        if kind == FREQ_REFERENCE:
            self.set_frequency_source(None)
            return
        what = (
            QCoreApplication.translate("BucketsPanel", "word<TAB>count file")
            if kind == FREQ_COUNTS
            else QCoreApplication.translate("BucketsPanel", "training text")
        )
        start = str(Path(self.frequency_source.path).parent) if self.frequency_source else ""
        path = self.ask_file(
            self,
            QCoreApplication.translate("BucketsPanel", "Word frequencies: a {what}").format(
                what=what
            ),
            start,
        )
        if path:
            self.set_frequency_source(FrequencySource(str(kind), path))
        else:  # cancelled: keep what was chosen
            self.set_frequency_source(self.frequency_source)

    def _enable_choices(self) -> None:
        words = self.by == BY_FREQUENCY
        self.metric_combo.setEnabled(not words)
        self.statistic_combo.setEnabled(not words)
        self.frequency_combo.setEnabled(words)

    def _update_choices(self) -> None:
        table = self.link.table
        items: list[tuple[str, object]] = []
        if table is not None:
            items = [(QCoreApplication.translate("BucketsPanel", "reference length"), BY_LENGTH)]
            if table.has("hyp_len"):
                items.append((QCoreApplication.translate("BucketsPanel", "length ratio"), BY_RATIO))
            items.append(
                (QCoreApplication.translate("BucketsPanel", "word frequency"), BY_FREQUENCY)
            )
            items += [(f"label: {name}", LABEL_PREFIX + name) for name in self.link.labels]
        fill_combo(self.by_combo, items)
        fill_combo(self.metric_combo, self.column_items())
        self._enable_choices()

    @Slot()
    def _on_labels_changed(self) -> None:
        self._update_choices()
        names = list(self.link.labels)
        if names:  # show the column just loaded
            self.by_combo.setCurrentIndex(self.by_combo.findData(LABEL_PREFIX + names[-1]))

    @Slot()
    def _on_session_changed(self) -> None:
        self.job.cancel()
        self.result = None
        self._frequency_cache.clear()  # counted with the old comparison's tokenizer

    @Slot(int)
    def _on_choice_changed(self, _index: int) -> None:
        self._enable_choices()
        self.schedule()

    # -- computing ------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._update_choices()
        table = self.link.table
        core = self.link.core
        if table is None or core is None:
            self.job.cancel()
            self.show_placeholder(
                QCoreApplication.translate(
                    "BucketsPanel", "Open a comparison to compare the systems per bucket."
                )
            )
            return
        if not table.complete:
            self.show_placeholder(
                QCoreApplication.translate(
                    "BucketsPanel", "Scoring… the buckets appear when every segment is scored."
                )
            )
            return
        rows = np.flatnonzero(self.link.population(self))
        by = self.by
        labels = None
        label_name = "label"
        if by.startswith(LABEL_PREFIX):
            found = self.link.labels.get(by[len(LABEL_PREFIX) :])
            labels = None if found is None else found.labels
            label_name = by[len(LABEL_PREFIX) :]
        text = core.text
        column = self.score_key
        statistic = self.statistic
        source = self.frequency_source if by == BY_FREQUENCY else None
        key = None if source is None else (source.kind, source.path)
        cached = None if key is None else self._frequency_cache.get(key)
        reading = f"Reading {source.name}… " if source is not None and cached is None else ""
        self.caption.setText(
            QCoreApplication.translate(
                "BucketsPanel", "{reading}Computing bootstrap intervals over {0:,} segments…"
            ).format(len(rows), reading=reading)
        )

        def work(cancelled: Callable[[], bool], progress: Callable[[float], None]) -> object:
            counts: Mapping[str, int] | None = None
            kept = None
            if source is not None:
                signature = _frequency_signature(source, table)
                if cached is not None and cached[0] == signature:
                    counts = cached[1]
                else:
                    counts = read_frequencies(source, table, cancelled)
                kept = (signature, counts)
            result = compute_buckets(
                text=text,
                table=table,
                by=by,
                column=column,
                rows=rows,
                labels=labels,
                label_name=label_name,
                cancelled=cancelled,
                progress=progress,
                statistic=statistic,
                counts=counts,
                counts_name=None if source is None else source.name,
            )
            return key, kept, result

        self.start_job(work)

    def job_done(self, payload: object) -> None:
        if not isinstance(payload, tuple):
            return
        key, kept, result = payload
        if key is not None and kept is not None:
            self._frequency_cache[key] = kept
        if isinstance(result, BucketResult):
            self.result = result
            self.draw(result)

    # -- drawing --------------------------------------------------------------------------------

    def apply_theme(self) -> None:
        self.box.set_band_colour(self.theme.highlight)
        self.style_plot(self.plot)
        if self.result is not None:
            self.draw(self.result)

    def draw(self, result: BucketResult) -> None:
        table = self.link.table
        if table is None:
            return
        self.show_body()
        theme = self.theme
        n_buckets, n_sys = result.means.shape
        width = GROUP_WIDTH / max(1, n_sys)
        while len(self._bars) < n_sys:
            bars = pg.BarGraphItem(x=[], height=[], width=width)
            errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0))
            self.plot.addItem(bars)
            self.plot.addItem(errors)
            self._bars.append(bars)
            self._errors.append(errors)
        while len(self._bars) > n_sys:
            self.plot.removeItem(self._bars.pop())
            self.plot.removeItem(self._errors.pop())
        centres = np.arange(n_buckets, dtype=np.float64)
        for s in range(n_sys):
            x = centres + (s - (n_sys - 1) / 2) * width
            mean = np.nan_to_num(result.means[:, s])
            self._bars[s].setOpts(
                x=x,
                height=mean,
                width=width * 0.92,
                brush=pg.mkBrush(theme.system(s, 215)),
                pen=pg.mkPen(theme.background, width=0.5),
            )
            ok = ~np.isnan(result.low[:, s]) & ~np.isnan(result.high[:, s])
            ok &= result.counts[:, s] > 0
            self._errors[s].setData(
                x=x[ok],
                y=mean[ok],
                top=(result.high[:, s] - mean)[ok],
                bottom=(mean - result.low[:, s])[ok],
                beam=width * 0.35,
                pen=pg.mkPen(theme.foreground, width=1.2),
            )
        ticks = []
        for b, label in enumerate(result.labels):
            counts = result.counts[b]
            n = (
                f"n={counts[0]:,}"
                if (counts == counts[0]).all()
                else (f"n={counts.min():,}–{counts.max():,}")
            )
            ticks.append((float(b), f"{label}\n{n}"))
        self.plot.getAxis("bottom").setTicks([ticks, []])
        self.plot.setXRange(-0.6, n_buckets - 0.4, padding=0)
        reached = np.concatenate([result.high.ravel(), result.low.ravel(), result.means.ravel()])
        top = float(np.nanmax(np.append(reached, 0.0)))
        bottom = float(np.nanmin(np.append(reached, 0.0)))  # a negated penalty's bars go down
        if top == bottom:
            top = 1.0
        self.plot.setYRange(bottom * 1.08, top * 1.08, padding=0)
        way = (
            QCoreApplication.translate("BucketsPanel", " (lower is better)")
            if result.lower_is_better
            else ""
        )
        self.plot.setLabel("left", f"{result.what}{way}")
        self.plot.setLabel("bottom", result.by)
        self.style_plot(
            self.plot,
            QCoreApplication.translate("BucketsPanel", "{0}{1} per bucket").format(
                result.what[0].upper(), result.what[1:]
            ),
        )
        self.legend.setText(
            legend_html(
                [(theme.system(s).name(), name) for s, name in enumerate(table.systems)],
                per_line=self.legend_columns(),
            ),
            color=theme.foreground.name(),
            size="9pt",
        )
        n_rows = len(np.flatnonzero(self.link.population(self)))
        note = f" ({result.note})" if result.note else ""
        self.caption.setText(
            QCoreApplication.translate(
                "BucketsPanel",
                "{0}{1} per bucket over {n_rows:,} segments{way}{note}; whiskers: 95% "
                "bootstrap interval ({BOOTSTRAP:,} resamples, seed {SEED}). Click a bar to "
                "select its segments.",
            ).format(
                result.what[0].upper(),
                result.what[1:],
                n_rows=n_rows,
                way=way,
                note=note,
                BOOTSTRAP=BOOTSTRAP,
                SEED=SEED,
            )
        )

    # -- clicks ---------------------------------------------------------------------------------

    def bar_at(self, x: float) -> tuple[int, int] | None:
        """(bucket, system) of the bar at ``x`` (data coordinates), or None."""
        result = self.result
        if result is None:
            return None
        n_buckets, n_sys = result.means.shape
        bucket = int(np.floor(x + 0.5))
        if not 0 <= bucket < n_buckets:
            return None
        offset = x - bucket + GROUP_WIDTH / 2
        if not 0 <= offset < GROUP_WIDTH:
            return None
        return bucket, min(n_sys - 1, int(offset / (GROUP_WIDTH / n_sys)))

    def select_bucket(self, bucket: int, system: int = 0) -> bool:
        """Select the segments of ``bucket`` (of ``system``'s buckets, for the length ratio)."""
        result = self.result
        table = self.link.table
        if result is None or table is None:
            return False
        rows = result.rows[bucket][system]
        label = f"{result.by}: {result.labels[bucket]}"
        if any(not np.array_equal(rows, other) for other in result.rows[bucket]):
            label += f" ({table.systems[system]})"
        return self.link.select_rows(rows, label, owner=self)

    @Slot(QPointF)
    def _on_clicked(self, point: QPointF) -> None:
        found = self.bar_at(point.x())
        if found is not None:
            self.select_bucket(*found)
