"""Precision and recall of the language flags (core.analysis.language), measured (never asserted).

    python tests/benchmarks/bench_language.py [--show]

For each shared dataset with a source, the real systems are flagged together with two made
ones: the source as a system ("copy": every row copies the source, and is in the source's
language) and another pair's lines as output ("other": every row in another language). The
made rows are the positives; the real systems' rows are taken as negatives, and every flag on
them is printed (--show) to be read: a flag there is a false positive unless the output really
is untranslated. Datasets without a source add real systems only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from matchlight.core.analysis.language import language_flags  # noqa: E402
from matchlight.core.text.corpus import CorpusText  # noqa: E402
from tests.conftest import SHARED_DATA  # noqa: E402
from tests.kit import read_lines  # noqa: E402

#: dataset -> the file whose lines are its "other" system (another language than its target).
OTHER = {
    "wmt22-en-zh": "wmt22-de-en/ref.txt",  # English for Chinese
    "flores-en-ko-opusmt": "wmt22-en-zh/ref.txt",  # Chinese for Korean
    "compare-mt-ted-sk-en": "wmt22-de-en/src.txt",  # German for English
    "wmt22-de-en": "compare-mt-ted-sk-en/src.txt",  # Slovak for English
    "wmt21-ted-zh-en-mqm": "compare-mt-ted-sk-en/src.txt",  # Slovak for English
}
REAL_ONLY = ("compare-mt-sum-en", "cnndm-pointer-gen", "compare-mt-multited-ja")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every flag on a real system")
    args = parser.parse_args()
    totals = {"wrong": [0, 0], "copy": [0, 0]}  # caught, made
    real_flags = {"wrong": 0, "copy": 0}
    real_rows = 0
    print(
        f"{'dataset':24} {'lang':4} {'real rows':>9} {'real W':>6} {'real C':>6} "
        f"{'other W':>12} {'copy C':>12} {'copy W':>12} {'s':>5}"
    )
    for name in (*OTHER, *REAL_ONLY):
        folder = SHARED_DATA / name
        if not folder.is_dir():
            continue
        refs = read_lines(folder / "ref.txt")
        n = len(refs)
        source = read_lines(folder / "src.txt") if (folder / "src.txt").exists() else None
        paths = sorted(folder.glob("sys.*.txt"))
        names = [p.stem.removeprefix("sys.") for p in paths]
        systems = [read_lines(p) for p in paths]
        made = name in OTHER and source is not None
        if made:
            other = read_lines(SHARED_DATA / OTHER[name])
            systems += [source, [other[i % len(other)] for i in range(n)]]
            names += ["copy", "other"]
        text = CorpusText((tuple(refs),), tuple(map(tuple, systems)), tuple(names))
        start = time.perf_counter()
        flags = language_flags(text, source)
        seconds = time.perf_counter() - start
        assert flags is not None
        real = len(paths)
        w_real = int(flags.wrong_language[:real].sum())
        c_real = int(flags.copies_source[:real].sum())
        real_flags["wrong"] += w_real
        real_flags["copy"] += c_real
        real_rows += real * n
        cells = ["", "", ""]
        if made:
            copy, oth = real, real + 1
            w_other = int(flags.wrong_language[oth].sum())
            c_copy = int(flags.copies_source[copy].sum())
            w_copy = int(flags.wrong_language[copy].sum())
            totals["wrong"][0] += w_other + w_copy
            totals["wrong"][1] += 2 * n
            totals["copy"][0] += c_copy
            totals["copy"][1] += n
            # Copies flagged on the "other" system would be false positives of the copy flag.
            real_flags["copy"] += int(flags.copies_source[oth].sum())
            cells = [f"{w_other}/{n}", f"{c_copy}/{n}", f"{w_copy}/{n}"]
        language = flags.expectation.language if flags.expectation else "?"
        print(
            f"{name:24} {language:4} {real * n:9} {w_real:6} {c_real:6} "
            f"{cells[0]:>12} {cells[1]:>12} {cells[2]:>12} {seconds:5.1f}"
        )
        if args.show:
            for s in range(real):
                hit = flags.wrong_language[s] | flags.copies_source[s]
                for i in np.flatnonzero(hit):
                    kinds = "W" * bool(flags.wrong_language[s, i]) + "C" * bool(
                        flags.copies_source[s, i]
                    )
                    print(f"    {names[s]} segment {i + 1} {kinds}: {systems[s][i][:100]!r}")
    for key, label in (("wrong", "wrong_language"), ("copy", "copies_source")):
        caught, made_rows = totals[key]
        print(
            f"{label}: recall on made rows {caught}/{made_rows} = {caught / made_rows:.3f}; "
            f"flags on the {real_rows} real rows: {real_flags[key]}"
        )


if __name__ == "__main__":
    main()
