"""The checks ``matchlight score`` streams beside the scores give the in-memory figures.

The language check (:func:`core.analysis.language.language_flags`) and the reference-leak
warnings (:func:`core.analysis.references.reference_leaks`) run on the whole texts in the
app; the command counts them chunk by chunk in its workers. On WMT22 en-zh with both
references, two real systems (HuaweiTSC's segment 884 and Online-B's 1239 are the English
source; ref2 is Online-B's output on 373 lines), the source as a system and English lines from
de-en as a system, the streamed counts equal the in-memory ones on any split of the rows, any
worker count and any ``--segments``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from matchlight.core.analysis.language import LanguageFlags, language_flags
from matchlight.core.analysis.references import reference_leaks
from matchlight.core.analysis.selection import parse_segments
from matchlight.core.cli.score import main
from matchlight.core.text.corpus import CorpusText
from tests.conftest import SHARED_DATA
from tests.kit import needs, read_lines

EN_ZH = SHARED_DATA / "wmt22-en-zh"
DE_EN = SHARED_DATA / "wmt22-de-en"
REAL = ("HuaweiTSC", "Online-B")
NAMES = (*REAL, "copy", "other")


def _texts(tmp_path: Path) -> tuple[list[list[str]], list[list[str]], list[str], list[Path]]:
    """References, systems, source, and the systems' files (the constructed ones written)."""
    source = read_lines(EN_ZH / "src.txt")
    refs = [read_lines(EN_ZH / "ref.txt"), read_lines(EN_ZH / "ref2.txt")]
    english = read_lines(DE_EN / "ref.txt")
    other = [english[i % len(english)] for i in range(len(source))]
    paths = [EN_ZH / f"sys.{name}.txt" for name in REAL]
    for name, lines in (("copy", source), ("other", other)):
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        paths.append(path)
    systems = [read_lines(p) for p in paths]
    return refs, systems, source, paths


def _args(paths: list[Path], *extra: str) -> list[str]:
    out = ["--src", str(EN_ZH / "src.txt")]
    out += ["--ref", str(EN_ZH / "ref.txt"), "--ref", str(EN_ZH / "ref2.txt")]
    for name, path in zip(NAMES, paths, strict=True):
        out += ["--hyp", f"{name}={path}"]
    return [*out, "--metrics", "chrf", *extra]


@pytest.fixture(scope="module")
def in_memory(tmp_path_factory: pytest.TempPathFactory) -> tuple[LanguageFlags, Path]:
    folder = tmp_path_factory.mktemp("checks")
    refs, systems, source, _ = _texts(folder)
    text = CorpusText(tuple(map(tuple, refs)), tuple(map(tuple, systems)), NAMES)
    flags = language_flags(text, source)
    assert flags is not None and flags.expectation is not None
    return flags, folder


@needs(EN_ZH)
@needs(DE_EN)
@pytest.mark.parametrize(
    ("segments", "extra"),
    [
        (None, ("--workers", "1")),
        ("1-900,1200-1300,1500-", ("--workers", "2", "--task-rows", "97")),
    ],
)
def test_streamed_checks_equal_the_in_memory_ones(
    in_memory: tuple[LanguageFlags, Path],
    segments: str | None,
    extra: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags, folder = in_memory
    refs, systems, _, paths = _texts(folder)
    rows = None if segments is None else parse_segments(segments, len(refs[0]))
    picked = ("--segments", segments) if segments else ()
    out = tmp_path / "c.json"
    assert main(_args(paths, "--json", str(out), *picked, *extra)) == 0
    err = capsys.readouterr().err
    payload = json.loads(out.read_text(encoding="utf-8"))
    n = len(refs[0]) if rows is None else len(rows)
    assert payload["segments"] == n
    assert payload["reference_language"] == "zh"
    expected = flags.counts(rows)
    streamed = [
        (payload["systems"][name]["wrong_language"], payload["systems"][name]["copies_source"])
        for name in NAMES
    ]
    assert streamed == expected
    # Real counts, not zeros: the constructed systems are caught, the real ones once each.
    copy, other = expected[2], expected[3]
    assert copy[1] > 0.9 * n and other[0] > 0.9 * n
    if rows is None:
        assert expected[:2] == [(1, 1), (1, 1)]
    for name, (wrong, copies) in zip(NAMES, expected, strict=True):
        if wrong or copies:
            assert f"matchlight: warning: {name}: " in err
    leaks = reference_leaks(
        references=refs,
        systems=systems,
        reference_names=["ref", "ref2"],
        system_names=list(NAMES),
        rows=rows,
    )
    assert any("ref2 looks made from Online-B's output" in message for message in leaks)
    assert [line for line in err.splitlines() if "looks made from" in line] == [
        f"matchlight: warning: {message}" for message in leaks
    ]


@needs(EN_ZH)
def test_without_a_source_no_copy_is_counted(tmp_path: Path) -> None:
    args = ["--ref", str(EN_ZH / "ref.txt"), "--metrics", "chrf", "--json", str(tmp_path / "j")]
    for name in REAL:
        args += ["--hyp", str(EN_ZH / f"sys.{name}.txt")]
    assert main(args) == 0
    payload = json.loads((tmp_path / "j").read_text(encoding="utf-8"))
    counts = [
        (payload["systems"][n]["wrong_language"], payload["systems"][n]["copies_source"])
        for n in REAL
    ]
    assert counts == [(1, None), (1, None)]
    assert payload["reference_language"] == "zh"


@needs(DE_EN)
def test_the_model_loads_beside_the_scan_and_the_workers_still_fork() -> None:
    """The language model is loaded in a thread while the inputs are scanned; it is joined
    before any engine starts (workers are forked only from a process with one thread)."""
    import argparse
    import threading

    from matchlight.core.analysis import languagemodel
    from matchlight.core.cli.score import build_parser
    from matchlight.core.cli.streaming import read_stream_setup

    parser = build_parser()
    args = parser.parse_args(
        ["--ref", str(DE_EN / "ref.txt"), "--hyp", str(DE_EN / "sys.LT22.txt"), "-q"]
    )
    assert isinstance(args, argparse.Namespace)
    languagemodel._LOADED.clear()
    languagemodel._MODEL.clear()
    setup = read_stream_setup(parser, args, [], language=True)
    assert setup.n_rows == len(read_lines(DE_EN / "ref.txt"))
    assert languagemodel._MODEL, "the model was loaded while the inputs were read"
    assert not [t for t in threading.enumerate() if t.name == "matchlight-language-model"]


def _setup(args: list[str], *, language: bool = False) -> object:
    """``read_stream_setup`` of ``matchlight score`` ``args``: the setup, or the message of
    its :class:`Failed`."""
    from matchlight.core.cli.options import Failed
    from matchlight.core.cli.score import build_parser
    from matchlight.core.cli.streaming import read_stream_setup

    parser = build_parser()
    try:
        return read_stream_setup(parser, parser.parse_args([*args, "-q"]), [], language=language)
    except Failed as error:
        return str(error)


def _fork_despite_other_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork the scans as the command line does. The command forks only from a process with
    one thread; a test process may hold an idle thread another test left (Dask's offload
    executor), which would make the scans run here and these tests check nothing."""
    import multiprocessing

    from matchlight.core.cli import streaming

    monkeypatch.setattr(streaming, "process_context", lambda: multiprocessing.get_context("fork"))


@needs(DE_EN)
@pytest.mark.parametrize(
    "inputs",
    [
        ["--src", "src.txt", "--ref", "ref.txt", "--hyp", "sys.LT22.txt", "--hyp", "sys.LT22.txt"],
        ["--ref", "ref.txt", "--hyp", "sys.LT22.txt", "--hyp", "missing.txt"],
        ["--ref", "ref.txt", "--hyp", "nul.txt", "--hyp", "src.txt", "--hyp", "png.txt"],
        ["--ref", "ref.txt", "--hyp", "sys.LT22.txt", "--hyp", "short.txt"],
    ],
    ids=["same-file-twice", "missing", "first-bad-named", "counts-differ"],
)
def test_big_inputs_are_scanned_in_processes_as_they_are_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inputs: list[str]
) -> None:
    """Inputs over the size limit are scanned each in a process of its own: the same names,
    counts, encodings and warnings, and the same message for the first input that fails."""
    from matchlight.core.cli import streaming

    short = tmp_path / "short.txt"
    short.write_text("\n".join(read_lines(DE_EN / "ref.txt")[:-1]) + "\n", encoding="utf-8")
    (tmp_path / "nul.txt").write_bytes(b"abc\ndef\x00ghi\n")
    (tmp_path / "png.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    paths = {name: str(tmp_path / name) for name in ("short.txt", "nul.txt", "png.txt")}
    paths["missing.txt"] = str(tmp_path / "missing.txt")
    args = [paths.get(a, str(DE_EN / a)) if a.endswith(".txt") else a for a in inputs]
    here = _setup(args)
    submitted: list[object] = []

    class Counted(streaming.LocalProcesses):
        def submit(self, task, *args):  # type: ignore[no-untyped-def]
            submitted.append(args[0])
            return super().submit(task, *args)

    monkeypatch.setattr(streaming, "PARALLEL_SCAN_BYTES", 0)
    monkeypatch.setattr(streaming, "LocalProcesses", Counted)
    _fork_despite_other_tests(monkeypatch)
    apart = _setup(args)
    # A missing file is named by the scan here, at once.
    assert len(submitted) == (0 if "missing.txt" in inputs else len(args) // 2)
    if isinstance(here, str):
        assert apart == here
        assert here.startswith("line counts differ") or "missing.txt" in here or "nul.txt" in here
    else:
        assert not isinstance(apart, str)
        assert apart.scan == here.scan  # type: ignore[attr-defined]


@needs(DE_EN)
def test_the_narrow_table_is_made_while_big_inputs_are_scanned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the scans run in other processes, the loading thread also makes the narrow table
    of the references' language, the one the chunks are checked with; it is gone before any
    engine starts."""
    import threading

    from matchlight.core.analysis import language, languagemodel
    from matchlight.core.cli import streaming

    monkeypatch.setattr(streaming, "PARALLEL_SCAN_BYTES", 0)
    monkeypatch.setattr(languagemodel, "_NARROW", {})
    _fork_despite_other_tests(monkeypatch)
    before = set(threading.enumerate())
    setup = _setup(
        ["--ref", str(DE_EN / "ref.txt"), "--hyp", str(DE_EN / "sys.LT22.txt")], language=True
    )
    assert not isinstance(setup, str)
    expected = language.expect_language([read_lines(DE_EN / "ref.txt")[: language.EXPECT_LINES]])
    assert expected is not None
    assert list(languagemodel._NARROW) == [expected.accepted]
    assert set(threading.enumerate()) == before  # the loading thread is gone
