"""The Human agreement tab and File ▸ Load human judgements.

The tab's figures are core's (:func:`core.analysis.metaeval.metaevaluate_table` on the same
rows, estimates and clusters), a filter changes them, and a new selection stops a stale run.
Each kind of human file is loaded through the dialog: per system (WMT22 de-en's DA table, column
of choice), per segment long and wide, MQM from WMT21 TED's error spans with its segment-id
file. A bad file is named with its line, a human column per segment survives Save and reopen, the
annotations' MQM column is a human side, and the tab is photographed in the main window.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMainWindow

from matchlight.core.analysis.metaeval import metaevaluate, metaevaluate_table, metric_columns
from matchlight.core.analysis.metatypes import (
    SEGMENT_STATISTICS,
    SYSTEM_STATISTICS,
    HumanColumn,
    MetaEvalResult,
    MetaEvalSettings,
)
from matchlight.core.analysis.selection import SegmentRange, Selection
from matchlight.core.annotation.spanscores import human_from_spans
from matchlight.core.io.human import human_column, read_human
from matchlight.core.io.inputs import InputError
from matchlight.core.metrics.base import ScoreColumn
from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.session.locations import RECOVERY_ENV
from matchlight.gui.charts.agreement import (
    QUICK,
    AgreementPanel,
    compute_agreement,
    human_choices,
)
from matchlight.gui.charts.comparison import ComparisonDocks
from matchlight.gui.charts.humanimport import HumanImportDialog
from matchlight.gui.dialogs.opendialog import assign_roles
from matchlight.gui.state.session import SessionModel
from tests.gui.annotate.annotatekit import (
    Harness,
    add,
    open_in_new_window,
    small_specs,
    wait_scored,
)
from tests.gui.chartkit import DE_EN, accept, dark_palette, de_en, settle, wait_job
from tests.gui.conftest import (
    DATA_DIR,
    SHOTS_DIR,
    Scored,
    first_rows,
    grab_settled,
    scored,
)
from tests.kit import read_lines

TED = DATA_DIR / "wmt21-ted-zh-en-mqm"
TED_MQM = TED / "human" / "mqm_ted_zhen.tsv"
DA = DE_EN / "human" / "da_sys_scores.tsv"
#: Small counts: the tests check the numbers, not the WMT settings' precision.
SMALL = {"resamples": 8, "permutations": 8}


@cache
def ted() -> Scored:
    """WMT21 TED zh-en: 529 segments, 13 systems and ref-A, BLEU, chrF and ROUGE."""
    if not TED_MQM.exists():
        pytest.skip(f"{TED} is not there")
    systems = sorted(TED.glob("sys.*.txt"))
    return scored(
        references=[read_lines(TED / "ref.txt")],
        systems={p.name[4:-4]: read_lines(p) for p in systems},
        source=read_lines(TED / "src.txt"),
        config=ScoringConfig(metrics=("bleu", "chrf", "rouge")),
        reference_names=("refB",),
    )


class Docks:
    """The "Compare systems" dock over a fresh session (its own copy of the scored table)."""

    def __init__(self, qtbot, data: Scored, size=(900, 760)) -> None:
        self.window = QMainWindow()
        # Let go of the session before the window goes (else its end reaches deleted charts).
        qtbot.addWidget(self.window, before_close_func=lambda _: self.docks.set_session(None))
        core = ComparisonSession(
            data.text,
            config=data.config,
            source=data.source,
            reference_names=data.reference_names,
            table=copy.deepcopy(data.table),
        )
        self.session = SessionModel(core)
        self.docks = ComparisonDocks(self.window)
        self.window.resize(*size)
        self.window.show()
        qtbot.waitExposed(self.window)
        self.docks.set_session(self.session)
        wait_job(qtbot, self.docks.audit_job)
        self.panel: AgreementPanel = self.docks.panel.agreement
        self.docks.dock.raise_()
        self.docks.panel.tabs.setCurrentWidget(self.panel)
        self.qtbot = qtbot

    @property
    def core(self) -> ComparisonSession:
        return self.session.session

    def load(self, kind: str, path: Path, **fields: str) -> HumanImportDialog:
        """Fill the dialog as a user would and press OK (it stays open on an error)."""
        dialog = self.docks.show_human_dialog()
        assert dialog is not None
        dialog.set_kind(kind)
        dialog.set_path(str(path))
        wait_job(self.qtbot, dialog.header_job)
        if "column" in fields:
            dialog.column_combo.setCurrentText(fields["column"])
        for name, widget in (
            ("segment_column", dialog.segment_edit),
            ("segment_ids", dialog.segid_edit),
            ("renames", dialog.renames_edit),
            ("name", dialog.name_edit),
        ):
            if name in fields:
                widget.setText(fields[name])
        if "better" in fields:
            dialog.better_combo.setCurrentIndex(dialog.better_combo.findData(fields["better"]))
        accept(self.qtbot, dialog)
        return dialog

    def computed(self, **choices) -> None:
        """Run the tab now with ``choices`` and wait for every stage it runs."""
        panel = self.panel
        panel.set_choices(**choices)
        panel.refresh_now()
        wait_job(self.qtbot, panel.job)
        if not panel.quick_check.isChecked():
            panel.refresh_now()  # the intervals and clusters after the point values
            wait_job(self.qtbot, panel.job)
        assert panel.run is not None, panel.placeholder.text()


def assert_same(shown: MetaEvalResult, expected: MetaEvalResult) -> None:
    """Every estimate, threshold and ranking of two results is the same."""
    assert shown.systems == expected.systems and shown.n_judged == expected.n_judged
    assert [m.name for m in shown.metrics] == [m.name for m in expected.metrics]
    for a, b in zip(shown.metrics, expected.metrics):
        assert dict(a.system) == dict(b.system) and dict(a.segment) == dict(b.segment)
        assert a.acc23_threshold == b.acc23_threshold
    assert shown.rankings == expected.rankings


def shown_cells(panel: AgreementPanel, level: str) -> dict[tuple[str, str], object]:
    """The estimate behind each cell of the table at ``level``, by (metric, statistic)."""
    panel.set_choices(level=level)
    model = panel.model
    statistics = SYSTEM_STATISTICS if level == "system" else SEGMENT_STATISTICS
    return {
        (model.index(r, 0).data(Qt.ItemDataRole.UserRole), s): model.index(r, c + 1).data(
            Qt.ItemDataRole.UserRole
        )
        for r in range(model.rowCount())
        for c, s in enumerate(statistics)
    }


def test_the_tab_shows_core_figures_and_a_filter_changes_them(qtbot) -> None:
    data = ted()
    d = Docks(qtbot, data)
    names = d.core.system_names
    mqm = human_from_spans(
        str(TED_MQM),
        systems=names,
        n_segments=529,
        segment_ids=str(TED / "segid.txt"),
        system_names={"ref": "ref-A"},
    )
    dialog = d.load("spans", TED_MQM, segment_ids=str(TED / "segid.txt"), renames="ref=ref-A")
    assert not dialog.isVisible(), dialog.error_label.text()
    panel = d.panel
    assert panel.human_combo.currentData() == "column:human:MQM"
    table = d.core.table
    keys = ("bleu", "chrf", "rouge1_f", "rouge2_f", "rougeL_f")
    assert panel.metric_keys() == keys  # the headline metrics, not the human column
    d.computed(quick=True)
    everything = metaevaluate_table(table, keys, "human:MQM", settings=QUICK)
    assert_same(panel.run.result, everything)
    cells = shown_cells(panel, "system")
    assert cells[("BLEU", "pearson")] == everything.metric("BLEU").system["pearson"]
    assert panel.model.index(0, 1).data() == f"{everything.metrics[0].system['pearson'].value:.3f}"
    # The scatter: corpus BLEU of each judged system against its mean MQM penalty.
    x, y = panel.scatter.points.getData()
    where = [names.index(s) for s in everything.systems]
    np.testing.assert_array_equal(
        x, [table.corpus(s, metrics=["bleu"]).value("bleu") for s in where]
    )
    np.testing.assert_allclose(y, np.nanmean(mqm.values[where], axis=1), rtol=1e-12)
    assert [label.toPlainText() for label in panel.scatter.labels] == list(everything.systems)

    # A filter: the first 200 segments, now with intervals and clusters.
    d.session.set_selection(Selection((SegmentRange("1-200"),)))
    d.computed(quick=False, **SMALL)
    rows = np.arange(200)
    settings = MetaEvalSettings(confidence_samples=8, permutations=8)
    subset = metaevaluate_table(table, keys, "human:MQM", rows=rows, settings=settings)
    assert_same(panel.run.result, subset)
    assert panel.run.n_rows == 200 and panel.run.filtered
    assert subset.metric("BLEU").system["pearson"].value != (
        everything.metric("BLEU").system["pearson"].value
    )
    segment = shown_cells(panel, "segment")
    assert segment[("chrF2", "kendall_b")] == subset.metric("chrF2").segment["kendall_b"]
    ranking = subset.ranking("segment", "kendall_b")
    cluster = ranking.clusters[ranking.names.index("chrF2")]
    row = [m.name for m in subset.metrics].index("chrF2")
    assert panel.model.index(row, 2).data().split("\n")[0].endswith(f"({cluster})")
    clusters = panel.clusters
    top = [clusters.topLevelItem(i).text(0) for i in range(clusters.topLevelItemCount())]
    assert top == ["Pearson", "Kendall τb", "acc23"]
    # A wide dock (floated, or a big screen): intervals in the cells, scatter and clusters
    # side by side.
    d.window.resize(1280, 720)
    settle()
    assert panel.model.intervals and panel.lower_split.isVisible()
    assert "\n[" in panel.model.index(row, 2).data()
    save_shot(d.window, "agreement-wide-ted-segment-light")


def test_a_new_selection_stops_a_stale_run(qtbot) -> None:
    d = Docks(qtbot, ted())
    d.load("spans", TED_MQM, segment_ids=str(TED / "segid.txt"), renames="ref=ref-A")
    panel = d.panel
    d.computed(quick=True)
    # The WMT settings: minutes of resampling and permutation tests.
    panel.set_choices(quick=False, resamples=1000, permutations=1000)
    panel.refresh_now()
    assert panel.job.running
    stale = panel.job._thread
    d.session.set_selection(Selection((SegmentRange("1-100"),)))
    settle()
    panel.set_choices(quick=True)
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    qtbot.waitUntil(lambda: not stale.is_alive(), timeout=120_000)
    assert panel.run.n_rows == 100 and not panel.run.full
    expected = metaevaluate_table(
        d.core.table, panel.metric_keys(), "human:MQM", rows=np.arange(100), settings=QUICK
    )
    assert_same(panel.run.result, expected)


def test_the_tab_follows_the_selection_by_itself(qtbot) -> None:
    d = Docks(qtbot, ted())
    d.load("spans", TED_MQM, segment_ids=str(TED / "segid.txt"), renames="ref=ref-A")
    panel = d.panel
    panel.set_choices(quick=True)  # scheduled, as a user's choice is: no refresh_now
    qtbot.waitUntil(lambda: panel.run is not None and not panel.job.running, timeout=120_000)
    assert panel.run.n_rows == 529 and not panel.run.filtered
    keys = panel.metric_keys()
    d.session.set_selection(Selection((SegmentRange("101-300"),)))
    qtbot.waitUntil(lambda: panel.run.n_rows == 200 and not panel.job.running, timeout=120_000)
    expected = metaevaluate_table(
        d.core.table, keys, "human:MQM", rows=np.arange(100, 300), settings=QUICK
    )
    assert_same(panel.run.result, expected)
    assert panel.run.filtered
    assert "200 selected segments" in panel.scope_label.text()
    x, _ = panel.scatter.points.getData()
    where = [d.core.system_names.index(s) for s in expected.systems]
    rows = np.arange(100, 300)
    assert x.tolist() == [
        d.core.table.corpus(s, rows, metrics=["bleu"]).value("bleu") for s in where
    ]


def test_cancel_keeps_the_point_values_or_waits_for_a_change(qtbot) -> None:
    d = Docks(qtbot, ted())
    d.load("spans", TED_MQM, segment_ids=str(TED / "segid.txt"), renames="ref=ref-A")
    panel = d.panel
    d.computed(quick=True)
    quick = panel.run
    # The intervals and clusters with the WMT settings: cancelled, Quick is ticked.
    panel.set_choices(quick=False, resamples=1000, permutations=1000)
    panel.refresh_now()
    assert panel.job.running and panel.cancel_button.isVisibleTo(panel)
    panel.cancel_button.click()
    wait_job(qtbot, panel.job)
    assert panel.quick_check.isChecked() and not panel.cancel_button.isVisibleTo(panel)
    panel.refresh_now()
    assert panel.run is quick and not panel.job.running
    assert panel.model.rowCount() == len(quick.result.metrics)
    # The point values of another selection: cancelled, not run again until a change.
    d.session.set_selection(Selection((SegmentRange("1-300"),)))
    panel.refresh_now()
    assert panel.job.running
    panel.cancel_button.click()
    wait_job(qtbot, panel.job)
    panel.refresh_now()
    assert not panel.job.running and panel.run is None
    assert panel.placeholder.text().startswith("Cancelled.")
    d.session.set_selection(Selection((SegmentRange("1-299"),)))
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    assert panel.run.n_rows == 299


def test_judgements_per_system_with_a_column_of_choice(qtbot) -> None:
    data = de_en()
    d = Docks(qtbot, data)
    dialog = d.load("system", DA, column="z_score", name="DA z")
    assert not dialog.isVisible(), dialog.error_label.text()
    offered = [dialog.column_combo.itemText(i) for i in range(dialog.column_combo.count())]
    assert offered[:2] == ["raw_score", "z_score"]  # the header, less the system column
    (judged,) = d.core.system_judgements()
    expected = read_human(
        str(DA), systems=data.text.system_names, n_segments=1984, level="system", column="z_score"
    )
    np.testing.assert_array_equal(judged.values, expected.values)
    assert not d.core.table.has("human:DA z")  # one value per system: no column
    panel = d.panel
    assert panel.human_combo.currentData() == "system:DA z"
    assert "DA z per system" in d.docks.panel.message_label.text()
    d.computed(quick=False, **SMALL)
    keys = panel.metric_keys()
    table = d.core.table
    settings = MetaEvalSettings(confidence_samples=8, permutations=8)
    core = metaevaluate(
        metric_columns(table, keys),
        HumanColumn("DA z", systems=expected.values),
        systems=table.systems,
        settings=settings,
    )
    assert_same(panel.run.result, core)
    assert panel.model.index(0, 1).data(Qt.ItemDataRole.UserRole).low is None  # no resampling
    assert not panel.level_combo.model().item(1).isEnabled()  # no segment level
    x, y = panel.scatter.points.getData()
    np.testing.assert_array_equal(y, expected.values)
    assert x.tolist() == [table.corpus(s, metrics=["bleu"]).value("bleu") for s in range(5)]
    # The other column of the same file, under another name.
    d.load("system", DA, column="raw_score", name="DA raw")
    assert [j.name for j in d.core.system_judgements()] == ["DA z", "DA raw"]
    assert panel.human_combo.currentData() == "system:DA raw"


def write_long_and_wide(folder: Path, systems: tuple[str, ...], values: np.ndarray) -> tuple:
    long = folder / "da_seg.tsv"
    rows = [
        f"{name}\t{i + 1}\t{'NA' if np.isnan(v) else repr(float(v))}"
        for s, name in enumerate(systems)
        for i, v in enumerate(values[s])
    ]
    long.write_text("system\tseg\tscore\n" + "\n".join(rows[::-1]) + "\n", encoding="utf-8")
    wide = folder / "mqm_wide.tsv"
    lines = ["\t".join(systems)] + [
        "\t".join("-" if np.isnan(v) else repr(float(v)) for v in column) for column in values.T
    ]
    wide.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return long, wide


def test_judgements_per_segment_long_and_wide(qtbot, tmp_path: Path) -> None:
    data = de_en()
    d = Docks(qtbot, data)
    systems = data.text.system_names
    rng = np.random.default_rng(4)
    values = np.round(rng.uniform(0, 100, (5, 1984)), 2)
    values[rng.random((5, 1984)) < 0.6] = np.nan  # most pairs not judged
    long, wide = write_long_and_wide(tmp_path, systems, values)
    dialog = d.load("long", long, column="score", segment_column="seg", name="DA")
    assert not dialog.isVisible(), dialog.error_label.text()
    table = d.core.table
    np.testing.assert_array_equal(table.scores[:, :, table.metric_index("human:DA")], values)
    assert table.column_info("human:DA").better == "higher"
    record = {r.key: r for r in d.core.imported_scores()}["human:DA"]
    assert record.files[0].path == str(long) and record.files[0].spec["segment_column"] == "seg"
    d.load("wide", wide, name="MQM")
    np.testing.assert_array_equal(table.scores[:, :, table.metric_index("human:MQM")], values)
    assert table.column_info("human:MQM").better == "lower"  # MQM: a penalty
    panel = d.panel
    assert panel.human_combo.currentData() == "column:human:MQM"
    humans = [panel.human_combo.itemData(i) for i in range(panel.human_combo.count())]
    assert humans == ["column:human:DA", "column:human:MQM"]
    d.computed(quick=True)
    expected = metaevaluate_table(table, panel.metric_keys(), "human:MQM", settings=QUICK)
    assert_same(panel.run.result, expected)
    assert panel.plot.getViewBox().state["yInverted"]  # lower is better, drawn upwards


def test_a_bad_human_file_names_the_file_and_the_line(qtbot, tmp_path: Path) -> None:
    d = Docks(qtbot, de_en())
    bad = tmp_path / "da.tsv"
    bad.write_text("system\tz\nLT22\t-0.1\nPROMT\tabout -0.2\n", encoding="utf-8")
    dialog = d.load("system", bad, column="z")
    assert dialog.isVisible()
    with pytest.raises(InputError) as caught:
        read_human(str(bad), systems=d.core.system_names, n_segments=1, level="system", column="z")
    message = dialog.error_label.text()
    assert message == str(caught.value)
    assert message.startswith(str(bad)) and "line 3" in message
    assert d.core.system_judgements() == ()
    dialog.renames_edit.setText("ref")
    dialog.set_kind("spans")
    accept(qtbot, dialog)
    assert "Systems renamed: 'ref'" in dialog.error_label.text()
    dialog.reject()


def test_compute_agreement_leaves_out_a_metric_without_values(make_scored) -> None:
    data = make_scored(
        references=[["a b c d", "e f g h", "i j k l", "m n o p"]],
        systems={
            "A": ["a b c d", "e f x h", "i y k l", "m n o q"],
            "B": ["a b x d", "e f g h", "z y k l", "q q o p"],
            "C": ["x b c d", "e x x h", "i j k l", "m n o p"],
        },
        config=ScoringConfig(metrics=("bleu", "chrf")),
    )
    core = ComparisonSession(data.text, config=data.config, table=copy.deepcopy(data.table))
    judged = np.array([[1.0, 2, np.nan, 4], [2, 1, 3, 3], [0, 0, 1, 2]])
    core.set_column(human_column("DA", judged), judged)
    comet = np.array([[0.5, 0.6, 0.7, 0.1], [0.2, np.nan, 0.1, 0.3], [0.3, 0.3, 0.3, 0.3]])
    column = ScoreColumn("imported_comet", "COMET", "COMET", "imported", "COMET")
    core.set_column(column, comet)
    (choice, other) = human_choices(core)
    assert choice.id == "column:human:DA" and other.id == "column:imported_comet"
    run = compute_agreement(
        core.table, ["bleu", "chrf", "imported_comet"], choice, rows=np.arange(4), settings=QUICK
    )
    assert run.left_out == ("COMET: no value where humans judged",)
    expected = metaevaluate_table(core.table, ["bleu", "chrf"], "human:DA", settings=QUICK)
    assert_same(run.result, expected)


# -- in the app's own windows ---------------------------------------------------------------------


@pytest.fixture
def recovery(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "recovery"
    monkeypatch.setenv(RECOVERY_ENV, str(folder))
    return folder


def test_a_human_column_survives_save_and_reopen_and_annotations_are_a_human_side(
    qtbot, tmp_path: Path, recovery: Path
) -> None:
    h = Harness(qtbot, tmp_path)
    h.window.show()
    h.open(small_specs(tmp_path / "data"))
    docks = h.window.comparison_docks
    values = np.array([[80.0, 60, np.nan, 70, 90, 50], [85, 40, 75, np.nan, 95, 65]])
    long, _ = write_long_and_wide(tmp_path, ("A", "B"), values)
    dialog = docks.show_human_dialog()
    dialog.set_kind("long")
    dialog.set_path(str(long))
    wait_job(qtbot, dialog.header_job)
    dialog.segment_edit.setText("seg")
    dialog.name_edit.setText("DA")
    accept(qtbot, dialog)
    assert not dialog.isVisible(), dialog.error_label.text()
    # The annotations' MQM column: errors in both systems make it a human side too.
    add(h.c, 0, 0, 4, 7, "major")
    add(h.c, 1, 1, 2, 6, "minor")
    add(h.c, 0, 3, 0, 2, "minor")
    h.settle()
    table = h.window.table
    assert table.has("mqm")
    panel = docks.panel.agreement
    docks.dock.raise_()
    docks.panel.tabs.setCurrentWidget(panel)
    panel.set_choices(human="column:mqm", quick=True)
    panel.refresh_now()
    wait_job(qtbot, panel.job)
    keys = panel.metric_keys()
    assert_same(panel.run.result, metaevaluate_table(table, keys, "mqm", settings=QUICK))
    path = tmp_path / "saved" / "human.matchlight"
    assert h.s.save_session_as(path) == path
    h.window.close()

    other = open_in_new_window(qtbot, tmp_path, path, "second")
    try:
        wait_scored(other)
        reopened = other.window.table
        assert reopened.has("human:DA")
        np.testing.assert_array_equal(
            reopened.scores[:, :, reopened.metric_index("human:DA")], values
        )
        assert reopened.column_info("human:DA") == table.column_info("human:DA")
        agreement = other.window.comparison_docks.panel.agreement
        agreement.refresh_now()
        offered = [agreement.human_combo.itemData(i) for i in range(agreement.human_combo.count())]
        assert "column:human:DA" in offered and "column:mqm" in offered
    finally:
        other.window.close()


def _main_window(qtbot, tmp_path: Path, specs, dark: bool):
    from matchlight.gui.shell.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "matchlight.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, error_sink=lambda t, m: None)
    qtbot.addWidget(window)
    if dark:
        window.setPalette(dark_palette())
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=120_000):
        assert window.open_specs(specs)
    settle()
    docks = window.comparison_docks
    docks.dock.raise_()
    settle()
    return window, docks


def save_shot(widget, name: str) -> Path:
    """``widget`` as a PNG in /tmp/matchlight-shots/agree (every view painted in full)."""
    folder = SHOTS_DIR / "agree"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    assert grab_settled(widget).save(str(path)), f"could not save {path}"
    return path


# Each data set in one palette: a window scores its comparison in full before its shots, and
# the two palettes of both data sets doubled the time of the slowest test of the charts.
@pytest.mark.parametrize(
    ("data", "dark"), [("ted-mqm", False), ("de-en-da", True)], ids=["ted-light", "de-en-dark"]
)
def test_screenshots_in_the_main_window(qtbot, tmp_path: Path, data: str, dark: bool) -> None:
    if not TED_MQM.exists() or not DA.exists():
        pytest.skip("the WMT data is not there")
    if data == "ted-mqm":
        _ted_mqm_shots(qtbot, tmp_path, dark)
    else:
        _de_en_da_shots(qtbot, tmp_path, dark)


def _ted_mqm_shots(qtbot, tmp_path: Path, dark: bool) -> None:
    mode = "dark" if dark else "light"
    paths = [TED / "src.txt", TED / "ref.txt", *sorted(TED.glob("sys.*.txt"))]
    window, docks = _main_window(qtbot, tmp_path, assign_roles(str(p) for p in paths), dark)
    try:
        file_menu = window.file_menu.actions()
        assert docks.load_human_action in file_menu
        dialog = docks.show_human_dialog()
        if dark:
            dialog.setPalette(dark_palette())
        dialog.set_kind("spans")
        dialog.set_path(str(TED_MQM))
        dialog.segid_edit.setText(str(TED / "segid.txt"))
        dialog.renames_edit.setText("ref=ref-A")
        settle()
        save_shot(dialog, f"agreement-dialog-spans-{mode}")
        accept(qtbot, dialog)
        assert not dialog.isVisible(), dialog.error_label.text()
        panel = docks.panel.agreement
        assert docks.panel.tabs.currentWidget() is panel
        panel.set_choices(quick=False, resamples=20, permutations=20)
        panel.refresh_now()
        wait_job(qtbot, panel.job)
        save_shot(window, f"agreement-ted-mqm-quick-{mode}")
        panel.refresh_now()
        wait_job(qtbot, panel.job)
        assert panel.run.full
        settle()
        save_shot(window, f"agreement-ted-mqm-{mode}")
        panel.set_choices(level="segment")
        settle()
        save_shot(window, f"agreement-ted-mqm-segment-{mode}")
    finally:
        window.close()


def _de_en_da_shots(qtbot, tmp_path: Path, dark: bool) -> None:
    mode = "dark" if dark else "light"
    # The first 400 rows of WMT22 de-en (its DA table is per system: the same five systems).
    part = first_rows(DE_EN, tmp_path, 400)
    paths = [part / "src.txt", *part.glob("ref*.txt"), *sorted(part.glob("sys.*.txt"))]
    window, docks = _main_window(qtbot, tmp_path, assign_roles(str(p) for p in paths), dark)
    try:
        dialog = docks.show_human_dialog()
        if dark:
            dialog.setPalette(dark_palette())
        dialog.set_kind("system")
        dialog.set_path(str(DA))
        wait_job(qtbot, dialog.header_job)
        dialog.column_combo.setCurrentText("z_score")
        settle()
        save_shot(dialog, f"agreement-dialog-system-{mode}")
        accept(qtbot, dialog)
        panel = docks.panel.agreement
        panel.set_choices(quick=False, resamples=0, permutations=1000)
        panel.refresh_now()
        wait_job(qtbot, panel.job)
        panel.refresh_now()
        wait_job(qtbot, panel.job)
        assert panel.run.full and panel.run.result.rankings
        settle()
        save_shot(window, f"agreement-de-en-da-{mode}")
    finally:
        window.close()
