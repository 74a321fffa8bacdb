"""A line's letters per script (the language check's ``_scripts``) are those of the
straightforward count: every distinct character that is a letter, by its script."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.analysis.language import _script, _scripts
from tests.conftest import SHARED_DATA
from tests.kit import data_lines


def straightforward(text: str) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for ch, n in Counter(text).items():
        if ch.isalpha():
            counts[_script(ch)] += n
    return dict(counts)


ALPHABET = "aZ é€’“Σσς中文かカ한글ЖжⅣ\u0301\u212a\u0130_9-\t"


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=60) | st.text(max_size=40))
def test_scripts_are_the_straightforward_count(text: str) -> None:
    assert _scripts(text) == straightforward(text)


def test_scripts_of_real_lines() -> None:
    for folder, name in (("wmt22-de-en", "src.txt"), ("wmt22-en-zh", "ref.txt")):
        for line in data_lines(SHARED_DATA / folder / name)[:400]:
            assert _scripts(line) == straightforward(line)
