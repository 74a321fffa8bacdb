"""``matchlight score --engine dask|ray`` on a local cluster writes the local engine's files,
byte for byte, however many tasks the rows are cut into (a cluster starts in seconds: one run
each); the JSON's counts of the checks made beside the scores (the language check, with the
source) come from the cluster's workers too."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchlight.core.cli import main
from tests.conftest import SAMPLE

REFS = [SAMPLE / "ref.en.txt", SAMPLE / "ref2.en.txt"]
SYSTEMS = sorted(SAMPLE.glob("sys.*.txt"))
OUTPUTS = ("csv", "jsonl", "json")


def _score(folder: Path, *options: str) -> dict[str, bytes]:
    folder.mkdir()
    args = ["--src", str(SAMPLE / "src.de.txt")]
    args += [a for r in REFS for a in ("--ref", str(r))]
    args += [a for s in SYSTEMS for a in ("--hyp", str(s))]
    args += ["--metrics", "bleu,chrf,rouge", "--quiet"]
    args += [a for fmt in OUTPUTS for a in (f"--{fmt}", str(folder / f"s.{fmt}"))]
    assert main([*args, *options]) == 0
    return {fmt: (folder / f"s.{fmt}").read_bytes() for fmt in OUTPUTS}


@pytest.mark.slow  # starts a local cluster
@pytest.mark.parametrize("engine", ["dask", "ray"])
def test_a_local_cluster_writes_the_local_engines_files(tmp_path: Path, engine: str) -> None:
    pytest.importorskip("dask.distributed" if engine == "dask" else "ray")
    local = _score(tmp_path / "local", "--workers", "1")
    # 160 rows in tasks of 7: 23 tasks, scored by two workers in whatever order they finish.
    cluster = _score(tmp_path / engine, "--engine", engine, "--workers", "2", "--task-rows", "7")
    assert cluster == local
    assert b'"reference_language": "en"' in local["json"] and b'"copies_source": 0' in local["json"]
