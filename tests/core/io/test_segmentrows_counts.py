"""The count cells of per-segment rows are ``str(int(value))``, empty (or null) for NaN."""

from __future__ import annotations

import numpy as np

from matchlight.core.io.segmentrows import _count_texts


def straightforward(values: np.ndarray, missing: str) -> list[str]:
    return [missing if v != v else str(int(v)) for v in values.tolist()]


def test_count_texts_are_the_straightforward_ones() -> None:
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 10**12, 500).astype(np.float64)
    counts[:3] = (0.0, -0.0, 2.0**53)
    with_nan = counts.copy()
    with_nan[::7] = np.nan
    for values in (counts, with_nan, counts[:0]):
        for missing in ("", "null"):
            assert _count_texts(values, missing) == straightforward(values, missing)
    assert _count_texts(np.array([3.0, np.nan]), "null") == ["3", "null"]
