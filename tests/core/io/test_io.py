"""Tests for core.io.inputs, .decoding, .parsers and .reading: decoding, line splitting,
TSV/CSV/JSONL columns and loading comparisons."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import pickle
import random
import stat
import subprocess
import sys
import tempfile
import threading
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlight.core.io import decoding as decoding_module
from matchlight.core.io.decoding import decode_bytes
from matchlight.core.io.files import MAX_INPUT_BYTES
from matchlight.core.io.inputs import (
    FORMATS,
    Comparison,
    InputError,
    InputSpec,
    TextColumn,
    parse_spec,
)
from matchlight.core.io.reading import load_comparison, read_column
from matchlight.core.text.textspan import split_lines

DATA = Path(__file__).resolve().parents[4] / "shared" / "data"


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return str(path)


def read(path: str, column: str | None = None, **kwargs: str) -> TextColumn:
    return read_column(InputSpec(path=path, column=column, **kwargs))


def error_of(path: str, column: str | None = None, **kwargs: str) -> InputError:
    with pytest.raises(InputError) as info:
        read(path, column, **kwargs)
    return info.value


# --------------------------------------------------------------------------- InputError


def test_input_error_message_names_file_and_line() -> None:
    error = InputError("invalid JSON", "data.jsonl", 7)
    assert (error.path, error.line, error.problem) == ("data.jsonl", 7, "invalid JSON")
    assert str(error) == "data.jsonl, line 7: invalid JSON"
    assert str(InputError("file not found", "ref.txt")) == "ref.txt: file not found"
    assert str(InputError("line counts differ")) == "line counts differ"


def test_input_error_survives_pickling() -> None:
    copy = pickle.loads(pickle.dumps(InputError("bad", "a.txt", 3)))
    assert (copy.problem, copy.path, copy.line, str(copy)) == (
        "bad",
        "a.txt",
        3,
        "a.txt, line 3: bad",
    )


# --------------------------------------------------------------------------- split_lines


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\nb", ["a", "b"]),
        ("\n", [""]),
        ("a\n\n", ["a", ""]),
        ("\n\na\n", ["", "", "a"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\r\nb\nc", ["a", "b", "c"]),
        ("a\rb\n", ["a\rb"]),
        ("a\r", ["a\r"]),
        ("a\r\r\n", ["a\r"]),
        ("x\u2028y\n", ["x\u2028y"]),
        ("x\u2029y\n", ["x\u2029y"]),
        ("x\x85y\n", ["x\x85y"]),
        ("x\fy\vz\n", ["x\fy\vz"]),
        ("x\x1cy\x1dz\x1ew\n", ["x\x1cy\x1dz\x1ew"]),
    ],
)
def test_split_lines(text: str, expected: list[str]) -> None:
    assert split_lines(text) == expected


line_text = st.text(st.characters(blacklist_characters="\n"), max_size=8).filter(
    lambda s: not s.endswith("\r")
)


@settings(max_examples=200, deadline=None)
@given(st.lists(line_text, max_size=6), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_split_lines_inverts_joining(lines: list[str], newline: str, final: bool) -> None:
    if final or not lines or lines[-1] == "":
        text = "".join(line + newline for line in lines)  # every line terminated
    else:
        text = newline.join(lines)  # the last line unterminated
    assert split_lines(text) == lines


# --------------------------------------------------------------------------- decode_bytes


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        ("héllo\n世界\n".encode(), "utf-8"),
        (b"plain ascii\n", "utf-8"),
        (b"\xef\xbb\xbf" + "héllo\n世界\n".encode(), "utf-8-sig"),
        (b"\xff\xfe" + "héllo\n世界\n".encode("utf-16-le"), "utf-16"),
        (b"\xfe\xff" + "héllo\n世界\n".encode("utf-16-be"), "utf-16"),
        (b"\xff\xfe\x00\x00" + "héllo\n世界\n".encode("utf-32-le"), "utf-32"),
        (b"\x00\x00\xfe\xff" + "héllo\n世界\n".encode("utf-32-be"), "utf-32"),
    ],
    ids=["utf8", "ascii", "utf8-bom", "utf16-le", "utf16-be", "utf32-le", "utf32-be"],
)
def test_declared_encodings(data: bytes, encoding: str) -> None:
    text, got, detected = decode_bytes(data, path="x.txt")
    expected = "plain ascii\n" if data == b"plain ascii\n" else "héllo\n世界\n"
    assert (text, got, detected) == (expected, encoding, False)
    assert data.decode(got) == text  # the BOM is not part of the text


def test_empty_bytes_are_empty_utf8() -> None:
    assert decode_bytes(b"", path="x.txt") == ("", "utf-8", False)


LEGACY = [
    ("Le café “naïve” coûte 5 €.\nÇa va très bien, à bientôt!\n", "cp1252"),
    ("Größe und Übermaß: schön, fröhlich, weiß.\nÀ la française, déjà vu.\n", "latin-1"),
    ("El niño comió piña en la montaña.\n¿Qué pasó? ¡Olé!\n", "latin-1"),
    ("日本語のテキストです。これはテストの文章です。\n東京は日本の首都です。\n", "shift_jis"),
    ("这是一个中文句子。我们正在测试编码检测。\n北京是中国的首都。\n", "gbk"),
    ("Это русский текст для проверки кодировки.\nМосква столица России.\n", "cp1251"),
]


@pytest.mark.parametrize(("text", "encoding"), LEGACY, ids=[e for _, e in LEGACY])
def test_legacy_encodings_are_detected(text: str, encoding: str) -> None:
    data = text.encode(encoding)
    decoded, got, detected = decode_bytes(data, path="x.txt")
    assert detected is True
    assert decoded == text
    assert data.decode(got) == text


def test_detected_encoding_is_reported_in_warnings(tmp_path: Path) -> None:
    path = write(
        tmp_path, "legacy.txt", "Le café “naïve” coûte 5 €.\nÇa va bien.\n".encode("cp1252")
    )
    column = read(path)
    assert column.lines == ("Le café “naïve” coûte 5 €.", "Ça va bien.")
    assert (column.encoding, column.detected) == ("cp1252", True)
    assert column.warnings[0].startswith("encoding detected as cp1252 (not UTF-8)")


def test_shift_jis_file_is_read_and_reported(tmp_path: Path) -> None:
    text = "日本語のテキストです。\nこれはテストの文章です。\n東京は日本の首都です。\n"
    column = read(write(tmp_path, "ja.txt", text.encode("shift_jis")))
    assert column.lines == tuple(text.splitlines())
    assert column.detected
    assert column.encoding in {"shift_jis", "cp932", "shift_jis_2004", "shift_jisx0213"}
    assert f"encoding detected as {column.encoding}" in column.warnings[0]


def test_utf8_file_is_not_reported_as_detected(tmp_path: Path) -> None:
    column = read(write(tmp_path, "u.txt", "naïve\n"))
    assert (column.encoding, column.detected, column.warnings) == ("utf-8", False, ())


def test_undetectable_encoding_is_refused() -> None:
    rng = random.Random(1)
    data = bytes(rng.randrange(0x80, 0x100) for _ in range(500))
    with pytest.raises(InputError) as info:
        decode_bytes(data, path="noise.txt")
    assert str(info.value).startswith("noise.txt: the text encoding could not be detected")


def test_mostly_utf8_names_line_and_byte_offset_of_bad_byte() -> None:
    good = "中文句子。\n" * 20  # 16 bytes per line
    data = good.encode() + b"bad \xe9 byte\n" + "更多\n".encode()
    with pytest.raises(InputError) as info:
        decode_bytes(data, path="sys.txt")
    error = info.value
    assert (error.path, error.line) == ("sys.txt", 21)
    assert "not valid UTF-8" in error.problem
    assert "byte e9 at byte offset 324 of the file (byte 5 of the line)" in error.problem
    assert 'after "bad "' in error.problem


def test_bad_byte_in_utf8_file_with_bom_is_never_guessed() -> None:
    data = b"\xef\xbb\xbfok\nstill ok\n\xff\xfe broken\n"
    with pytest.raises(InputError) as info:
        decode_bytes(data, path="bom.txt")
    assert info.value.line == 3
    assert "byte offset 15 of the file" in info.value.problem


def test_truncated_utf16_names_the_line() -> None:
    data = b"\xff\xfe" + "one\ntwo\n".encode("utf-16-le") + b"x"
    with pytest.raises(InputError) as info:
        decode_bytes(data, path="u16.txt")
    assert info.value.line == 3
    assert "not valid UTF-16 LE" in info.value.problem


# --------------------------------------------------------------------------- binary files


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG image"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PDF document"),
        (b"PK\x03\x04\x14\x00\x06\x00", "ZIP archive"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "gzip-compressed"),
    ],
    ids=["png", "pdf", "zip", "gzip"],
)
def test_magic_numbers_are_refused(tmp_path: Path, data: bytes, what: str) -> None:
    path = write(tmp_path, "file.txt", data)
    message = str(error_of(path))
    assert message.startswith(f"{path}: looks like a binary file ({what}")
    assert message.endswith("), not text")


def test_nul_bytes_are_refused_with_offset(tmp_path: Path) -> None:
    path = write(tmp_path, "nul.txt", b"first line\nsecond\x00line\n")
    assert str(error_of(path)) == (
        f"{path}: looks like a binary file (contains NUL bytes, the first at byte offset 17), "
        "not text"
    )


def test_control_bytes_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "ctl.txt", bytes(range(1, 9)) * 20 + b"text\n")
    assert "looks like a binary file (97% of its bytes are control characters)" in str(
        error_of(path)
    )


def test_nul_characters_in_utf16_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "u16.txt", "ok\nbad\x00\n".encode("utf-16"))
    assert "binary file (contains NUL characters, the first on line 2)" in str(error_of(path))


def test_utf16_without_bom_gets_a_specific_message(tmp_path: Path) -> None:
    path = write(tmp_path, "nobom.txt", "hello world\nsecond line\n".encode("utf-16-le"))
    assert "UTF-16 text without a byte-order mark" in str(error_of(path))


# --------------------------------------------------------------------------- file access


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nope.txt")
    assert str(error_of(path)) == f"{path}: file not found"


def test_directory(tmp_path: Path) -> None:
    assert str(error_of(str(tmp_path))) == f"{tmp_path}: is a directory, not a file"


def test_permission_denied(tmp_path: Path) -> None:
    path = write(tmp_path, "secret.txt", "x\n")
    os.chmod(path, 0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running with privileges that ignore file permissions")
        assert str(error_of(path)) == f"{path}: permission denied: the file cannot be read"
    finally:
        os.chmod(path, 0o600)


def test_permission_error_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "secret.txt", "x\n")

    def refuse(name: str, flags: int, mode: int = 0o777) -> int:
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(os, "open", refuse)
    assert str(error_of(path)) == f"{path}: permission denied: the file cannot be read"


# --------------------------------------------------------------------------- hostile files


def read_with_timeout(path: str, seconds: float = 20) -> InputError:
    """The InputError reading ``path`` raises; fails (rather than hangs) if reading blocks."""
    outcome: list[BaseException | TextColumn] = []

    def run() -> None:
        try:
            outcome.append(read(path))
        except BaseException as exc:  # handed to the test thread
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if stat.S_ISFIFO(os.stat(path).st_mode):  # unblock the reader, or it waits forever
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"reading {path} did not return within {seconds} s")
    assert isinstance(outcome[0], InputError), outcome
    return outcome[0]


def test_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "input.txt"
    os.mkfifo(fifo)
    error = read_with_timeout(str(fifo))
    assert str(error) == f"{fifo}: is a named pipe (FIFO), not a regular file"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_without_reading(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    tracemalloc.start()
    try:
        error = read_with_timeout(device)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(error) == (
        f"{device}: is a character device (such as /dev/zero or a terminal), not a regular file"
    )
    assert peak < 1 << 20


def test_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "ref.txt"
    link.symlink_to("/dev/zero")
    assert "is a character device" in str(read_with_timeout(str(link)))


def test_cli_refuses_a_named_pipe_quickly(tmp_path: Path) -> None:
    fifo = tmp_path / "ref.txt"
    os.mkfifo(fifo)
    hyp = write(tmp_path, "hyp.txt", "a b c\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "matchlight.gui.shell.launcher",
            "score",
            "-r",
            str(fifo),
            "-s",
            hyp,
        ],
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert f"{fifo}: is a named pipe (FIFO), not a regular file" in result.stderr
    assert "Traceback" not in result.stderr


def test_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)  # sparse: no disk space, no time
    tracemalloc.start()
    try:
        error = error_of(str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert MAX_INPUT_BYTES == 1 << 30
    assert str(error) == (
        f"{path}: is 1.0 GiB (1,073,741,825 bytes), more than the 1.0 GiB (1,073,741,824 bytes) "
        "an input file may have; split it, or check that this is the file you meant"
    )
    assert peak < 1 << 20


def test_size_limit_is_inclusive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decoding_module, "MAX_INPUT_BYTES", 1000)
    at_limit = write(tmp_path, "at.txt", "x" * 999 + "\n")
    assert read(at_limit).lines == ("x" * 999,)
    over = write(tmp_path, "over.txt", "x" * 1000 + "\n")
    assert "is 1,001 bytes, more than the 1,000 bytes an input file may have" in str(error_of(over))


def test_file_growing_while_read_cannot_pass_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size is checked on the open file, then the file grows by 20 MB: at most limit + 1
    bytes are read, and the file is refused."""
    monkeypatch.setattr(decoding_module, "MAX_INPUT_BYTES", 1000)
    path = write(tmp_path, "growing.txt", "x\n" * 100)
    real_fstat = os.fstat

    def fstat_then_grow(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        block = b"y" * 1_000_000
        with open(path, "ab") as handle:
            for _ in range(20):
                handle.write(block)
        return info

    monkeypatch.setattr(os, "fstat", fstat_then_grow)
    tracemalloc.start()
    try:
        error = error_of(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(error) == (
        f"{path}: grew beyond the 1,000 bytes an input file may have while it was read; "
        "wait until whatever writes it has finished"
    )
    assert peak < 3_000_000  # the 1 MB block above, not the 20 MB file


def test_one_megabyte_single_line_loads(tmp_path: Path) -> None:
    line = "".join(random.Random(1).choices("abc de", k=1_000_000))
    path = write(tmp_path, "long.txt", line + "\n")
    column = read(path)
    assert column.lines == (line,)
    assert column.warnings == ()


def test_proc_files_report_size_zero_but_are_read(tmp_path: Path) -> None:
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc")
    lines = read("/proc/self/status").lines
    assert any(line.startswith("Pid:") for line in lines)


# --------------------------------------------------------------------------- lone surrogates


def test_lone_surrogate_in_jsonl_becomes_replacement_character_with_a_warning(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        "sys.jsonl",
        '{"t": "fine"}\n{"t": "bad \\ud800 high"}\n{"t": "pair \\ud83d\\ude00"}\n',
    )
    column = read(path, "t")
    assert column.lines == ("fine", "bad \ufffd high", "pair \U0001f600")
    assert column.warnings == (
        "line 2 contains a lone surrogate (U+D800, e.g. from a \\ud800 escape in JSON), which "
        "is not a character; replaced with U+FFFD",
    )
    for line in column.lines:
        line.encode("utf-8")


def test_several_lone_surrogates_name_the_first_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "sys.jsonl",
        '{"a": {"t": "ok"}}\n{"a": {"t": "\\udc80"}}\n{"a": {"t": "x\\udbff\\ud800"}}\n',
    )
    column = read(path, "a.t")
    assert column.lines == ("ok", "\ufffd", "x\ufffd\ufffd")
    assert column.warnings == (
        "2 segments contain a lone surrogate (U+DC80, e.g. from a \\udc80 escape in JSON), "
        "which is not a character; replaced with U+FFFD; first: line 2",
    )


json_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x10FFFF), max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(json_text, min_size=1, max_size=5))
def test_every_loaded_jsonl_segment_is_valid_unicode(values: list[str]) -> None:
    """Whatever a JSON string escapes, the loaded text encodes as UTF-8 and differs from it only
    where a lone surrogate was."""
    data = "".join(json.dumps({"t": v}) + "\n" for v in values).encode("utf-8")
    with tempfile.TemporaryDirectory() as folder:
        column = read(write(Path(folder), "x.jsonl", data), "t")
    for original, loaded in zip(values, column.lines, strict=True):
        loaded.encode("utf-8")
        assert loaded == "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in original)
    has_surrogate = any(0xD800 <= ord(c) <= 0xDFFF for v in values for c in v)
    assert any("lone surrogate" in w for w in column.warnings) == has_surrogate


def test_decoders_never_produce_surrogates() -> None:
    """Encoded surrogates are invalid in every encoding read: an error, not a lone surrogate."""
    for data in (
        b"ok\n\xed\xa0\x80\n",  # CESU-style UTF-8 of U+D800
        b"\xff\xfe" + "ok\n".encode("utf-16-le") + b"\x00\xd8\n\x00",
        b"\xff\xfe\x00\x00" + "ok\n".encode("utf-32-le") + b"\x00\xd8\x00\x00",
    ):
        try:
            text, _, _ = decode_bytes(data, path="x.txt")
        except InputError:
            continue
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text), text


def test_undecodable_file_name_gives_a_readable_name(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/sys.\xff\xfe.txt"
    with open(raw, "wb") as handle:
        handle.write(b"a b c\n")
    path = os.fsdecode(raw)
    column = read(path)
    assert column.path == path  # still opens the file
    assert column.name == "\ufffd\ufffd"
    column.name.encode("utf-8")
    assert any("not UTF-8" in w for w in column.warnings)


# --------------------------------------------------------------------------- parse_spec


def test_parse_spec_forms(tmp_path: Path) -> None:
    path = write(tmp_path, "data.tsv", "a\tb\n")
    assert parse_spec(path) == InputSpec(path=path)
    assert parse_spec(f"mine={path}") == InputSpec(path=path, name="mine")
    assert parse_spec(f"{path}#b") == InputSpec(path=path, column="b")
    assert parse_spec(f"mine={path}#2") == InputSpec(path=path, name="mine", column="2")
    assert parse_spec(f"{path}#translation.de").column == "translation.de"


def test_parse_spec_takes_existing_paths_literally(tmp_path: Path) -> None:
    odd = write(tmp_path, "x=y#1.txt", "a\n")
    assert parse_spec(odd) == InputSpec(path=odd)
    plain = write(tmp_path, "a", "a\n")
    hashed = write(tmp_path, "a#b", "a\n")
    assert parse_spec(hashed) == InputSpec(path=hashed)  # not a.txt column "b"
    assert parse_spec(f"n={hashed}") == InputSpec(path=hashed, name="n")
    assert parse_spec(f"{plain}#c") == InputSpec(path=plain, column="c")


def test_parse_spec_without_existing_file_uses_most_structured_reading() -> None:
    assert parse_spec("sys=out/x.txt#3") == InputSpec(path="out/x.txt", name="sys", column="3")
    assert parse_spec("out/x=y.txt") == InputSpec(path="out/x=y.txt")  # no slash in a NAME
    assert parse_spec("out/a#b/c.txt") == InputSpec(path="out/a#b/c.txt")  # nor in a COLUMN
    assert parse_spec("x.txt#") == InputSpec(path="x.txt#")
    assert parse_spec("=x.txt") == InputSpec(path="=x.txt")


def test_parse_spec_rejects_empty_text() -> None:
    with pytest.raises(InputError, match="empty input"):
        parse_spec("  ")


# --------------------------------------------------------------------------- plain text


def test_text_names_and_line_endings(tmp_path: Path) -> None:
    path = write(tmp_path, "sys.online-b.txt", "one\r\ntwo\r\n\r\nfour")
    column = read(path)
    assert column == TextColumn(
        name="online-b",  # the "sys." prefix only marks a system output
        path=path,
        lines=("one", "two", "", "four"),
        encoding="utf-8",
        detected=False,
        warnings=("line 3 is empty",),
    )
    assert read_column(parse_spec(f"Online B={path}")).name == "Online B"


def test_trailing_newline_does_not_add_a_segment(tmp_path: Path) -> None:
    assert read(write(tmp_path, "a.txt", "x\ny\n")).lines == ("x", "y")
    assert read(write(tmp_path, "b.txt", "x\ny")).lines == ("x", "y")
    assert read(write(tmp_path, "c.txt", "x\ny\n\n")).lines == ("x", "y", "")
    assert read(write(tmp_path, "d.txt", "")).lines == ()


def test_unusual_separators_stay_inside_lines_with_warnings(tmp_path: Path) -> None:
    path = write(tmp_path, "odd.txt", "a\u2028b\nc\x85d\ne\ff\ng\rh\ni\tj\nk\tl\n\ufeffm\n")
    column = read(path)
    assert column.lines == ("a\u2028b", "c\x85d", "e\ff", "g\rh", "i\tj", "k\tl", "\ufeffm")
    assert column.warnings == (
        "line 3 contains control characters (U+000C)",
        "line 4 contains a carriage return (\\r) not followed by \\n, kept inside the segment",
        "2 lines contain a Unicode line separator (U+2028, U+2029 or U+0085), kept inside the "
        "segment; first: line 1",
        "line 7 contains a byte-order mark character (U+FEFF); concatenated files?",
        "2 lines contain a tab; first: line 5",
    )


def test_column_on_plain_text_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "x\n")
    assert "a column (#2) can only be chosen in TSV, CSV or JSONL" in str(error_of(path, "2"))


def test_unknown_format_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "x\n")
    assert "unknown input format 'xml'; choose one of text, tsv, csv, jsonl" in str(
        error_of(path, fmt="xml")
    )
    assert FORMATS == ("text", "tsv", "csv", "jsonl")


def test_explicit_format_overrides_extension(tmp_path: Path) -> None:
    path = write(tmp_path, "pairs.txt", "a\tb\nc\td\n")
    assert read(path, "2", fmt="tsv").lines == ("b", "d")
    assert read(path).lines == ("a\tb", "c\td")


def test_columns_are_frozen(tmp_path: Path) -> None:
    column = read(write(tmp_path, "a.txt", "x\n"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        column.name = "y"  # type: ignore[misc]


# --------------------------------------------------------------------------- TSV


TSV = 'src\tref\tsys\nHe said "hi\tEr sagte "hallo\tEr sagte hallo\n"x"\t\t"z\n'


def test_tsv_column_by_header_name_keeps_quotes(tmp_path: Path) -> None:
    path = write(tmp_path, "data.tsv", TSV)
    column = read(path, "ref")
    assert column.lines == ('Er sagte "hallo', "")
    assert column.name == "ref"
    assert read(path, "src").lines == ('He said "hi', '"x"')
    assert read(path, "sys").lines == ("Er sagte hallo", '"z')


def test_tsv_column_by_index_has_no_header(tmp_path: Path) -> None:
    path = write(tmp_path, "data.tsv", TSV)
    column = read(path, "2")
    assert column.lines == ("ref", 'Er sagte "hallo', "")
    assert column.name == "data#2"
    assert column.warnings == ("line 3 is empty",)


def test_tsv_missing_column_lists_available_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "data.tsv", TSV)
    assert str(error_of(path, "hyp")) == (
        f"{path}, line 1: no column named 'hyp' in the header row; available columns: "
        "'src', 'ref', 'sys'"
    )
    assert str(error_of(path, "4")) == (
        f"{path}, line 1: has no column 4: the first row has only 3 fields ('src', 'ref', 'sys')"
    )
    assert "column numbers start at 1" in str(error_of(path, "0"))


def test_tsv_without_column_says_how_to_choose_one(tmp_path: Path) -> None:
    path = write(tmp_path, "data.tsv", TSV)
    message = str(error_of(path))
    assert message.startswith(f"{path}: TSV input needs a column")
    assert "the first row is: 'src', 'ref', 'sys'" in message


def test_tsv_row_with_too_few_fields(tmp_path: Path) -> None:
    path = write(tmp_path, "short.tsv", "src\tref\na\tb\nc\n")
    assert str(error_of(path, "ref")) == (f"{path}, line 3: has 1 field, but the header row has 2")


def test_tsv_row_with_too_many_fields_suggests_stray_tab(tmp_path: Path) -> None:
    path = write(tmp_path, "long.tsv", "a\tb\nc\td\te\n")
    assert str(error_of(path, "1")) == (
        f"{path}, line 2: has 3 fields, but line 1 has 2 (a tab inside a segment?)"
    )


def test_tsv_trailing_blank_lines_are_ignored_but_inner_ones_are_not(tmp_path: Path) -> None:
    path = write(tmp_path, "t.tsv", "src\tref\na\tb\nc\td\n\n\n")
    column = read(path, "ref")
    assert column.lines == ("b", "d")
    assert column.warnings == ("ignored 2 blank lines at the end",)
    inner = write(tmp_path, "inner.tsv", "src\tref\na\tb\n\nc\td\n")
    assert str(error_of(inner, "ref")) == (
        f"{inner}, line 3: blank line in the middle of the data; expected 2 fields"
    )


def test_one_column_tsv_keeps_empty_segments(tmp_path: Path) -> None:
    path = write(tmp_path, "one.tsv", "hyp\nx\n\ny\n")
    column = read(path, "hyp")
    assert column.lines == ("x", "", "y")
    assert column.warnings == ("segment 2 (line 3) is empty",)


def test_tsv_crlf_and_lone_cr(tmp_path: Path) -> None:
    path = write(tmp_path, "crlf.tsv", "a\tb\r\nc\rx\td\r\n")
    assert read(path, "1").lines == ("a", "c\rx")
    assert read(path, "2").lines == ("b", "d")


def test_tsv_header_name_that_looks_like_index_is_an_index(tmp_path: Path) -> None:
    path = write(tmp_path, "nums.tsv", "1\t2\nx\ty\n")
    assert read(path, "2").lines == ("2", "y")


def test_duplicate_header_name_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.tsv", "ref\tref\nx\ty\n")
    assert "names column 'ref' more than once" in str(error_of(path, "ref"))


# --------------------------------------------------------------------------- CSV


def test_csv_quoted_fields_keep_newlines_commas_and_quotes(tmp_path: Path) -> None:
    content = 'id,summary\r\n1,"First sentence.\r\nSecond, with comma."\r\n2,"She said ""no""."\r\n'
    path = write(tmp_path, "sum.csv", content)
    column = read(path, "summary")
    assert column.lines == ("First sentence.\nSecond, with comma.", 'She said "no".')
    assert read(path, "id").lines == ("1", "2")
    assert read(path, "1").lines == ("id", "1", "2")


def test_csv_warnings_map_segments_to_file_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "m.csv", 'a,b\n"x\ny",\n"p\tq",z\n')
    column = read(path, "a")
    assert column.lines == ("x\ny", "p\tq")
    assert column.warnings == ("segment 2 (line 4) contains a tab",)
    assert read(path, "b").warnings == ("segment 1 (line 2) is empty",)


def test_csv_unclosed_quote_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "open.csv", 'a,b\nx,y\n"never closed,z\nmore\n')
    assert str(error_of(path, "a")) == (
        f"{path}, line 3: a quoted field starting on this line is never closed"
    )


def test_csv_malformed_quote_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.csv", 'a,b\nx,y\n"q"z,w\n')
    error = error_of(path, "a")
    assert error.line == 3
    assert error.problem.startswith("malformed CSV: ")


def test_csv_lone_cr_in_unquoted_field_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "cr.csv", "a,b\nx\ry,z\n")
    error = error_of(path, "a")
    assert error.line == 2
    assert "carriage return" in error.problem


def test_csv_short_row(tmp_path: Path) -> None:
    path = write(tmp_path, "short.csv", 'a,b,c\n1,2,3\n4,"5\n6"\n7,8,9\n')
    assert str(error_of(path, "c")) == f"{path}, line 3: has 2 fields, but the header row has 3"


# --------------------------------------------------------------------------- JSONL


JSONL = (
    '{"id": 1, "text": "Line one.\\nLine two.", "translation": {"de": "Hallo", "fr": "Salut"}, '
    '"score": 0.5, "a.b": "flat"}\n'
    '{"id": 2, "text": "Only one.", "translation": {"de": "Welt", "fr": "Monde"}, '
    '"score": 3, "a.b": "dots"}\n'
    "\n"
)


def test_jsonl_keys_nested_keys_and_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, "data.jsonl", JSONL)
    text = read(path, "text")
    assert text.lines == ("Line one.\nLine two.", "Only one.")
    assert text.name == "text"
    assert text.warnings == ("ignored 1 blank line at the end",)
    assert read(path, "translation.de").lines == ("Hallo", "Welt")
    assert read(path, "a.b").lines == ("flat", "dots")  # a literal dotted key wins
    assert read(path, "score").lines == ("0.5", "3")
    assert read(path, "id").lines == ("1", "2")


def test_ndjson_extension_is_jsonl(tmp_path: Path) -> None:
    path = write(tmp_path, "data.ndjson", '{"t": "x"}\n')
    assert read(path, "t").lines == ("x",)


def test_jsonl_missing_key_lists_available_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "data.jsonl", '{"src": "a", "hyp": "b"}\n{"src": "c"}\n')
    assert str(error_of(path, "hyp")) == f"{path}, line 2: no key 'hyp'; available keys: 'src'"
    nested = write(tmp_path, "nested.jsonl", JSONL)
    assert str(error_of(nested, "translation.es")) == (
        f"{nested}, line 1: no key 'translation.es'; available keys under 'translation': 'de', 'fr'"
    )
    assert "'text' is a string, not an object" in str(error_of(nested, "text.x"))


def test_jsonl_without_key_lists_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "data.jsonl", '{"src": "a", "hyp": "b"}\n')
    message = str(error_of(path))
    assert message.startswith(f"{path}: JSON Lines input needs a key")
    assert message.endswith("available keys: 'src', 'hyp'")


@pytest.mark.parametrize(
    ("value", "kind"),
    [("null", "null"), ("[1]", "a list"), ('{"x": 1}', "an object"), ("true", "a boolean")],
)
def test_jsonl_non_string_values_name_the_line(tmp_path: Path, value: str, kind: str) -> None:
    path = write(tmp_path, "v.jsonl", f'{{"t": "ok"}}\n{{"t": "ok"}}\n{{"t": {value}}}\n')
    assert str(error_of(path, "t")) == f"{path}, line 3: the value of 't' is {kind}, not a string"


def test_jsonl_invalid_json_names_line_and_error(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.jsonl", '{"t": "a"}\n{"t": "b"}\n{"t": "c",}\n')
    assert str(error_of(path, "t")) == (
        f"{path}, line 3: invalid JSON: Expecting property name enclosed in double quotes "
        "(column 11)"
    )


def test_jsonl_blank_line_in_the_middle_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "gap.jsonl", '{"t": "a"}\n   \n{"t": "b"}\n')
    assert str(error_of(path, "t")) == (
        f"{path}, line 2: blank line in the middle of a JSON Lines file"
    )


def test_jsonl_line_must_be_an_object(tmp_path: Path) -> None:
    path = write(tmp_path, "arr.jsonl", '{"t": "a"}\n["b"]\n')
    assert str(error_of(path, "t")) == f"{path}, line 2: expected a JSON object, found a list"


def test_jsonl_crlf_and_bom(tmp_path: Path) -> None:
    path = write(tmp_path, "w.jsonl", b'\xef\xbb\xbf{"t": "a"}\r\n{"t": "b\\u2028c"}\r\n')
    column = read(path, "t")
    assert column.lines == ("a", "b\u2028c")
    assert column.encoding == "utf-8-sig"


# --------------------------------------------------------------------------- load_comparison


def specs(*paths: str) -> list[InputSpec]:
    return [InputSpec(path=p) for p in paths]


def test_load_comparison(tmp_path: Path) -> None:
    src = write(tmp_path, "src.txt", "a\nb\n")
    ref = write(tmp_path, "ref.txt", "A\nB\n")
    hyp = write(tmp_path, "sys.x.txt", "a\nB")
    comparison = load_comparison(source=InputSpec(src), references=specs(ref), systems=specs(hyp))
    assert len(comparison) == 2
    assert comparison.source is not None and comparison.source.lines == ("a", "b")
    assert [c.name for c in comparison.columns] == ["src", "ref", "x"]
    assert comparison.systems[0].lines == ("a", "B")


def test_mismatch_lists_every_file_and_count(tmp_path: Path) -> None:
    src = write(tmp_path, "src.txt", "1\n2\n3\n")
    ref = write(tmp_path, "ref.txt", "1\n2\n3\n")
    ref2 = write(tmp_path, "ref2.txt", "1\n2\n3\n")
    a = write(tmp_path, "sys.a.txt", "1\n2\n")
    b = write(tmp_path, "sys.b.txt", "1\n2\n3\n")
    with pytest.raises(InputError) as info:
        load_comparison(source=InputSpec(src), references=specs(ref, ref2), systems=specs(a, b))
    assert info.value.path is None
    assert str(info.value) == "\n".join(
        [
            "line counts differ:",
            f"  {src} (source): 3 lines",
            f"  {ref} (reference 1): 3 lines",
            f"  {ref2} (reference 2): 3 lines",
            f"  {a} (system a): 2 lines  <- differs",
            f"  {b} (system b): 3 lines",
        ]
    )


def test_mismatch_with_columns_and_old_mac_line_endings(tmp_path: Path) -> None:
    ref = write(tmp_path, "ref.txt", "1\n2\n")
    table = write(tmp_path, "t.tsv", "h\n1\n2\n")
    mac = write(tmp_path, "mac.txt", "1\r2\r")
    with pytest.raises(InputError) as info:
        load_comparison(
            source=None,
            references=specs(ref),
            systems=[InputSpec(table, column="h"), InputSpec(mac)],
        )
    lines = str(info.value).splitlines()
    assert lines[1] == f"  {ref} (reference): 2 lines"
    assert lines[2] == f"  {table}#h (system h): 2 records"
    assert lines[3].startswith(f"  {mac} (system mac): 1 line  <- differs  [line 1 contains a car")


def test_all_empty_is_zero_segments_but_one_empty_is_a_mismatch(tmp_path: Path) -> None:
    ref = write(tmp_path, "ref.txt", "")
    hyp = write(tmp_path, "hyp.txt", "")
    comparison = load_comparison(source=None, references=specs(ref), systems=specs(hyp))
    assert len(comparison) == 0
    full = write(tmp_path, "full.txt", "x\n")
    with pytest.raises(InputError, match=r"hyp.txt \(system hyp\): 0 lines"):
        load_comparison(source=None, references=specs(full), systems=specs(hyp))


def test_duplicate_system_names_are_made_unique(tmp_path: Path) -> None:
    ref = write(tmp_path, "ref.txt", "x\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = write(tmp_path, "a/out.txt", "x\n")
    two = write(tmp_path, "b/out.txt", "x\n")
    three = write(tmp_path, "out (2).txt", "x\n")
    comparison = load_comparison(
        source=None,
        references=specs(ref),
        systems=[InputSpec(one), InputSpec(two), InputSpec(three), InputSpec(ref, name="out")],
    )
    assert [s.name for s in comparison.systems] == ["out", "out (3)", "out (2)", "out (4)"]
    assert comparison.systems[0].warnings == ()
    assert comparison.systems[1].warnings == (
        "renamed to 'out (3)': another system is also named 'out'",
    )


def test_references_and_systems_are_required(tmp_path: Path) -> None:
    ref = write(tmp_path, "ref.txt", "x\n")
    with pytest.raises(InputError, match="at least one reference"):
        load_comparison(source=None, references=[], systems=specs(ref))
    with pytest.raises(InputError, match="at least one system"):
        load_comparison(source=None, references=specs(ref), systems=[])


def test_load_comparison_reports_the_bad_file(tmp_path: Path) -> None:
    ref = write(tmp_path, "ref.txt", "x\n")
    missing = str(tmp_path / "missing.txt")
    with pytest.raises(InputError) as info:
        load_comparison(source=None, references=specs(ref), systems=specs(missing))
    assert info.value.path == missing


def test_comparison_checks_its_own_invariants() -> None:
    a = TextColumn("a", "a.txt", ("x",), "utf-8", False, ())
    b = TextColumn("b", "b.txt", ("x", "y"), "utf-8", False, ())
    with pytest.raises(ValueError, match="equal length"):
        Comparison(source=None, references=(a,), systems=(b,))


# --------------------------------------------------------------------------- real data and speed


def newline_count(path: Path) -> int:
    """Segments the way `wc -l` counts them, plus one for a last line without a newline."""
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def test_real_dataset_wmt22_en_zh() -> None:
    folder = DATA / "wmt22-en-zh"
    if not folder.is_dir():
        pytest.skip(f"shared dataset not found at {folder}")
    system_paths = sorted(folder.glob("sys.*.txt"))
    assert len(system_paths) == 5
    comparison = load_comparison(
        source=parse_spec(str(folder / "src.txt")),
        references=[parse_spec(str(folder / "ref.txt")), parse_spec(str(folder / "ref2.txt"))],
        systems=[parse_spec(str(p)) for p in system_paths],
    )
    expected = newline_count(folder / "ref.txt")
    assert len(comparison) == expected == 2037
    for column in comparison.columns:
        assert len(column.lines) == newline_count(Path(column.path))
        assert (column.encoding, column.detected) == ("utf-8", False)
    assert [s.name for s in comparison.systems] == [
        p.stem.removeprefix("sys.") for p in system_paths
    ]
    assert (
        comparison.references[0].lines[0]
        == (folder / "ref.txt").read_text(encoding="utf-8").split("\n")[0]
    )


def test_six_files_of_100k_lines_load_completely(tmp_path: Path) -> None:
    rng = random.Random(0)
    words = ["the", "of", "and", "to", "in", "is", "you", "that", "it", "was", "中文"]
    paths = []
    for k in range(6):
        lines = [" ".join(rng.choices(words, k=8)) for _ in range(100_000)]
        paths.append(write(tmp_path, f"f{k}.txt", "\n".join(lines) + "\n"))
    comparison = load_comparison(
        source=InputSpec(paths[0]), references=specs(paths[1]), systems=specs(*paths[2:])
    )
    assert len(comparison) == 100_000
    assert comparison.systems[-1].lines[-1] == lines[-1]


def test_core_io_does_not_import_qt() -> None:
    code = (
        "import sys, matchlight.core.io.reading\n"
        "print(sorted(m for m in sys.modules if 'PySide' in m or 'Qt' in m))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_control_characters_and_surrogates_are_found_past_the_first_scan_slice(tmp_path):
    """The checks scan a file in slices (the GIL is released between them); a character far
    into a big file is still found and reported on its line."""
    from matchlight.core.io import parsers

    filler = "a plain line of text\n" * ((parsers._SCAN_SLICE // 21) + 10)
    text = filler + "bell \x07 here\n" + filler
    assert text.index("\x07") > parsers._SCAN_SLICE
    found = parsers._search_slices(parsers._CONTROL_CHARS, text)
    assert found is not None and found.start() == parsers._CONTROL_CHARS.search(text).start()
    assert parsers._search_slices(parsers._CONTROL_CHARS, filler) is None
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    column = read_column(parse_spec(str(path)))
    line = filler.count("\n") + 1
    assert any(f"line {line}" in w and "control characters" in w for w in column.warnings)
