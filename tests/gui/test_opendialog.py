"""The Open-comparison dialog: prefill, add/remove rows, inline InputError, role guessing."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from matchlight.core.io.inputs import InputSpec
from matchlight.gui.dialogs.opendialog import (
    ComparisonSpecs,
    OpenComparisonDialog,
    assign_roles,
    default_system_name,
    sample_specs,
)

ZH = Path(__file__).resolve().parents[3] / "shared" / "data" / "wmt22-en-zh"
SHOTS = Path(os.environ.get("MATCHLIGHT_SHOTS", "/tmp/matchlight-shots"))


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
    return dlg


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
    ]
    specs = assign_roles(paths)
    assert specs.source == InputSpec(path="/d/src.txt")
    assert [s.path for s in specs.references] == ["/d/ref.txt", "/d/ref2.txt"]
    # A second source-like file and unknown files become systems.
    assert [(s.name, s.path) for s in specs.systems] == [
        ("notes", "/d/notes.txt"),
        ("source.extra", "/d/source.extra.txt"),
        ("a", "/d/sys.a.txt"),
        ("b", "/d/sys.b.txt"),
    ]
    # "reference.de.txt" and "refs-1.txt" are references; "refinery.txt" is not.
    specs = assign_roles(["/d/reference.de.txt", "/d/refs-1.txt", "/d/refinery.txt"])
    assert [s.path for s in specs.references] == ["/d/reference.de.txt", "/d/refs-1.txt"]
    assert [s.path for s in specs.systems] == ["/d/refinery.txt"]


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
    with qtbot.waitSignal(dialog.accepted):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
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
    with qtbot.assertNotEmitted(dialog.accepted, wait=10):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
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
    assert not dialog.validate()
    message = dialog.error_text()
    assert "line counts differ" in message
    assert f"{short} (system short): 1 line" in message
    assert f"{ref} (reference): 3 lines" in message
    # Fixing the choice (removing the short file) clears the error and opens.
    dialog.systems.remove_row(dialog.systems.rows[1])
    with qtbot.waitSignal(dialog.accepted):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Open).click()
    assert dialog.error_text() == ""


def test_missing_reference_is_reported(dialog, small_files):
    _, hyp = small_files
    dialog.set_specs(ComparisonSpecs(systems=(InputSpec(path=hyp),)))
    assert not dialog.validate()
    assert dialog.error_text() == "at least one reference file is needed"


def test_column_and_format_reach_core(qtbot, dialog, tmp_path):
    data = tmp_path / "data.tsv"
    data.write_text("de\ten\tmt\nHallo\thello\thi\nJa\tyes\tyes\n", encoding="utf-8")
    dialog.source_row.set_spec(InputSpec(path=str(data), column="de"))
    dialog.references.rows[0].set_spec(InputSpec(path=str(data), column="en"))
    dialog.systems.rows[0].set_spec(InputSpec(path=str(data), name="mt", column="mt", fmt="tsv"))
    assert dialog.validate()
    comparison = dialog.comparison()
    assert comparison.source.lines == ("Hallo", "Ja")
    assert comparison.references[0].lines == ("hello", "yes")
    assert comparison.systems[0].lines == ("hi", "yes")
    # Without a column, core's message (naming the file) is shown.
    dialog.systems.rows[0].column_edit.clear()
    assert not dialog.validate()
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
    assert not dialog.validate()
    assert "missing.txt: file not found" in dialog.error_text()
    assert dialog.grab().save(str(tmp_path / "open-dialog.png"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SHOTS / "open-dialog.png"))
