"""core.io.reading read as streams (scan_column, stream_column, scan_comparison): the command
line's way of reading, which must give exactly what read_column gives the app, batch after
batch, and refuse what it refuses with the same message."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlight.core.io import decoding, parsers, reading
from matchlight.core.io.inputs import InputError, InputSpec
from matchlight.core.io.reading import (
    SegmentReader,
    head_segments,
    read_column,
    scan_column,
    scan_comparison,
    stream_column,
)
from tests.conftest import Dataset, dataset_params
from tests.kit import hostile_inputs

# Characters that each reader treats specially: line ends, separators, quotes, tabs, controls,
# a byte-order mark, text of several UTF-8 lengths.
PIECES = ["a", "b", " ", "\t", "\r", "\n", "\r\n", "é", "字", "😀", "\u2028", "\x85", "\x0c"]
PIECES += ["\ufeff", '"', ",", "\x01"]
FORMATS = [("text", None), ("tsv", "1"), ("tsv", "a"), ("csv", "2"), ("csv", "b")]


def _whole(spec: InputSpec) -> tuple[object, ...]:
    """The input read whole (the oracle); read_column streams it as scan_column does."""
    try:
        column = reading._read_whole(spec)
    except InputError as error:
        return ("error", str(error))
    return (column.name, column.lines, column.encoding, column.detected, column.warnings)


def _app(spec: InputSpec) -> tuple[object, ...]:
    """The input as the app reads it: streamed, and held."""
    try:
        column = read_column(spec)
    except InputError as error:
        return ("error", str(error))
    return (column.name, column.lines, column.encoding, column.detected, column.warnings)


def _streamed(spec: InputSpec) -> tuple[object, ...]:
    try:
        scan = scan_column(spec)
        lines = tuple(segment for batch in stream_column(scan) for segment in batch)
    except InputError as error:
        return ("error", str(error))
    assert scan.segments == len(lines)
    return (scan.name, lines, scan.encoding, scan.detected, scan.warnings)


@pytest.fixture(params=[1, 3, 4096])
def small_blocks(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Stream files a few bytes at a time, so that every boundary case meets a block edge."""
    monkeypatch.setattr(decoding, "_STREAM_BLOCK", request.param)
    return int(request.param)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    text=st.lists(st.sampled_from(PIECES), max_size=40).map("".join),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
    layout=st.sampled_from(FORMATS),
)
def test_a_streamed_column_is_the_column_read_whole(
    tmp_path: Path, small_blocks: int, text: str, encoding: str, layout: tuple[str, str | None]
) -> None:
    fmt, column = layout
    path = tmp_path / f"in.{fmt}"
    path.write_bytes(text.encode(encoding))
    spec = InputSpec(str(path), column=column, fmt=fmt)
    assert _streamed(spec) == _whole(spec) == _app(spec)


RECORDS = ['{"t": "a b"}', '{"t": "\\t x"}', '{"t": "\\ud800y"}', '{"t": 3}', '{"t": "é\\u2028"}']
RECORDS += ["", "   ", '{"u": "no t"}', "[1]", '{"t": "c",}', '{"t": ""}']


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    records=st.lists(st.sampled_from(RECORDS), max_size=8),
    end=st.sampled_from(["", "\n", "\r\n", "\n\n"]),
    key=st.sampled_from(["t", None]),
)
def test_a_streamed_jsonl_column_is_the_column_read_whole(
    tmp_path: Path, small_blocks: int, records: list[str], end: str, key: str | None
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(records) + end, encoding="utf-8")
    spec = InputSpec(str(path), column=key)
    assert _streamed(spec) == _whole(spec) == _app(spec)


@pytest.mark.parametrize(
    "data",
    [
        "Café au lait\nNaïve façade\nÜber déjà vu\n".encode("cp1252") * 20,
        "これは日本語のテキストです。\n東京都\n".encode("shift_jis") * 30,
        "héllo wörld\n".encode() * 5 + b"\xff\n",  # mostly UTF-8: the bad byte is named
        b"abc\ndef\x00ghi\n",
        b"a\x01\x02\x03\x04\x05\x06\n" * 10,
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)),
        "hello world\nsecond line\n".encode("utf-16-le"),  # UTF-16 without a byte-order mark
        b"\xff\xfea\x00b",  # truncated UTF-16
        "\ufeffab\x00c\n".encode("utf-16-le"),
        b"",
        b"\xef\xbb\xbf",
    ],
    ids=[
        *("cp1252", "shift_jis", "bad-byte", "nul", "controls", "png", "bomless", "odd"),
        *("nul16", "empty", "bom-only"),
    ],
)
def test_detection_and_refusals_are_the_apps(
    tmp_path: Path, small_blocks: int, data: bytes
) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    spec = InputSpec(str(path))
    assert _streamed(spec) == _whole(spec) == _app(spec)


def test_hostile_paths_are_refused_as_the_app_refuses_them(tmp_path: Path) -> None:
    for path, message in hostile_inputs(tmp_path).values():
        if message.startswith("is 2.0 GiB"):
            # Streams are not capped at the app's 1 GiB: memory does not grow with the file.
            continue
        with pytest.raises(InputError) as error:
            scan_column(InputSpec(path))
        assert message in str(error.value)


def test_a_large_file_that_is_not_utf8_is_refused_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over the app's cap a file cannot be read whole to guess its encoding: it must be UTF-8
    (or carry a byte-order mark), and the message says so with the line."""
    monkeypatch.setattr(reading, "MAX_INPUT_BYTES", 10)
    path = tmp_path / "big.txt"
    path.write_bytes(b"one line\nanother line\nbad \xe9 here\n")
    with pytest.raises(InputError) as error:
        scan_column(InputSpec(str(path)))
    message = str(error.value)
    assert message.startswith(f"{path}: not valid UTF-8: byte e9 at byte offset 26 (line 3)")
    assert "read as a stream and must be UTF-8" in message


def test_a_file_changed_after_the_scan_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ref.txt"
    path.write_text("a\nb\n", encoding="utf-8")
    scan = scan_column(InputSpec(str(path)))
    path.write_text("a\nb\nc\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        list(stream_column(scan))
    assert str(error.value).startswith(f"{path}: changed since it was first read")


def test_the_reader_takes_exact_counts_across_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parsers, "_BATCH", 7)
    path = tmp_path / "data.tsv"
    path.write_text("".join(f"{i}\tline {i}\n" for i in range(100)), encoding="utf-8")
    reader = SegmentReader(scan_column(InputSpec(str(path), column="2")))
    taken = [reader.take(k) for k in (1, 5, 7, 30, 0, 100, 3)]
    assert [len(t) for t in taken] == [1, 5, 7, 30, 0, 57, 0]
    assert [s for t in taken for s in t] == [f"line {i}" for i in range(100)]
    reader.finish()


def test_scan_comparison_names_counts_and_duplicates_as_load_comparison(tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a\nb\n", encoding="utf-8")
    first = tmp_path / "sys.a.txt"
    first.write_text("x\ny\n", encoding="utf-8")
    second = tmp_path / "other" / "sys.a.txt"
    second.parent.mkdir()
    second.write_text("p\nq\n", encoding="utf-8")
    scan = scan_comparison(
        source=None,
        references=[InputSpec(str(ref))],
        systems=[InputSpec(str(first)), InputSpec(str(second))],
    )
    assert len(scan) == 2
    assert [s.name for s in scan.systems] == ["a", "a (2)"]
    assert scan.systems[1].warnings == ("renamed to 'a (2)': another system is also named 'a'",)
    second.write_text("p\nq\nr\n", encoding="utf-8")
    kwargs = {
        "source": InputSpec(str(ref)),
        "references": [InputSpec(str(ref))],
        "systems": [InputSpec(str(first)), InputSpec(str(second))],
    }
    with pytest.raises(InputError) as streamed:
        scan_comparison(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(InputError) as whole:
        reading.load_comparison(**kwargs)  # type: ignore[arg-type]
    assert str(streamed.value) == str(whole.value)
    assert "line counts differ" in str(streamed.value) and "<- differs" in str(streamed.value)


@pytest.mark.parametrize("dataset", dataset_params())
def test_every_shared_dataset_streams_as_it_loads(dataset: Dataset) -> None:
    for path in sorted(dataset.folder.glob("*.txt")):
        spec = InputSpec(str(path))
        assert _streamed(spec) == _whole(spec) == _app(spec)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    text=st.lists(st.sampled_from(PIECES), max_size=40).map("".join),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
    layout=st.sampled_from(FORMATS),
    count=st.integers(0, 6),
)
def test_the_first_segments_unscanned_are_those_read_whole(
    tmp_path: Path,
    small_blocks: int,
    text: str,
    encoding: str,
    layout: tuple[str, str | None],
    count: int,
) -> None:
    """``head_segments`` reads no further than it needs, and gives the app's first lines."""
    fmt, column = layout
    path = tmp_path / f"in.{fmt}"
    try:
        path.write_bytes(text.encode(encoding))
    except UnicodeEncodeError:
        return
    spec = InputSpec(str(path), column=column, fmt=fmt)
    app = _app(spec)
    if app[0] != "error":
        assert head_segments(spec, count) == list(app[1][:count])  # type: ignore[index]
