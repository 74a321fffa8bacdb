"""A small input is scored in the command's own process (no workers to start): its files are
byte for byte those of worker processes, on real data, with the language check and the source."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchlight.core.cli import main
from matchlight.core.scoring import engines
from tests.conftest import SHARED_DATA
from tests.kit import needs

DE_EN = SHARED_DATA / "wmt22-de-en"
OUTPUTS = ("csv", "jsonl", "json")


def _score(folder: Path, rows: int, *options: str) -> dict[str, bytes]:
    folder.mkdir()
    args = ["--src", str(DE_EN / "src.txt"), "--ref", str(DE_EN / "ref.txt")]
    args += [a for s in sorted(DE_EN.glob("sys.*.txt"))[:3] for a in ("--hyp", str(s))]
    args += ["--segments", f"1-{rows}", "--metrics", "bleu,chrf,rouge", "--quiet"]
    args += [a for fmt in OUTPUTS for a in (f"--{fmt}", str(folder / f"s.{fmt}"))]
    assert main([*args, *options]) == 0
    return {fmt: (folder / f"s.{fmt}").read_bytes() for fmt in OUTPUTS}


class _NoWorkers(engines.LocalProcesses):
    def __init__(self, workers: int) -> None:
        raise AssertionError("a small input started worker processes")


@needs(DE_EN)
def test_a_small_input_scored_here_writes_what_workers_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = (engines.IN_PROCESS_PAIRS - 1) // 3
    workers = _score(tmp_path / "workers", rows, "--workers", "2", "--task-rows", "100")
    monkeypatch.setattr(engines, "LocalProcesses", _NoWorkers)
    here = _score(tmp_path / "here", rows)  # --workers left to the engine: this process
    assert here == workers
    assert b'"reference_language": "en"' in here["json"]
    assert here["csv"].count(b"\n") == 3 * rows + 1
