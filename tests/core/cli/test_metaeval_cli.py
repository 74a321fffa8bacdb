"""``matchlight metaeval`` end to end on small files: the JSON's figures equal mt-metrics-eval's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from matchlight.core.cli.commands import COMMANDS
from matchlight.core.cli.metaeval import main
from tests.conftest import SHARED_DATA

sys.path.insert(0, str(SHARED_DATA.parent / "oracles"))
stats = pytest.importorskip("mt_metrics_eval.stats")


def test_metaeval_is_a_command() -> None:
    assert COMMANDS["metaeval"] == "matchlight.core.cli.metaeval"


def test_metaeval_json_equals_the_oracle(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(30)]
    ref = [" ".join(rng.choice(words, 8)) for _ in range(12)]
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    hyps = []
    for s in range(4):
        lines = [
            " ".join(w if rng.random() < 0.4 + 0.15 * s else "x" for w in r.split()) for r in ref
        ]
        path = tmp_path / f"sys.s{s}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        hyps += ["--hyp", str(path)]
    human = rng.integers(0, 10, size=(4, 12)).astype(float) + np.arange(4)[:, None]
    (tmp_path / "human.tsv").write_text(
        "system\tscore\n" + "".join(f"s{s}\t{human[s, i]}\n" for s in range(4) for i in range(12)),
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    status = main(
        [
            "--ref",
            str(tmp_path / "ref.txt"),
            *hyps,
            "--human",
            str(tmp_path / "human.tsv"),
            "--metrics",
            "bleu,chrf",
            "--ci",
            "20",
            "--permutations",
            "20",
            "--json",
            str(out),
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "System level" in printed and "acc23" in printed
    payload = json.loads(out.read_text(encoding="utf-8"))
    sentence = payload["segment_level"]["BLEU"]
    # segment level: sentence BLEU (the table's) against the human scores
    from matchlight.core.cli.options import score_comparison  # noqa: F401  (same engine)

    assert set(payload["system_level"]["BLEU"]) == {
        "pearson",
        "spearman",
        "kendall",
        "pairwise_accuracy",
        "spa",
    }
    value = sentence["kendall_b"]
    assert isinstance(value, dict) and value["ci"][0] <= value["ci"][1]
    corr = stats.Correlation(4, list(human.mean(axis=1)), payload_sys(payload, "BLEU", tmp_path))
    assert payload["system_level"]["BLEU"]["pearson"]["value"] == pytest.approx(
        corr.Pearson()[0], abs=1e-6
    )


def payload_sys(payload: dict, metric: str, folder: Path) -> list[float]:
    """Corpus BLEU of each system from sacreBLEU itself."""
    import sacrebleu

    ref = (folder / "ref.txt").read_text(encoding="utf-8").splitlines()
    return [
        sacrebleu.corpus_bleu(
            (folder / f"sys.s{s}.txt").read_text(encoding="utf-8").splitlines(), [ref]
        ).score
        for s in range(4)
    ]
