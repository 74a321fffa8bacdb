"""The error typology: a tree of categories, written as paths like ``"Accuracy/Omission"``.

The default is the MQM typology of Freitag et al. (2021), as used in Google's WMT MQM files:
Accuracy, Fluency, Terminology, Style, Locale convention, Non-translation, Source issue and
Other, with their sub-categories. A typology is immutable; the editing methods return a new one.
A category may require a note (``Other`` does): a confirmed span in it without a note is
rejected by :func:`validate_span`.

Files spell the labels their own way (``Non-translation!``, ``Source error``,
``Accuracy/Untranslated text``, ``locale_convention/name format``):
:meth:`Typology.resolve` maps such a label onto the typology's path, keeping its sub-category
(:func:`normalize_label` and :data:`LABEL_ALIASES`).

Two modes: ``MQM`` spans need a category of the typology; ``ESA`` spans (WMT24's Error Span
Annotation) have severities only, so their category may be empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from matchlight.core.annotation.model import AnnotationError, ErrorSpan

__all__ = [
    "DEFAULT_TYPOLOGY",
    "LABEL_ALIASES",
    "SEPARATOR",
    "AnnotationMode",
    "Category",
    "Typology",
    "label_key",
    "normalize_label",
    "validate_span",
]

SEPARATOR = "/"

#: Labels of Google's WMT MQM files (after :func:`normalize_label`) that the default typology
#: spells differently, with the path they mean.
LABEL_ALIASES: Mapping[str, str] = {
    "source error": "Source issue",
    "non translation": "Non-translation",
    "accuracy/untranslated text": "Accuracy/Untranslated",
    "terminology/inconsistent use": "Terminology/Inconsistent use of terminology",
}


def normalize_label(label: str) -> str:
    """``label`` as a comparable path: case-folded, ``_`` as a space, runs of spaces as one, no
    spaces around ``/`` and no trailing ``!`` (``"Non-translation!"``: ``"non-translation"``).

    MQM Viewer notes that files vary exactly so (letter case, space or underscore).
    """
    text = label.strip().rstrip("!").replace("_", " ")
    parts = (" ".join(p.split()) for p in text.split(SEPARATOR))
    return SEPARATOR.join(parts).casefold()


@lru_cache(maxsize=4096)
def label_key(label: str) -> str:
    """:func:`normalize_label` with :data:`LABEL_ALIASES` applied (to the whole label, else to
    its top level): the key two spellings of one category share, with or without a typology
    (``"Source error"`` and ``"Source issue"`` both give ``"source issue"``)."""
    key = normalize_label(label)
    if key in LABEL_ALIASES:
        return LABEL_ALIASES[key].casefold()
    head, sep, rest = key.partition(SEPARATOR)
    if sep and head in LABEL_ALIASES:
        return LABEL_ALIASES[head].casefold() + SEPARATOR + rest
    return key


class AnnotationMode(StrEnum):
    """MQM: categorised spans, scored by weights. ESA: severities and a 0–100 segment score."""

    MQM = "mqm"
    ESA = "esa"


@dataclass(frozen=True, slots=True)
class Category:
    """One node of the typology."""

    name: str
    children: tuple[Category, ...] = ()
    note_required: bool = False

    def __post_init__(self) -> None:
        _check_name(self.name)
        seen: set[str] = set()
        for child in self.children:
            key = child.name.casefold()
            if key in seen:
                raise AnnotationError(
                    f"category {self.name!r} has two sub-categories {child.name!r}"
                )
            seen.add(key)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.note_required:
            data["note_required"] = True
        if self.children:
            data["children"] = [c.to_json() for c in self.children]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Category:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise AnnotationError(
                f"a typology category must be an object with a name, not {data!r}"
            )
        children = data.get("children", [])
        if not isinstance(children, list):
            raise AnnotationError(f"the children of category {data['name']!r} must be a list")
        return cls(
            name=data["name"],
            children=tuple(cls.from_json(c) for c in children),
            note_required=bool(data.get("note_required", False)),
        )


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise AnnotationError("a category name cannot be empty")
    if SEPARATOR in name:
        raise AnnotationError(f"a category name cannot contain {SEPARATOR!r}: {name!r}")
    if name != name.strip():
        raise AnnotationError(f"a category name cannot start or end with spaces: {name!r}")


def _split(path: str) -> list[str]:
    parts = path.split(SEPARATOR)
    if not path or any(not p for p in parts):
        raise AnnotationError(f"bad category path {path!r}")
    return parts


@dataclass(frozen=True, slots=True)
class Typology:
    """An ordered forest of categories. Paths are matched case-insensitively."""

    categories: tuple[Category, ...]

    def __post_init__(self) -> None:
        # Reuse Category's sibling check for the top level.
        Category("root", self.categories)

    # -- reading -----------------------------------------------------------------------------

    def paths(self) -> tuple[str, ...]:
        """Every category path, parents before their children, in typology order."""

        def walk(nodes: Sequence[Category], head: str) -> Iterator[str]:
            for node in nodes:
                path = head + node.name
                yield path
                yield from walk(node.children, path + SEPARATOR)

        return tuple(walk(self.categories, ""))

    def _chain(self, path: str) -> list[Category] | None:
        nodes: Sequence[Category] = self.categories
        chain: list[Category] = []
        for part in _split(path):
            key = part.casefold()
            found = next((n for n in nodes if n.name.casefold() == key), None)
            if found is None:
                return None
            chain.append(found)
            nodes = found.children
        return chain

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and bool(path) and self._find(path) is not None

    def _find(self, path: str) -> list[Category] | None:
        try:
            return self._chain(path)
        except AnnotationError:
            return None

    def canonical(self, path: str) -> str:
        """``path`` as the typology spells it (``"accuracy/omission"``: ``Accuracy/Omission``)."""
        chain = self._find(path)
        if chain is None:
            raise AnnotationError(f"unknown error category {path!r}")
        return SEPARATOR.join(c.name for c in chain)

    def resolve(self, label: str) -> str | None:
        """The typology's path for a file's category ``label``, or None when it has none.

        The label is compared after :func:`normalize_label`, directly and through
        :data:`LABEL_ALIASES` (whole label first, then its top level with the sub-category
        kept): ``Non-translation!`` is ``Non-translation``, ``Source error`` ``Source issue``,
        ``style/awkward`` ``Style/Awkward``.
        """
        for candidate in (normalize_label(label), label_key(label)):
            if candidate and candidate in self:
                return self.canonical(candidate)
        return None

    def note_required(self, path: str) -> bool:
        """Whether a span in ``path`` (or under a category that asks for one) needs a note."""
        chain = self._find(path)
        return chain is not None and any(c.note_required for c in chain)

    # -- editing (each returns a new typology) -------------------------------------------------

    def _rebuild(self, path: str, edit: Any) -> Typology:
        parts = _split(path)

        def go(nodes: tuple[Category, ...], depth: int) -> tuple[Category, ...]:
            key = parts[depth].casefold()
            out: list[Category] = []
            hit = False
            for node in nodes:
                if node.name.casefold() != key:
                    out.append(node)
                    continue
                hit = True
                if depth == len(parts) - 1:
                    out.extend(edit(node))
                else:
                    out.append(replace(node, children=go(node.children, depth + 1)))
            if not hit:
                raise AnnotationError(f"unknown error category {path!r}")
            return tuple(out)

        return Typology(go(self.categories, 0))

    def with_category(self, path: str, *, note_required: bool = False) -> Typology:
        """A typology with a new category at ``path`` (its parent must exist)."""
        parts = _split(path)
        _check_name(parts[-1])
        if path in self:
            raise AnnotationError(f"category {path!r} already exists")
        new = Category(parts[-1], note_required=note_required)
        if len(parts) == 1:
            return Typology((*self.categories, new))
        parent = SEPARATOR.join(parts[:-1])
        return self._rebuild(parent, lambda n: [replace(n, children=(*n.children, new))])

    def without_category(self, path: str) -> Typology:
        """A typology without ``path`` and its sub-categories."""
        return self._rebuild(path, lambda n: [])

    def renamed(self, path: str, new_name: str) -> Typology:
        """A typology where the last part of ``path`` is called ``new_name``."""
        _check_name(new_name)
        return self._rebuild(path, lambda n: [replace(n, name=new_name)])

    def with_note_required(self, path: str, required: bool = True) -> Typology:
        return self._rebuild(path, lambda n: [replace(n, note_required=required)])

    def with_paths(self, paths: Iterable[str]) -> Typology:
        """A typology that also has every path of ``paths`` (and their parents), e.g. the
        categories an imported file uses that this typology lacks."""
        typology = self
        for path in paths:
            parts = _split(path)
            for depth in range(1, len(parts) + 1):
                prefix = SEPARATOR.join(parts[:depth])
                if prefix not in typology:
                    typology = typology.with_category(prefix)
        return typology

    # -- storage -------------------------------------------------------------------------------

    def to_json(self) -> list[dict[str, Any]]:
        return [c.to_json() for c in self.categories]

    @classmethod
    def from_json(cls, data: Any) -> Typology:
        if not isinstance(data, list):
            raise AnnotationError("a typology must be a list of categories")
        return cls(tuple(Category.from_json(c) for c in data))


def _leaves(*names: str) -> tuple[Category, ...]:
    return tuple(Category(n) for n in names)


#: Freitag et al. (2021)'s MQM typology (Table 10 of the paper, the labels of Google's WMT MQM
#: files); ``Other`` needs a note saying what the error is.
DEFAULT_TYPOLOGY = Typology(
    (
        Category("Accuracy", _leaves("Mistranslation", "Omission", "Addition", "Untranslated")),
        Category(
            "Fluency",
            _leaves(
                "Grammar",
                "Spelling",
                "Punctuation",
                "Register",
                "Inconsistency",
                "Character encoding",
            ),
        ),
        Category(
            "Terminology",
            _leaves("Inappropriate for context", "Inconsistent use of terminology"),
        ),
        Category("Style", _leaves("Awkward")),
        Category(
            "Locale convention",
            _leaves(
                "Address format",
                "Currency format",
                "Date format",
                "Name format",
                "Telephone format",
                "Time format",
            ),
        ),
        Category("Non-translation"),
        Category("Source issue"),
        Category("Other", note_required=True),
    )
)


def validate_span(span: ErrorSpan, typology: Typology, mode: AnnotationMode) -> None:
    """Raise :class:`AnnotationError` if ``span`` may not be confirmed under ``typology``.

    MQM spans need a known category; ESA spans may leave it empty. A category that requires a
    note (``Other``) needs a non-blank note.
    """
    if not span.category:
        if mode is AnnotationMode.ESA:
            return
        raise AnnotationError("an MQM error span needs a category")
    if span.category not in typology:
        raise AnnotationError(f"unknown error category {span.category!r}")
    if typology.note_required(span.category) and not span.note.strip():
        raise AnnotationError(
            f"a note is required for category {typology.canonical(span.category)!r}: "
            "say what the error is"
        )
