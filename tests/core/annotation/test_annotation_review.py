"""matchlight.core.annotation.review: rulings on pre-annotations record the reviewer, bulk rulings
are one undo step and leave undecided (with the reason) what may not be confirmed yet; exports
carry the reviewer; a segment-id list is checked like a segid.txt.

Real data: Google's published WMT21 TED zh-en MQM file, read with the csv module for the counts
the import and the bulk ruling must reproduce."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest

from matchlight.core.annotation.interchange import CSV_COLUMNS, export_csv
from matchlight.core.annotation.model import AnnotationError, ErrorSpan, Status
from matchlight.core.annotation.review import (
    FLAGGED,
    REVIEWED_AT,
    REVIEWED_BY,
    ReviewScope,
    plan_review,
    reviewed,
    reviewer_of,
)
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, AnnotationMode
from matchlight.core.annotation.wmtmqm import check_segment_ids, import_mqm_tsv, read_segment_ids
from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.annotation.xcomet import export_xcomet
from matchlight.core.io.inputs import InputError
from tests.conftest import SHARED_DATA
from tests.kit import needs

TED = SHARED_DATA / "wmt21-ted-zh-en-mqm"
ALL = tuple(Status)
WHEN = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
LINES = {"A": ["The cat sat on the mat.", "A dog."], "B": ["The cat sits.", "Two dogs."]}


def span(system: str, segment: int, start: int, end: int, **kwargs: object) -> ErrorSpan:
    values: dict[str, object] = {
        "category": "Accuracy",
        "severity": "major",
        "annotator": "xCOMET",
        "status": Status.UNDECIDED,
    }
    values.update(kwargs)
    return ErrorSpan.create(
        system=system,
        segment=segment,
        line=LINES[system][segment],
        start=start,
        end=end,
        **values,  # type: ignore[arg-type]
    )


def test_a_ruling_records_the_reviewer_and_keeps_the_annotator() -> None:
    """Finding 3: confirming did not record who reviewed."""
    before = span("A", 0, 4, 7, extra={"confidence": 0.7})
    after = reviewed(before, Status.CONFIRMED, " ann ", when=WHEN)
    assert after.status is Status.CONFIRMED and after.annotator == "xCOMET"
    assert after.extra == {"confidence": 0.7, REVIEWED_BY: "ann", REVIEWED_AT: WHEN.isoformat()}
    assert after.modified == WHEN and after.id == before.id and after.created == before.created
    assert reviewer_of(after) == ("ann", "2025-03-04T05:06:07+00:00")
    assert reviewer_of(before) is None
    rejected = reviewed(after, Status.REJECTED, "bob", when=WHEN + timedelta(hours=1))
    assert reviewer_of(rejected) == ("bob", "2025-03-04T06:06:07+00:00")
    reopened = reviewed(rejected, Status.UNDECIDED, "", when=WHEN)
    assert reopened.extra == {"confidence": 0.7} and reviewer_of(reopened) is None
    with pytest.raises(AnnotationError, match="reviewer"):
        reviewed(before, Status.CONFIRMED, "  ")


def test_scopes_cover_an_output_a_segment_a_system_or_everything() -> None:
    spans = [span("A", 0, 0, 3), span("A", 1, 0, 1), span("B", 0, 4, 7), span("B", 1, 0, 3)]
    covered = {
        scope: [(s.system, s.segment) for s in spans if scope.covers(s, system="A", segment=0)]
        for scope in ReviewScope
    }
    assert covered == {
        ReviewScope.OUTPUT: [("A", 0)],
        ReviewScope.SEGMENT: [("A", 0), ("B", 0)],
        ReviewScope.SYSTEM: [("A", 0), ("A", 1)],
        ReviewScope.ALL: [("A", 0), ("A", 1), ("B", 0), ("B", 1)],
    }
    assert ReviewScope.OUTPUT.describe(system="A", segment=0) == "of A, segment 1"
    assert ReviewScope.ALL.describe(system=None, segment=None) == "everywhere"


def test_a_bulk_ruling_is_one_undo_step_and_leaves_what_cannot_be_confirmed() -> None:
    """Finding 3: imported spans could not be confirmed in bulk."""
    good = span("A", 0, 4, 7)
    no_category = span("A", 0, 8, 11, category="")
    needs_note = span("A", 1, 0, 1, category="Other")
    flagged = span("B", 0, 4, 7)
    done = span("B", 1, 0, 3).edited(status=Status.REJECTED)
    mine = span("B", 1, 4, 8, status=Status.CONFIRMED, annotator="ann")
    everything = [good, no_category, needs_note, flagged, done, mine]
    ws = AnnotationWorkspace(systems=("A", "B"), n_segments=2, spans=everything, annotator="ann")
    plan = plan_review(
        ws.spans(),
        Status.CONFIRMED,
        "ann",
        typology=DEFAULT_TYPOLOGY,
        mode=AnnotationMode.MQM,
        flagged={flagged.id},
        when=WHEN,
    )
    assert [u.before.id for u in plan.updates] == [good.id]
    assert plan.left == {
        "an MQM error span needs a category": 1,
        "a note is required for category 'Other': say what the error is": 1,
        FLAGGED: 1,
    }
    assert plan.label == "Confirm 1 error"
    assert plan.message("everywhere") == (
        "1 error confirmed everywhere. 3 left undecided: 1 because an MQM error span needs a "
        "category; 1 because a note is required for category 'Other': say what the error is; "
        f"1 because {FLAGGED}."
    )
    # Rejecting takes every undecided span, flagged or not; ruled ones stay as they are.
    rejecting = plan_review(
        ws.spans(), Status.REJECTED, "ann", typology=DEFAULT_TYPOLOGY, mode=AnnotationMode.MQM
    )
    assert {u.before.id for u in rejecting.updates} == {
        good.id,
        no_category.id,
        needs_note.id,
        flagged.id,
    }
    assert rejecting.left == {}
    command = rejecting.command
    assert command is not None and command.label == "Reject 4 errors"
    ws.execute(command)
    assert {s.id: s.status for s in ws.spans()} == {
        good.id: Status.REJECTED,
        no_category.id: Status.REJECTED,
        needs_note.id: Status.REJECTED,
        flagged.id: Status.REJECTED,
        done.id: Status.REJECTED,
        mine.id: Status.CONFIRMED,
    }
    assert all(reviewer_of(ws.get(u.before.id))[0] == "ann" for u in rejecting.updates)
    assert ws.history.undo_label() == "Reject 4 errors"
    ws.undo()
    assert sorted(ws.spans(), key=lambda s: s.id) == sorted(everything, key=lambda s: s.id)
    with pytest.raises(AnnotationError):
        plan_review([good], Status.UNDECIDED, "ann", typology=DEFAULT_TYPOLOGY, mode="mqm")


def test_in_esa_mode_spans_without_category_can_be_confirmed() -> None:
    spans = [span("A", 0, 4, 7, category=""), span("A", 1, 0, 1, category="")]
    plan = plan_review(
        spans, Status.CONFIRMED, "ann", typology=DEFAULT_TYPOLOGY, mode=AnnotationMode.ESA
    )
    assert plan.count == 2 and plan.left == {}


@needs(TED)
def test_a_system_of_the_published_ted_file_is_confirmed_in_one_step() -> None:
    """Every error row of one system of Google's file, confirmed at once: as many as the file
    has, each with its reviewer, and one undo takes them all back."""
    path = TED / "human" / "mqm_ted_zhen.tsv"
    ids = read_segment_ids(TED / "segid.txt")
    lines = {
        p.name[4:-4]: p.read_text(encoding="utf-8").split("\n")[:-1] for p in TED.glob("sys.*.txt")
    }
    sources = (TED / "src.txt").read_text(encoding="utf-8").split("\n")[:-1]
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    system = "Facebook-AI"
    errors = [r for r in rows if r["system"] == system and r["category"] != "No-error"]
    result = import_mqm_tsv(
        path,
        lines={system: lines[system]},
        sources=sources,
        segment_ids=ids,
        skip_other_systems=True,
    )
    others = [r for r in rows if r["system"] != system]
    assert (
        f"{len(others):,} rows of systems not in this comparison were skipped"
        in (result.warnings[-1])
    )
    mine = [s for s in result.spans if s.system == system]
    assert len(mine) == len(errors) > 100
    ws = AnnotationWorkspace(systems=(system,), n_segments=len(ids), annotator="lead")
    ws.import_records(mine, label="Import")
    plan = plan_review(
        ws.spans(system),
        Status.CONFIRMED,
        "lead",
        typology=ws.typology,
        mode=ws.mode,
        when=WHEN,
    )
    assert plan.count == len(errors) and plan.left == {}
    assert plan.command is not None
    ws.execute(plan.command)
    assert all(s.status is Status.CONFIRMED for s in ws.spans())
    assert {reviewer_of(s) for s in ws.spans()} == {("lead", WHEN.isoformat())}
    # The MQM column now counts them: the segments with an error row are rated.
    rated = {ids.index(r["seg_id"]) for r in errors}
    assert set(ws.mqm_mask(system).nonzero()[0].tolist()) == rated
    ws.undo()
    assert all(s.status is Status.UNDECIDED for s in ws.spans()) and len(ws) == len(errors)


def test_exports_carry_the_reviewer() -> None:
    ruled = reviewed(span("A", 0, 4, 7), Status.CONFIRMED, "ann", when=WHEN)
    manual = span("B", 0, 0, 3, status=Status.CONFIRMED, annotator="ann")
    rows = list(csv.DictReader(io.StringIO(export_csv([ruled, manual]))))
    assert list(CSV_COLUMNS[-2:]) == ["reviewed_by", "reviewed_at"]
    assert [(r["system"], r["reviewed_by"], r["reviewed_at"]) for r in rows] == [
        ("A", "ann", WHEN.isoformat()),
        ("B", "", ""),
    ]
    records = [json.loads(x) for x in export_xcomet([ruled, manual]).splitlines()]
    assert records[0][REVIEWED_BY] == "ann" and records[0][REVIEWED_AT] == WHEN.isoformat()
    assert REVIEWED_BY not in records[1]


def test_segment_ids_from_a_label_column_are_checked_like_a_file() -> None:
    assert check_segment_ids([" 84", "85 "], "label column 'seg_id'") == ["84", "85"]
    with pytest.raises(InputError) as blank:
        check_segment_ids(["84", " ", "86"], "label column 'seg_id'")
    assert str(blank.value) == "label column 'seg_id', line 2: a blank segment id"
    with pytest.raises(InputError) as twice:
        check_segment_ids(["84", "85", "84"], "label column 'seg_id'")
    assert str(twice.value) == (
        "label column 'seg_id', line 3: segment id '84' also stands on line 1"
    )
