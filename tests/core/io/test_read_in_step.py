"""core.io.reading.load_comparison reading its inputs in step: the first rows of every input are
handed over (to be shown) while the rest is read, and the whole is what a plain read gives."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from matchlight.core import pacing
from matchlight.core.io import decoding, reading
from matchlight.core.io.files import ReadCancelled
from matchlight.core.io.inputs import Comparison, InputError, InputSpec
from matchlight.core.io.reading import load_comparison, read_column
from tests.conftest import Dataset, dataset_params


def _write(folder: Path, file: str, lines: list[str], **spec: str) -> InputSpec:
    path = folder / file
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return InputSpec(str(path), **spec)


def _inputs(folder: Path, n: int) -> dict[str, object]:
    return {
        "source": _write(folder, "src.txt", [f"Quelle {i} 字" for i in range(n)]),
        "references": [_write(folder, "ref.txt", [f"ref {i} 😀" for i in range(n)])],
        "systems": [
            _write(folder, "a.txt", [f"a {i}" if i % 7 else "" for i in range(n)]),
            _write(folder, "a.tsv", [f"{i}\thyp {i}" for i in range(n)], column="2", name="a"),
        ],
    }


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stream the files 64 bytes at a time, so that the first rows take several blocks."""
    monkeypatch.setattr(decoding, "_STREAM_BLOCK", 64)


def test_the_first_rows_are_the_head_of_the_whole(tmp_path: Path, small_blocks: None) -> None:
    inputs = _inputs(tmp_path, 300)
    heads: list[Comparison] = []
    whole = load_comparison(**inputs, on_first=heads.append, first_rows=50)  # type: ignore[arg-type]
    assert whole == load_comparison(**inputs)  # type: ignore[arg-type]
    [head] = heads
    assert len(head) == 50
    for part, full in zip(head.columns, whole.columns, strict=True):
        assert part.lines == full.lines[:50]
        assert (part.name, part.path, part.encoding) == (full.name, full.path, full.encoding)
        assert part.warnings == ()
    # Both systems are called "a": the head is named as the whole is.
    assert [c.name for c in head.systems] == ["a", "a (2)"]
    assert any("empty" in w for w in whole.systems[0].warnings)


def test_no_first_rows_from_a_short_input(tmp_path: Path) -> None:
    inputs = _inputs(tmp_path, 30)
    heads: list[Comparison] = []
    whole = load_comparison(**inputs, on_first=heads.append, first_rows=31)  # type: ignore[arg-type]
    assert heads == [] and len(whole) == 30


def test_unequal_counts_fail_after_the_first_rows(tmp_path: Path) -> None:
    inputs = _inputs(tmp_path, 100)
    inputs["references"] = [_write(tmp_path, "short.txt", ["r"] * 99)]
    heads: list[Comparison] = []
    with pytest.raises(InputError) as error:
        load_comparison(**inputs, on_first=heads.append, first_rows=10)  # type: ignore[arg-type]
    assert "short.txt (reference): 99 lines  <- differs" in str(error.value)
    assert len(heads) == 1  # the caller showed them and takes them away again


def test_a_cancelled_read_stops(tmp_path: Path, small_blocks: None) -> None:
    inputs = _inputs(tmp_path, 300)
    cancel = threading.Event()
    with pytest.raises(ReadCancelled):
        load_comparison(**inputs, on_first=lambda _: cancel.set(), first_rows=50, cancel=cancel)  # type: ignore[arg-type]


def test_bad_bytes_after_held_utf8_rows_are_named(tmp_path: Path, small_blocks: None) -> None:
    """A file whose first blocks are UTF-8 with non-ASCII text, then not UTF-8: its rows were
    decoded and kept as UTF-8 already, so the file is refused naming the bad byte (an ASCII
    start would decode alike in a detected encoding, and the file is read whole then)."""
    path = tmp_path / "mixed.txt"
    path.write_bytes("déjà vu\n".encode() * 40 + "Café\n".encode("cp1252") * 40)
    with pytest.raises(InputError) as error:
        read_column(InputSpec(str(path)))
    assert "not valid UTF-8: byte e9 at byte offset" in str(error.value)
    plain = tmp_path / "plain.txt"
    plain.write_bytes(
        b"plain text\n" * 40 + "Caf\xe9 cr\xe8me br\xfbl\xe9e\n".encode("latin-1") * 40
    )
    column = read_column(InputSpec(str(plain)))
    assert column == reading._read_whole(InputSpec(str(plain)))
    assert column.detected and column.lines[-1] == "Café crème brûlée"


@pytest.mark.parametrize("dataset", dataset_params())
def test_every_shared_dataset_reads_in_step_as_whole(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(decoding, "_STREAM_BLOCK", 4096)
    source = None if dataset.source is None else InputSpec(str(dataset.source))
    refs = [InputSpec(str(p)) for p in dataset.refs]
    systems = [InputSpec(str(p)) for p in dataset.systems[:3]]
    heads: list[Comparison] = []
    whole = load_comparison(
        source=source, references=refs, systems=systems, on_first=heads.append, first_rows=100
    )
    for spec, column in zip(
        [s for s in (source, *refs, *systems) if s], whole.columns, strict=True
    ):
        assert column == reading._read_whole(spec)
    if len(whole) >= 100:
        [head] = heads
        assert all(
            h.lines == c.lines[:100] for h, c in zip(head.columns, whole.columns, strict=True)
        )


def test_the_reader_pauses_between_blocks(tmp_path: Path, small_blocks: None) -> None:
    """Between two blocks of a streamed input the reader calls core.pacing's pause point (where
    the app lets the GUI thread's turn go first), once per block; the whole reads as without."""
    inputs = _inputs(tmp_path, 300)
    files = sorted(tmp_path.iterdir())
    blocks = sum(-(-path.stat().st_size // 64) for path in files)
    paused: list[int] = []
    previous = pacing.set_gate(lambda unless: paused.append(1))
    try:
        whole = load_comparison(**inputs, on_first=lambda _: None, first_rows=50)  # type: ignore[arg-type]
    finally:
        pacing.set_gate(previous)
    assert len(files) == 4
    assert len(paused) == blocks > 4 * 10
    assert whole == load_comparison(**inputs)  # type: ignore[arg-type]
