"""A segment's document and its neighbours there (core.annotation.documents)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matchlight.core.annotation.documents import DocumentIndex, document_column
from matchlight.core.io.labels import read_labels
from tests.conftest import SHARED_DATA


def test_neighbours_stay_within_the_document() -> None:
    labels = ["a", "a", "a", "b", "b", "c"]
    index = DocumentIndex(labels, 6)
    first = index.context(0, before=2, after=2)
    assert (first.document, first.position, first.size) == ("a", 0, 3)
    assert (first.before, first.after) == ((), (1, 2))
    middle = index.context(4, before=2, after=2)
    assert (middle.document, middle.position, middle.size) == ("b", 1, 2)
    assert (middle.before, middle.after) == ((3,), ())
    alone = index.context(5)
    assert (alone.before, alone.after, alone.size) == ((), (), 1)


def test_a_document_need_not_be_consecutive_lines() -> None:
    index = DocumentIndex(["x", "y", "x", "y", "x"], 5)
    context = index.context(2, before=5, after=5)
    assert (context.before, context.after, context.position, context.size) == ((0,), (4,), 1, 3)


def test_without_a_document_column_the_lines_around() -> None:
    index = DocumentIndex(None, 4)
    assert not index.has_documents
    context = index.context(1, before=3, after=1)
    assert (context.document, context.before, context.after) == (None, (0,), (2,))
    assert (context.position, context.size) == (1, 4)
    with pytest.raises(IndexError, match="segment 5 is out of range"):
        index.context(4)
    with pytest.raises(ValueError, match="3 document labels for 4 segments"):
        DocumentIndex(["a", "b", "c"], 4)


@given(
    st.lists(st.sampled_from("abc"), min_size=1, max_size=40),
    st.integers(0, 39),
    st.integers(0, 4),
    st.integers(0, 4),
)
def test_context_matches_a_scan_of_the_labels(
    labels: list[str], segment: int, before: int, after: int
) -> None:
    segment = min(segment, len(labels) - 1)
    context = DocumentIndex(labels, len(labels)).context(segment, before=before, after=after)
    same = [i for i, label in enumerate(labels) if label == labels[segment]]
    at = same.index(segment)
    assert context.before == tuple(same[max(0, at - before) : at])
    assert context.after == tuple(same[at + 1 : at + 1 + after])
    assert (context.position, context.size, context.document) == (at, len(same), labels[segment])


def test_the_document_column_is_found_by_its_name() -> None:
    assert document_column(["domain", "docid"]) == "docid"
    assert document_column(["Doc ID", "domain"]) == "Doc ID"
    assert document_column(["document", "doc_id"]) == "document"  # the first in order
    assert document_column(["domain", "genre"]) is None
    assert document_column(["docstring"]) is None


def test_wmt22_documents() -> None:
    path = SHARED_DATA / "wmt22-en-zh" / "docid.txt"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    column = read_labels(str(path), n_segments=2037)
    index = DocumentIndex(column.labels, 2037)
    # The first document of the file has three segments.
    first = index.context(1, before=5, after=5)
    assert first.document == "en_zh-TW_CLIENT-05_2020-12-20-44_doc0"
    assert (first.before, first.after, first.size) == ((0,), (2,), 3)
    # Every segment's neighbours are of its document, nearest first around it.
    for segment in range(0, 2037, 37):
        context = index.context(segment, before=3, after=3)
        for other in (*context.before, *context.after):
            assert column.labels[other] == column.labels[segment]
        assert list(context.before) == sorted(context.before)
        assert all(b < segment < a for b in context.before for a in context.after)
