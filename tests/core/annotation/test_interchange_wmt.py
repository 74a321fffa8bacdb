"""Google's WMT MQM files as published: their labels map onto the typology, spans marked in the
source are source spans, seg_ids come from a segment-id file, the file round-trips byte for byte,
and an export says which spans it leaves out."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from matchlight.core.annotation.interchange import (
    CSV_COLUMNS,
    export_csv,
    left_out,
    left_out_message,
)
from matchlight.core.annotation.model import ErrorSpan, SegmentScore, Severity, Side, Status
from matchlight.core.annotation.mqm import DEFAULT_WEIGHTS, segment_mqm
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY, AnnotationMode
from matchlight.core.annotation.wmtesa import export_wmt24_esa
from matchlight.core.annotation.wmtmqm import export_mqm_tsv, import_mqm_tsv, read_segment_ids
from matchlight.core.annotation.workspace import AnnotationWorkspace
from matchlight.core.annotation.xcomet import export_xcomet
from matchlight.core.io.inputs import InputError
from tests.conftest import SHARED_DATA

ALL = tuple(Status)
TED = SHARED_DATA / "wmt21-ted-zh-en-mqm"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
SOURCE = "Die Sonne verbrennt unsere Sicht."
TARGET = "The sun burns our view."


def row(seg: int, rater: str, source: str, target: str, category: str, severity: str) -> str:
    return f"sysA\ttalk.1\t{seg}\t{seg}\t{rater}\t{source}\t{target}\t{category}\t{severity}\n"


def google_file() -> str:
    """One row per label Google's files use that the old typology lacked."""
    return HEADER + "".join(
        [
            row(1, "r1", SOURCE, TARGET, "Non-translation!", "Major"),
            row(1, "r2", SOURCE, "The <v>sun</v> burns our view.", "Style/Awkward", "Minor"),
            row(2, "r1", SOURCE, "The sun <v>burns</v> our view.",
                "Terminology/Inappropriate for context", "major"),
            row(2, "r1", SOURCE, "The sun burns <v>our</v> view.",
                "Locale convention/Name format", "Minor"),
            row(3, "r1", "Die Sonne <v>verbrennt</v> unsere Sicht.", TARGET,
                "Source error", "Major"),
            row(3, "r2", "Die Sonne verbrennt <v>unsere</v> Sicht.", TARGET,
                "Accuracy/Omission", "Major"),
            row(4, "r1", SOURCE, "The sun burns our <v>view</v>.",
                "Accuracy/Untranslated text", "Minor"),
            row(4, "r2", SOURCE, TARGET, "No-error", "No-error"),
        ]
    )  # fmt: skip


def test_google_labels_map_onto_the_typology_and_can_be_confirmed(tmp_path: Path) -> None:
    """Finding 1 and 10: no row needs re-categorising by hand; the weights are the paper's."""
    path = tmp_path / "google.tsv"
    path.write_text(google_file(), encoding="utf-8")
    result = import_mqm_tsv(path)
    assert result.unknown_categories == () and not result.warnings
    assert [s.category for s in sorted(result.spans, key=lambda s: s.extra["wmt_mqm"]["row"])] == [
        "Non-translation",
        "Style/Awkward",
        "Terminology/Inappropriate for context",
        "Locale convention/Name format",
        "Source issue",
        "Accuracy/Omission",
        "Accuracy/Untranslated",
    ]
    ws = AnnotationWorkspace(systems=("sysA",), n_segments=4, mode=AnnotationMode.MQM)
    ws.import_records(list(result.spans), list(result.scores), label="Import")
    for span in ws.spans():
        ws.update(span.edited(status=Status.CONFIRMED), label="Confirm")  # validated: no error
    confirmed = ws.spans()
    assert all(s.status is Status.CONFIRMED for s in confirmed)
    by_segment = segment_mqm(confirmed, ws.scores(), weights=DEFAULT_WEIGHTS)
    # Segment 1: Non-translation! Major = 25 (r1) and a Minor (r2): (25 + 1) / 2.
    # Segment 3: Source error = 0 (r1) and a Major omission on the source (r2): (0 + 5) / 2.
    # Segment 4: a Minor (r1) and No-error (r2): (1 + 0) / 2.
    assert by_segment == {
        ("sysA", 0): pytest.approx(13.0),
        ("sysA", 1): pytest.approx(6.0),
        ("sysA", 2): pytest.approx(2.5),
        ("sysA", 3): pytest.approx(0.5),
    }
    # The file comes back byte for byte, the file's own spellings and source marks included.
    text = export_mqm_tsv(confirmed, ws.scores(), layout=result.layout)
    assert text == google_file()


def test_an_edited_label_is_written_as_edited(tmp_path: Path) -> None:
    path = tmp_path / "google.tsv"
    path.write_text(google_file(), encoding="utf-8")
    result = import_mqm_tsv(path)
    spans = sorted(result.spans, key=lambda s: s.extra["wmt_mqm"]["row"])
    spans[0] = spans[0].edited(category="Accuracy/Mistranslation")
    spans[2] = spans[2].edited(severity=Severity.MINOR)  # the file said "major"
    spans[3] = spans[3].edited(category="Locale convention/Name format", note="kept")
    rows = export_mqm_tsv(spans, result.scores, layout=result.layout, statuses=ALL).split("\n")
    want = google_file().split("\n")
    assert rows[1].endswith("\tAccuracy/Mistranslation\tMajor")
    assert rows[3].endswith("\tTerminology/Inappropriate for context\tMinor")
    assert rows[4] == want[4]  # the same category, written as the file spelled it
    assert rows[2] == want[2] and rows[5:] == want[5:]


def test_spans_marked_in_the_source_are_source_spans(tmp_path: Path) -> None:
    path = tmp_path / "google.tsv"
    path.write_text(google_file(), encoding="utf-8")
    sources = ["x", "y", "Heute: " + SOURCE, "z"]
    result = import_mqm_tsv(path, sources=sources)
    on_source = [s for s in result.spans if s.side is Side.SOURCE]
    assert [(s.text, s.category) for s in on_source] == [
        ("verbrennt", "Source issue"),
        ("unsere", "Accuracy/Omission"),
    ]
    # Placed on the comparison's source line (re-attached where it differs), never on a target.
    assert all(sources[2][s.start : s.end] == s.text for s in on_source)
    assert len(result.warnings) == 2 and "re-attached" in result.warnings[0]
    csv_rows = list(csv.DictReader(io.StringIO(export_csv(result.spans, statuses=ALL))))
    assert sorted(r["side"] for r in csv_rows) == ["source", "source"] + ["target"] * 5
    assert {r["status"] for r in csv_rows} == {"undecided"}
    # Written back into the source column of the comparison's source.
    text = export_mqm_tsv(on_source, sources=sources, statuses=ALL, layout=result.layout)
    assert "\tHeute: Die Sonne <v>verbrennt</v> unsere Sicht.\tThe sun" in text


def test_an_unclosed_mark_runs_to_the_end_and_round_trips(tmp_path: Path) -> None:
    """Google's TED zh-en file has a row whose <v> is never closed (line 9622)."""
    text = HEADER + row(1, "r1", SOURCE, "The sun <v>burns our view.", "Style/Awkward", "Major")
    path = tmp_path / "open.tsv"
    path.write_text(text, encoding="utf-8")
    result = import_mqm_tsv(path)
    assert [s.text for s in result.spans] == ["burns our view."]
    assert result.warnings == (
        f"{path}, line 2: a <v> without </v> in the target; the mark runs to its end",
    )
    assert export_mqm_tsv(result.spans, layout=result.layout, statuses=ALL) == text


def test_unknown_labels_are_kept_and_reported(tmp_path: Path) -> None:
    text = HEADER + row(1, "r1", SOURCE, "The <v>sun</v> burns.", "Accuracy/Creative", "Minor")
    path = tmp_path / "new.tsv"
    path.write_text(text, encoding="utf-8")
    result = import_mqm_tsv(path)
    assert result.spans[0].category == "Accuracy/Creative"
    assert result.unknown_categories == ("Accuracy/Creative",)
    assert "'Accuracy/Creative' (1 rows)" in result.warnings[0]
    grown = DEFAULT_TYPOLOGY.with_paths(result.unknown_categories)
    assert grown.resolve("Accuracy/Creative") == "Accuracy/Creative"


def test_seg_ids_from_a_segment_id_file(tmp_path: Path) -> None:
    ids = tmp_path / "segid.txt"
    ids.write_text("84\n91\n120\n", encoding="utf-8")
    text = HEADER + row(91, "r1", SOURCE, "The <v>sun</v> burns.", "Style/Awkward", "Minor")
    path = tmp_path / "ids.tsv"
    path.write_text(text, encoding="utf-8")
    result = import_mqm_tsv(path, segment_ids=read_segment_ids(ids))
    assert result.spans[0].segment == 1
    new = ErrorSpan.create(
        system="sysA",
        segment=2,
        line=TARGET,
        start=4,
        end=7,
        category="Fluency/Grammar",
        severity="minor",
        annotator="me",
    )
    out = export_mqm_tsv(
        [*result.spans, new],
        lines={"sysA": ["a", "The sun burns.", TARGET]},
        segment_ids=read_segment_ids(ids),
        statuses=ALL,
        layout=result.layout,
    )
    assert out.splitlines()[2].split("\t")[3] == "120"
    bad = tmp_path / "dup.txt"
    bad.write_text("84\n91\n84\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"dup.txt, line 3: segment id '84' also stands on line 1"):
        read_segment_ids(bad)
    with pytest.raises(InputError, match=r"line 2: seg_id '91' is not in the segment-id list"):
        import_mqm_tsv(path, segment_ids=["84", "120"])


def test_an_export_says_what_it_leaves_out() -> None:
    """Finding 3 (core side): no export drops spans silently."""
    made = [
        ErrorSpan.create(
            system="A",
            segment=0,
            line=TARGET,
            start=4,
            end=7,
            category="Accuracy",
            severity="major",
            annotator="me",
            status=status,
        )
        for status in (Status.CONFIRMED, Status.UNDECIDED, Status.REJECTED, Status.UNDECIDED)
    ]
    source = ErrorSpan.create(
        system="A",
        segment=0,
        line=SOURCE,
        start=4,
        end=9,
        category="Accuracy/Omission",
        severity="major",
        annotator="me",
        side=Side.SOURCE,
    )
    spans = [*made, source]
    assert left_out(spans, "csv") == {"undecided": 2, "rejected": 1}
    assert left_out(spans, "csv", statuses=ALL) == {}
    assert left_out(spans, "xcomet-jsonl", statuses=ALL) == {"source": 1}
    assert left_out(spans, "wmt24-esa-jsonl") == {"undecided": 2, "rejected": 1, "source": 1}
    assert left_out(spans, "wmt-mqm-tsv", statuses=ALL) == {}
    message = left_out_message(left_out(spans, "xcomet-jsonl"))
    assert message is not None
    assert message.startswith("2 undecided, 1 rejected spans are not in the export")
    assert "1 spans on the source are not in the export" in message
    assert left_out_message({}) is None
    # Target-only formats leave the source span out; CSV and TSV keep it.
    xcomet = [json.loads(x) for x in export_xcomet(spans, statuses=ALL).splitlines()]
    assert [r["status"] for r in xcomet] == ["confirmed", "undecided", "rejected", "undecided"]
    esa = json.loads(export_wmt24_esa(spans, lines={"A": [TARGET]}, statuses=ALL))
    assert len(esa["esa_spans"]) == 4
    assert len(list(csv.reader(io.StringIO(export_csv(spans, statuses=ALL))))) == 6
    assert "side" in CSV_COLUMNS
    tsv = export_mqm_tsv(spans, lines={"A": [TARGET]}, sources=[SOURCE], statuses=ALL)
    assert f"Die <v>Sonne</v> verbrennt unsere Sicht.\t{TARGET}\tAccuracy/Omission" in tsv


# -- the published TED zh-en file ----------------------------------------------------------------


def ted_lines() -> tuple[dict[str, list[str]], list[str], list[str]]:
    if not TED.is_dir():
        pytest.skip("shared/data/wmt21-ted-zh-en-mqm is not present")

    def read(path: Path) -> list[str]:
        return path.read_text(encoding="utf-8").split("\n")[:-1]

    lines = {p.name[4:-4]: read(p) for p in TED.glob("sys.*.txt")}
    lines["refB"] = read(TED / "ref.txt")
    return lines, read(TED / "src.txt"), read_segment_ids(TED / "segid.txt")


def test_the_published_ted_file_round_trips_onto_its_texts() -> None:
    lines, sources, ids = ted_lines()
    path = TED / "human" / "mqm_ted_zhen.tsv"
    data = path.read_bytes()
    rows = [r.split("\t") for r in data.decode("utf-8").split("\n")[1:-1]]
    assert len(ids) == 529 and ids[0] == "84" and ids[-1] == "843"
    # seg_id is not a line number: without the id file the rows do not fit the texts.
    with pytest.raises(InputError, match=r"line \d+: segment 530 is out of range"):
        import_mqm_tsv(path, lines=lines, system_names={"ref": "ref-A"})
    result = import_mqm_tsv(
        path, lines=lines, sources=sources, system_names={"ref": "ref-A"}, segment_ids=ids
    )
    assert len(result.warnings) == 1 and "line 9622" in result.warnings[0]
    assert result.unknown_categories == ()
    errors = [r for r in rows if r[7] != "No-error"]
    assert len(result.spans) == len(errors) and len(result.scores) == len(rows) - len(errors)
    marked_in_source = [r for r in errors if "<v>" in r[5] and "<v>" not in r[6]]
    on_source = [s for s in result.spans if s.side is Side.SOURCE]
    assert len(on_source) == len(marked_in_source) == 349
    for span in result.spans:
        text = (
            sources[span.segment] if span.side is Side.SOURCE else lines[span.system][span.segment]
        )
        assert text[span.start : span.end] == span.text
    assert {s.category for s in on_source} == {"Accuracy/Omission", "Source issue"}
    text = export_mqm_tsv(
        result.spans,
        result.scores,
        lines=lines,
        sources=sources,
        layout=result.layout,
        statuses=ALL,
    )
    assert text.encode("utf-8") == data
    # Every label is the typology's, so a reviewer can confirm every row as it is.
    assert all(s.category in DEFAULT_TYPOLOGY for s in result.spans)
    scores = [s for s in result.scores if isinstance(s, SegmentScore)]
    assert all(s.score is None for s in scores)
