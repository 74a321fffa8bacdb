"""core.metrics.signature: one writer of ``name:value|...`` signatures, with sacreBLEU's short
names."""

from __future__ import annotations

from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

from matchlight.core.metrics.signature import SHORT_NAMES, format_signature


def test_short_names_are_sacrebleus() -> None:
    """Every abbreviation sacreBLEU's BLEU and chrF signatures use (with a bootstrap: bs, rs)
    is ours, and ours adds only BLEU's ngram (sacreBLEU 2.6.0 does not record the order)."""
    theirs: dict[str, str] = {}
    for metric in (BLEU(), CHRF()):
        metric.corpus_score(["a b"], [["a b"]])
        theirs.update(metric.get_signature()._abbr)
    shared = {k: v for k, v in theirs.items() if k in SHORT_NAMES}
    assert shared == {k: SHORT_NAMES[k] for k in shared}
    assert set(SHORT_NAMES) - set(theirs) == {"ngram"}


def test_format_signature() -> None:
    fields = [("nrefs", 2), ("bs", 1000), ("case", "mixed"), ("weights", "uniform-4")]
    assert format_signature(fields) == "nrefs:2|bs:1000|case:mixed|weights:uniform-4"
    assert format_signature(fields, short=True) == "#:2|bs:1000|c:mixed|weights:uniform-4"
    assert format_signature([]) == ""
