"""The Open-comparison dialog: prefill, add/remove rows, reading in the background (stoppable),
inline InputError for hostile input, role guessing for dropped files and folders."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from matchlight.core.io.inputs import InputSpec
from matchlight.gui.dialogs.opendialog import (
    LEFT_OUT_DOCUMENT,
    LEFT_OUT_FOLDER,
    LEFT_OUT_METADATA,
    LEFT_OUT_SOURCE,
    LEFT_OUT_UNKNOWN,
    ComparisonSpecs,
    OpenComparisonDialog,
    assign_roles,
    default_system_name,
    recognise_files,
    sample_specs,
)
from matchlight.gui.workers.loader import BackgroundCall
from tests.conftest import SHARED_DATA
from tests.kit import hostile_inputs

DATA = SHARED_DATA
ZH = DATA / "wmt22-en-zh"
SHOTS = Path(os.environ.get("MATCHLIGHT_SHOTS", "/tmp/matchlight-shots"))
TIMEOUT = 60_000


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def small_files(tmp_path):
    ref = write_lines(tmp_path / "ref.txt", ["the cat sat", "a dog barked", "it rained"])
    hyp = write_lines(tmp_path / "sys.alpha.txt", ["the cat sat", "a dog", "rain"])
    return ref, hyp


@pytest.fixture
def dialog(qtbot):
    dlg = OpenComparisonDialog()
    qtbot.addWidget(dlg)
    yield dlg
    dlg.cancel_reading()


def read(qtbot, dialog) -> bool:
    """Press Open and wait for the outcome: True when the dialog accepted the files."""
    outcome: list[bool] = []
    dialog.accepted.connect(lambda: outcome.append(True))
    dialog.read_failed.connect(lambda message: outcome.append(False))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
    qtbot.waitUntil(lambda: bool(outcome), timeout=TIMEOUT)
    return outcome[0]


def test_default_system_name():
    assert default_system_name("/x/sys.fluent.txt") == "fluent"
    assert default_system_name("/x/sys.Online-B.txt") == "Online-B"
    assert default_system_name("/x/hyp.model-3.tsv") == "model-3"
    assert default_system_name("/x/output.txt") == "output"
    assert default_system_name("/x/sys.txt") == "sys"


def test_assign_roles_from_file_names():
    paths = [
        "/d/sys.b.txt",
        "/d/ref2.txt",
        "/d/src.txt",
        "/d/notes.txt",
        "/d/ref.txt",
        "/d/sys.a.txt",
        "/d/source.extra.txt",
        "/d/README.md",
        "/d/SHA256SUMS",
        "/d/docid.txt",
    ]
    found = recognise_files(paths)
    specs = found.specs
    assert specs.source == InputSpec(path="/d/src.txt")
    assert [s.path for s in specs.references] == ["/d/ref.txt", "/d/ref2.txt"]
    assert [(s.name, s.path) for s in specs.systems] == [
        ("a", "/d/sys.a.txt"),
        ("b", "/d/sys.b.txt"),
    ]
    assert dict(found.left_out) == {
        "/d/README.md": LEFT_OUT_DOCUMENT,
        "/d/SHA256SUMS": LEFT_OUT_DOCUMENT,
        "/d/docid.txt": LEFT_OUT_METADATA,
        "/d/notes.txt": LEFT_OUT_UNKNOWN,
        "/d/source.extra.txt": LEFT_OUT_SOURCE,
    }
    assert assign_roles(paths) == specs
    # Without files named like systems, every other text is one (as before).
    specs = assign_roles(["/d/ref.txt", "/d/b.txt", "/d/a.txt", "/d/domain.txt"])
    assert [(s.name, s.path) for s in specs.systems] == [("a", "/d/a.txt"), ("b", "/d/b.txt")]
    # "reference.de.txt" and "refs-1.txt" are references; "refinery.txt" is not.
    specs = assign_roles(["/d/reference.de.txt", "/d/refs-1.txt", "/d/refinery.txt"])
    assert [s.path for s in specs.references] == ["/d/reference.de.txt", "/d/refs-1.txt"]
    assert [s.path for s in specs.systems] == ["/d/refinery.txt"]
    # hyp.* and out.* are systems as much as sys.* are.
    specs = assign_roles(["/d/ref.en", "/d/hyp.m1.en", "/d/out.m2.en", "/d/extra.en"])
    assert [s.name for s in specs.systems] == ["m1", "m2"]


def _dataset_folders() -> list[Path]:
    if not DATA.is_dir():
        pytest.skip("shared/data is not present")
    return sorted(p for p in DATA.iterdir() if p.is_dir() and (p / "ref.txt").exists())


def test_dropped_dataset_folders_are_recognised():
    """Each folder of shared/data, dropped whole or as its files, gives its source, references
    and systems by the data's own conventions, and names everything else it leaves out."""
    for folder in _dataset_folders():
        found = recognise_files([str(folder)])
        specs = found.specs
        source = folder / "src.txt"
        assert specs.source == (InputSpec(path=str(source)) if source.exists() else None)
        refs = [str(p) for p in (folder / "ref.txt", folder / "ref2.txt") if p.exists()]
        assert [s.path for s in specs.references] == refs
        systems = sorted(folder.glob("sys.*.txt"), key=lambda p: p.name.lower())
        assert [s.path for s in specs.systems] == [str(p) for p in systems]
        assert [s.name for s in specs.systems] == [p.name[4:-4] for p in systems]
        used = set(specs.paths)
        others = {str(p) for p in folder.iterdir()} - used
        assert {path for path, _ in found.left_out} == others, folder.name
        reasons = dict(found.left_out)
        assert reasons[str(folder / "README.md")] == LEFT_OUT_DOCUMENT
        assert reasons[str(folder / "SHA256SUMS")] == LEFT_OUT_DOCUMENT
        for path, reason in found.left_out:
            if Path(path).is_dir():
                assert reason == LEFT_OUT_FOLDER
        # Dropping the folder's files (not the folder) gives the same comparison.
        files = [str(p) for p in folder.iterdir() if p.is_file()]
        assert recognise_files(files).specs == specs
        # And it reads: every file of the comparison has the same number of lines.
        assert len(specs.load()) > 0


def test_sample_specs_load():
    specs = sample_specs()
    comparison = specs.load()
    assert [c.name for c in comparison.systems] == ["fluent", "literal", "rough"]
    assert len(comparison.references) == 2
    assert comparison.source is not None
    assert Path(comparison.source.path).name == "src.de.txt"
    assert len(comparison) == 160


def test_specs_json_round_trip_and_garbage():
    specs = ComparisonSpecs(
        source=InputSpec(path="/a/src.tsv", column="de", fmt="tsv"),
        references=(InputSpec(path="/a/ref.txt"),),
        systems=(InputSpec(path="/a/sys.x.jsonl", name="x", column="translation.en"),),
    )
    assert ComparisonSpecs.from_json(specs.to_json()) == specs
    for garbage in (
        None,
        [],
        {"references": [], "systems": [{"path": "x"}]},
        {"references": [{"path": 3}], "systems": [{"path": "x"}]},
        {"references": [{"path": "r"}], "systems": [{"path": "x", "fmt": "docx"}]},
        {"references": [{"path": "r"}], "systems": [{"path": "x", "name": 5}]},
    ):
        with pytest.raises(ValueError):
            ComparisonSpecs.from_json(garbage)


def test_prefilled_dialog_loads_the_comparison(qtbot, dialog, small_files):
    ref, hyp = small_files
    dialog.set_specs(
        ComparisonSpecs(
            references=(InputSpec(path=ref),), systems=(InputSpec(path=hyp, name="alpha"),)
        )
    )
    dialog.open()
    assert read(qtbot, dialog)
    assert dialog.result() == QDialog.DialogCode.Accepted
    comparison = dialog.comparison()
    assert comparison is not None
    assert comparison.systems[0].name == "alpha"
    assert comparison.systems[0].lines == ("the cat sat", "a dog", "rain")
    assert comparison.source is None
    specs = dialog.specs()
    assert specs == ComparisonSpecs(
        source=None, references=(InputSpec(path=ref),), systems=(InputSpec(path=hyp, name="alpha"),)
    )


def test_system_name_follows_the_path_until_edited(dialog, tmp_path):
    row = dialog.systems.rows[0]
    row.path_edit.setText(str(tmp_path / "sys.first.txt"))
    assert row.name_edit.text() == "first"
    row.path_edit.setText(str(tmp_path / "sys.second.txt"))
    assert row.name_edit.text() == "second"
    row.name_edit.setText("my system")
    row.path_edit.setText(str(tmp_path / "sys.third.txt"))
    assert row.name_edit.text() == "my system"
    assert row.spec() == InputSpec(path=str(tmp_path / "sys.third.txt"), name="my system")


def test_add_and_remove_rows(qtbot, dialog, tmp_path):
    dialog.show()
    assert len(dialog.systems.rows) == 1
    assert dialog.systems.rows[0].remove_button.isHidden()  # at least one system stays
    qtbot.mouseClick(dialog.systems.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.systems.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.references.add_button, Qt.MouseButton.LeftButton)
    assert len(dialog.systems.rows) == 3
    assert len(dialog.references.rows) == 2
    assert not any(r.remove_button.isHidden() for r in dialog.systems.rows)
    for i, row in enumerate(dialog.systems.rows):
        row.path_edit.setText(str(tmp_path / f"sys.s{i}.txt"))
    middle = dialog.systems.rows[1]
    qtbot.mouseClick(middle.remove_button, Qt.MouseButton.LeftButton)
    assert [s.name for s in dialog.current_specs().systems] == ["s0", "s2"]
    qtbot.mouseClick(dialog.references.rows[1].remove_button, Qt.MouseButton.LeftButton)
    assert len(dialog.references.rows) == 1
    assert dialog.references.rows[0].remove_button.isHidden()


def test_binary_file_is_reported_inline(qtbot, dialog, small_files, tmp_path):
    ref, _ = small_files
    binary = tmp_path / "sys.broken.txt"
    binary.write_bytes(b"\x00\x01\x02binary\x00junk\n" * 10)
    dialog.set_specs(
        ComparisonSpecs(references=(InputSpec(path=ref),), systems=(InputSpec(path=str(binary)),))
    )
    dialog.open()
    assert not read(qtbot, dialog)
    assert dialog.isVisible()
    message = dialog.error_text()
    assert str(binary) in message
    assert "binary" in message
    assert dialog.comparison() is None


def test_wrong_line_count_names_both_files(qtbot, dialog, small_files, tmp_path):
    ref, hyp = small_files
    short = write_lines(tmp_path / "sys.short.txt", ["only one line"])
    dialog.set_specs(
        ComparisonSpecs(
            references=(InputSpec(path=ref),),
            systems=(InputSpec(path=hyp, name="alpha"), InputSpec(path=short, name="short")),
        )
    )
    dialog.open()
    assert not read(qtbot, dialog)
    message = dialog.error_text()
    assert "line counts differ" in message
    assert f"{short} (system short): 1 line" in message
    assert f"{ref} (reference): 3 lines" in message
    # Fixing the choice (removing the short file) clears the error and opens.
    dialog.systems.remove_row(dialog.systems.rows[1])
    assert read(qtbot, dialog)
    assert dialog.error_text() == ""


def test_missing_reference_is_reported(qtbot, dialog, small_files):
    _, hyp = small_files
    dialog.set_specs(ComparisonSpecs(systems=(InputSpec(path=hyp),)))
    assert not read(qtbot, dialog)
    assert dialog.error_text() == "at least one reference file is needed"


def test_column_and_format_reach_core(qtbot, dialog, tmp_path):
    data = tmp_path / "data.tsv"
    data.write_text("de\ten\tmt\nHallo\thello\thi\nJa\tyes\tyes\n", encoding="utf-8")
    dialog.source_row.set_spec(InputSpec(path=str(data), column="de"))
    dialog.references.rows[0].set_spec(InputSpec(path=str(data), column="en"))
    dialog.systems.rows[0].set_spec(InputSpec(path=str(data), name="mt", column="mt", fmt="tsv"))
    assert read(qtbot, dialog)
    comparison = dialog.comparison()
    assert comparison.source.lines == ("Hallo", "Ja")
    assert comparison.references[0].lines == ("hello", "yes")
    assert comparison.systems[0].lines == ("hi", "yes")
    # Without a column, core's message (naming the file) is shown.
    dialog.systems.rows[0].column_edit.clear()
    assert not read(qtbot, dialog)
    assert str(data) in dialog.error_text()
    assert "needs a column" in dialog.error_text()


def test_screenshot_with_wmt_files(qtbot, dialog, tmp_path):
    if not ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    paths = [str(p) for p in [ZH / "src.txt", *ZH.glob("ref*.txt"), *ZH.glob("sys.*.txt")]]
    dialog.set_specs(assign_roles(paths))
    dialog.systems.add_row(InputSpec(path=str(tmp_path / "missing.txt")))
    dialog.show()
    qtbot.waitExposed(dialog)
    assert not read(qtbot, dialog)
    assert "missing.txt: file not found" in dialog.error_text()
    assert dialog.grab().save(str(tmp_path / "open-dialog.png"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SHOTS / "open-dialog.png"))


# -- hostile input ---------------------------------------------------------------------------


def test_hostile_files_are_refused_inline_naming_the_file(qtbot, dialog, small_files, tmp_path):
    ref, _ = small_files
    dialog.show()
    for name, (path, what) in hostile_inputs(tmp_path).items():
        dialog.set_specs(
            ComparisonSpecs(references=(InputSpec(path=ref),), systems=(InputSpec(path=path),))
        )
        assert not read(qtbot, dialog), name
        message = dialog.error_text()
        assert message.startswith(path), (name, message)
        assert what in message, (name, message)
        assert dialog.isVisible() and dialog.comparison() is None
    dialog.grab().save(str(tmp_path / "open-dialog-hostile.png"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SHOTS / "open-dialog-hostile.png"))


def test_a_lone_surrogate_is_replaced_with_a_warning(qtbot, dialog, tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"t": "a b"}\n{"t": "c d"}\n', encoding="utf-8")
    hyp = tmp_path / "sys.s.jsonl"
    hyp.write_text('{"t": "a \\ud800 b"}\n{"t": "c d"}\n', encoding="utf-8")
    dialog.set_specs(
        ComparisonSpecs(
            references=(InputSpec(path=str(ref), column="t"),),
            systems=(InputSpec(path=str(hyp), column="t"),),
        )
    )
    assert read(qtbot, dialog)
    (system,) = dialog.comparison().systems
    assert system.lines[0] == "a \ufffd b"
    assert any("lone surrogate" in w for w in system.warnings)


def test_reading_can_be_stopped_and_the_dialog_stays(qtbot, small_files):
    ref, hyp = small_files
    release = threading.Event()

    def slow_reader(specs):
        def load(cancel):
            release.wait(30)
            return specs.load()

        return BackgroundCall(load)

    dialog = OpenComparisonDialog(
        ComparisonSpecs(references=(InputSpec(path=ref),), systems=(InputSpec(path=hyp),)),
        read=slow_reader,
    )
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.reading_changed) as started:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
    assert started.args == [True]
    assert dialog.is_reading()
    assert dialog.status_label.text() == "Reading 2 files…"
    cancel = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel.text() == "Stop reading"
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Open).isEnabled()
    assert not dialog.references.isEnabled()  # no edits under a running read
    dialog.grab().save(str(SHOTS / "open-dialog-reading.png"))
    with qtbot.waitSignal(dialog.reading_changed) as stopped:
        qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)  # user input goes through
    assert stopped.args == [False]
    assert dialog.isVisible() and not dialog.is_reading()
    assert dialog.status_label.text() == "Reading stopped."
    assert cancel.text() == "Cancel"
    assert dialog.references.isEnabled()
    # The read finishing late changes nothing.
    with qtbot.assertNotEmitted(dialog.accepted, wait=300):
        release.set()
    assert dialog.comparison() is None
    # Reading again works, and Cancel now closes the dialog.
    assert dialog.start_reading()
    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT):
        pass
    assert dialog.comparison() is not None


def test_left_out_files_are_named(qtbot, tmp_path):
    if not ZH.is_dir():
        pytest.skip("shared/data/wmt22-en-zh is not present")
    found = recognise_files([str(ZH)])
    dialog = OpenComparisonDialog(found.specs, left_out=found.left_out)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    note = dialog.left_out_text()
    assert "Left out (documentation or checksums): README.md, SHA256SUMS" in note
    assert "Left out (per-line metadata, not a text to score): docid.txt, domain.txt" in note
    assert dialog.grab().save(str(tmp_path / "open-dialog-dropped-folder.png"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SHOTS / "open-dialog-dropped-folder.png"))
    assert OpenComparisonDialog().left_out_text() == ""
