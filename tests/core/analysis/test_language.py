"""matchlight.core.analysis.language on the shared real data and on systems made from it.

Real systems are checked against an independent reading of the same files (a Chinese output
with no Han character and twenty letters is untranslated), constructed systems against what
they were made of: the source copied as a system, another pair's lines as output.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core import pacing
from matchlight.core.analysis import language, languagemodel
from matchlight.core.analysis.language import (
    EXPECT_LINES,
    MIN_LETTERS,
    expect_language,
    flag_rows,
    language_flags,
)
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SHARED_DATA
from tests.kit import data_lines, needs

EN_ZH = SHARED_DATA / "wmt22-en-zh"
EN_KO = SHARED_DATA / "flores-en-ko-opusmt"
SK_EN = SHARED_DATA / "compare-mt-ted-sk-en"
DE_EN = SHARED_DATA / "wmt22-de-en"


def letters(line: str, script: str = "L") -> int:
    return len(regex.findall(rf"\p{{{script}}}", line))


def cycled(lines: list[str], n: int) -> list[str]:
    return [lines[i % len(lines)] for i in range(n)]


@cache
def comparison(folder: Path, other: Path | None = None) -> tuple[CorpusText, list[str]]:
    """The real systems of ``folder``, then its source as a system ("copy"), then ``other``'s
    lines (cycled to the length) as a system ("other"); and the source."""
    refs = data_lines(folder / "ref.txt")
    source = data_lines(folder / "src.txt")
    paths = sorted(folder.glob("sys.*.txt"))
    systems = [data_lines(p) for p in paths]
    names = [p.stem.removeprefix("sys.") for p in paths]
    systems.append(source)
    names.append("copy")
    if other is not None:
        systems.append(cycled(data_lines(other), len(refs)))
        names.append("other")
    text = CorpusText((tuple(refs),), tuple(map(tuple, systems)), tuple(names))
    return text, source


@cache
def flags_of(folder: Path, other: Path | None = None) -> language.LanguageFlags:
    text, source = comparison(folder, other)
    flags = language_flags(text, source)
    assert flags is not None
    return flags


def system(flags: language.LanguageFlags, name: str) -> int:
    return flags.systems.index(name)


# -- real data -----------------------------------------------------------------------------------


@needs(EN_ZH)
def test_wmt22_en_zh_flags_exactly_the_untranslated_outputs_of_the_real_systems() -> None:
    flags = flags_of(EN_ZH, DE_EN / "ref.txt")
    text, source = comparison(EN_ZH, DE_EN / "ref.txt")
    assert flags.expectation is not None and flags.expectation.language == "zh"
    real = [s for s, name in enumerate(flags.systems) if name not in ("copy", "other")]
    # The independent reading: an output with no Han character and at least twenty letters.
    untranslated = {
        (s, i)
        for s in real
        for i, line in enumerate(text.systems[s])
        if letters(line, "Han") == 0 and letters(line) >= MIN_LETTERS
    }
    assert untranslated == {
        (system(flags, "HuaweiTSC"), 883),
        (system(flags, "Online-B"), 1238),
    }
    wrong = {(s, int(i)) for s in real for i in np.flatnonzero(flags.wrong_language[s])}
    copies = {(s, int(i)) for s in real for i in np.flatnonzero(flags.copies_source[s])}
    assert wrong == untranslated
    # Both are the English source, word for word.
    assert copies == untranslated
    assert all(text.systems[s][i] == source[i] for s, i in copies)


@needs(EN_ZH)
@needs(DE_EN)
def test_wmt22_en_zh_constructed_systems_are_caught() -> None:
    flags = flags_of(EN_ZH, DE_EN / "ref.txt")
    text, source = comparison(EN_ZH, DE_EN / "ref.txt")
    n = flags.n_segments
    copy, other = system(flags, "copy"), system(flags, "other")
    # English output for Chinese references: every line long enough to tell is caught.
    long_enough = np.array([letters(line) >= MIN_LETTERS for line in text.systems[other]])
    assert np.array_equal(flags.wrong_language[other], long_enough)
    assert long_enough.sum() > 0.9 * n
    assert not flags.copies_source[other].any()
    # The source as a system: nearly every row copies it, and none copied is short.
    caught = flags.copies_source[copy]
    assert caught.sum() > 0.95 * n
    assert all(letters(source[i]) >= 10 for i in np.flatnonzero(caught))
    assert flags.wrong_language[copy].sum() > 0.9 * n


@needs(EN_KO)
@needs(EN_ZH)
def test_flores_en_ko_real_systems_clean_copy_and_chinese_caught() -> None:
    flags = flags_of(EN_KO, EN_ZH / "ref.txt")
    text, _source = comparison(EN_KO, EN_ZH / "ref.txt")
    assert flags.expectation is not None and flags.expectation.language == "ko"
    assert flags.expectation.scripts == frozenset({"HANGUL"})
    for name in ("opusmt-big", "opusmt-bt"):
        s = system(flags, name)
        assert not flags.wrong_language[s].any() and not flags.copies_source[s].any()
    copy = system(flags, "copy")
    # FLORES sources are whole sentences: every one copied is caught, as both flags.
    assert flags.copies_source[copy].all() and flags.wrong_language[copy].all()
    other = system(flags, "other")
    chinese = text.systems[other]
    wrong = flags.wrong_language[other]
    # A Chinese line of ten Han characters or more is told; under ten letters, never.
    assert all(wrong[i] for i, line in enumerate(chinese) if letters(line, "Han") >= 10)
    assert not any(wrong[i] for i, line in enumerate(chinese) if letters(line) < 10)
    assert flags.counts() == [(0, 0), (0, 0), (1012, 1012), (int(wrong.sum()), 0)]


@needs(SK_EN)
@needs(DE_EN)
def test_same_script_german_for_english_is_caught_without_touching_real_systems() -> None:
    flags = flags_of(SK_EN, DE_EN / "src.txt")
    assert flags.expectation is not None and flags.expectation.language == "en"
    for name in ("nmt", "pbmt"):
        s = system(flags, name)
        assert not flags.wrong_language[s].any() and not flags.copies_source[s].any()
    n = flags.n_segments
    other, copy = system(flags, "other"), system(flags, "copy")
    assert flags.wrong_language[other].sum() > 0.8 * n
    assert flags.copies_source[copy].sum() > 0.9 * n
    assert (
        flags.rows("copies_source").tolist() == np.flatnonzero(flags.copies_source[copy]).tolist()
    )


@needs(EN_ZH)
def test_flags_of_a_slice_are_the_slice_of_the_flags() -> None:
    """What a streaming caller gets chunk by chunk is what the whole comparison gets."""
    text, source = comparison(EN_ZH, DE_EN / "ref.txt")
    whole = flags_of(EN_ZH, DE_EN / "ref.txt")
    expectation = expect_language(text.references)
    assert expectation == whole.expectation
    # The expectation reads the first EXPECT_LINES lines: the rest of the file changes nothing.
    assert expect_language([r[:EXPECT_LINES] for r in text.references]) == expectation
    for start, stop in ((0, 97), (97, 300), (1230, 1240), (2000, len(text))):
        part = flag_rows(
            expectation,
            references=[r[start:stop] for r in text.references],
            systems=[s[start:stop] for s in text.systems],
            source=source[start:stop],
        )
        assert np.array_equal(part.wrong_language, whole.wrong_language[:, start:stop])
        assert np.array_equal(part.copies_source, whole.copies_source[:, start:stop])


# -- the chunk's outputs judged at once -----------------------------------------------------------


def batch_agrees(outputs: list[str], expectation: language.Expectation) -> int:
    """Every output the batch takes as surely in the expected language is one py3langid's
    classify puts there too, and the flags are those of the rule applied line by line;
    returns how many the batch was sure of."""
    texts = [language._words_only(line) for line in outputs]
    sure = languagemodel.surely_expected(texts, expectation.accepted)
    identifier = languagemodel.identifier()
    for text in np.asarray(texts, dtype=object)[sure]:
        assert identifier.classify(text)[0] in expectation.accepted, text
    one_by_one = [language._in_other_language(line, expectation) for line in outputs]
    assert language._other_language([outputs], expectation)[0].tolist() == one_by_one
    return int(sure.sum())


@needs(EN_ZH)
@needs(DE_EN)
@pytest.mark.parametrize(("folder", "other"), [(DE_EN, EN_ZH), (EN_ZH, DE_EN), (EN_KO, DE_EN)])
def test_the_batch_judges_the_shared_outputs_as_classify_does(folder: Path, other: Path) -> None:
    """Real systems, the source copied, another language's lines: the batch decides most
    outputs itself, and always as py3langid would."""
    text, _ = comparison(folder, other / "ref.txt")
    expectation = expect_language(text.references)
    assert expectation is not None
    outputs = [line for column in text.systems for line in column]
    assert batch_agrees(outputs, expectation) > len(outputs) // 3


@needs(DE_EN)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_mixed_language_lines_are_judged_as_classify_does(data: st.DataObject) -> None:
    """Lines half English, half German (and cut anywhere) sit near the identifier's
    boundary: the batch leaves those it is not sure of to classify."""
    english, german = english_german()
    rows = data.draw(
        st.lists(
            st.tuples(
                st.integers(0, len(english) - 1), st.integers(0, len(german) - 1), st.floats(0, 1)
            ),
            min_size=1,
            max_size=40,
        )
    )
    outputs = []
    for e, g, share in rows:
        a, b = english[e].split(), german[g].split()
        cut = round(share * len(a))
        outputs.append(" ".join(a[:cut] + b[cut:]))
    batch_agrees(outputs, english_expectation())


@cache
def english_german() -> tuple[list[str], list[str]]:
    return data_lines(DE_EN / "ref.txt"), data_lines(DE_EN / "src.txt")


@cache
def english_expectation() -> language.Expectation:
    found = expect_language([english_german()[0]])
    assert found is not None
    return found


# -- the rules, line by line ---------------------------------------------------------------------


@cache
def chinese() -> language.Expectation:
    found = expect_language([data_lines(EN_ZH / "ref.txt")])
    assert found is not None
    return found


def one_row(output: str, *, reference: str, source: str | None) -> tuple[bool, bool]:
    flags = flag_rows(
        chinese(),
        references=[[reference]],
        systems=[[output]],
        source=None if source is None else [source],
    )
    return bool(flags.wrong_language[0, 0]), bool(flags.copies_source[0, 0])


@needs(EN_ZH)
@pytest.mark.parametrize(
    "line",
    [
        "12.",
        "3,500 USD",
        "https://www.example.com/orders/12345?lang=en",
        "Donald Trump",
        "Dalhousie University, Halifax",
        "OK, thanks!",
    ],
)
def test_numbers_urls_names_and_short_lines_are_neither_copies_nor_another_language(
    line: str,
) -> None:
    assert one_row(line, reference="这是一个很长的参考句子，用来说明情况。", source=line) == (
        False,
        False,
    )


@needs(EN_ZH)
def test_a_copy_survives_case_punctuation_and_spacing() -> None:
    source = "Please check the delivery status of your order in the app."
    output = "please check the delivery status of your order in the app"
    assert one_row(output, reference="请在应用程序中查看订单的配送状态。", source=source) == (
        True,
        True,
    )
    # Chinese output is neither.
    assert one_row(
        "请在应用程序中查看订单的配送状态。", reference="请查看订单状态。", source=source
    ) == (False, False)


@needs(EN_ZH)
def test_a_row_whose_reference_keeps_the_source_flags_nothing() -> None:
    source = "The Shuttlebays of the Enterprise-D and the Warp Core Breach Sequence"
    assert one_row(source, reference=source, source=source) == (False, False)


def test_references_without_enough_text_flag_no_language() -> None:
    assert expect_language([["1.", "2.", "OK"]]) is None
    flags = flag_rows(
        None,
        references=[["你好"]],
        systems=[["This output is plainly English and long enough to tell."]],
        source=None,
    )
    assert not flags.wrong_language.any() and not flags.copies_source.any()


@needs(EN_ZH)
def test_cancel_and_progress() -> None:
    text, source = comparison(EN_ZH, DE_EN / "ref.txt")
    seen: list[float] = []
    assert language_flags(text, source, cancelled=lambda: bool(seen), progress=seen.append) is None
    assert len(seen) == 1 and 0 < seen[0] < 1
    small = CorpusText(
        tuple(r[:600] for r in text.references),
        tuple(s[:600] for s in text.systems),
        text.system_names,
    )
    seen.clear()
    assert language_flags(small, source[:600], progress=seen.append) is not None
    assert seen[-1] == 1.0 and seen == sorted(seen)
    with pytest.raises(ValueError, match="the source has 3 lines"):
        language_flags(small, ["a", "b", "c"])


def test_the_model_ships_in_the_wheel_and_needs_no_network() -> None:
    """Identification works with every socket refused: nothing is fetched at run time."""
    script = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise OSError('no network in this test')\n"
        "socket.socket = refuse\n"
        "socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from matchlight.core.analysis.language import expect_language\n"
        "lines = ['Das ist ein ganz normaler deutscher Satz über das Wetter heute.'] * 20\n"
        "print(expect_language([lines]).language)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "de"


# -- the quick paths of the letter and word counts ---------------------------------------------

#: Letters, marks, apostrophes, hyphens, digits, spaces and punctuation: words of every shape.
_WORDY = st.text(alphabet="aZé\u0301'’-1 \t.,Жß中ǅ", max_size=40)


@settings(max_examples=400, deadline=None)
@given(text=_WORDY)
def test_many_words_says_only_what_the_words_say(text: str) -> None:
    """The quick test never claims more words than the word pattern finds one by one."""
    found = len(language._WORD.findall(text))
    if language._many_words(text):
        assert found > language.NAME_WORDS
    assert language._is_name(text) == slow_is_name(text)


def slow_is_name(text: str) -> bool:
    """The name rule of the module docs, word by word."""
    words = language._WORD.findall(text)
    if len(words) > language.NAME_WORDS:
        return False
    if any(ch.isalpha() and ch.lower() == ch.upper() for ch in text):
        return False
    return all(w[0].isupper() for w in words if w[0].lower() != w[0].upper())


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_ascii_letters_are_counted_as_isalpha_counts_them(text: str) -> None:
    n = sum(map(str.isalpha, text))
    assert language._scripts(text) == ({"LATIN": n} if n else {})


@needs(DE_EN)
@needs(EN_ZH)
def test_names_on_the_shared_data_are_those_of_the_word_by_word_rule() -> None:
    for folder in (DE_EN, EN_ZH):
        for path in (folder / "ref.txt", folder / "src.txt"):
            for line in data_lines(path):
                text = language._words_only(line)
                assert language._is_name(text) == slow_is_name(text), line


# -- the narrow table: the other languages bounded by group ------------------------------------


@needs(DE_EN)
@needs(EN_ZH)
def test_each_group_column_bounds_every_language_of_its_group() -> None:
    """A group's column is at least each member's score on every feature (and its prior at
    least theirs): with weights that are never negative, a line's group score bounds every
    member's, so a line the narrow table is sure of is sure on the whole table."""
    model = languagemodel.loaded_model()
    for folder in (DE_EN, EN_ZH):
        expectation = expect_language([data_lines(folder / "ref.txt")])
        assert expectation is not None
        narrow = languagemodel.narrow(expectation.accepted)
        exact = list(narrow.exact)
        members = sorted(int(m) for group in narrow.groups for m in group)
        # Every column is scored: exactly, or in one group.
        assert sorted(exact + members) == list(range(len(model.labels)))
        assert {model.labels[i] for i in exact} >= expectation.accepted & set(model.labels)
        table, prior = narrow.scorer.table, narrow.scorer.prior
        assert np.array_equal(table[:, : len(exact)], model.table[:, exact])
        for g, group in enumerate(narrow.groups):
            column = table[:, len(exact) + g]
            assert (column[:, None] >= model.table[:, group]).all()
            assert (column == model.table[:, group].max(axis=1)).all()
            assert prior[len(exact) + g] >= model.prior[group].max()
        accepted = narrow.scorer.accepted
        assert [model.labels[exact[k]] in expectation.accepted for k in range(len(exact))] == (
            accepted[: len(exact)].tolist()
        )
        assert not accepted[len(exact) :].any()


def walked_as_py3langid(texts: list[str]) -> None:
    """The batch's encoding and automaton walk give, line by line, py3langid's own bytes and
    feature counts (``visit_counts``), and each line's score on a table is py3langid's
    product up to float32 rounding."""
    from py3langid.langid import visit_counts

    identifier = languagemodel.identifier()
    encoded = [languagemodel._encoded(text) for text in texts]
    assert encoded == [identifier._encode(text) for text in texts]
    model = languagemodel.loaded_model()
    found = languagemodel._walked(model, encoded)
    walked: dict[int, dict[int, int]] = {}
    if found is not None:
        lines, features = found
        for i, line in enumerate(lines.tolist()):
            lo, hi = int(features.firsts[i]), int(features.ends[i])
            counts = np.rint(np.expm1(features.weight[lo:hi].astype(np.float64))).astype(int)
            walked[line] = dict(zip(features.feature[lo:hi].tolist(), counts.tolist()))
            assert features.size[i] == len(encoded[line])
        scores = languagemodel._line_scores(features, np.arange(len(lines)), model.table)
        for i, line in enumerate(lines.tolist()):
            visits = visit_counts(
                identifier.tk_nextmove, identifier._rowbase, identifier.tk_output, encoded[line]
            )
            expected = identifier._sparse_score(visits, identifier.nb_ptc) - identifier.nb_pc
            assert np.allclose(scores[i], expected, rtol=1e-5, atol=1e-3)
    for line, data in enumerate(encoded):
        visits = visit_counts(
            identifier.tk_nextmove, identifier._rowbase, identifier.tk_output, data
        )
        if visits and len(data) <= languagemodel._BATCH_BYTES:
            assert walked[line] == dict(visits), texts[line]
        else:
            assert line not in walked


@needs(DE_EN)
@needs(EN_ZH)
def test_the_batch_walks_the_shared_lines_as_py3langid_does() -> None:
    for folder in (DE_EN, EN_ZH):
        lines = data_lines(folder / "ref.txt")[:300] + data_lines(folder / "src.txt")[:300]
        walked_as_py3langid([language._words_only(line) for line in lines])


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(
        st.text(
            alphabet=st.sampled_from("aAbZé É\u0301ıİßẞ日本語한국어 .,-'\u2028\U0001f600xyzXYZ"),
            max_size=1100,
        ),
        max_size=12,
    )
)
def test_any_lines_are_walked_as_py3langid_does(texts: list[str]) -> None:
    """Empty, upper-case, decomposed, mixed-script lines and lines over the batch's byte
    limit: each is encoded and walked as py3langid does, or left out."""
    walked_as_py3langid(texts)


_PREFILTER_PIECES = st.sampled_from(
    [
        "Anna",
        "Berlin",
        "the",
        "house",
        "is",
        "red",
        "and",
        "very",
        "old",
        "today",
        " ",
        "  ",
        "\t",
        "\x1c",
        "\x0b",
        "\r",
        "\n",
        "12.",
        "x@y.de",
        "@anna",
        "http://a.b/c",
        "://",
        "WwW.",
        "wWw",
        ".",
        "é",
        "Ärger",
        "日本語",
        "İ",
        "ﬁ",
        "-",
        "'",
        "A" * 30,
        "word " * 400,
    ]
)


@settings(max_examples=300, deadline=None)
@given(outputs=st.lists(st.lists(_PREFILTER_PIECES, max_size=30).map("".join), max_size=12))
def test_outputs_to_judge_are_those_of_the_rule_line_by_line(outputs: list[str]) -> None:
    """Plain ASCII lines counted at once in numpy are the lines, texts and letter counts the
    rule finds one by one: names, short lines, URLs, handles, ``www.`` in any case, other
    whitespace, non-ASCII, newlines inside a line, lines over IDENTIFY_CHARS."""
    assert language._to_judge(outputs) == language._to_judge_one_by_one(
        outputs, range(len(outputs))
    )


def test_outputs_of_the_shared_data_to_judge_are_those_of_the_rule_line_by_line() -> None:
    checked = 0
    for path in sorted(SHARED_DATA.glob("*/*.txt")):
        lines = data_lines(path)
        for start in range(0, len(lines), 2048):
            part = lines[start : start + 2048]
            assert language._to_judge(part) == language._to_judge_one_by_one(
                part, range(len(part))
            ), (path, start)
            checked += len(part)
    assert checked > 50_000


# -- the copy check's similarity ---------------------------------------------------------------


def similar_by_definition(line: str, key: str, threshold: float) -> bool:
    """The copy check's similarity as README defines it, with none of the bounds that make it
    quick: equal, or lengths that allow the threshold, bigrams shared (Dice) at least
    MIN_BIGRAM_OVERLAP, and difflib's ratio at least the threshold."""
    if line == key:
        return True
    if not line or not key or 2 * min(len(line), len(key)) < threshold * (len(line) + len(key)):
        return False
    first = Counter(line[i : i + 2] for i in range(len(line) - 1))
    second = Counter(key[i : i + 2] for i in range(len(key) - 1))
    total = first.total() + second.total()
    if total and 2 * (first & second).total() / total < language.MIN_BIGRAM_OVERLAP:
        return False
    return difflib.SequenceMatcher(None, line, key, autojunk=False).ratio() >= threshold


def copy_key_pairs() -> list[tuple[str, str]]:
    """(output or reference, source) copy keys of every shared dataset with a source: real
    translations, a few real copies, and lines that only look alike."""
    pairs: list[tuple[str, str]] = []
    for folder in sorted(p for p in SHARED_DATA.iterdir() if (p / "src.txt").is_file()):
        source = data_lines(folder / "src.txt")[:400]
        for path in sorted(folder.glob("*.txt")):
            if path.name != "src.txt":
                lines = data_lines(path)
                if len(lines) >= len(source):
                    pairs += [
                        (language._copy_key(lines[i]), language._copy_key(s))
                        for i, s in enumerate(source)
                    ]
    return pairs


@needs(DE_EN)
@pytest.mark.parametrize("threshold", [language.COPY_SIMILARITY, language.REFERENCE_COPY])
def test_copy_similarity_is_the_definition_on_real_lines(threshold: float) -> None:
    pairs = copy_key_pairs()
    assert len(pairs) > 5000
    for line, key in pairs:
        target = language._CopyTarget(key)
        assert target.similar(line, threshold) == similar_by_definition(line, key, threshold), (
            line,
            key,
        )


@settings(max_examples=400)
@given(
    key=st.text(alphabet="abcde xyzß文字", min_size=0, max_size=40),
    edits=st.lists(
        st.tuples(st.integers(0, 40), st.sampled_from(["", "a", "b", "z", "ß", "字", "ab"])),
        max_size=6,
    ),
    threshold=st.sampled_from([language.COPY_SIMILARITY, language.REFERENCE_COPY, 0.5, 0.9]),
)
def test_copy_similarity_is_the_definition_on_near_copies(
    key: str, edits: list[tuple[int, str]], threshold: float
) -> None:
    """Lines a few edits from the key: where the bounds are closest to the ratio."""
    line = key
    for at, text in edits:
        at = min(at, len(line))
        line = line[:at] + text + line[at + 1 :] if text != "ab" else line[:at] + text + line[at:]
    target = language._CopyTarget(key)
    # One target, asked several lines as flag_rows asks it (what it keeps must not leak).
    for other in (line, key[::-1], line):
        assert target.similar(other, threshold) == similar_by_definition(other, key, threshold)


def test_every_step_is_a_pause_point() -> None:
    """language_flags passes core.pacing's pause point once per step (where the app lets its
    GUI thread go first), and flags as it does without."""
    rows = 3 * language._STEP + 5
    text = CorpusText((("a short line",) * rows,), (("another line",) * rows,), ("sys",))
    alone = language_flags(text, None)
    paused: list[int] = []
    previous = pacing.set_gate(lambda unless: paused.append(1))
    try:
        flags = language_flags(text, None)
    finally:
        pacing.set_gate(previous)
    assert flags is not None and alone is not None
    assert flags.wrong_language.shape == (1, rows)
    assert (flags.wrong_language == alone.wrong_language).all()
    assert len(paused) == 4
