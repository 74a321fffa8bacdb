"""Word frequencies from a training corpus (core.io.wordcounts): compare-mt's count file read as
compare-mt reads it, its training text counted with the comparison's tokenizer, and every bad
file refused with its name and line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from matchlight.core.io.files import FileError
from matchlight.core.io.wordcounts import count_corpus_words, read_word_counts
from matchlight.core.text.tokenizers import bleu_tokenizer
from tests.conftest import SAMPLE, SHARED_DATA
from tests.kit import hostile_inputs, needs, read_lines

TED = SHARED_DATA / "compare-mt-ted-sk-en"


def compare_mt_counts(path: Path) -> dict[str, int]:
    """compare-mt's FreqWordBucketer reading a count file (a bad line is skipped there)."""
    counts: dict[str, int] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            cols = line.strip().split("\t")
            if len(cols) == 2:
                counts[cols[0]] = int(cols[1])
    return counts


@needs(TED)
def test_compare_mts_example_count_file() -> None:
    counts = read_word_counts(TED / "train.counts.tsv")
    assert counts == compare_mt_counts(TED / "train.counts.tsv")
    assert len(counts) == len(read_lines(TED / "train.counts.tsv"))
    assert counts["the"] == max(c for w, c in counts.items() if w.isalpha())


def test_blank_lines_bom_crlf_and_spaces_in_words(tmp_path: Path) -> None:
    path = tmp_path / "counts.tsv"
    path.write_bytes("\ufeffthe\t12\r\n\n  New York\t3  \n,\t0\n".encode())
    assert read_word_counts(path) == {"the": 12, "New York": 3, ",": 0}


@pytest.mark.parametrize(
    ("content", "line", "problem"),
    [
        ("the\t3\ncat\n", 2, "expected a word, a tab and its count, found 1 tab-separated field"),
        ("the\t3\t4\n", 1, "found 3 tab-separated fields"),
        ("word\tcount\nthe\t3\n", 1, "the count 'count' of 'word' is not a whole number"),
        ("the\t-3\n", 1, "the count '-3' of 'the' is not a whole number"),
        ("the\t2.5\n", 1, "not a whole number"),
        ("the\t٣\n", 1, "not a whole number"),
        ("the\t3\ncat\t1\nthe\t4\n", 3, "'the' is listed twice (first on line 1)"),
    ],
)
def test_bad_lines_name_the_file_and_the_line(
    tmp_path: Path, content: str, line: int, problem: str
) -> None:
    path = tmp_path / "counts.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FileError) as error:
        read_word_counts(path)
    assert error.value.line == line
    assert str(error.value).startswith(f"{path}, line {line}: ")
    assert problem in str(error.value)


def test_an_empty_file_and_hostile_paths_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.tsv"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(FileError, match="holds no word counts"):
        read_word_counts(empty)
    hostile = hostile_inputs(tmp_path)
    for kind in ("fifo", "zero", "folder", "huge"):
        path, said = hostile[kind]
        with pytest.raises(FileError) as error:
            read_word_counts(path)
        assert str(error.value).startswith(path)
        if kind != "huge":  # the cap here is a count file's, not an input's
            assert said in str(error.value)
        else:
            assert "more than the 256.0 MiB (268,435,456 bytes) a word count" in str(error.value)
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes(b"the\t3\ncaf\xe9\t1\n")
    with pytest.raises(FileError, match=r"latin1.tsv, line 2: not UTF-8: byte 0xe9"):
        read_word_counts(latin1)


def test_a_training_text_is_counted_with_the_comparisons_tokenizer(tmp_path: Path) -> None:
    tokenize = bleu_tokenizer("13a")
    counts = count_corpus_words(SAMPLE / "ref.en.txt", tokenize)
    expected = Counter(w for line in read_lines(SAMPLE / "ref.en.txt") for w in tokenize(line))
    assert counts == expected
    assert counts["."] > 0  # 13a splits the final period off
    plain = count_corpus_words(SAMPLE / "ref.en.txt", str.split)
    assert plain != counts
    blank = tmp_path / "blank.txt"
    blank.write_text(" \n\n", encoding="utf-8")
    with pytest.raises(FileError, match="holds no words"):
        count_corpus_words(blank, tokenize)
