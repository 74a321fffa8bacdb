"""Columns on other scales than BLEU's, from real data, for the tests of direction, range and
precision: expert MQM penalties of WMT21 TED zh-en (lower is better, no upper bound) and a
COMET-like 0-1 score (sentence chrF / 100 with seeded noise, as score files a tool writes)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from matchlight.core.annotation.model import Status
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, annotated_segments, segment_mqm
from matchlight.core.annotation.wmtmqm import import_mqm_tsv
from matchlight.core.metrics.base import ScoreColumn
from tests.conftest import SHARED_DATA

__all__ = [
    "MQM",
    "MQM_SYSTEMS",
    "MQM_TED",
    "MqmData",
    "comet_like",
    "mqm_ted",
    "ted_scored",
    "write_scores",
]

MQM_TED = SHARED_DATA / "wmt21-ted-zh-en-mqm"
MQM_SYSTEMS = ("Facebook-AI", "NiuTrans", "Online-W")
#: The app's MQM column (gui.annotate.controller.MQM_COLUMN's fields; core tests import no GUI).
MQM = ScoreColumn(
    key="mqm",
    label="MQM penalty",
    short="MQM",
    metric="mqm",
    description="error penalty from the annotations (weighted errors; lower is better)",
    corpus="mean",
    headline=True,
    better="lower",
    low=0.0,
    high=None,
    decimals=2,
)


@dataclass(frozen=True)
class MqmData:
    """The texts of some systems and their MQM penalty per line (``penalties[s, i]``)."""

    systems: tuple[str, ...]
    source: list[str]
    reference: list[str]
    outputs: dict[str, list[str]]
    penalties: npt.NDArray[np.float64]


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


@cache
def _mqm(systems: tuple[str, ...]) -> MqmData:
    tsv = MQM_TED / "human" / "mqm_ted_zhen.tsv"
    # One row of the published file has "<v>" without "</v>" (the importer refuses it): leave
    # it out, as a user would after the importer named its line.
    rows = tsv.read_text(encoding="utf-8").split("\n")
    with tempfile.TemporaryDirectory(prefix="matchlight-mqm-") as tmp:
        clean = Path(tmp) / "mqm_ted_zhen.tsv"
        kept = "\n".join(r for r in rows if r.count("<v>") == r.count("</v>"))
        clean.write_text(kept, encoding="utf-8")
        result = import_mqm_tsv(clean)
    counted = {Status.UNDECIDED, Status.CONFIRMED}  # imported spans are expert judgements
    penalty = segment_mqm(result.spans, weights=DEFAULT_WEIGHTS, statuses=counted)
    rated = annotated_segments(result.spans, result.scores, statuses=counted)
    line_of = {int(s) - 1: i for i, s in enumerate(_lines(MQM_TED / "segid.txt"))}
    n = len(line_of)
    penalties = np.full((len(systems), n), np.nan)
    for s, name in enumerate(systems):
        for segment in rated.get(name, ()):
            penalties[s, line_of[segment]] = penalty.get((name, segment), 0.0)
    return MqmData(
        systems=systems,
        source=_lines(MQM_TED / "src.txt"),
        reference=_lines(MQM_TED / "ref.txt"),
        outputs={name: _lines(MQM_TED / f"sys.{name}.txt") for name in systems},
        penalties=penalties,
    )


def mqm_ted(systems: tuple[str, ...] = MQM_SYSTEMS) -> MqmData:
    """WMT21 TED zh-en (529 lines): ``systems``' outputs and their expert MQM penalties."""
    if not (MQM_TED / "human" / "mqm_ted_zhen.tsv").exists():
        pytest.skip(f"{MQM_TED} is not there")
    return _mqm(systems)


@cache
def ted_scored() -> Any:
    """TED zh-en's three systems scored with BLEU and chrF (a ``tests.gui.conftest.Scored``;
    the MQM penalties go on top as the app's MQM column). For GUI tests only."""
    from matchlight.core.scoring.config import ScoringConfig
    from tests.gui.conftest import scored

    data = mqm_ted()
    return scored(
        references=[data.reference],
        systems=data.outputs,
        source=data.source,
        config=ScoringConfig(metrics=("bleu", "chrf")),
        reference_names=("ref",),
    )


def comet_like(chrf: npt.ArrayLike, seed: int = 22) -> npt.NDArray[np.float64]:
    """A 0-1 score per segment: sentence chrF / 100 plus seeded noise, clipped to [0, 1]."""
    values = np.asarray(chrf, dtype=np.float64) / 100.0
    noise = np.random.default_rng(seed).normal(0.0, 0.08, values.shape)
    return np.clip(values + noise, 0.0, 1.0)


def write_scores(folder: Path, names: tuple[str, ...], values: npt.ArrayLike) -> list[str]:
    """One TSV per system (``sys.NAME.tsv``, header ``score``), as a scoring tool writes it."""
    array = np.asarray(values, dtype=np.float64)
    paths = []
    for s, name in enumerate(names):
        path = folder / f"sys.{name}.tsv"
        lines = "".join(f"{v!r}\n" for v in array[s].tolist())
        path.write_text("score\n" + lines, encoding="utf-8")
        paths.append(str(path))
    return paths
