"""Annotation interchange: xCOMET JSONL, WMT MQM TSV (byte-for-byte round trip), WMT24 ESA JSONL
and the per-span CSV, on lines of the real wmt22-de-en outputs with astral characters added."""

from __future__ import annotations

import csv
import io
import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlight.core.annotation.interchange import (
    CSV_COLUMNS,
    MAX_IMPORT_BYTES,
    TsvLayout,
    export_csv,
    sniff_import_format,
    write_export,
)
from matchlight.core.annotation.model import (
    ErrorSpan,
    Origin,
    SegmentScore,
    Severity,
    Side,
    Status,
)
from matchlight.core.annotation.typology import DEFAULT_TYPOLOGY
from matchlight.core.annotation.wmtesa import export_wmt24_esa, import_wmt24_esa
from matchlight.core.annotation.wmtmqm import export_mqm_tsv, import_mqm_tsv
from matchlight.core.annotation.xcomet import export_xcomet, import_xcomet
from matchlight.core.io.inputs import InputError
from tests.conftest import SHARED_DATA
from tests.kit import data_lines

EMOJI = "\U0001f600"
RARE_CJK = "\U00020000"
ALL = tuple(Status)
WMT = SHARED_DATA / "wmt22-de-en"
SYSTEMS = ("JDExploreAcademy", "Online-W", "PROMT")


def wmt_lines(name: str, n: int) -> list[str]:
    return data_lines(WMT / name)[:n]


def with_astral(line: str, k: int) -> str:
    """Put astral characters into some lines (before, inside and after words)."""
    if k % 3 == 0:
        return EMOJI + " " + line
    if k % 3 == 1:
        words = line.split(" ")
        words.insert(len(words) // 2, RARE_CJK + EMOJI)
        return " ".join(words)
    return line + " " + RARE_CJK


def corpus(n: int = 30) -> tuple[list[str], dict[str, list[str]]]:
    sources = wmt_lines("src.txt", n)
    systems = {
        name: [with_astral(x, k + i) for k, x in enumerate(wmt_lines(f"sys.{name}.txt", n))]
        for i, name in enumerate(SYSTEMS)
    }
    return sources, systems


def word_range(line: str, rng: random.Random) -> tuple[int, int]:
    starts = [0] + [i + 1 for i, ch in enumerate(line) if ch == " "]
    start = rng.choice(starts)
    end = line.find(" ", start)
    return start, len(line) if end < 0 else end


def marked(line: str, ranges: list[tuple[int, int]]) -> str:
    out, pos = [], 0
    for start, end in sorted(ranges):
        out += [line[pos:start], "<v>", line[start:end], "</v>"]
        pos = end
    return "".join([*out, line[pos:]])


def mqm_rows(n: int = 30, *, quote_some: bool = False, seed: int = 7) -> list[list[str]]:
    """Rows as WMT MQM files have them: sorted by doc, segment and system, ten columns."""
    rng = random.Random(seed)
    sources, systems = corpus(n)
    rows = []
    severities = ["Major", "Minor", "Neutral", "minor", "Critical"]
    categories = [
        "Accuracy/Mistranslation",
        "Fluency/Grammar",
        "Style/Awkward",
        "Terminology/Inappropriate for context",
        "Fluency/Punctuation",
    ]
    for seg in range(n):
        for k, name in enumerate(SYSTEMS):
            target = systems[name][seg]
            source = sources[seg]
            if quote_some and (seg + k) % 4 == 0:
                target = f'"{target}" he said'
                source = f'"{source}"'
            head = [name, f"doc{seg // 10}", str(seg % 10 + 1), str(seg + 1), f"rater{k + 1}"]
            pattern = (seg + k) % 7
            sev, cat = rng.choice(severities), rng.choice(categories)
            note = rng.choice(["", "", "sounds odd", "=not a formula"])
            if pattern == 0:
                rows.append([*head, source, target, "No-error", "No-error", ""])
            elif pattern in (1, 2):
                for _ in range(pattern):
                    r = word_range(target, rng)
                    rows.append([*head, source, marked(target, [r]), cat, sev, note])
            elif pattern == 3:  # source-side error, the target unmarked
                r = word_range(source, rng)
                rows.append([*head, marked(source, [r]), target, "Accuracy/Omission", "Major", ""])
            elif pattern == 4:  # an omission point in the target
                r = word_range(target, rng)
                rows.append(
                    [*head, source, marked(target, [(r[0], r[0])]), "Accuracy/Omission", sev, ""]
                )
            elif pattern == 5:  # whole-segment label without marks
                rows.append([*head, source, target, "Non-translation!", "Major", ""])
            else:  # two marks in one row
                first = word_range(target, rng)
                second = (first[1] + 1, min(len(target), first[1] + 4))
                ranges = [first, second] if second[0] < second[1] else [first]
                rows.append([*head, source, marked(target, ranges), cat, sev, note])
    return rows


HEADER = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]


def write_plain(rows: list[list[str]], header: list[str] | None, newline: str = "\n") -> str:
    lines = ([header] if header else []) + rows
    return "".join("\t".join(r) + newline for r in lines)


def write_quoted(rows: list[list[str]], header: list[str] | None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    if header:
        writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def span_key(s: ErrorSpan) -> tuple[object, ...]:
    return (
        s.system,
        s.segment,
        s.start,
        s.end,
        s.text,
        s.category,
        s.severity,
        s.annotator,
        s.note,
    )


def round_trip(path: Path, data: bytes, **kwargs: object) -> bytes:
    path.write_bytes(data)
    result = import_mqm_tsv(path, **kwargs)  # type: ignore[arg-type]
    lines = kwargs.get("lines")
    text = export_mqm_tsv(
        result.spans,
        result.scores,
        layout=result.layout,
        statuses=ALL,
        lines=lines,  # type: ignore[arg-type]
    )
    return text.encode("utf-8")


# -- WMT MQM TSV -------------------------------------------------------------------------------


def test_mqm_tsv_round_trip_is_byte_for_byte(tmp_path: Path) -> None:
    rows = mqm_rows()
    data = write_plain(rows, [*HEADER, "comment"]).encode("utf-8")
    assert round_trip(tmp_path / "mqm.tsv", data) == data


@pytest.mark.parametrize(
    "variant", ["quoted", "crlf", "bom", "no-final-newline", "no-header-9-columns"]
)
def test_mqm_tsv_round_trip_variants(tmp_path: Path, variant: str) -> None:
    rows = mqm_rows(quote_some=variant == "quoted", seed=11)
    if variant == "quoted":
        text = write_quoted(rows, [*HEADER, "comment"])
        assert '"""' in text  # the file really uses csv quoting
    elif variant == "crlf":
        text = write_plain(rows, [*HEADER, "comment"], newline="\r\n")
    elif variant == "bom":
        text = "\ufeff" + write_plain(rows, [*HEADER, "comment"])
    elif variant == "no-final-newline":
        text = write_plain(rows, [*HEADER, "comment"])[:-1]
    else:
        text = write_plain([r[:9] for r in rows], None)
    data = text.encode("utf-8")
    assert round_trip(tmp_path / "mqm.tsv", data) == data
    result = import_mqm_tsv(tmp_path / "mqm.tsv")
    layout = result.layout
    assert layout is not None
    assert layout.quoting == ("minimal" if variant == "quoted" else "none")
    assert layout.newline == ("\r\n" if variant == "crlf" else "\n")
    assert layout.bom is (variant == "bom")
    assert layout.final_newline is (variant != "no-final-newline")
    assert (layout.header is None) is (variant == "no-header-9-columns")
    sources, systems = corpus()
    for span in result.spans:  # the spans sit on the unquoted, untagged text
        info = span.extra["wmt_mqm"]
        target, source = info["target"], info["source"]
        assert "<v>" not in target and not target.startswith('"""')
        assert target.removeprefix('"').split('" he said')[0] == systems[span.system][span.segment]
        on = source if span.side is Side.SOURCE else target
        assert "<v>" not in on and on[span.start : span.end] == span.text
        assert source.strip('"') == sources[span.segment]
    assert {s.side for s in result.spans} == {Side.SOURCE, Side.TARGET}


def test_mqm_tsv_round_trip_onto_the_comparison_lines(tmp_path: Path) -> None:
    rows = mqm_rows(seed=3)
    _, systems = corpus()
    data = write_plain(rows, [*HEADER, "comment"]).encode("utf-8")
    assert round_trip(tmp_path / "mqm.tsv", data, lines=systems) == data
    result = import_mqm_tsv(tmp_path / "mqm.tsv", lines=systems)
    assert not result.warnings
    sources, _ = corpus()
    for span in result.spans:
        line = systems[span.system][span.segment]
        if span.side is Side.SOURCE:  # marked in the source only: a span on the source
            line = sources[span.segment]
        assert line[span.start : span.end] == span.text
        assert span.status is Status.UNDECIDED
        assert span.origin == Origin.imported("wmt-mqm-tsv")
        assert span.annotator == f"rater{SYSTEMS.index(span.system) + 1}"


def test_mqm_tsv_import_reads_marks_and_rows(tmp_path: Path) -> None:
    rows = mqm_rows(seed=5)
    path = tmp_path / "mqm.tsv"
    path.write_text(write_plain(rows, [*HEADER, "comment"]), encoding="utf-8")
    result = import_mqm_tsv(path)
    error_rows = [r for r in rows if r[8] != "No-error"]
    assert len(result.spans) == len(error_rows)
    assert len(result.scores) == len(rows) - len(error_rows)
    assert all(s.score is None for s in result.scores)
    by_row = sorted(result.spans, key=lambda s: s.extra["wmt_mqm"]["row"])
    for span, row in zip(by_row, error_rows, strict=True):
        source, target = row[5], row[6]
        assert span.system == row[0] and span.segment == int(row[3]) - 1
        assert span.severity is Severity.parse(row[8]) and span.note == row[9]
        # The label is the typology's path (Non-translation! is Non-translation), the file's
        # own spelling kept for the export.
        assert span.category == DEFAULT_TYPOLOGY.resolve(row[7])
        if span.category != row[7]:
            assert span.extra["wmt_mqm"]["category"] == row[7]
        if "<v>" in target:
            inner = target[target.index("<v>") + 3 : target.index("</v>")]
            assert span.side is Side.TARGET and span.text == inner
            assert span.prefix.endswith(target[: target.index("<v>")][-20:])
        elif "<v>" in source:  # marked in the source: the span is on the source
            inner = source[source.index("<v>") + 3 : source.index("</v>")]
            assert span.side is Side.SOURCE and span.text == inner
            assert span.prefix.endswith(source[: source.index("<v>")][-20:])
        else:
            assert span.side is Side.TARGET and (span.start, span.end) == (0, len(target))
    assert any(s.category == "Non-translation" for s in result.spans)
    assert any(s.side is Side.SOURCE for s in result.spans)


def test_mqm_tsv_export_places_new_spans_after_their_segment(tmp_path: Path) -> None:
    text = (
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
        "sysA\td1\t1\t1\tr1\tEin Test.\tA <v>tset</v>.\tFluency/Spelling\tMinor\n"
        "sysA\td1\t2\t2\tr1\tZwei.\tTwo.\tNo-error\tNo-error\n"
        "sysA\td1\t3\t3\tr1\tDrei 😀.\tThree 😀.\tNo-error\tNo-error\n"
    )
    path = tmp_path / "small.tsv"
    path.write_text(text, encoding="utf-8")
    result = import_mqm_tsv(path)
    lines = {"sysA": ["A tset.", "Two.", "Three 😀."]}
    confirmed = [s.edited(status=Status.CONFIRMED) for s in result.spans]
    new = ErrorSpan.create(
        system="sysA",
        segment=2,
        line=lines["sysA"][2],
        start=6,
        end=7,
        category="Style",
        severity="major",
        annotator="r1",
    )
    out = export_mqm_tsv([*confirmed, new], result.scores, lines=lines, layout=result.layout)
    assert out == (
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
        "sysA\td1\t1\t1\tr1\tEin Test.\tA <v>tset</v>.\tFluency/Spelling\tMinor\n"
        "sysA\td1\t2\t2\tr1\tZwei.\tTwo.\tNo-error\tNo-error\n"
        # segment 3 now has an error: its No-error row gives way to the new span's row
        "sysA\td1\t3\t3\tr1\tDrei 😀.\tThree <v>😀</v>.\tStyle\tMajor\n"
    )
    # Only confirmed spans by default: the undecided import writes the No-error rows only.
    default = export_mqm_tsv(result.spans, result.scores, lines=lines, layout=result.layout)
    assert default.count("\n") == 3 and "tset" not in default and "<v>" not in default


def test_mqm_tsv_export_of_native_spans_fills_the_columns() -> None:
    lines = {"B": ["Hallo Welt 😀 heute.", "Zweite Zeile."]}
    span = ErrorSpan.create(
        system="B",
        segment=1,
        line=lines["B"][1],
        start=0,
        end=6,
        category="Other",
        severity="minor",
        annotator="me",
        note="odd",
    )
    review = SegmentScore("B", 0, "me", None)
    out = export_mqm_tsv(
        [span], [review], lines=lines, sources=["src one", "src two"], docs=["d", "d"]
    )
    assert out == (
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment\n"
        "B\td\t1\t1\tme\tsrc one\tHallo Welt 😀 heute.\tNo-error\tNo-error\t\n"
        "B\td\t2\t2\tme\tsrc two\t<v>Zweite</v> Zeile.\tOther\tMinor\todd\n"
    )
    with pytest.raises(ValueError, match="tab or line break"):
        tab_line = {"B": ["a\tb", "x"]}
        export_mqm_tsv([], [review], lines=tab_line, layout=TsvLayout(quoting="none"))


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("a <v>b <v>c</v></v>", "nested <v> in the target"),
        ("a b</v>", "</v> without <v> in the target"),
    ],
)
def test_mqm_tsv_bad_marks_name_file_and_line(tmp_path: Path, target: str, problem: str) -> None:
    path = tmp_path / "bad.tsv"
    good = "s\td\t1\t1\tr\tsrc\tok\tNo-error\tNo-error\n"
    path.write_text(
        "\t".join(HEADER) + "\n" + good + f"s\td\t1\t2\tr\tsrc\t{target}\tStyle\tMinor\n"
    )
    with pytest.raises(InputError) as info:
        import_mqm_tsv(path)
    assert str(info.value) == f"{path}, line 3: {problem}"


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ("s\td\t1\tone\tr\tsrc\tok\tStyle\tMinor", "seg_id 'one' is not a segment number"),
        ("s\td\t1\t1\tr\tsrc\tok\tStyle", "expected 9 tab-separated columns, found 8"),
        ("s\td\t1\t1\tr\tsrc\tok\tStyle\tHOTW-test", "unknown severity 'HOTW-test'"),
        ("s\td\t1\t0\tr\tsrc\tok\tStyle\tMinor", "seg_id 0 is below 1"),
    ],
)
def test_mqm_tsv_bad_rows(tmp_path: Path, row: str, problem: str) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text("\t".join(HEADER) + "\n" + row + "\n")
    with pytest.raises(InputError, match="line 2") as info:
        import_mqm_tsv(path)
    assert problem in str(info.value) and str(path) in str(info.value)


def test_mqm_tsv_unknown_system_and_segment_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "x.tsv"
    path.write_text("\t".join(HEADER) + "\nS\td\t1\t3\tr\tsrc\t<v>a</v>\tStyle\tMinor\n")
    with pytest.raises(InputError, match="system 'S' is not in this comparison"):
        import_mqm_tsv(path, lines={"T": ["a"]})
    with pytest.raises(InputError, match="segment 3 is out of range"):
        import_mqm_tsv(path, lines={"T": ["a"]}, system_names={"S": "T"})


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.tsv"
    path.write_bytes(b"a\tb\nc\xe9\td\n")
    with pytest.raises(InputError, match=r"line 2: not UTF-8: byte 0xe9"):
        import_mqm_tsv(path)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mqm_tsv_export_import_export_is_stable(tmp_path: Path, data: st.DataObject) -> None:
    """Random spans on real lines -> TSV -> import -> the same spans -> the same TSV."""
    sources, systems = corpus(20)
    spans = []
    for _ in range(data.draw(st.integers(1, 12))):
        name = data.draw(st.sampled_from(SYSTEMS))
        seg = data.draw(st.integers(0, 19))
        line = systems[name][seg]
        start = data.draw(st.integers(0, len(line)))
        end = data.draw(st.integers(start, min(len(line), start + 30)))
        spans.append(
            ErrorSpan.create(
                system=name,
                segment=seg,
                line=line,
                start=start,
                end=end,
                category=data.draw(st.sampled_from(["Accuracy/Omission", "Style", "Other"])),
                severity=data.draw(st.sampled_from(list(Severity))),
                annotator=data.draw(st.sampled_from(["ann", "bob"])),
                note=data.draw(st.sampled_from(["", "a note", "@x"])),
            )
        )
    first = export_mqm_tsv(spans, lines=systems, sources=sources)
    path = tmp_path / "rt.tsv"
    path.write_text(first, encoding="utf-8")
    result = import_mqm_tsv(path, lines=systems)
    assert sorted(map(span_key, result.spans)) == sorted(map(span_key, spans))
    again = export_mqm_tsv(result.spans, lines=systems, statuses=ALL, layout=result.layout)
    assert again == first


# -- xCOMET ------------------------------------------------------------------------------------

COMET_README = [
    {"src": "10 到 15 分钟可以送到吗", "mt": "Can I receive my food in 10 to 15 minutes?"},
    {
        "src": "Pode ser entregue dentro de 10 a 15 minutos?",
        "mt": "Can you send it for 10 to 15 minutes?",
    },
]
COMET_SPANS = [
    [
        {
            "confidence": 0.4160953164100647,
            "end": 21,
            "severity": "minor",
            "start": 13,
            "text": "my food",
        }
    ],
    [
        {
            "confidence": 0.40004390478134155,
            "end": 19,
            "severity": "minor",
            "start": 3,
            "text": "you send it for",
        }
    ],
]


@pytest.mark.parametrize("shape", ["whole-output", "list-per-line", "object-per-line"])
def test_xcomet_readme_output_in_every_shape(tmp_path: Path, shape: str) -> None:
    """COMET's README example: offsets include the sub-word's leading space; we trim it."""
    lines = {"mt": [x["mt"] for x in COMET_README]}
    path = tmp_path / "xcomet.jsonl"
    if shape == "whole-output":
        path.write_text(json.dumps(COMET_SPANS) + "\n")
    elif shape == "list-per-line":
        path.write_text("".join(json.dumps(s) + "\n" for s in COMET_SPANS))
    else:
        records = [
            {"system": "mt", "segment": i + 1, "error_spans": s} for i, s in enumerate(COMET_SPANS)
        ]
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = import_xcomet(path, lines=lines, system=None if shape == "object-per-line" else "mt")
    assert [(s.segment, s.start, s.end, s.text) for s in result.spans] == [
        (0, 14, 21, "my food"),
        (1, 4, 19, "you send it for"),
    ]
    assert [s.extra["confidence"] for s in result.spans] == [
        0.4160953164100647,
        0.40004390478134155,
    ]
    assert all(s.status is Status.UNDECIDED and s.annotator == "xCOMET" for s in result.spans)
    assert not result.warnings


def test_xcomet_round_trip_with_our_keys_on_real_lines(tmp_path: Path) -> None:
    _, systems = corpus(40)
    rng = random.Random(1)
    spans = []
    for _ in range(40):
        name = rng.choice(SYSTEMS)
        seg = rng.randrange(40)
        line = systems[name][seg]
        start, end = word_range(line, rng)
        spans.append(
            ErrorSpan.create(
                system=name,
                segment=seg,
                line=line,
                start=start,
                end=end,
                category=rng.choice(["", "Accuracy/Mistranslation"]),
                severity=rng.choice(["minor", "major", "critical"]),
                annotator="me",
                note=rng.choice(["", "why"]),
            )
        )
    path = tmp_path / "spans.jsonl"
    text = export_xcomet(spans)
    path.write_text(text, encoding="utf-8")
    first = json.loads(text.splitlines()[0])
    assert list(first) == [
        "text",
        "start",
        "end",
        "severity",
        "confidence",
        "system",
        "segment",
        "category",
        "note",
        "status",
    ]
    assert first["confidence"] is None and first["segment"] >= 1 and first["status"] == "confirmed"
    result = import_xcomet(path, lines=systems, annotator="me")
    assert sorted(map(span_key, result.spans)) == sorted(map(span_key, spans))
    # Imported spans are pre-annotations to rule on again: the same records, now undecided.
    again = export_xcomet(result.spans, statuses=ALL)
    assert again == text.replace('"status": "confirmed"', '"status": "undecided"')


def test_xcomet_offsets_are_code_points_and_bad_offsets_fall_back_to_text(tmp_path: Path) -> None:
    line = f"{EMOJI}{RARE_CJK} Das Haus ist rot."
    lines = {"A": [line]}
    start = line.index("Haus")
    path = tmp_path / "x.jsonl"
    path.write_text(
        json.dumps(
            {
                "system": "A",
                "segment": 1,
                "start": start,
                "end": start + 4,
                "text": "Haus",
                "severity": "major",
            }
        )
        + "\n"
        + json.dumps(
            {
                "system": "A",
                "segment": 1,
                "start": 99,
                "end": 103,
                "text": "rot",
                "severity": "minor",
            }
        )
        + "\n"
    )
    spans = import_xcomet(path, lines=lines).spans
    assert [(s.text, s.start) for s in spans] == [("Haus", start), ("rot", line.index("rot"))]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json\n", "line 1: invalid JSON"),
        ('{"segment": 1, "start": 0, "end": 1, "severity": "minor"}\n', "line 1: no 'system'"),
        (
            '{"system": "A", "start": 0, "end": 1, "severity": "minor"}\n',
            "line 1: a span object needs 'segment'",
        ),
        (
            '\n{"system": "A", "segment": 9, "start": 0, "end": 1, "severity": "minor"}\n',
            "line 2: segment 9 is out of range",
        ),
        (
            '{"system": "A", "segment": 1, "start": 50, "end": 60, "text": "zzz", '
            '"severity": "minor"}\n',
            "is not in the line",
        ),
        (
            '{"system": "A", "segment": 1, "start": 0, "end": 1, "severity": "fatal"}\n',
            "unknown severity 'fatal'",
        ),
        (
            '{"system": "B", "segment": 1, "start": 0, "end": 1, "severity": "minor"}\n',
            "system 'B' is not in this comparison",
        ),
    ],
)
def test_xcomet_errors_name_file_and_line(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        import_xcomet(path, lines={"A": ["abc"]})
    assert str(info.value).startswith(str(path)) and problem in str(info.value)


# -- WMT24 ESA ---------------------------------------------------------------------------------


def appraise_indices(trimmed: str, start: int, end: int) -> tuple[int, int]:
    """What Appraise stores for code points [start, end) of the trimmed text: inclusive UTF-16."""

    def units(i: int) -> int:
        return len(trimmed[:i].encode("utf-16-le")) // 2

    return units(start), units(end) - 1


ESA_KEYS = [
    "langs",
    "line_id",
    "src",
    "tgt",
    "doc_id",
    "domain",
    "esa_spans",
    "esa_score",
    "times",
    "system",
    "annotator",
    "speech_info",
]


def test_wmt24_esa_import_export(tmp_path: Path) -> None:
    sources, systems = corpus(12)
    records = []
    expected = []
    rng = random.Random(4)
    for seg in range(12):
        tgt = ("  " if seg % 4 == 0 else "") + systems["PROMT"][seg]
        trimmed = tgt.strip()
        lead = len(tgt) - len(tgt.lstrip())
        spans = []
        for _ in range(seg % 3):
            s, e = word_range(trimmed, rng)
            si, ei = appraise_indices(trimmed, s, e)
            spans.append(
                {
                    "start_i": si,
                    "end_i": ei,
                    "severity": rng.choice(["minor", "major"]),
                    "error_type": None,
                }
            )
            expected.append((seg, lead + s, lead + e, trimmed[s:e]))
        if seg == 5:
            spans.append(
                {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": None}
            )
            expected.append((seg, len(tgt), len(tgt), ""))
        records.append(
            {
                "langs": "de-en",
                "line_id": seg,
                "src": sources[seg],
                "tgt": tgt,
                "doc_id": f"test-de-news_{seg // 4}",
                "domain": "news",
                "esa_spans": spans,
                "esa_score": str(50 + seg),  # strings in the WMT24 dump
                "times": ["1724108919.048", "1724108920.5"],
                "system": "PROMT",
                "annotator": "deuen7901",
                "speech_info": None,
            }
        )
    path = tmp_path / "wmt24_esa.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records))
    result = import_wmt24_esa(path)
    assert sorted((s.segment, s.start, s.end, s.text) for s in result.spans) == sorted(expected)
    assert [s.score for s in result.scores] == [50.0 + k for k in range(12)]
    assert all(s.category == "" and s.status is Status.UNDECIDED for s in result.spans)
    lines = {"PROMT": [r["tgt"] for r in records]}
    out = export_wmt24_esa(result.spans, result.scores, lines=lines, statuses=ALL)
    back = [json.loads(x) for x in out.splitlines()]
    assert [list(r) for r in back] == [ESA_KEYS] * 12
    for mine, theirs in zip(back, records, strict=True):
        assert mine["esa_score"] == int(theirs["esa_score"])
        mine["esa_score"] = theirs["esa_score"]
        mine["esa_spans"].sort(key=lambda s: (str(s["start_i"]), str(s["end_i"])))
        theirs["esa_spans"].sort(key=lambda s: (str(s["start_i"]), str(s["end_i"])))
        assert mine == theirs


def test_wmt24_esa_astral_and_error_types(tmp_path: Path) -> None:
    tgt = f"{EMOJI} Ein {RARE_CJK}Test mit Fehler."
    # Appraise: "Test" starts after 😀(2) space(1) Ein(3) space(1) 𠀀(2) = unit 9, ends at unit 12.
    record = {
        "line_id": 0,
        "tgt": tgt,
        "system": "S",
        "annotator": "a",
        "esa_score": 61,
        "esa_spans": [
            {
                "start_i": 9,
                "end_i": 12,
                "severity": "major",
                "error_type": ["Accuracy", "Mistranslation"],
            }
        ],
    }
    path = tmp_path / "esa.jsonl"
    path.write_text(json.dumps(record) + "\n")
    (span,) = import_wmt24_esa(path, lines={"S": [tgt]}).spans
    assert span.text == "Test" and span.category == "Accuracy/Mistranslation"
    out = json.loads(export_wmt24_esa([span], lines={"S": [tgt]}, statuses=ALL))
    assert out["esa_spans"] == record["esa_spans"] and out["esa_score"] is None


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"line_id": 0, "tgt": "ab", "annotator": "a"}, "missing key 'system'"),
        (
            {"system": "S", "line_id": -1, "tgt": "ab", "annotator": "a"},
            "'line_id' must be an integer >= 0",
        ),
        (
            {
                "system": "S",
                "line_id": 0,
                "tgt": "ab",
                "annotator": "a",
                "esa_spans": [{"start_i": 1, "end_i": 2, "severity": "minor"}],
            },
            "outside the 2-unit target",
        ),
        (
            {
                "system": "S",
                "line_id": 0,
                "tgt": "😀b",
                "annotator": "a",
                "esa_spans": [{"start_i": 1, "end_i": 2, "severity": "minor"}],
            },
            "surrogate pair",
        ),
        (
            {"system": "S", "line_id": 0, "tgt": "ab", "annotator": "a", "esa_score": "high"},
            "esa_score 'high' is not a number",
        ),
        (
            {"system": "S", "line_id": 0, "tgt": "ab", "annotator": "a", "esa_score": 101},
            "not between 0 and 100",
        ),
    ],
)
def test_wmt24_esa_errors(tmp_path: Path, record: dict[str, object], problem: str) -> None:
    path = tmp_path / "esa.jsonl"
    path.write_text("\n" + json.dumps(record) + "\n")
    with pytest.raises(InputError) as info:
        import_wmt24_esa(path)
    assert str(info.value).startswith(f"{path}, line 2: ") and problem in str(info.value)


# -- CSV and writing ---------------------------------------------------------------------------


def test_csv_cells_are_spreadsheet_safe_and_numbers_stay_numbers() -> None:
    line = "=1+2 costs -5 @home"
    span = ErrorSpan.create(
        system="+sys",
        segment=2,
        line=line,
        start=0,
        end=4,
        category="Fluency/Punctuation",
        severity="minor",
        annotator="-anna",
        note="@cmd",
    )
    rejected = span.edited(status=Status.REJECTED)
    text = export_csv([span])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(CSV_COLUMNS)
    row = dict(zip(CSV_COLUMNS, rows[1], strict=True))
    assert row["system"] == "'+sys" and row["text"] == "'=1+2" and row["note"] == "'@cmd"
    assert row["annotator"] == "'-anna" and row["category"] == "Fluency/Punctuation"
    assert (row["segment"], row["start"], row["end"], row["mqm_weight"]) == ("3", "0", "4", "0.1")
    assert ",3,0,4," in text.splitlines()[1]  # unquoted numbers
    assert (
        len(rows) == 2
        and len(list(csv.reader(io.StringIO(export_csv([rejected], statuses=ALL))))) == 2
    )


def test_csv_rows_survive_a_lone_carriage_return_in_a_cell() -> None:
    """A note with a lone \r (pasted from an old Mac file) used to be written unquoted, which
    split its row in two for every reader."""
    spans = [
        ErrorSpan.create(
            system="A",
            segment=k,
            line="abc",
            start=0,
            end=1,
            category="Style",
            severity="minor",
            annotator="r",
            note=note,
        )
        for k, note in enumerate(["one\rtwo", "plain", "three\r\nfour"])
    ]
    text = export_csv(spans)
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    notes = [dict(zip(CSV_COLUMNS, row, strict=True))["note"] for row in rows[1:]]
    assert notes == ["one\rtwo", "plain", "three\r\nfour"]
    assert len(list(csv.reader(io.StringIO(text)))) == 4  # universal newlines: 4 rows too


def test_write_export_is_atomic_and_never_replaces_an_input(tmp_path: Path) -> None:
    source = tmp_path / "hyp.txt"
    source.write_text("keep me\n")
    with pytest.raises(OSError, match="refusing to overwrite an input"):
        write_export(source, "x", protected=[source])
    assert source.read_text() == "keep me\n"
    out = tmp_path / "out.jsonl"
    write_export(out, "é\n", protected=[source])
    assert out.read_bytes() == "é\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hyp.txt", "out.jsonl"]


# -- hostile files -----------------------------------------------------------------------------

_IMPORTS = {
    "xcomet-jsonl": lambda path: import_xcomet(path, lines={"A": ["abc"]}, system="A"),
    "wmt-mqm-tsv": import_mqm_tsv,
    "wmt24-esa-jsonl": import_wmt24_esa,
}


@pytest.mark.parametrize("fmt", _IMPORTS)
def test_imports_refuse_a_named_pipe_and_a_device_without_blocking(
    tmp_path: Path, finishes: Callable[..., object], fmt: str
) -> None:
    fifo = tmp_path / "spans.jsonl"
    os.mkfifo(fifo)
    outcome = finishes(lambda: _IMPORTS[fmt](fifo), fifo)
    assert isinstance(outcome, InputError), outcome
    assert str(outcome) == f"{fifo}: is a named pipe (FIFO), not a regular file"
    outcome = finishes(lambda: _IMPORTS[fmt]("/dev/zero"))
    assert isinstance(outcome, InputError), outcome
    assert "/dev/zero: is a character device" in str(outcome)


def test_an_annotation_file_over_its_cap_is_refused_from_its_size(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as handle:
        handle.truncate(MAX_IMPORT_BYTES + 1)  # sparse
    for fmt in _IMPORTS:
        with pytest.raises(InputError) as info:
            _IMPORTS[fmt](path)
        assert str(info.value) == (
            f"{path}: is 512.0 MiB (536,870,913 bytes), more than the 512.0 MiB (536,870,912 "
            "bytes) an annotation file may have; split it, or check that this is the file you "
            "meant"
        )


def test_a_lone_surrogate_in_an_xcomet_note_becomes_a_replacement_character(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spans.jsonl"
    record = '{"system": "A", "segment": 1, "start": 0, "end": 1, "severity": "minor", '
    path.write_text(record + '"note": "odd \\ud800 note"}\n' + record + '"note": "fine"}\n')
    result = import_xcomet(path, lines={"A": ["abc"]})
    assert [s.note for s in result.spans] == ["odd \ufffd note", "fine"]
    assert all(s.note.encode("utf-8") for s in result.spans)  # storable as UTF-8
    assert result.warnings == (
        f"{path}: line 1 held a lone surrogate (a \\ud800-\\udfff escape that is not part of a "
        "pair, so not a character); replaced with U+FFFD",
    )


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[" * 100_000 + "]" * 100_000 + "\n", "line 1: nested more than 64 levels deep"),
        (
            '{"system": "A", "segment": ' + "1" * 5000 + ', "start": 0, "end": 1}\n',
            "line 1: a number of 5,000 characters",
        ),
        (
            '{"system": "A", "segment": ' + "1" * 40 + ', "start": 0, "end": 1}\n',
            "line 1: 'segment' 11111111111111111111... is too large",
        ),
    ],
)
def test_hostile_json_in_an_xcomet_file_names_file_and_line(
    tmp_path: Path, content: str, problem: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        import_xcomet(path, lines={"A": ["abc"]})
    assert str(info.value).startswith(f"{path}, {problem}")
    assert len(str(info.value)) < 300


def test_hostile_numbers_in_esa_and_mqm_files(tmp_path: Path) -> None:
    esa = tmp_path / "esa.jsonl"
    esa.write_text('{"system": "A", "line_id": ' + "9" * 30 + ', "tgt": "abc", "annotator": "r"}\n')
    with pytest.raises(InputError) as info:
        import_wmt24_esa(esa)
    assert str(info.value) == f"{esa}, line 1: 'line_id' 99999999999999999999... is too large"
    mqm = tmp_path / "mqm.tsv"
    mqm.write_text("\t".join(HEADER) + "\ns\td\t1\t" + "1" * 5000 + "\tr\tsrc\tok\tStyle\tMinor\n")
    with pytest.raises(InputError) as info:
        import_mqm_tsv(mqm)
    assert str(info.value) == (
        f"{mqm}, line 2: seg_id '11111111111111111111...' is not a segment number"
    )


def test_the_import_format_is_told_from_the_name_and_first_record_never_from_a_pipe(
    tmp_path: Path, finishes
) -> None:
    """The import dialog guessed the format by opening the file in the window's thread: a FIFO
    named *.jsonl froze it."""
    esa = tmp_path / "esa.jsonl"
    esa.write_text('\n{"line_id": 0, "annotator": "r1", "esa_spans": []}\n', encoding="utf-8")
    comet = tmp_path / "comet.jsonl"
    comet.write_text('[{"text": "x", "start": 0, "end": 1, "severity": "minor"}]\n')
    assert sniff_import_format(esa) == "wmt24-esa-jsonl"
    assert sniff_import_format(comet) == "xcomet-jsonl"
    assert sniff_import_format(tmp_path / "any.tsv") == "wmt-mqm-tsv"
    assert sniff_import_format(tmp_path / "missing.jsonl") is None
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert finishes(lambda: sniff_import_format(fifo), fifo, seconds=5) is None
