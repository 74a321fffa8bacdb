"""py3langid's model, loaded once per process and applied to many lines at once.

The language check (:mod:`core.analysis.language`) asks py3langid about the few outputs it is
not sure of; most outputs are decided here in bulk: the model's byte automaton walked over
every line of a chunk in step, each line's features scored on a narrow table (the expected
language's columns exactly, every other language in a group whose column bounds its members),
then, for the lines that table cannot decide, on the whole table. A line is *sure* only when
py3langid's own best guess is then surely an accepted label, so the flags are the ones
py3langid gives line by line. The model and the narrow tables are read from a cache when it
holds them (:mod:`core.analysis.languagecache`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from matchlight.core.analysis.languagecache import (
    Cache,
    Table,
    group_table,
    groups_bytes,
    groups_from,
    groups_key,
    groups_name,
    load_identifier,
)

__all__ = ["identifier", "loaded_model", "narrow", "surely_expected"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

_LOCK = threading.Lock()
_LOADED: list[Any] = []


def identifier(cache: Cache | None = None) -> Any:
    """py3langid's identifier with probabilities: its model ships in its wheel and is read
    once per process, by whichever thread asks first: from ``cache`` when it holds the
    model's arrays (a fraction of a second), else decompressed from the wheel's file (seconds
    of LZMA; then stored in ``cache``)."""
    if not _LOADED:
        with _LOCK:
            if not _LOADED:
                _LOADED.append(load_identifier(cache))
    return _LOADED[0]


#: A line is judged by the batch below only up to this many bytes (as py3langid reads it) ...
_BATCH_BYTES: Final = 1024
#: ... and taken as surely in the expected language when one of its labels is at least this
#: much likelier (natural log) than every other. A float32 sum of a line's feature scores,
#: in any order, errs by at most ``10.4 * 2**-24 * bytes**1.5`` per label (0.02 at 1024
#: bytes), py3langid's as the batch's, so py3langid's best guess is then an accepted label too.
_SURE_MARGIN: Final = 0.25


@dataclass(frozen=True, slots=True)
class _Model:
    """py3langid's model as arrays: its byte automaton (next state, feature of a state) and
    its naive Bayes table, for scoring many lines at once."""

    nextmove: npt.NDArray[np.uint32]
    rowbase: npt.NDArray[np.int64]
    output: npt.NDArray[np.int64]
    table: Table
    prior: npt.NDArray[np.float64]
    aliases: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]


_MODEL: list[_Model] = []


def loaded_model(cache: Cache | None = None) -> _Model:
    """py3langid's model as arrays, made once per process (see :func:`identifier`); its
    table is the identifier's own (float16, converted where rows are scored)."""
    if not _MODEL:
        found = identifier(cache)
        with _LOCK:
            if not _MODEL:
                _MODEL.append(
                    _Model(
                        nextmove=np.frombuffer(found.tk_nextmove, dtype=np.uint32),
                        rowbase=np.asarray(found._rowbase, dtype=np.int64),
                        output=np.asarray(found.tk_output, dtype=np.int64),
                        table=np.asarray(found.nb_ptc),
                        prior=np.asarray(found.nb_pc, dtype=np.float64),
                        aliases=tuple(map(tuple, found._alias_pairs)),
                        labels=tuple(found.nb_classes),
                    )
                )
    return _MODEL[0]


def surely_expected(texts: Sequence[str], accepted: frozenset[str]) -> BoolArray:
    """Which of ``texts`` py3langid's best guess surely puts in the expected language: its
    model applied to all of them at once (the byte automaton walked in step over every line,
    then each line's features scored as py3langid scores them), where ``classify`` walks and
    scores one line at a time. A text is sure when an accepted label beats every other by
    :data:`_SURE_MARGIN`; the others (and lines over :data:`_BATCH_BYTES`) are left to
    ``classify``."""
    n = len(texts)
    sure = np.zeros(n, np.bool_)
    if not n:
        return sure
    model = loaded_model()
    columns = np.array([label in accepted for label in model.labels])
    if not columns.any() or columns.all():
        return sure
    found = _walked(model, [_encoded(text) for text in texts])
    if found is None:
        return sure
    lines, features = found
    # Every line first against the narrow table (the other languages by group, bounded);
    # only those it cannot decide against every label.
    bounded = narrow(accepted)
    decided = _sure(features, np.arange(len(lines)), bounded.scorer)
    sure[lines[decided]] = True
    left = np.flatnonzero(~decided)
    if len(left):
        full = _Scorer(model.table, model.prior, columns, model.aliases)
        sure[lines[left[_sure(features, left, full)]]] = True
    return sure


def _encoded(text: str) -> bytes:
    """``text`` as py3langid reads it (its ``_encode``: lowered when all upper, NFC, UTF-8);
    ASCII text is its own NFC."""
    if text.isascii():
        return (text.lower() if text.isupper() else text).encode()
    encoded: bytes = identifier()._encode(text)
    return encoded


def _walked(model: _Model, encoded: Sequence[bytes]) -> tuple[IntArray, _Features] | None:
    """The features py3langid's automaton finds in each of ``encoded`` (those of 1 to
    :data:`_BATCH_BYTES` bytes with a feature): the lines' positions in ``encoded`` and
    their distinct features with counts. The automaton is walked a byte of every line per
    step (lines longest first, so those still walking are a prefix), each step's states
    kept; the features are looked up and counted after the walk, all at once."""
    n = len(encoded)
    lengths = np.fromiter(map(len, encoded), np.int64, n)
    batch = np.flatnonzero((lengths > 0) & (lengths <= _BATCH_BYTES))
    if not len(batch):
        return None
    order = batch[np.argsort(-lengths[batch], kind="stable")]
    sizes = lengths[order]
    n_lines, steps, total = len(order), int(sizes[0]), int(sizes.sum())
    data = np.frombuffer(b"".join([encoded[i] for i in order]), dtype=np.uint8)
    # Step-major: at step t the first walking[t] lines (those longer than t) take their t-th
    # byte; ``at_step[j]`` is where byte j of ``data`` (line after line) comes in that order.
    walking = np.searchsorted(-sizes, -np.arange(steps), side="left")
    step_starts = np.cumsum(walking) - walking
    line_of_byte = np.repeat(np.arange(n_lines), sizes)
    step_of_byte = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    at_step = np.take(step_starts, step_of_byte) + line_of_byte
    byte = np.empty(total, np.int64)
    byte[at_step] = data
    visited = np.empty(total, np.uint32)
    state = np.zeros(n_lines, np.uint32)
    offset = np.empty(n_lines, np.int64)
    # Every index is in range: ``clip`` only spares ``take`` the copy of ``out`` it makes
    # when it has to raise.
    for at, m in zip(step_starts.tolist(), walking.tolist(), strict=True):
        np.take(model.rowbase, state[:m], out=offset[:m], mode="clip")
        offset[:m] += byte[at : at + m]
        state = visited[at : at + m]
        np.take(model.nextmove, offset[:m], out=state, mode="clip")
    # Back in line order, the features of each line together, then sorted by (line, feature)
    # (plain integers: any sort gives the same array, numpy's default one is the fastest).
    feature = np.take(model.output, np.take(visited, at_step))
    hit = np.flatnonzero(feature >= 0)
    if not len(hit):
        return None
    n_features = len(model.table)
    small = n_lines * n_features < 2**31  # a narrower sort key sorts faster
    width = np.int32 if small else np.int64
    keys: npt.NDArray[np.signedinteger[Any]] = np.take(line_of_byte, hit).astype(width)
    keys *= n_features
    keys += np.take(feature, hit).astype(width)
    keys.sort()
    starts = np.flatnonzero(np.diff(keys, prepend=-1))
    counts = np.diff(starts, append=len(keys))
    keys = keys[starts].astype(np.int64)
    line_of, feature_of = np.divmod(keys, n_features)
    firsts = np.flatnonzero(np.diff(line_of, prepend=-1))
    features = _Features(
        feature_of,
        np.log1p(counts.astype(np.float32)),
        firsts,
        np.append(firsts[1:], len(keys)),
        sizes[line_of[firsts]],
    )
    return order[line_of[firsts]], features


@dataclass(frozen=True, slots=True)
class _Features:
    """The distinct features of many lines: line ``i``'s are ``feature[firsts[i]:ends[i]]``,
    weighted ``weight`` (py3langid's ``log1p`` of the count), of a line of ``size`` bytes."""

    feature: IntArray
    weight: npt.NDArray[np.float32]
    firsts: IntArray
    ends: IntArray
    size: IntArray


@dataclass(frozen=True, slots=True)
class _Scorer:
    """Columns to score lines on: ``table`` (feature x column), a ``prior`` per column, which
    columns are ``accepted`` labels, and the column ``aliases`` py3langid folds together."""

    table: Table
    prior: npt.NDArray[np.float64]
    accepted: BoolArray
    aliases: tuple[tuple[int, int], ...]


#: Lines scored in one batched product by :func:`_line_scores` (padded to the block's most
#: features: lines are taken in order of their feature counts, so little is padding).
_SCORE_BLOCK: Final = 128


def _line_scores(features: _Features, which: IntArray, table: Table) -> npt.NDArray[np.float32]:
    """Each line of ``which``: its weights times its features' rows of ``table``, a
    matrix-vector product in float32 as py3langid's ``_sparse_score`` (only the order of the
    terms differs), :data:`_SCORE_BLOCK` lines at a time, each padded with zero weights."""
    scores = np.empty((len(which), table.shape[1]), np.float32)
    firsts, ends = features.firsts[which], features.ends[which]
    order = np.argsort(ends - firsts, kind="stable")
    for at in range(0, len(order), _SCORE_BLOCK):
        block = order[at : at + _SCORE_BLOCK]
        first, end = firsts[block][:, None], ends[block][:, None]
        positions = first + np.arange(int((end - first).max()))
        inside = positions < end
        positions = np.where(inside, positions, first)
        weights = np.where(inside, np.take(features.weight, positions), np.float32(0))
        rows = np.take(table, np.take(features.feature, positions), axis=0)
        if rows.dtype == np.float16:
            # py3langid's scores, converted exactly by looking up their bits (numpy's own
            # conversion goes value by value).
            rows = np.take(_half_floats(), rows.view(np.uint16))
        scores[block] = np.matmul(weights[:, None, :], rows)[:, 0]
    return scores


@lru_cache(maxsize=1)
def _half_floats() -> npt.NDArray[np.float32]:
    """Every float16 as a float32, by its 16 bits."""
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float32)


def _sure(features: _Features, which: IntArray, scorer: _Scorer) -> BoolArray:
    """Whether each line of ``which`` is sure by ``scorer``'s columns: an accepted column
    beats every other by :data:`_SURE_MARGIN`, after py3langid's length scaling and folding
    of aliases."""
    scores = _line_scores(features, which, scorer.table)
    total = scores.astype(np.float64) + scorer.prior
    total /= np.sqrt(features.size[which].astype(np.float64))[:, None]
    total -= total.max(axis=1, keepdims=True)
    probabilities = np.exp(total)
    for i, j in scorer.aliases:
        probabilities[:, i] += probabilities[:, j]
        probabilities[:, j] = 0.0
    best = probabilities[:, scorer.accepted].max(axis=1)
    other = probabilities[:, ~scorer.accepted].max(axis=1)
    return np.asarray(best > math.exp(_SURE_MARGIN) * other)


#: Groups the other languages are bounded by in the narrow table: each column is the largest
#: feature score (and prior) of a group's languages, so its score is at least theirs
#: (the weights are never negative). Grouped by likeness, the bound is close: it decides
#: 90-95 % of the lines of the shared data with about a fifth of the table's columns.
_GROUPS: Final = 24
#: The groups are found on every this-many-th feature (the table's rows): enough to tell
#: languages apart, in a fraction of a second.
_LIKEN_STEP: Final = 8


@dataclass(frozen=True, slots=True)
class _Narrow:
    """An expectation's narrow scorer: its first columns are the model's ``exact`` columns,
    then one per group of ``groups`` (model columns), each at least every member's."""

    scorer: _Scorer
    exact: tuple[int, ...]
    groups: tuple[IntArray, ...]


_NARROW: dict[frozenset[str], _Narrow] = {}


def narrow(accepted: frozenset[str], cache: Cache | None = None) -> _Narrow:
    """The narrow scorer of an expectation's ``accepted`` labels: their columns and the
    aliased ones exactly, every other language in one of :data:`_GROUPS` bounding columns
    (the groups and their table read from ``cache`` when it holds them for this model)."""
    found = _NARROW.get(accepted)
    if found is not None:
        return found
    model = loaded_model(cache)
    exact = sorted(
        {i for i, label in enumerate(model.labels) if label in accepted}
        | {i for pair in model.aliases for i in pair}
    )
    rest = np.array([i for i in range(len(model.labels)) if i not in exact])
    name = groups_name(accepted)
    key = "" if cache is None else groups_key(exact, f"{_GROUPS}|{_LIKEN_STEP}")
    stored = None if cache is None else cache.get(name, key)
    kept = None if stored is None else groups_from(stored, model.table, exact, rest)
    del stored  # a file mapped and rejected is let go before it is written again
    if kept is None:
        groups = _liken(model.table, rest, _GROUPS)
        table = group_table(model.table, exact, groups)
        if cache is not None:
            cache.put(name, key, groups_bytes(table, groups))
    else:
        table, groups = kept
    prior = np.concatenate([model.prior[exact], [model.prior[m].max() for m in groups]])
    position = {label: k for k, label in enumerate(exact)}
    made = _Narrow(
        _Scorer(
            table,
            prior,
            np.array(
                [k < len(exact) and model.labels[exact[k]] in accepted for k in range(len(prior))]
            ),
            tuple((position[i], position[j]) for i, j in model.aliases),
        ),
        tuple(exact),
        tuple(groups),
    )
    with _LOCK:
        _NARROW[accepted] = made
    return made


def _liken(table: Table, columns: IntArray, groups: int) -> list[IntArray]:
    """``columns`` of ``table`` in at most ``groups`` groups of like columns (k-means on every
    :data:`_LIKEN_STEP`-th feature, seeded: the same groups every time); only the speed
    depends on them, never a result."""
    points = np.ascontiguousarray(table[::_LIKEN_STEP, columns].T, dtype=np.float32)
    rng = np.random.default_rng(0)
    centres = points[rng.choice(len(points), min(groups, len(points)), replace=False)]
    norms = (points**2).sum(axis=1)
    label = np.zeros(len(points), np.int64)
    for _ in range(10):
        distance = norms[:, None] - 2 * points @ centres.T + (centres**2).sum(axis=1)[None]
        label = distance.argmin(axis=1)
        for g in range(len(centres)):
            if (label == g).any():
                centres[g] = points[label == g].mean(axis=0)
    return [columns[label == g] for g in range(len(centres)) if (label == g).any()]
