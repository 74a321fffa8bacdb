"""What the session tests share: a comparison opened and scored from files, the inputs a session
file records for them, and a session file damaged on purpose."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from matchlight.core.io.inputs import InputSpec
from matchlight.core.io.reading import load_comparison
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.store import SessionInput


def open_comparison(files: dict[str, str]) -> ComparisonSession:
    comparison = load_comparison(
        source=None,
        references=[InputSpec(files["ref"], name="ref")],
        systems=[InputSpec(files["A"], name="A"), InputSpec(files["B"], name="B")],
    )
    text = comparison.corpus_text()
    config = ScoringConfig()
    return ComparisonSession(
        text,
        config=config,
        reference_names=("ref",),
        comparison=comparison,
        table=score_corpus(text, config),
    )


def inputs_of(files: dict[str, str]) -> list[SessionInput]:
    return [
        SessionInput.from_file(files["ref"], role="reference", name="ref"),
        SessionInput.from_file(files["A"], role="system", name="A"),
        SessionInput.from_file(files["B"], role="system", name="B"),
    ]


def damage_spans(path: Path) -> None:
    """Scribble over the root page of the spans table of the session file ``path``."""
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'spans'").fetchone()[0]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    for k in range((root - 1) * page, root * page):
        data[k] = 0xA5
    path.write_bytes(bytes(data))
