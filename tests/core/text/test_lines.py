"""TextLines holds lines as UTF-8 bytes and gives back exactly the strings it was given."""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.io.inputs import InputSpec
from matchlight.core.io.reading import read_column
from matchlight.core.text.lines import TextLines
from tests.conftest import SHARED_DATA

# Any code point, lone surrogates included (a file decoded with surrogateescape has them).
LINES = st.lists(st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=5))
def test_the_lines_of_any_batches_come_back_as_they_went_in(batches: list[list[str]]) -> None:
    expected = tuple(line for batch in batches for line in batch)
    lines = TextLines.of(batches)
    assert len(lines) == len(expected)
    assert [lines[i] for i in range(len(expected))] == list(expected)
    assert tuple(lines) == expected
    assert lines == expected and expected == lines
    assert lines[1:-1] == expected[1:-1] and lines[::2] == expected[::2]
    if expected:
        assert lines[-1] == expected[-1]
    backwards = np.arange(len(expected))[::-1]
    assert lines.pick(backwards) == [expected[i] for i in backwards]
    assert lines.raw(backwards) == [expected[i].encode("utf-8", "surrogatepass") for i in backwards]
    assert lines.chars() == sum(map(len, expected))
    assert lines.char_lengths().tolist() == [len(s) for s in expected]
    assert lines.joined(1, len(expected), "\x1e") == "\x1e".join(expected[1:])
    assert pickle.loads(pickle.dumps(lines)) == lines
    assert hash(lines) == hash(expected)
    assert lines.byte_lengths().tolist() == [
        len(s.encode("utf-8", "surrogatepass")) for s in expected
    ]


def test_blocks_of_ascii_and_of_other_text_are_cut_at_the_same_lines() -> None:
    # More lines than one block of decoding, ASCII blocks and blocks with umlauts and emoji.
    expected = tuple(
        f"line {i}" + ("" if i < 5000 else " Größe 👍🏽" if i % 3 else "\n\r\x00")
        for i in range(9001)
    )
    lines = TextLines.of([expected[:10], expected[10:]])
    assert list(lines) == list(expected)
    assert lines[4090:4100] == expected[4090:4100]
    assert lines[8999] == expected[8999]
    with pytest.raises(IndexError):
        lines[9001]
    assert lines != expected[:-1] and lines != list(expected)


def test_a_million_row_column_takes_far_less_memory_than_its_strings() -> None:
    # The references of wmt22-de-en repeated to 200k lines: what the app keeps of a big file.
    path = SHARED_DATA / "wmt22-de-en" / "ref.txt"
    if not path.exists():
        pytest.skip("shared data not present")
    column = read_column(InputSpec(str(path)))
    strings = tuple(column.lines) * (200_000 // len(column.lines) + 1)
    lines = TextLines.of([strings])
    as_strings = sum(map(sys.getsizeof, strings)) + sys.getsizeof(strings)
    assert lines == strings
    assert lines.nbytes < 0.62 * as_strings
    assert np.array_equal(lines.bounds[1:] - lines.bounds[:-1], lines.byte_lengths())
