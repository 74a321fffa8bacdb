"""The language check's model and narrow tables read from the user's cache are exactly the ones
made from py3langid's wheel; a damaged, foreign or stale cached file is ignored and made again."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from matchlight.core.analysis import languagecache, languagemodel
from matchlight.core.io.usercache import UserCache
from tests.conftest import SHARED_DATA
from tests.kit import data_lines, needs

DE_EN = SHARED_DATA / "wmt22-de-en"
EN_ZH = SHARED_DATA / "wmt22-en-zh"


@cache
def wheel_identifier() -> Any:
    """py3langid's identifier as it loads its own model file."""
    return languagecache.load_identifier(None)


def same_model(a: Any, b: Any) -> None:
    assert np.array_equal(a.nb_ptc, b.nb_ptc) and a.nb_ptc.dtype == b.nb_ptc.dtype
    assert np.array_equal(a.nb_pc, b.nb_pc) and a.nb_pc.dtype == b.nb_pc.dtype
    assert a.nb_classes == b.nb_classes
    assert a.tk_nextmove == b.tk_nextmove and a.tk_row == b.tk_row
    assert a.tk_output == b.tk_output
    assert a._alias_pairs == b._alias_pairs


def no_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading the wheel's model file fail: what loads now comes from the cache."""
    from py3langid.langid import LanguageIdentifier

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model was read from the wheel, not from the cache")

    monkeypatch.setattr(LanguageIdentifier, "from_model_file", refuse)


@needs(DE_EN)
@needs(EN_ZH)
def test_the_cached_model_is_the_wheels_and_identifies_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wheel = wheel_identifier()
    store = UserCache(tmp_path)
    made = languagecache.load_identifier(store)  # from the wheel, then stored
    assert store.get(languagecache.MODEL_CACHE, languagecache.model_key()) is not None
    no_wheel(monkeypatch)
    cached = languagecache.load_identifier(store)
    same_model(cached, wheel)
    same_model(made, wheel)
    lines = data_lines(DE_EN / "src.txt")[:150] + data_lines(EN_ZH / "ref.txt")[:150]
    for line in lines:
        assert cached.rank(line) == wheel.rank(line)


def model_arrays(**changes: Any) -> bytes:
    """The wheel's model as the cache stores it, with some of its arrays changed."""
    wheel = wheel_identifier()
    fields = ("nb_ptc", "nb_pc", "nb_classes", "tk_nextmove", "tk_row", "tk_output")
    model = SimpleNamespace(**{name: getattr(wheel, name) for name in fields})
    for name, value in changes.items():
        setattr(model, name, value)
    return languagecache.identifier_bytes(model)


@pytest.mark.parametrize(
    "stored",
    [
        pytest.param(lambda: b"not an npz at all", id="garbage"),
        pytest.param(lambda: model_arrays()[:-200], id="truncated"),
        pytest.param(lambda: model_arrays(nb_ptc=wheel_identifier().nb_ptc[:, :-1]), id="columns"),
        pytest.param(lambda: model_arrays(tk_output=[10**9] * 5), id="states"),
        pytest.param(
            lambda: model_arrays(tk_output=[10**9] * len(wheel_identifier().tk_output)),
            id="features",
        ),
        pytest.param(lambda: model_arrays(nb_classes=[1, 2]), id="labels"),
        pytest.param(lambda: model_arrays()[:100], id="cut"),
    ],
)
def test_a_model_in_the_cache_that_is_not_the_model_is_made_again(
    tmp_path: Path, stored: Any
) -> None:
    """Stored with a valid checksum (so the cache hands it out), but not a model: ignored,
    the wheel's model is read and stored over it."""
    store = UserCache(tmp_path)
    key = languagecache.model_key()
    store.put(languagecache.MODEL_CACHE, key, stored())
    same_model(languagecache.load_identifier(store), wheel_identifier())
    again = store.get(languagecache.MODEL_CACHE, key)
    assert again is not None
    same_model(languagecache.identifier_from(again), wheel_identifier())


@cache
def made_narrow(accepted: frozenset[str]) -> Any:
    """The narrow scorer of ``accepted`` made from the model, with no cache."""
    kept = dict(languagemodel._NARROW)
    languagemodel._NARROW.clear()
    try:
        return languagemodel.narrow(accepted)
    finally:
        languagemodel._NARROW.clear()
        languagemodel._NARROW.update(kept)


def narrow_of(accepted: frozenset[str], store: UserCache, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The narrow scorer of ``accepted`` made now (none kept from before), with ``store``."""
    monkeypatch.setattr(languagemodel, "_NARROW", {})
    return languagemodel.narrow(accepted, store)


def same_narrow(a: Any, b: Any) -> None:
    assert np.array_equal(a.scorer.table, b.scorer.table)
    assert np.array_equal(a.scorer.prior, b.scorer.prior)
    assert np.array_equal(a.scorer.accepted, b.scorer.accepted)
    assert a.scorer.aliases == b.scorer.aliases and a.exact == b.exact
    assert [g.tolist() for g in a.groups] == [g.tolist() for g in b.groups]


def test_the_cached_narrow_tables_are_the_ones_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = UserCache(tmp_path)
    both = (frozenset({"en", "pcm"}), frozenset({"zh", "wuu", "yue"}))
    made = [made_narrow(accepted) for accepted in both]
    for accepted in both:
        narrow_of(accepted, store, monkeypatch)  # made, and stored
    # One file per expectation: one does not replace the other.
    assert len(list(tmp_path.glob("language-groups-*.bin"))) == 2
    monkeypatch.setattr(languagemodel, "_liken", None)  # grouping again would fail
    for accepted, expected in zip(both, made, strict=True):
        same_narrow(narrow_of(accepted, store, monkeypatch), expected)


def damaged_groups(kind: str, made: Any) -> bytes:
    """A narrow table as the cache stores it, damaged as ``kind`` says."""
    table = made.scorer.table.copy()
    groups = [g.copy() for g in made.groups]
    if kind == "lowered":  # a group's column below one member's score on a checked feature
        column = len(made.exact)
        table[languagecache.CHECK_STEP * 3, column] -= 1.0
    elif kind == "exact":
        table[5, 0] += 0.5
    elif kind == "missing":  # a language in no group
        groups[0] = groups[0][1:]
    elif kind == "twice":
        groups[1] = np.append(groups[1], groups[0][0])
    elif kind == "narrower":
        table = table[:, :-1]
    return languagecache.groups_bytes(table, groups)


@pytest.mark.parametrize("kind", ["lowered", "exact", "missing", "twice", "narrower", "garbage"])
def test_a_damaged_or_stale_narrow_table_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    accepted = frozenset({"en", "pcm"})
    made = made_narrow(accepted)
    store = UserCache(tmp_path)
    name = "language-groups-en_pcm"
    key = languagecache.groups_key(
        made.exact, f"{languagemodel._GROUPS}|{languagemodel._LIKEN_STEP}"
    )
    store.put(name, key, b"garbage" if kind == "garbage" else damaged_groups(kind, made))
    again = narrow_of(accepted, store, monkeypatch)
    same_narrow(again, made)
    stored = store.get(name, key)
    assert stored is not None
    model = languagemodel.loaded_model()
    rest = np.array([i for i in range(len(model.labels)) if i not in made.exact])
    kept = languagecache.groups_from(stored, model.table, made.exact, rest)
    assert kept is not None and np.array_equal(kept[0], made.scorer.table)
