"""Warnings about misleading settings, checked against what the reference tools do."""

from __future__ import annotations

import pytest
from rouge_score import tokenizers

from matchlight.core.cli import main
from matchlight.core.scoring.advice import detect_script, scoring_advice
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.text.corpus import CorpusText
from tests.conftest import DATASETS, Dataset


def _dataset(name: str) -> Dataset:
    for d in DATASETS:
        if d.name == name:
            return d
    pytest.skip(f"{name} is not in shared/data")


def _text(d: Dataset, rows: int) -> CorpusText:
    refs = tuple(tuple(d.read(p)[:rows]) for p in d.refs)
    system = tuple(d.read(d.systems[0])[:rows])
    return CorpusText(references=refs, systems=(system,), system_names=("s",))


def test_chinese_references_get_tokenizer_advice() -> None:
    d = _dataset("wmt22-en-zh")
    text = _text(d, 300)
    assert detect_script(text.references) == "zh"
    table = score_corpus(text, ScoringConfig())
    advice = {a.key: a for a in scoring_advice(table, script="zh")}
    assert advice["cjk-tokenizer"].fix == {"bleu": {"tokenize": "zh"}}
    # rouge-score's own tokenizer decides which references are empty.
    rouge_tok = tokenizers.DefaultTokenizer(use_stemmer=False)
    empty = sum(1 for col in text.references for line in col if not rouge_tok.tokenize(line))
    assert empty > 0
    assert advice["rouge-empty"].message.startswith(f"{empty} of {2 * 300} references")
    fixed_config = ScoringConfig().apply(
        {"bleu": {"tokenize": "zh"}, "rouge": {"tokenizer": "unicode"}}
    )
    fixed = score_corpus(text, fixed_config)
    keys = {a.key for a in scoring_advice(fixed, script="zh")}
    assert "cjk-tokenizer" not in keys and "rouge-empty" not in keys


def test_japanese_and_latin_scripts() -> None:
    assert detect_script([["これはペンです。", "東京に行きました。"]]) == "ja"
    assert detect_script([["Hello world", "Guten Tag"]]) is None
    assert detect_script([[]]) is None
    d = _dataset("compare-mt-multited-ja")
    assert detect_script(_text(d, 100).references) == "ja"


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


def test_cli_prints_the_same_advice(capsys) -> None:
    d = _dataset("wmt22-en-zh")
    args = [a for p in d.refs for a in ("--ref", str(p))] + ["--hyp", str(d.systems[0])]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "references look Chinese" in err and "--tokenize" in err
    assert "have no ROUGE tokens" in err and "--rouge-tokenizer unicode" in err
