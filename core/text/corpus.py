"""The texts of a comparison as plain strings: what the engine scores and what crosses processes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CorpusText:
    """The texts of a comparison, independent of where they were read from.

    ``references[r][i]`` is reference ``r`` of segment ``i``; ``systems[s][i]`` the output of
    system ``s``. This is what crosses process boundaries, so it holds nothing but strings: a
    column is a tuple of them, or :class:`~core.text.lines.TextLines` (their UTF-8 bytes).
    """

    references: tuple[Sequence[str], ...]
    systems: tuple[Sequence[str], ...]
    system_names: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.references:
            raise ValueError("at least one reference is needed")
        if not self.systems:
            raise ValueError("at least one system is needed")
        if len(self.system_names) != len(self.systems):
            raise ValueError("every system needs exactly one name")
        counts = {len(col) for col in (*self.references, *self.systems)}
        if len(counts) != 1:
            raise ValueError(f"references and systems differ in length: {sorted(counts)}")

    def __len__(self) -> int:
        return len(self.references[0])

    def row_chars(self, segment: int) -> int:
        """Characters in all the references and outputs of ``segment``: a row's size."""
        return sum(len(column[segment]) for column in (*self.references, *self.systems))


def corpus_text_from_lines(
    *,
    references: Sequence[Sequence[str]],
    systems: Sequence[Sequence[str]],
    names: Sequence[str],
) -> CorpusText:
    """Build a :class:`CorpusText` from any line sequences."""
    return CorpusText(
        references=tuple(tuple(r) for r in references),
        systems=tuple(tuple(s) for s in systems),
        system_names=tuple(names),
    )
