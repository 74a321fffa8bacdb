"""The session state's ``meta`` rows: one list of parts, every part written and read back."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from matchlight.core.annotation.model import Severity
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, MQMWeights, WeightRule
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    AnnotationMode,
    Category,
    Typology,
)
from matchlight.core.session.records import (
    STATE_KEYS,
    SessionState,
    StateParts,
    read_state,
    state_values,
)

#: A state in which no part has its default.
STATE = SessionState(
    settings={"tokenize": "zh", "lowercase": True, "metrics": ["bleu", "chrf"]},
    baseline="Online-B",
    selection={"rows": [3, 5, 8], "query": "(19|20)\\d\\d"},
    layout=[1, 2, {"split": 0.4}],
    mode=AnnotationMode.ESA,
    typology=Typology((Category("Accuracy", (Category("Omission"),)), Category("Style"))),
    weights=MQMWeights((WeightRule(7.5, Severity.MAJOR), WeightRule(0.5, category="Style"))),
    annotator="jiwoo",
)


def test_the_typed_parts_are_the_state_fields() -> None:
    # StateParts (for save_state's keywords) cannot be derived from SessionState for the type
    # checker, so this holds the two declarations to each other.
    assert tuple(StateParts.__annotations__) == STATE_KEYS


def test_a_state_with_no_default_part_round_trips() -> None:
    parts = {key: getattr(STATE, key) for key in STATE_KEYS}
    values = state_values(**parts)
    assert tuple(values) == STATE_KEYS
    assert all(isinstance(text, str) for text in values.values())
    assert read_state(values) == STATE


@pytest.mark.parametrize("key", STATE_KEYS)
def test_each_part_is_written_alone_and_read_back_over_the_defaults(key: str) -> None:
    values = state_values(**{key: getattr(STATE, key)})
    assert list(values) == [key]
    read = read_state(values)
    assert getattr(read, key) == getattr(STATE, key)
    # The parts not written read as their defaults.
    empty = asdict(read_state({}))
    assert {k: v for k, v in asdict(read).items() if k != key} == {
        k: v for k, v in empty.items() if k != key
    }


def test_missing_rows_read_as_the_defaults() -> None:
    assert read_state({}) == SessionState(
        settings={},
        baseline=None,
        selection=None,
        layout=None,
        mode=AnnotationMode.MQM,
        typology=DEFAULT_TYPOLOGY,
        weights=DEFAULT_WEIGHTS,
        annotator="",
    )
