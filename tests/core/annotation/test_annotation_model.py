"""The annotation model: spans, typology, UTF-16 offsets, re-anchoring, filters and undo/redo."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.annotation.anchoring import AnchorState, reanchor, reanchor_all
from matchlight.core.annotation.filters import (
    annotated_mask,
    by_annotator,
    by_category,
    by_severity,
    by_status,
    for_segment,
)
from matchlight.core.annotation.history import (
    AddSpan,
    AnnotationSet,
    Batch,
    DeleteSpan,
    History,
    SetSegmentScore,
    UpdateSpan,
    replay,
)
from matchlight.core.annotation.model import (
    PREFIX_CHARS,
    AnnotationError,
    ErrorSpan,
    Origin,
    SegmentScore,
    Severity,
    Side,
    Status,
)
from matchlight.core.annotation.offsets import (
    Utf16Index,
    codepoint_to_utf16,
    utf16_length,
    utf16_to_codepoint,
)
from matchlight.core.annotation.typology import (
    DEFAULT_TYPOLOGY,
    AnnotationMode,
    Typology,
    label_key,
    normalize_label,
    validate_span,
)
from tests.conftest import DATASETS, SHARED_DATA

EMOJI = "\U0001f600"  # 😀, two UTF-16 units
RARE_CJK = "\U00020000"  # 𠀀 (CJK Extension B), two UTF-16 units


def wmt_lines(system: str = "Online-W", n: int = 60) -> list[str]:
    path = SHARED_DATA / "wmt22-de-en" / f"sys.{system}.txt"
    if not path.exists():
        pytest.skip("shared/data/wmt22-de-en is not present")
    return path.read_text(encoding="utf-8").split("\n")[:n]


def span_on(line: str, start: int, end: int, **kw: object) -> ErrorSpan:
    fields: dict[str, object] = {
        "system": "A",
        "segment": 0,
        "category": "Accuracy/Mistranslation",
        "severity": "major",
        "annotator": "ann",
    }
    fields.update(kw)
    return ErrorSpan.create(line=line, start=start, end=end, **fields)  # type: ignore[arg-type]


# -- spans -------------------------------------------------------------------------------------


def test_create_reads_text_and_prefix_from_the_line() -> None:
    line = "The goods cost less than 20 Euros and more than " + EMOJI + " ten."
    start = line.index("20 Euros")
    span = span_on(line, start, start + len("20 Euros"))
    assert span.text == "20 Euros"
    assert span.prefix == line[start - PREFIX_CHARS : start]
    assert len(span.prefix) == PREFIX_CHARS
    assert len(span.id) == 32 and int(span.id, 16) >= 0
    assert span.created == span.modified and span.created.tzinfo is not None
    assert span.status is Status.CONFIRMED and span.origin == Origin()
    assert not span.is_omission


def test_omission_is_a_point_with_empty_text() -> None:
    span = span_on("ab cd", 2, 2, category="Accuracy/Omission")
    assert span.is_omission and span.text == "" and span.prefix == "ab"


@pytest.mark.parametrize(("start", "end"), [(-1, 2), (3, 2), (0, 99)])
def test_bad_offsets_are_refused_with_a_message(start: int, end: int) -> None:
    with pytest.raises(AnnotationError, match="span"):
        span_on("short line", start, end)


def test_text_must_match_the_offsets() -> None:
    span = span_on("abcdef", 1, 3)
    with pytest.raises(AnnotationError, match="characters"):
        replace(span, text="b")


def test_edited_keeps_identity_and_refreshes_modified() -> None:
    span = span_on("abcdef", 1, 3)
    later = span.edited(severity="minor", note="why")
    assert later.id == span.id and later.created == span.created
    assert later.modified >= span.modified
    assert later.severity is Severity.MINOR and later.note == "why"
    with pytest.raises(AnnotationError, match="moved"):
        span.edited(start=2)
    moved = span.moved("xxabcdef", 3, 5)
    assert moved.text == "bc" and moved.prefix == "xxa"


def test_severity_parse_accepts_wmt_spelling_and_rejects_others() -> None:
    assert Severity.parse("Major") is Severity.MAJOR
    assert Severity.parse(" minor ") is Severity.MINOR
    with pytest.raises(AnnotationError, match="unknown severity 'HOTW-test'"):
        Severity.parse("HOTW-test")


def test_segment_score_range() -> None:
    assert SegmentScore("A", 0, "me", 67).score == 67.0
    assert SegmentScore("A", 0, "me", None).score is None
    for bad in (-1, 100.5, float("nan")):
        with pytest.raises(AnnotationError, match="between 0 and 100"):
            SegmentScore("A", 0, "me", bad)


# -- typology ----------------------------------------------------------------------------------


def test_default_typology_is_the_wmt_top_level() -> None:
    top = [c.name for c in DEFAULT_TYPOLOGY.categories]
    assert top == [
        "Accuracy",
        "Fluency",
        "Terminology",
        "Style",
        "Locale convention",
        "Non-translation",
        "Source issue",
        "Other",
    ]
    paths = DEFAULT_TYPOLOGY.paths()
    for sub in ("Mistranslation", "Omission", "Addition", "Untranslated"):
        assert f"Accuracy/{sub}" in paths
    for sub in (
        "Grammar",
        "Spelling",
        "Punctuation",
        "Register",
        "Inconsistency",
        "Character encoding",
    ):
        assert f"Fluency/{sub}" in paths
    # Freitag et al. (2021)'s sub-categories, as Google's WMT files label them.
    assert "Style/Awkward" in paths
    assert "Terminology/Inappropriate for context" in paths
    assert "Terminology/Inconsistent use of terminology" in paths
    for sub in ("Address", "Currency", "Date", "Name", "Telephone", "Time"):
        assert f"Locale convention/{sub} format" in paths
    assert "accuracy/omission" in DEFAULT_TYPOLOGY
    assert DEFAULT_TYPOLOGY.canonical("accuracy/omission") == "Accuracy/Omission"
    assert "Accuracy/Nonsense" not in DEFAULT_TYPOLOGY


def test_other_needs_a_note() -> None:
    span = span_on("abc", 0, 1, category="Other")
    with pytest.raises(AnnotationError, match="a note is required for category 'Other'"):
        validate_span(span, DEFAULT_TYPOLOGY, AnnotationMode.MQM)
    validate_span(span.edited(note="calque"), DEFAULT_TYPOLOGY, AnnotationMode.MQM)
    with pytest.raises(AnnotationError, match="a note is required"):
        validate_span(span.edited(note="   "), DEFAULT_TYPOLOGY, AnnotationMode.MQM)


def test_mode_decides_whether_a_category_is_needed() -> None:
    span = span_on("abc", 0, 1, category="")
    validate_span(span, DEFAULT_TYPOLOGY, AnnotationMode.ESA)
    with pytest.raises(AnnotationError, match="needs a category"):
        validate_span(span, DEFAULT_TYPOLOGY, AnnotationMode.MQM)
    with pytest.raises(AnnotationError, match="unknown error category"):
        validate_span(span.edited(category="Nonsense"), DEFAULT_TYPOLOGY, AnnotationMode.MQM)


def test_typology_editing_returns_new_typologies_and_round_trips_json() -> None:
    t = DEFAULT_TYPOLOGY.with_category("Style/Unidiomatic").with_category("Terminology/Wrong term")
    assert "Style/Unidiomatic" in t and "Style/Unidiomatic" not in DEFAULT_TYPOLOGY
    t = t.renamed("Locale convention", "Locale").without_category("Source issue")
    assert "Locale" in t and "Locale convention" not in t and "Source issue" not in t
    t = t.with_note_required("Style/Unidiomatic")
    assert t.note_required("style/unidiomatic")
    assert Typology.from_json(t.to_json()) == t
    with pytest.raises(AnnotationError, match="already exists"):
        t.with_category("Style/Unidiomatic")
    with pytest.raises(AnnotationError, match="cannot contain '/'"):
        t.renamed("Style", "A/B")
    with pytest.raises(AnnotationError, match="unknown error category"):
        t.with_category("Nope/Child")


@pytest.mark.parametrize(
    ("label", "path"),
    [
        ("Non-translation!", "Non-translation"),
        ("non_translation", "Non-translation"),
        ("Style/Awkward", "Style/Awkward"),
        ("style/awkward", "Style/Awkward"),
        ("Terminology/Inappropriate for context", "Terminology/Inappropriate for context"),
        ("Terminology/Inconsistent use", "Terminology/Inconsistent use of terminology"),
        ("Locale convention/Name format", "Locale convention/Name format"),
        ("Locale_convention/Name_format", "Locale convention/Name format"),
        ("Source error", "Source issue"),
        ("Accuracy/Untranslated text", "Accuracy/Untranslated"),
        ("Fluency/Character encoding", "Fluency/Character encoding"),
        (" Fluency / Punctuation ", "Fluency/Punctuation"),
        ("Other", "Other"),
        ("Accuracy/Creative Reinterpretation", None),
        ("No-error", None),
        ("", None),
    ],
)
def test_google_labels_resolve_onto_the_typology(label: str, path: str | None) -> None:
    """Finding 1: Google's WMT MQM labels map onto the typology, sub-categories kept, and a
    span in the mapped category may be confirmed."""
    assert DEFAULT_TYPOLOGY.resolve(label) == path
    if path is not None:
        span = span_on("abc", 0, 1, category=path, note="calque")
        validate_span(span, DEFAULT_TYPOLOGY, AnnotationMode.MQM)
        assert label_key(label) == label_key(path)


def test_labels_compare_without_case_underscores_or_bang() -> None:
    assert normalize_label("  Non_translation! ") == "non translation"
    assert normalize_label("Locale  convention /Name format") == "locale convention/name format"
    assert label_key("Source error") == label_key("source issue") == "source issue"
    assert label_key("Accuracy/Untranslated text") == "accuracy/untranslated"
    grown = DEFAULT_TYPOLOGY.with_paths(["Accuracy/Creative Reinterpretation", "Design/Markup"])
    assert grown.resolve("accuracy/creative reinterpretation") == (
        "Accuracy/Creative Reinterpretation"
    )
    assert "Design" in grown and "Design/Markup" in grown
    assert DEFAULT_TYPOLOGY.with_paths(["Style/Awkward"]) == DEFAULT_TYPOLOGY


# -- UTF-16 offsets ----------------------------------------------------------------------------


def test_utf16_offsets_with_astral_characters() -> None:
    text = f"a{EMOJI}b{RARE_CJK}{RARE_CJK}c"
    index = Utf16Index(text)
    assert utf16_length(text) == len(text.encode("utf-16-le")) // 2 == 9
    expected = [0, 1, 3, 4, 6, 8, 9]
    assert [index.to_utf16(i) for i in range(len(text) + 1)] == expected
    assert [index.to_codepoint(u) for u in expected] == list(range(len(text) + 1))
    for inside in (2, 5, 7):
        with pytest.raises(ValueError, match="surrogate pair"):
            index.to_codepoint(inside)
    with pytest.raises(ValueError, match="outside"):
        index.to_codepoint(10)
    assert codepoint_to_utf16(text, 4) == 6 and utf16_to_codepoint(text, 6) == 4


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", "é", "中", EMOJI, RARE_CJK, " "]), max_size=40))
def test_utf16_offsets_agree_with_python_encoding(text: str) -> None:
    index = Utf16Index(text)
    for i in range(len(text) + 1):
        units = len(text[:i].encode("utf-16-le")) // 2
        assert index.to_utf16(i) == units
        assert index.to_codepoint(units) == i


# -- re-anchoring ------------------------------------------------------------------------------


def test_reanchor_kept_reattached_flagged_on_real_lines() -> None:
    lines = wmt_lines()
    line = lines[0]  # "The goods cost less than 20 Euros."
    start = line.index("less")
    span = span_on(line, start, start + 4)
    assert reanchor(span, line).state is AnchorState.KEPT
    edited = "Actually, " + line
    moved = reanchor(span, edited)
    assert moved.state is AnchorState.REATTACHED
    assert edited[moved.span.start : moved.span.end] == "less"
    assert moved.span.id == span.id and moved.span.prefix == edited[: moved.span.start][-20:]
    gone = reanchor(span, line.replace("less", "fewer"))
    assert gone.state is AnchorState.FLAGGED and gone.span == span
    assert reanchor(span, None).state is AnchorState.FLAGGED


def test_reanchor_uses_the_prefix_to_choose_among_occurrences() -> None:
    line = f"{EMOJI} the cat and the dog and the {RARE_CJK} bird"
    second = line.index("the", line.index("the") + 1)  # "the dog"
    span = span_on(line, second, second + 3)
    # Insert text before the span: every "the" shifts; the prefix picks the right one again.
    changed = "Look: " + line
    result = reanchor(span, changed)
    assert result.state is AnchorState.REATTACHED
    assert result.span.start == second + len("Look: ")
    assert changed[result.span.end :].startswith(" dog")


def test_reanchor_omission_points() -> None:
    line = "We see light reflected off the Moon."
    point = line.index(" off")
    span = span_on(line, point, point, category="Accuracy/Omission")
    assert reanchor(span, line).state is AnchorState.KEPT
    result = reanchor(span, "Today " + line)
    assert result.state is AnchorState.REATTACHED and result.span.start == point + 6
    assert reanchor(span, "Something else entirely.").state is AnchorState.FLAGGED


def test_reanchor_all_flags_missing_segments() -> None:
    span = span_on("abc", 0, 1, segment=5)
    other = span_on("abc", 0, 1, system="B")
    results = reanchor_all([span, other], {"A": ["abc"]})
    assert [r.state for r in results] == [AnchorState.FLAGGED, AnchorState.FLAGGED]


def test_a_source_span_says_so_and_is_anchored_on_the_source() -> None:
    source = "Die Sonne verbrennt unsere Sicht."
    target = "The sun burns our view."
    on_source = span_on(source, 4, 9, side=Side.SOURCE, category="Accuracy/Omission")
    on_target = span_on(target, 4, 7)
    assert on_source.side is Side.SOURCE and on_source.extra == {"side": "source"}
    assert on_target.side is Side.TARGET and on_target.extra == {}
    assert on_source.edited(severity="minor").side is Side.SOURCE
    # An output's line says nothing about a source span: it is never flagged or moved there.
    kept = reanchor_all([on_source, on_target], {"A": [target]})
    assert [r.state for r in kept] == [AnchorState.KEPT, AnchorState.KEPT]
    assert kept[0].span == on_source
    moved = reanchor_all([on_source], {"A": [target]}, sources=["Heute: " + source])
    assert moved[0].state is AnchorState.REATTACHED and moved[0].span.start == 11
    gone = reanchor_all([on_source], {"A": [target]}, sources=["Etwas anderes."])
    assert gone[0].state is AnchorState.FLAGGED
    assert reanchor_all([on_source], {}, sources=[])[0].state is AnchorState.FLAGGED


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_reanchor_after_inserting_text_finds_the_span(data: st.DataObject) -> None:
    lines = wmt_lines(n=200)
    line = data.draw(st.sampled_from([x for x in lines if len(x) > 10]))
    line = line[:5] + EMOJI + line[5:] + RARE_CJK
    start = data.draw(st.integers(0, len(line) - 1))
    end = data.draw(st.integers(start + 1, len(line)))
    span = span_on(line, start, end)
    insert_at = data.draw(st.integers(0, start))
    extra = data.draw(st.text(alphabet="xyz" + EMOJI, min_size=1, max_size=5))
    changed = line[:insert_at] + extra + line[insert_at:]
    result = reanchor(span, changed)
    assert result.state in (AnchorState.KEPT, AnchorState.REATTACHED)
    assert changed[result.span.start : result.span.end] == span.text


# -- filters -----------------------------------------------------------------------------------


def test_filters() -> None:
    line = "one two three four five"
    spans = [
        span_on(line, 0, 3, category="Accuracy/Mistranslation", severity="major", annotator="Ann"),
        span_on(line, 4, 7, category="Accuracy", severity="minor", annotator="bob"),
        span_on(line, 8, 13, category="Fluency/Punctuation", severity="minor", segment=2),
        span_on(line, 14, 18, category="Accuracyish", severity="critical", system="B"),
        span_on(line, 19, 23, category="Style", severity="neutral", status=Status.REJECTED),
    ]
    assert by_category(spans, "accuracy") == spans[:2]
    assert by_category(spans, "Accuracy", subcategories=False) == [spans[1]]
    assert by_category(spans, "Fluency", "Style") == [spans[2], spans[4]]
    assert by_severity(spans, "minor") == [spans[1], spans[2]]
    assert by_severity(spans, Severity.CRITICAL, "neutral") == [spans[3], spans[4]]
    assert by_annotator(spans, "ann") == [spans[0], spans[2], spans[3], spans[4]]
    assert by_status(spans, Status.REJECTED) == [spans[4]]
    assert for_segment(spans, "A", 0) == [spans[0], spans[1], spans[4]]
    scores = [SegmentScore("A", 3, "ann", 80), SegmentScore("B", 1, "ann", None)]
    mask = annotated_mask(5, "A", spans, scores)
    assert mask.tolist() == [True, False, True, True, False]
    rejected_counts = annotated_mask(5, "A", spans[4:], statuses=(Status.REJECTED,))
    assert rejected_counts.tolist() == [True, False, False, False, False]
    assert annotated_mask(5, "A", spans, annotators=["BOB"]).tolist() == [True] + [False] * 4
    assert annotated_mask(5, "B", spans, scores).tolist() == [True, True, False, False, False]


# -- history -----------------------------------------------------------------------------------


def test_undo_redo_of_every_command_kind() -> None:
    line = "Die Sonne verbrennt unsere periphere Sicht."
    store = AnnotationSet()
    history = History()
    first = span_on(line, 4, 9)
    second = span_on(line, 10, 19, severity="minor")
    history.execute(AddSpan(first), store)
    history.execute(AddSpan(second), store)
    history.execute(UpdateSpan(second, second.edited(severity="critical")), store)
    score = SegmentScore("A", 0, "ann", 40)
    history.execute(SetSegmentScore(None, score), store)
    history.execute(DeleteSpan(first), store)
    assert [s.id for s in store] == [second.id]
    assert store.get(second.id).severity is Severity.CRITICAL  # type: ignore[union-attr]
    assert store.score("A", 0, "ann") == score
    assert history.undo_label() == "Delete error"

    history.undo(store)  # delete
    history.undo(store)  # score
    assert store.score("A", 0, "ann") is None and len(store) == 2
    history.undo(store)  # update
    assert store.get(second.id) == second
    history.undo(store)
    history.undo(store)
    assert len(store) == 0 and not history.can_undo and history.undo(store) is None
    for _ in range(5):
        history.redo(store)
    assert [s.id for s in store] == [second.id] and store.score("A", 0, "ann") == score
    assert not history.can_redo
    history.undo(store)
    history.execute(AddSpan(span_on(line, 0, 3)), store)
    assert not history.can_redo  # a new edit drops the redo stack


def test_batch_is_one_undo_step_and_failed_commands_are_not_recorded() -> None:
    line = "abc def ghi"
    store = AnnotationSet()
    history = History(limit=2)
    spans = [span_on(line, 0, 3), span_on(line, 4, 7)]
    history.execute(Batch(tuple(AddSpan(s) for s in spans)), store)
    assert len(store) == 2
    with pytest.raises(AnnotationError, match="already exists"):
        history.execute(AddSpan(spans[0]), store)
    history.undo(store)
    assert len(store) == 0 and not history.can_undo


def test_history_limit_and_replay() -> None:
    line = "abc def ghi"
    log = [AddSpan(span_on(line, i, i + 1)) for i in range(5)]
    store = AnnotationSet()
    history = History(limit=3)
    for command in log:
        history.execute(command, store)
    undone = 0
    while history.undo(store) is not None:
        undone += 1
    assert undone == 3 and len(store) == 2
    fresh = AnnotationSet()
    replay(log, fresh)
    assert sorted(s.id for s in fresh) == sorted(c.span.id for c in log)


def test_set_segment_score_must_keep_its_key() -> None:
    with pytest.raises(AnnotationError, match="keep system"):
        SetSegmentScore(SegmentScore("A", 0, "x", 1), SegmentScore("A", 1, "x", 1))


def test_datasets_are_discovered() -> None:
    assert DATASETS or not SHARED_DATA.exists()
