"""Fixtures of the main-window tests: a fresh window per test, the sample's expected scores."""

from __future__ import annotations

import pytest

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import score_corpus
from matchlight.gui.dialogs.opendialog import sample_specs
from tests.gui.shell.windowkit import Harness


@pytest.fixture
def harness(qtbot, tmp_path):
    h = Harness(qtbot, tmp_path)
    yield h
    h.window.close()


@pytest.fixture(scope="module")
def sample_expected():
    text = sample_specs().load().corpus_text()
    return text, score_corpus(text, ScoringConfig())
