"""The reference-leak warning of ``matchlight score`` and ``matchlight compare``: wmt22-en-zh's
ref2 is Online-B's output on 373 of 2,037 lines, and both commands say so on stderr, where the
app's banner says it (:func:`core.analysis.references.reference_leaks`)."""

from __future__ import annotations

import pytest

from matchlight.core.analysis.references import reference_leaks
from matchlight.core.analysis.selection import format_segments
from matchlight.core.cli import compare_main, main
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
DE_EN = SHARED_DATA / "wmt22-de-en"


def _args(folder: object, *extra: str) -> list[str]:
    refs = [EN_ZH / "ref.txt", EN_ZH / "ref2.txt"] if folder is EN_ZH else [DE_EN / "ref.txt"]
    args = [a for ref in refs for a in ("--ref", str(ref))]
    for path in sorted(folder.glob("sys.*.txt")):  # type: ignore[attr-defined]
        args += ["--hyp", str(path)]
    return [*args, "--metrics", "bleu", *extra]


def _expected() -> str:
    systems = sorted(EN_ZH.glob("sys.*.txt"))
    (message,) = reference_leaks(
        references=[read_lines(EN_ZH / "ref.txt"), read_lines(EN_ZH / "ref2.txt")],
        systems=[read_lines(p) for p in systems],
        reference_names=["ref", "ref2"],
        system_names=[p.stem.removeprefix("sys.") for p in systems],
    )
    return f"matchlight: warning: {message}"


@needs(EN_ZH)
def test_score_warns_that_ref2_is_online_b(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_args(EN_ZH, "--tokenize", "zh")) == 0
    out, err = capsys.readouterr()
    assert "Online-B" in out and "79.99" in out  # ranked first, on the leaky reference
    warning = _expected()
    assert "ref2 looks made from Online-B's output: 373 of 2037 lines identical" in warning
    assert err.count(warning) == 1
    # --quiet silences it, as every warning.
    assert main(_args(EN_ZH, "--tokenize", "zh", "--quiet")) == 0
    assert "looks made from" not in capsys.readouterr().err


@needs(EN_ZH)
def test_compare_warns_too_and_a_clean_subset_does_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert compare_main(_args(EN_ZH, "--tokenize", "zh", "--paired-bs-n", "20")) == 0
    assert capsys.readouterr().err.count(_expected()) == 1
    # The rows where ref2 is not Online-B's line (--segments): nothing stands out there.
    ref2 = read_lines(EN_ZH / "ref2.txt")
    online_b = read_lines(EN_ZH / "sys.Online-B.txt")
    differ = [i for i, (a, b) in enumerate(zip(ref2, online_b)) if a.split() != b.split()]
    assert len(differ) == 2037 - 373
    spec = format_segments(differ)
    args = _args(EN_ZH, "--tokenize", "zh", "--segments", spec, "--paired-bs-n", "20")
    assert compare_main(args) == 0
    assert "looks made from" not in capsys.readouterr().err


@needs(DE_EN)
def test_no_warning_without_a_leak(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_args(DE_EN)) == 0
    assert "looks made from" not in capsys.readouterr().err
