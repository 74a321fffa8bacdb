"""The metric registry: every metric described once, and everything built from it.

chrF is the proof: it was added as one module plus one registry line, and it shows up in the
CLI options, the CSV and JSON columns, the signatures and the row detail with no other change.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics.chrf import CHRF

from matchlight.core.cli import build_parser, main
from matchlight.core.metrics.base import Metric, MetricSettings
from matchlight.core.metrics.registry import METRICS, parse_metrics, settings_by_cli
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.detail import row_detail
from tests.conftest import SAMPLE
from tests.kit import read_lines

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))


def test_every_metric_is_complete_and_its_flags_are_unique() -> None:
    flags: list[str] = []
    for key, metric in METRICS.items():
        assert isinstance(metric, Metric) and metric.key == key
        settings = metric.settings_type()
        assert isinstance(settings, MetricSettings)
        columns = metric.columns(settings)
        assert columns and len({c.key for c in columns}) == len(columns)
        assert sum(c.primary for c in columns) == 1
        assert {c.metric for c in columns} == {key}
        assert metric.signature(settings, nrefs=1)
        assert metric.highlight_modes(settings)
        flags += [name for spec in metric.settings for name in (spec.cli, *spec.aliases)]
    assert len(flags) == len(set(flags))
    assert set(settings_by_cli()) == {spec.cli for m in METRICS.values() for spec in m.settings}
    # Column keys never collide across metrics either.
    config = ScoringConfig(metrics=tuple(METRICS))
    keys = config.column_keys()
    assert len(keys) == len(set(keys))


def test_metric_lists_are_validated_and_put_in_registry_order() -> None:
    assert parse_metrics("rouge, BLEU,chrf,bleu") == ("bleu", "chrf", "rouge")
    assert parse_metrics("nltk-bleu") == ("nltk_bleu",)
    with pytest.raises(ValueError, match="unknown metric 'meteor'"):
        parse_metrics("bleu,meteor")
    with pytest.raises(ValueError, match="at least one"):
        parse_metrics(" , ")


def test_the_cli_offers_every_setting_of_every_metric() -> None:
    help_text = build_parser().format_help()
    for metric in METRICS.values():
        assert metric.label in help_text
        for spec in metric.settings:
            assert spec.cli in help_text


def test_config_round_trips_through_json() -> None:
    config = (
        ScoringConfig(metrics=("bleu", "chrf", "nltk_bleu"), sentence_separator="<n>")
        .with_settings("chrf", word_order=2, lowercase=True)
        .with_settings("bleu", tokenize="intl", smooth_method="floor", smooth_value=0.3)
    )
    again = ScoringConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config
    assert config.changed() == {
        "bleu": {"tokenize": "intl", "smooth_method": "floor", "smooth_value": 0.3},
        "chrf": {"word_order": 2, "lowercase": True},
        "text": {"sentence_separator": "<n>"},
    }


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_through_the_cli_equals_sacrebleu(tmp_path: Path, word_order: int) -> None:
    out_csv, out_json = tmp_path / "s.csv", tmp_path / "s.json"
    args = [a for r in REFS for a in ("--ref", str(r))]
    args += [a for s in SYSTEMS for a in ("--hyp", str(s))]
    args += ["--metrics", "bleu,chrf,rouge", "--chrf-word-order", str(word_order)]
    assert main([*args, "--csv", str(out_csv), "--json", str(out_json)]) == 0
    refs = [read_lines(r) for r in REFS]
    metric = CHRF(word_order=word_order)
    payload = json.loads(out_json.read_text(encoding="utf-8"))
    for system in SYSTEMS:
        hyps = read_lines(system)
        entry = payload["systems"][system.stem.removeprefix("sys.")]
        corpus = metric.corpus_score(hyps, refs)
        assert entry["chrf"] == pytest.approx(corpus.score, abs=1e-9)
        assert entry["chrf_signature"] == str(metric.get_signature())
    with out_csv.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    header = list(rows[0])
    assert header[:4] == ["system", "segment", "bleu", "chrf"]
    by_system = {p.stem.removeprefix("sys."): read_lines(p) for p in SYSTEMS}
    for row in rows[::37]:
        i = int(row["segment"]) - 1
        hyp = by_system[row["system"]][i]
        want = metric.sentence_score(hyp, [r[i] for r in refs]).score
        assert float(row["chrf"]) == pytest.approx(want, abs=1e-9)


def test_chrf_row_detail_and_highlight_mode() -> None:
    config = ScoringConfig(metrics=("chrf",))
    assert [m.key for m in config.highlight_modes()] == ["chrf"]
    ref, hyp = "The cat sat on the mat.", "The cat sits on a mat."
    detail = row_detail(config, segment=0, source=None, references=[ref], systems=[("a", hyp)])
    assert detail.values(0)["chrf"] == sacrebleu.sentence_chrf(hyp, [ref]).score
    layer = detail.layer("chrf")
    assert layer is not None and layer.max_level == 6
    matched = "".join(hyp[a:b] for a, b, kind, _ in layer.hypothesis(0) if kind == "match")
    assert "The cat" in hyp and matched.startswith("Thecat")  # spaces are never part of a match
    (block,) = detail.breakdown(0, ["ref"])
    assert "chrF2 = F-beta(P, R) =" in block.text()
