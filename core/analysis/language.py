"""Outputs in another language than the reference, and outputs that copy the source.

Two per-(system, segment) flags:

* ``wrong_language``: the output is identified, with confidence, as another language than the
  one the references are written in. The expectation is the references' language over the
  whole file (:func:`expect_language`), never the row's own reference line alone, which is
  often too short to tell. An output is flagged only when (1) it has at least
  :data:`MIN_LETTERS` letters once URLs, e-mail addresses and @handles are left out (shorter
  lines are never flagged: they cannot be told) and is more than a name (at most
  :data:`NAME_WORDS` capitalised words), (2) the identifier gives the expected language
  (with the languages it confuses it with, :data:`CLOSE_LANGUAGES`) at most
  :data:`MAX_EXPECTED_PROBABILITY`, (3) either fewer than :data:`MIN_SCRIPT_SHARE` of the
  output's letters are in the references' scripts (Latin output for Chinese references) or,
  in the same script, another language has at least :data:`MIN_OTHER_PROBABILITY` and the line
  has :data:`MIN_SAME_SCRIPT_LETTERS` letters, and (4) no reference line of the row is itself
  outside the expected language by (2) (a title or a name the translator kept is no error of
  the output). References in no clear language flag nothing.
* ``copies_source``: the output is the source or nearly so: after NFKC, case folding and
  keeping only letters and digits, their character similarity (:class:`difflib.SequenceMatcher`)
  is at least :data:`COPY_SIMILARITY`. Lines that cannot be anything but copied do not count:
  a source with fewer than :data:`MIN_COPY_LETTERS` letters (numbers such as ``12.``, URLs,
  short names), a source of at most :data:`NAME_WORDS` words all capitalised (a name, a
  title), and a row whose reference is itself at least :data:`REFERENCE_COPY` similar to the
  source (the translator kept it too).

Language identification is py3langid's naive Bayes model, which its wheel carries: nothing is
downloaded at run time. Neural metrics are known to score untranslated output highly; these
flags let such rows be counted and filtered. :func:`flag_rows` works on any slice of rows, so
a streaming caller can flag chunk by chunk with one :class:`Expectation`.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import itertools
import json
import math
import operator
import threading
import unicodedata
import zipfile
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal, Protocol

import numpy as np
import numpy.typing as npt
import regex

from matchlight.core.text.corpus import CorpusText

__all__ = [
    "CLOSE_LANGUAGES",
    "COPY_SIMILARITY",
    "EXPECT_CHARS",
    "EXPECT_LINES",
    "MAX_EXPECTED_PROBABILITY",
    "MIN_COPY_LETTERS",
    "MIN_LETTERS",
    "MIN_OTHER_PROBABILITY",
    "MIN_SAME_SCRIPT_LETTERS",
    "MIN_SCRIPT_SHARE",
    "NAME_WORDS",
    "REFERENCE_COPY",
    "Expectation",
    "Flag",
    "LanguageFlags",
    "RowFlags",
    "expect_language",
    "flag_rows",
    "language_flags",
    "prepare",
]

#: What :meth:`LanguageFlags.rows` looks for: either flag, or both (``either``).
Flag = Literal["wrong_language", "copies_source", "either"]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Fewest letters an output needs before its language is judged at all. A Han, kana or Hangul
#: character counts as two (:data:`DENSE_SCRIPTS`): ten of them say as much as twenty letters.
MIN_LETTERS: Final = 20
#: The identifier's largest probability of the expected language for a flagged output.
MAX_EXPECTED_PROBABILITY: Final = 0.01
#: Share of an output's letters in the references' scripts under which it is in another script.
MIN_SCRIPT_SHARE: Final = 0.5
#: In the references' script, the probability the other language needs ...
MIN_OTHER_PROBABILITY: Final = 0.95
#: ... and the letters the output needs (languages of one script are told apart by words).
MIN_SAME_SCRIPT_LETTERS: Final = 25
#: Character similarity (0-1) from which an output copies the source (real translations of
#: name-heavy lines reach 0.90).
COPY_SIMILARITY: Final = 0.95
#: A pair of lines whose character bigrams overlap less (Dice) is not compared further: a
#: shortcut past difflib's quadratic ratio, far below what any copy overlaps.
MIN_BIGRAM_OVERLAP: Final = 0.5
#: A reference at least this similar to the source keeps it too: copying it is then no error.
REFERENCE_COPY: Final = 0.8
#: Fewest letters (counted as for :data:`MIN_LETTERS`) a source needs before an output can be
#: said to copy it.
MIN_COPY_LETTERS: Final = 15
#: A source of at most this many words, each capitalised, is a name or a title: not copyable.
NAME_WORDS: Final = 5
#: Lines of each reference read to find the expected language (the first ones): a caller that
#: passes at least these gets the same expectation as one that passes the whole file.
EXPECT_LINES: Final = 1000
#: ... and at most this many characters of each.
EXPECT_CHARS: Final = 200_000
#: Letters the references need before their language is taken as known.
MIN_EXPECT_LETTERS: Final = 200
#: The references' language must be at least this probable over the lines read.
MIN_EXPECT_PROBABILITY: Final = 0.9
#: Share of the references' letters from which a script counts as theirs.
SCRIPT_FLOOR: Final = 0.1
#: Scripts whose characters count twice towards a line's letters: each one is a syllable or
#: a word, and the lines are short in characters.
DENSE_SCRIPTS: Final = frozenset({"HAN", "KANA", "HANGUL"})
#: Languages py3langid confuses on single lines; an output identified as one of the expected
#: language's group is not flagged. The groups are conservative: a flag means a plain error.
CLOSE_LANGUAGES: Final[tuple[frozenset[str], ...]] = (
    frozenset({"zh", "wuu", "yue"}),
    frozenset({"en", "pcm"}),
    frozenset({"no", "nn", "da"}),
    frozenset({"sr", "hr", "bs"}),
    frozenset({"cs", "sk"}),
    frozenset({"ms", "id"}),
    frozenset({"es", "gl", "an", "ext"}),
    frozenset({"pt", "gl"}),
    frozenset({"ca", "oc", "an"}),
    frozenset({"ar", "ary", "arz"}),
)

#: URLs, e-mail addresses and @handles: no language of their own.
_NOT_WORDS = regex.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\S+|@\w+", regex.IGNORECASE)
_NOT_ALNUM = regex.compile(r"[^\p{L}\p{N}]+")
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}'’\-]*")
#: Characters of a line that are identified and counted: plenty to tell a language, and a
#: 100,000-character line costs no more than a sentence.
IDENTIFY_CHARS: Final = 2000
#: Rows flagged per step of :func:`language_flags` (its cancel and progress checks).
_STEP: Final = 512


# -- the identifier ----------------------------------------------------------------------------

_LOCK = threading.Lock()
_LOADED: list[Any] = []


class Cache(Protocol):
    """Where the model's arrays and the narrow tables are kept between runs (the command line
    passes :class:`core.io.usercache.UserCache`): ``get`` gives back what ``put`` stored under
    a name and key, or None."""

    def get(self, name: str, key: str) -> bytes | memoryview | None: ...

    def put(self, name: str, key: str, data: bytes) -> None: ...


def _identifier(cache: Cache | None = None) -> Any:
    """py3langid's identifier with probabilities: its model ships in its wheel and is read
    once per process, by whichever thread asks first: from ``cache`` when it holds the
    model's arrays (a fraction of a second), else decompressed from the wheel's file (seconds
    of LZMA; then stored in ``cache``)."""
    if not _LOADED:
        with _LOCK:
            if not _LOADED:
                _LOADED.append(_load_identifier(cache))
    return _LOADED[0]


#: The cached model's name; its key is :func:`_model_key`.
_MODEL_CACHE: Final = "py3langid-model"
#: Changes when what is cached, or how, changes (the old files are then ignored).
_CACHE_FORMAT: Final = "1"
#: The largest model file read to make its key.
_MAX_MODEL_BYTES: Final = 256 << 20


def _load_identifier(cache: Cache | None) -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    if cache is None:
        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    key = _model_key()
    data = cache.get(_MODEL_CACHE, key)
    identifier = None if data is None else _identifier_from(data)
    if identifier is None:
        identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        cache.put(_MODEL_CACHE, key, _identifier_bytes(identifier))
    return identifier


@lru_cache(maxsize=1)
def _model_key() -> str:
    """The model's content, py3langid's version and the cache format, hashed: a model file
    or a py3langid that changes makes another key."""
    import py3langid
    from py3langid.langid import MODEL_DIR, MODEL_FILE

    path = MODEL_DIR / MODEL_FILE
    digest = hashlib.sha256(f"{_CACHE_FORMAT}|{py3langid.__version__}|".encode())
    with path.open("rb") as handle:
        digest.update(handle.read(_MAX_MODEL_BYTES))
    return digest.hexdigest()[:32]


#: The identifier's arrays as the cache holds them, by its constructor's arguments.
_ARRAYS: Final = ("nb_ptc", "nb_pc", "tk_nextmove", "tk_row", "tk_output")
#: Where each array starts in the cached data (a multiple of this many bytes).
_ALIGN: Final = 64


def _identifier_bytes(identifier: Any) -> bytes:
    """The identifier's model as its constructor takes it: the length of a JSON header, the
    header (the labels, and each array's type, shape and place), then the arrays' bytes, so
    that reading it back copies nothing it need not (:func:`_identifier_from`)."""
    arrays = [
        np.ascontiguousarray(identifier.nb_ptc),
        np.ascontiguousarray(identifier.nb_pc),
        np.frombuffer(identifier.tk_nextmove, dtype=identifier.tk_nextmove.typecode),
        np.frombuffer(identifier.tk_row, dtype=identifier.tk_row.typecode),
        np.asarray(identifier.tk_output, dtype=np.int64),
    ]
    layout, size = [], 0
    for name, values in zip(_ARRAYS, arrays, strict=True):
        layout.append([name, values.dtype.str, list(values.shape), size])
        size += -(-values.nbytes // _ALIGN) * _ALIGN
    head = json.dumps({"classes": list(identifier.nb_classes), "arrays": layout}).encode()
    body = bytearray(size)
    for (_, _, _, at), values in zip(layout, arrays, strict=True):
        body[at : at + values.nbytes] = values.tobytes()
    return len(head).to_bytes(8, "little") + head + bytes(body)


def _identifier_from(data: bytes | memoryview) -> Any:
    """The identifier of :func:`_identifier_bytes`'s data; None when it does not make a model
    (another layout, wrong types or shapes)."""
    from py3langid.langid import LanguageIdentifier

    try:
        size = int.from_bytes(data[:8], "little")
        head = json.loads(bytes(data[8 : 8 + size]))
        classes = head["classes"]
        found = {}
        for name, kind, shape, at in head["arrays"]:
            dtype = np.dtype(kind)
            if dtype.kind not in "uif" or name not in _ARRAYS:
                return None
            count = math.prod(shape)
            found[name] = np.frombuffer(data, dtype, count, 8 + size + at).reshape(shape)
        ptc, pc, nextmove, row, output = (found[name] for name in _ARRAYS)
    except (ValueError, KeyError, TypeError):
        return None
    shaped = (
        isinstance(classes, list)
        and all(isinstance(label, str) for label in classes)
        and ptc.ndim == 2
        and ptc.shape[1] == len(pc) == len(classes) > 0
        and _same_items(nextmove)
        and _same_items(row)
        and nextmove.ndim == row.ndim == output.ndim == 1
        and len(output) == len(row) > 0
        and len(nextmove) % 256 == 0
        and int(row.max()) < len(nextmove) // 256
        and int(output.min()) >= -1
        and int(output.max()) < len(ptc)
        and int(nextmove.max()) < len(row)
    )
    if not shaped:
        return None
    moves, rows = array(nextmove.dtype.char), array(row.dtype.char)
    moves.frombytes(nextmove.data.cast("B"))
    rows.frombytes(row.data.cast("B"))
    return LanguageIdentifier(
        np.array(ptc), np.array(pc), classes, moves, output.tolist(), norm_probs=True, tk_row=rows
    )


def _same_items(values: npt.NDArray[Any]) -> bool:
    """Whether ``values`` can become an :class:`array.array` of the same type (unsigned)."""
    char = values.dtype.char
    return char in "BHILQ" and array(char).itemsize == values.dtype.itemsize


def _ranked(text: str) -> dict[str, float]:
    """Every language's probability for ``text`` (py3langid's labels, summing to 1)."""
    return dict(_identifier().rank(text))


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
    table: npt.NDArray[np.float32]
    prior: npt.NDArray[np.float64]
    aliases: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]


_MODEL: list[_Model] = []


def prepare(expectation: Expectation | None = None, *, cache: Cache | None = None) -> None:
    """Load the identifier and its model's arrays now (and the narrow table of
    ``expectation``): a caller that forks workers does it first, so that they share them
    instead of each making its own. With ``cache``, both are read from it when it holds
    them for this model, and stored in it when not."""
    _model(cache)
    if expectation is not None:
        _narrow(expectation.accepted, cache)


def _model(cache: Cache | None = None) -> _Model:
    if not _MODEL:
        identifier = _identifier(cache)
        with _LOCK:
            if not _MODEL:
                _MODEL.append(
                    _Model(
                        nextmove=np.frombuffer(identifier.tk_nextmove, dtype=np.uint32),
                        rowbase=np.asarray(identifier._rowbase, dtype=np.int64),
                        output=np.asarray(identifier.tk_output, dtype=np.int64),
                        # float32 rows: numpy converts float16 slowly, row by row.
                        table=identifier.nb_ptc.astype(np.float32),
                        prior=np.asarray(identifier.nb_pc, dtype=np.float64),
                        aliases=tuple(map(tuple, identifier._alias_pairs)),
                        labels=tuple(identifier.nb_classes),
                    )
                )
    return _MODEL[0]


def _surely_expected(texts: Sequence[str], expectation: Expectation) -> BoolArray:
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
    model = _model()
    accepted = np.array([label in expectation.accepted for label in model.labels])
    if not accepted.any() or accepted.all():
        return sure
    found = _walked(model, [_encoded(text) for text in texts])
    if found is None:
        return sure
    lines, features = found
    # Every line first against the narrow table (the other languages by group, bounded);
    # only those it cannot decide against every label.
    narrow = _narrow(expectation.accepted)
    decided = _sure(features, np.arange(len(lines)), narrow.scorer)
    sure[lines[decided]] = True
    left = np.flatnonzero(~decided)
    if len(left):
        full = _Scorer(model.table, model.prior, accepted, model.aliases)
        sure[lines[left[_sure(features, left, full)]]] = True
    return sure


def _encoded(text: str) -> bytes:
    """``text`` as py3langid reads it (its ``_encode``: lowered when all upper, NFC, UTF-8);
    ASCII text is its own NFC."""
    if text.isascii():
        return (text.lower() if text.isupper() else text).encode()
    encoded: bytes = _identifier()._encode(text)
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
    for at, m in zip(step_starts.tolist(), walking.tolist(), strict=True):
        np.take(model.rowbase, state[:m], out=offset[:m])
        offset[:m] += byte[at : at + m]
        state = visited[at : at + m]
        np.take(model.nextmove, offset[:m], out=state)
    # Back in line order, the features of each line together: sorting them by (line,
    # feature) is then a merge of short runs (a stable sort finds the lines already in order).
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
    keys.sort(kind="stable")
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

    table: npt.NDArray[np.float32]
    prior: npt.NDArray[np.float64]
    accepted: BoolArray
    aliases: tuple[tuple[int, int], ...]


#: Lines scored in one batched product by :func:`_line_scores` (padded to the block's most
#: features: lines are taken in order of their feature counts, so little is padding).
_SCORE_BLOCK: Final = 128


def _line_scores(
    features: _Features, which: IntArray, table: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
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
        scores[block] = np.matmul(weights[:, None, :], rows)[:, 0]
    return scores


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


def _narrow(accepted: frozenset[str], cache: Cache | None = None) -> _Narrow:
    """The narrow scorer of an expectation's ``accepted`` labels: their columns and the
    aliased ones exactly, every other language in one of :data:`_GROUPS` bounding columns
    (the groups and their table read from ``cache`` when it holds them for this model)."""
    found = _NARROW.get(accepted)
    if found is not None:
        return found
    model = _model(cache)
    exact = sorted(
        {i for i, label in enumerate(model.labels) if label in accepted}
        | {i for pair in model.aliases for i in pair}
    )
    rest = np.array([i for i in range(len(model.labels)) if i not in exact])
    name = f"language-groups-{'_'.join(sorted(accepted))}"
    key = "" if cache is None else _groups_key(exact)
    stored = None if cache is None else cache.get(name, key)
    kept = None if stored is None else _groups_from(stored, model, exact, rest)
    if kept is None:
        groups = _liken(model.table, rest, _GROUPS)
        table = _group_table(model.table, exact, groups)
        if cache is not None:
            cache.put(name, key, _groups_bytes(table, groups))
    else:
        table, groups = kept
    prior = np.concatenate([model.prior[exact], [model.prior[m].max() for m in groups]])
    position = {label: k for k, label in enumerate(exact)}
    narrow = _Narrow(
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
        _NARROW[accepted] = narrow
    return narrow


def _groups_key(exact: Sequence[int]) -> str:
    """What a narrow table is made from: the model, the exact columns, how it is grouped."""
    made_of = f"{_model_key()}|{_GROUPS}|{_LIKEN_STEP}|{list(exact)}"
    return hashlib.sha256(made_of.encode()).hexdigest()[:32]


#: A cached narrow table's group columns are checked against the model on every this-many-th
#: feature (a check of the file, not a proof: its checksum and key are that).
_CHECK_STEP: Final = 97


def _group_table(
    table: npt.NDArray[np.float32], exact: Sequence[int], groups: Sequence[IntArray]
) -> npt.NDArray[np.float32]:
    """The narrow table: ``table``'s ``exact`` columns, then per group the largest score of
    its members, feature by feature."""
    narrow = np.empty((len(table), len(exact) + len(groups)), np.float32)
    narrow[:, : len(exact)] = table[:, list(exact)]
    for g, members in enumerate(groups):
        np.max(table[:, members], axis=1, out=narrow[:, len(exact) + g])
    return narrow


def _groups_bytes(table: npt.NDArray[np.float32], groups: Sequence[IntArray]) -> bytes:
    """A narrow table and its groups (the members of each, one after the other), as ``.npz``."""
    buffer = io.BytesIO()
    np.savez(
        buffer,
        table=table,
        members=np.concatenate(groups),
        sizes=np.array([len(g) for g in groups], np.int64),
    )
    return buffer.getvalue()


def _groups_from(
    data: bytes | memoryview, model: _Model, exact: Sequence[int], rest: IntArray
) -> tuple[npt.NDArray[np.float32], list[IntArray]] | None:
    """:func:`_groups_bytes`'s table and groups when they fit ``model``: the groups split
    ``rest`` and the table is as wide as the exact columns and the groups, with those exact
    columns equal to the model's; else None (the caller makes them again)."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            table, members, sizes = arrays["table"], arrays["members"], arrays["sizes"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    fits = (
        table.dtype == np.float32
        and table.shape == (len(model.table), len(exact) + len(sizes))
        and members.dtype.kind == "i"
        and sizes.dtype.kind == "i"
        and bool((sizes > 0).all())
        and int(sizes.sum()) == len(members)
        and np.array_equal(np.sort(members), np.sort(rest))
        and np.array_equal(table[:, : len(exact)], model.table[:, list(exact)])
    )
    if not fits:
        return None
    groups = np.split(members.astype(np.int64), np.cumsum(sizes)[:-1])
    sample = _group_table(model.table[::_CHECK_STEP], exact, groups)
    if not np.array_equal(table[::_CHECK_STEP], sample):
        return None
    return table, groups


def _liken(table: npt.NDArray[np.float32], columns: IntArray, groups: int) -> list[IntArray]:
    """``columns`` of ``table`` in at most ``groups`` groups of like columns (k-means on every
    :data:`_LIKEN_STEP`-th feature, seeded: the same groups every time); only the speed
    depends on them, never a result."""
    points = np.ascontiguousarray(table[::_LIKEN_STEP, columns].T)
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


def _group(language: str) -> frozenset[str]:
    group = {language}
    for close in CLOSE_LANGUAGES:
        if language in close:
            group |= close
    return frozenset(group)


# -- scripts and letters ---------------------------------------------------------------------


#: First words of Unicode character names that are not the script's usual name.
_SCRIPT_NAMES: Final = {"CJK": "HAN", "HIRAGANA": "KANA", "KATAKANA": "KANA"}


@lru_cache(maxsize=8192)
def _script(ch: str) -> str:
    """The writing system of letter ``ch``, from its Unicode name (kana is one script)."""
    if ch.isascii():
        return "LATIN"
    word = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
    return _SCRIPT_NAMES.get(word, word)


def _words_only(line: str) -> str:
    """The first :data:`IDENTIFY_CHARS` characters of ``line`` in NFKC, without URLs, e-mail
    addresses and @handles."""
    text = unicodedata.normalize("NFKC", line[:IDENTIFY_CHARS])
    # Every match of _NOT_WORDS holds "://", "www." (any case) or "@": a line without them
    # skips the pattern, whose "\S+@" retries every start of every word.
    if "@" in text or "://" in text or "www." in text.lower():
        return _NOT_WORDS.sub(" ", text)
    return text


def _letters(scripts: dict[str, int]) -> int:
    """A line's letters from its :func:`_scripts` counts, those of dense scripts counted twice."""
    return sum(2 * n if s in DENSE_SCRIPTS else n for s, n in scripts.items())


#: The ASCII letters (what ``str.isalpha`` says of an ASCII character), as bytes to delete.
_ASCII_LETTERS: Final = bytes(b for b in range(128) if chr(b).isalpha())


def _scripts(text: str) -> dict[str, int]:
    """Letters of ``text`` per script."""
    if text.isascii():
        n = len(text) - len(text.encode("ascii").translate(None, _ASCII_LETTERS))
        return {"LATIN": n} if n else {}
    counts: dict[str, int] = {}
    for ch, n in Counter(text).items():  # each distinct character once
        if ch.isalpha():
            script = _script(ch)
            counts[script] = counts.get(script, 0) + n
    return counts


# -- the expectation ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expectation:
    """The language the references are written in, as :func:`expect_language` found it.

    ``language`` is a py3langid label (ISO 639, ``zh``, ``ko``, ``en``...), ``probability`` the
    identifier's over the lines read, ``accepted`` the labels taken as that language (its
    :data:`CLOSE_LANGUAGES`), ``scripts`` the writing systems of the references (each at least
    :data:`SCRIPT_FLOOR` of their letters: ``HAN``... as Unicode names them, ``KANA``)."""

    language: str
    probability: float
    accepted: frozenset[str]
    scripts: frozenset[str]


def expect_language(references: Sequence[Sequence[str]]) -> Expectation | None:
    """The references' language, read from the first :data:`EXPECT_LINES` lines of each (at
    most :data:`EXPECT_CHARS` characters of each).

    None when it cannot be told: fewer than :data:`MIN_EXPECT_LETTERS` letters, or no
    language at least :data:`MIN_EXPECT_PROBABILITY` probable (references in several
    languages): then no output is flagged as being in another language.
    """
    parts: list[str] = []
    for lines in references:
        size = 0
        for line in list(lines[:EXPECT_LINES]):
            parts.append(_words_only(line))
            size += len(parts[-1])
            if size >= EXPECT_CHARS:
                break
    sample = "\n".join(parts)
    scripts = _scripts(sample)
    letters = sum(scripts.values())
    if letters < MIN_EXPECT_LETTERS:
        return None
    ranked = _ranked(sample)
    language = max(ranked, key=ranked.__getitem__)
    if ranked[language] < MIN_EXPECT_PROBABILITY or language == "zxx":
        return None
    accepted = _group(language)
    return Expectation(
        language=language,
        probability=min(1.0, sum(ranked.get(label, 0.0) for label in accepted)),
        accepted=accepted,
        scripts=frozenset(s for s, n in scripts.items() if n >= SCRIPT_FLOOR * letters),
    )


# -- flagging rows -----------------------------------------------------------------------------


def _elsewhere(text: str, expectation: Expectation) -> dict[str, float] | None:
    """Every language's probability for ``text`` when the expected one is at most
    :data:`MAX_EXPECTED_PROBABILITY` probable, else None. The identifier's best guess comes
    first: when it is the expected language (most lines), no full ranking is needed."""
    best, _p = _identifier().classify(text)
    if best in expectation.accepted:
        return None
    ranked = _ranked(text)
    expected = sum(ranked.get(label, 0.0) for label in expectation.accepted)
    return ranked if expected <= MAX_EXPECTED_PROBABILITY else None


def _in_other_language(line: str, expectation: Expectation) -> bool:
    """The language rule of the module docs, on one output."""
    text = _words_only(line)
    scripts = _scripts(text)
    letters = _letters(scripts)
    if letters < MIN_LETTERS or _is_name(text):
        return False
    return _judged(text, scripts, letters, expectation)


def _other_language(systems: Sequence[Sequence[str]], expectation: Expectation) -> BoolArray:
    """:func:`_in_other_language` of every output, ``(S, n)``; those the identifier surely
    puts in the expected language (:func:`_surely_expected`, all at once) are not judged
    one by one."""
    n = len(systems[0]) if systems else 0
    wrong = np.zeros((len(systems), n), np.bool_)
    judged = [
        (s, k, text, letters)
        for s, out in enumerate(systems)
        for k, text, letters in _to_judge(out)
    ]
    sure = _surely_expected([item[2] for item in judged], expectation)
    for (s, k, text, letters), expected in zip(judged, sure.tolist(), strict=True):
        if not expected:
            wrong[s, k] = _judged(text, _scripts(text), letters, expectation)
    return wrong


#: ASCII bytes ``str.isalpha`` calls letters, and those ``str.split`` splits at.
_LETTER_BYTE: Final = np.array([chr(b).isalpha() if b < 128 else False for b in range(256)])
_SPACE_BYTE: Final = np.array([chr(b).isspace() if b < 128 else False for b in range(256)])


def _to_judge(outputs: Sequence[str]) -> list[tuple[int, str, int]]:
    """``(row, text, letters)`` of each output whose language the rule judges: its
    :func:`_words_only` text has :data:`MIN_LETTERS` letters (:func:`_letters`) and is
    more than a name. Plain ASCII lines (no ``@``, ``://`` or ``www.``, the text is the line)
    are counted all at once in numpy: their letters, and their whitespace-separated words
    that start with a letter (more than :data:`NAME_WORDS`: no name); the others one by one."""
    n = len(outputs)
    joined = "\n".join(outputs)
    if n < 2 or joined.count("\n") != n - 1:
        return _to_judge_one_by_one(outputs, range(n))
    data = np.frombuffer(joined.encode("utf-8", "surrogatepass"), np.uint8)
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate(([0], breaks + 1))
    stops = np.append(breaks, len(data))

    def per_line(mask: BoolArray) -> IntArray:
        running = np.zeros(len(mask) + 1, np.int64)
        np.cumsum(mask, out=running[1:])
        return running[stops] - running[starts]

    def at(*wanted: int) -> BoolArray:
        """Where the bytes ``wanted`` start (any case for letters: ``www.``)."""
        padded = np.append(data, np.zeros(len(wanted), np.uint8))
        found = np.ones(len(data), np.bool_)
        for i, byte in enumerate(wanted):
            window = padded[i : i + len(data)]
            found &= (window | 0x20 if chr(byte).isalpha() else window) == byte
        return found

    unusual = per_line(data >= 128) + per_line(data == ord("@"))
    unusual += per_line(at(*b"://")) + per_line(at(*b"www."))
    plain = (unusual == 0) & (stops - starts <= IDENTIFY_CHARS)
    letter = _LETTER_BYTE[data]
    letters = per_line(letter)
    counted = letters.tolist()
    after_space = np.ones(len(data), np.bool_)
    after_space[1:] = _SPACE_BYTE[data[:-1]]
    words = per_line(letter & after_space)
    enough = plain & (letters >= MIN_LETTERS)
    found = [
        (k, outputs[k], counted[k]) for k in np.flatnonzero(enough & (words > NAME_WORDS)).tolist()
    ]
    found += [
        (k, outputs[k], counted[k])
        for k in np.flatnonzero(enough & (words <= NAME_WORDS)).tolist()
        if not _is_name(outputs[k])
    ]
    found += _to_judge_one_by_one(outputs, np.flatnonzero(~plain).tolist())
    found.sort()
    return found


def _to_judge_one_by_one(outputs: Sequence[str], rows: Iterable[int]) -> list[tuple[int, str, int]]:
    """:func:`_to_judge` of ``rows``, line by line."""
    found = []
    for k in rows:
        text = _words_only(outputs[k])
        letters = _letters(_scripts(text))
        if letters >= MIN_LETTERS and not _is_name(text):
            found.append((k, text, letters))
    return found


def _judged(text: str, scripts: dict[str, int], letters: int, expectation: Expectation) -> bool:
    """The identifier's part of the rule, on an output's :func:`_words_only` text with enough
    letters."""
    ranked = _elsewhere(text, expectation)
    if ranked is None:
        return False
    total = sum(scripts.values())
    if sum(n for s, n in scripts.items() if s in expectation.scripts) < MIN_SCRIPT_SHARE * total:
        return True
    if letters < MIN_SAME_SCRIPT_LETTERS:
        return False
    others = {label: p for label, p in ranked.items() if label not in expectation.accepted}
    # The most probable other language, with the languages confused with it (sk with cs).
    top = max(others, key=others.__getitem__)
    return sum(others.get(label, 0.0) for label in _group(top)) >= MIN_OTHER_PROBABILITY


def _reference_elsewhere(line: str, expectation: Expectation) -> bool:
    """Whether a reference line is itself not in the expected language (a kept title...)."""
    text = _words_only(line)
    return bool(_letters(_scripts(text))) and _elsewhere(text, expectation) is not None


def _cased(ch: str) -> bool:
    return ch.lower() != ch.upper()


def _copy_key(line: str) -> str:
    """``line`` as copies are compared: NFKC, case-folded, letters and digits only."""
    return _NOT_ALNUM.sub(" ", unicodedata.normalize("NFKC", line).casefold()).strip()


def _may_match(a: str, b: str, threshold: float) -> bool:
    """Whether the lengths of ``a`` and ``b`` allow a similarity of ``threshold`` (difflib's
    ratio is at most 2·min / (len a + len b)); empty lines match nothing."""
    return bool(a) and bool(b) and 2 * min(len(a), len(b)) >= threshold * (len(a) + len(b))


def _similar(matcher: difflib.SequenceMatcher[str], line: str, key: str, threshold: float) -> bool:
    """Whether ``line`` is at least ``threshold`` alike ``key``, ``matcher``'s second sequence
    (difflib's ratio, after its cheap upper bounds: unlike lines cost little)."""
    if line == key:
        return True
    if not _may_match(line, key, threshold):
        return False
    if _bigram_overlap(line, key) < MIN_BIGRAM_OVERLAP:
        return False
    matcher.set_seq1(line)
    return matcher.quick_ratio() >= threshold and matcher.ratio() >= threshold


def _bigram_overlap(a: str, b: str) -> float:
    """The Dice overlap of the character bigrams of ``a`` and ``b`` (at C speed): two lines
    of one script share most letters, but a translation shares few bigrams with its source."""
    first = Counter(map(operator.add, a, a[1:]))
    second = Counter(map(operator.add, b, b[1:]))
    total = first.total() + second.total()
    return 2 * (first & second).total() / total if total else 1.0


def _many_words(text: str) -> bool:
    """A quick sure sign of more than :data:`NAME_WORDS` words (most lines): that many
    whitespace-separated tokens starting with a letter (each holds a word of its own, as
    whitespace ends a word); False says nothing."""
    count = 0
    for token in text.split():
        if token[0].isalpha():
            count += 1
            if count > NAME_WORDS:
                return True
    return False


def _is_name(text: str) -> bool:
    """Whether ``text`` is at most :data:`NAME_WORDS` words, each capitalised: a name or a
    title, which stays as it is in many languages (a script without capitals never is)."""
    if _many_words(text):
        return False
    words = [m.group() for m in itertools.islice(_WORD.finditer(text), NAME_WORDS + 1)]
    if len(words) > NAME_WORDS or any(ch.isalpha() and not _cased(ch) for ch in text):
        return False
    return all(w[0].isupper() for w in words if _cased(w[0]))


def _copyable(source: str) -> bool:
    """Whether an output equal to ``source`` says the source was copied: enough letters once
    URLs and numbers are left out, and more than a name."""
    text = _words_only(source)
    return _letters(_scripts(text)) >= MIN_COPY_LETTERS and not _is_name(text)


@dataclass(frozen=True, slots=True)
class RowFlags:
    """The flags of a slice of rows: ``(S, m)`` for the slice's ``m`` rows."""

    wrong_language: BoolArray
    copies_source: BoolArray


def flag_rows(
    expectation: Expectation | None,
    *,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    source: Sequence[str] | None,
) -> RowFlags:
    """Both flags for the rows given (every column holds the same rows; any slice of a
    comparison). ``expectation`` None: no output is flagged as another language; ``source``
    None: none as a copy."""
    n = len(references[0]) if references else 0
    wrong = np.zeros((len(systems), n), np.bool_)
    copies = np.zeros((len(systems), n), np.bool_)
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    if expectation is not None:
        wrong[:] = _other_language(systems, expectation)
        for i in np.flatnonzero(wrong.any(axis=0)).tolist():
            if any(_reference_elsewhere(r[i], expectation) for r in references):
                wrong[:, i] = False
    if source is None:
        return RowFlags(wrong, copies)
    for i in range(n):
        key = _copy_key(source[i])
        keys = [_copy_key(outputs[i]) for outputs in systems]
        if not any(_may_match(k, key, COPY_SIMILARITY) for k in keys) or not _copyable(source[i]):
            continue
        matcher.set_seq2(key)  # difflib prepares the second sequence once, for every output
        if not any(_similar(matcher, _copy_key(r[i]), key, REFERENCE_COPY) for r in references):
            for s, k in enumerate(keys):
                copies[s, i] = _similar(matcher, k, key, COPY_SIMILARITY)
    return RowFlags(wrong, copies)


# -- a whole comparison --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LanguageFlags:
    """Both flags for every (system, segment) of a comparison, ``(S, n)``."""

    systems: tuple[str, ...]
    expectation: Expectation | None
    has_source: bool
    wrong_language: BoolArray
    copies_source: BoolArray

    @property
    def n_segments(self) -> int:
        return int(self.wrong_language.shape[1])

    def counts(self, rows: npt.ArrayLike | None = None) -> list[tuple[int, int]]:
        """Per system, (rows in another language, rows copying the source) among ``rows``
        (None: all)."""
        wrong, copies = self.wrong_language, self.copies_source
        if rows is not None:
            index = np.asarray(rows, dtype=np.int64)
            wrong, copies = wrong[:, index], copies[:, index]
        return [(int(w), int(c)) for w, c in zip(wrong.sum(axis=1), copies.sum(axis=1))]

    def rows(self, flag: Flag) -> IntArray:
        """The segments where some system's output has ``flag`` (``wrong_language``,
        ``copies_source``, or ``either``)."""
        if flag == "wrong_language":
            mask = self.wrong_language.any(axis=0)
        elif flag == "copies_source":
            mask = self.copies_source.any(axis=0)
        elif flag == "either":
            mask = (self.wrong_language | self.copies_source).any(axis=0)
        else:
            raise ValueError(
                f"unknown flag {flag!r}; expected wrong_language, copies_source or either"
            )
        return np.flatnonzero(mask).astype(np.int64)


def language_flags(
    text: CorpusText,
    source: Sequence[str] | None,
    *,
    cancelled: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> LanguageFlags | None:
    """:func:`flag_rows` over a whole comparison, in steps; None when ``cancelled()`` said
    stop between two steps. ``progress(fraction)`` is told how far it got."""
    if source is not None and len(source) != len(text):
        raise ValueError(f"the source has {len(source)} lines but the texts have {len(text)}")
    expectation = expect_language(text.references)
    n = len(text)
    wrong = np.zeros((len(text.systems), n), np.bool_)
    copies = np.zeros((len(text.systems), n), np.bool_)
    for start in range(0, n, _STEP):
        if cancelled is not None and cancelled():
            return None
        stop = min(start + _STEP, n)
        part = flag_rows(
            expectation,
            references=[r[start:stop] for r in text.references],
            systems=[s[start:stop] for s in text.systems],
            source=None if source is None else source[start:stop],
        )
        wrong[:, start:stop] = part.wrong_language
        copies[:, start:stop] = part.copies_source
        if progress is not None:
            progress(stop / n)
    return LanguageFlags(text.system_names, expectation, source is not None, wrong, copies)
