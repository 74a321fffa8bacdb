"""The "Compare systems" dock in a window with the real segment table and filter bar: loading
segment scores (the column joins the table, the filters, the charts and the significance tests;
bad files are reported by file and line), loading a label column, the reference warning, the
chart-selection strip, and screenshots of the whole window."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox, QMainWindow, QSplitter, QTableView

from matchlight.core.analysis.columnstats import significance_by_column
from matchlight.core.io.inputs import InputError
from matchlight.core.io.scores import ScoreSpec, read_scores
from matchlight.gui.charts.comparison import ComparisonDocks
from matchlight.gui.dialogs.opendialog import assign_roles, sample_specs
from matchlight.gui.table.filterbar import FilterBar
from matchlight.gui.table.model import SegmentTableModel
from matchlight.gui.table.proxy import SegmentFilterProxy
from tests.gui.chartkit import (
    DE_EN,
    EN_ZH,
    accept,
    click_at,
    dark_palette,
    de_en,
    en_zh,
    session_of,
    settle,
    wait_job,
)


class Window:
    """A main window with a segment table (model, proxy, view), a filter bar and the dock."""

    def __init__(self, qtbot, data, *, size=(1400, 900)) -> None:
        self.window = QMainWindow()
        qtbot.addWidget(self.window)
        self.session = session_of(data, own_table=True)
        self.model = SegmentTableModel(self.session)
        self.proxy = SegmentFilterProxy()
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.filter_bar = FilterBar()
        self.filter_bar.set_proxy(
            self.proxy,
            text_columns=[],
            systems=data.text.system_names,
            metrics=data.table.columns,
        )
        central = QSplitter(Qt.Orientation.Vertical)
        central.addWidget(self.filter_bar)
        central.addWidget(self.view)
        self.window.setCentralWidget(central)
        self.docks = ComparisonDocks(self.window, table_view=self.view, filter_bar=self.filter_bar)
        self.window.resize(*size)
        self.window.show()
        qtbot.waitExposed(self.window)
        self.docks.set_session(self.session)
        wait_job(qtbot, self.docks.audit_job)

    @property
    def panel(self):
        return self.docks.panel


def write_scores(folder: Path, data, values: np.ndarray) -> list[str]:
    """One TSV per system, named after it, with a header: a tool's output."""
    paths = []
    for s, name in enumerate(data.text.system_names):
        path = folder / f"sys.{name}.tsv"
        path.write_text(
            "score\n" + "".join(f"{v!r}\n" for v in values[s].tolist()), encoding="utf-8"
        )
        paths.append(str(path))
    return paths


def test_loading_segment_scores_adds_a_column_everywhere(qtbot, sample, tmp_path: Path) -> None:
    w = Window(qtbot, sample)
    values = np.random.default_rng(7).uniform(0.2, 0.9, size=(3, 160))
    values[1, 10:14] = np.nan
    paths = write_scores(tmp_path, sample, values)
    for s, path in enumerate(paths):
        if s == 1:  # missing values written as NA
            text = Path(path).read_text(encoding="utf-8").replace("nan", "NA")
            Path(path).write_text(text, encoding="utf-8")
    added: list[str] = []
    w.docks.column_added.connect(added.append)
    assert w.docks.load_scores_action.isEnabled()
    dialog = w.docks.show_score_dialog()
    dialog.name_edit.setText("COMET-22")
    dialog.set_files(paths)
    dialog.column_edit.setText("score")
    accept(qtbot, dialog)
    assert not dialog.isVisible() and not dialog.error_label.isVisible()
    assert added == ["imported_comet_22"]
    table = w.session.table
    key = added[0]
    expected = read_scores(
        [ScoreSpec(p, column="score") for p in paths],
        systems=sample.text.system_names,
        n_segments=160,
        name="COMET-22",
    )
    np.testing.assert_array_equal(table.scores[:, :, table.metric_index(key)], expected.values)
    assert table.column_info(key).label == "COMET-22"
    # The table shows it, the filters offer it, the charts offer it.
    assert key in w.model.shown_scores
    assert w.filter_bar.range_metric_combo.findData(key) >= 0
    w.panel.distributions.refresh_now()
    assert w.panel.distributions.metric_combo.findData(key) >= 0
    # The significance tests include it: the same numbers as core's.
    sig = w.panel.significance
    sig.refresh_now()
    sig.run(n_samples=200)
    wait_job(qtbot, sig.job)
    headers = [
        sig.model.headerData(c, Qt.Orientation.Horizontal) for c in range(sig.model.columnCount())
    ]
    assert "COMET-22 (μ ± 95% CI)" in headers
    column = headers.index("COMET-22 (μ ± 95% CI)")
    (test,) = significance_by_column(table, [key], baseline=0, n_samples=200)
    assert sig.model.index(1, column).data(Qt.ItemDataRole.UserRole) == test.result.systems[1]
    assert test.incomplete == 4
    assert "4 segments lack a value" in sig.caption.text()
    assert "Added COMET-22" in w.panel.message_label.text()


def test_a_bad_score_file_is_reported_by_file_and_line(qtbot, sample, tmp_path: Path) -> None:
    w = Window(qtbot, sample)
    values = np.full((3, 160), 0.5)
    paths = write_scores(tmp_path, sample, values)
    lines = Path(paths[2]).read_text(encoding="utf-8").split("\n")
    lines[5] = "0.4x"
    Path(paths[2]).write_text("\n".join(lines), encoding="utf-8")
    dialog = w.docks.show_score_dialog()
    dialog.name_edit.setText("human")
    dialog.set_files(paths)
    dialog.column_edit.setText("score")
    accept(qtbot, dialog)
    assert dialog.isVisible()
    message = dialog.error_label.text()
    with pytest.raises(InputError) as caught:
        read_scores(
            [ScoreSpec(p, column="score") for p in paths],
            systems=sample.text.system_names,
            n_segments=160,
            name="human",
        )
    assert message == str(caught.value)
    assert message.startswith(paths[2]) and "line 6" in message
    assert not any(c.startswith("imported") for c in w.session.table.column_keys)
    dialog.name_edit.clear()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert "Name the score" in dialog.error_label.text()
    dialog.reject()


def test_loading_a_label_column(qtbot, tmp_path: Path) -> None:
    data = en_zh()
    w = Window(qtbot, data)
    dialog = w.docks.show_label_dialog()
    short = tmp_path / "domain.txt"
    short.write_text("news\nsocial\n", encoding="utf-8")
    dialog.path_edit.setText(str(short))
    accept(qtbot, dialog)
    assert dialog.isVisible()
    assert dialog.error_label.text().startswith(str(short))
    assert "has 2 labels, but the comparison has 2037 segments" in dialog.error_label.text()
    dialog.path_edit.setText(str(EN_ZH / "domain.txt"))
    accept(qtbot, dialog)
    assert not dialog.isVisible()
    assert list(w.docks.link.labels) == ["domain"]
    buckets = w.panel.buckets
    assert w.panel.tabs.currentWidget() is buckets
    assert buckets.by == "label:domain"


def test_the_reference_warning_shows_above_every_tab(qtbot) -> None:
    w = Window(qtbot, en_zh())
    assert w.panel.warning_label.isVisible()
    assert "ref2 looks made from Online-B's output: 373 of 2037 lines" in (
        w.panel.warning_label.text()
    )
    assert w.panel.tabs.tabText(w.panel.tabs.indexOf(w.panel.references)).endswith("⚠")
    w2 = Window(qtbot, de_en())
    assert not w2.panel.warning_label.isVisible()


def test_the_strip_says_what_the_chart_selection_holds(qtbot, sample) -> None:
    w = Window(qtbot, sample)
    distributions = w.panel.distributions
    distributions.refresh_now()
    distributions.set_choices(metric="bleu", brush=0)
    distributions.refresh_now()
    assert distributions.select_score_bin(2)
    label = w.panel.brush_label.text()
    assert label.startswith("Chart selection — BLEU of fluent in [10, 15)")
    assert w.panel.clear_button.isVisible()
    assert w.proxy.rowCount() == int(distributions.score_counts[0][2])
    w.panel.clear_button.click()
    assert w.proxy.rowCount() == 160 and not w.panel.clear_button.isVisible()


def test_no_comparison_no_actions(qtbot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    docks = ComparisonDocks(window)
    assert not docks.load_scores_action.isEnabled()
    assert docks.show_score_dialog() is None
    panel = docks.panel.distributions
    panel.refresh_now()
    assert panel.placeholder.text().startswith("Open a comparison")


@pytest.mark.parametrize("dataset", ["de-en", "en-zh"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_window_screenshots(qtbot, save_shot, dataset: str, dark: bool) -> None:
    data = de_en() if dataset == "de-en" else en_zh()
    w = Window(qtbot, data)
    if dark:
        w.window.setPalette(dark_palette())
    for index in range(w.panel.tabs.count()):
        w.panel.tabs.setCurrentIndex(index)
        page = w.panel.tabs.currentWidget()
        page.refresh_now()
        job = getattr(page, "job", None)
        if job is not None:
            if page is w.panel.significance:
                page.run(n_samples=300)
            wait_job(qtbot, job)
        settle()
        name = page.title.lower().replace(" ", "-")
        save_shot(w.window, f"charts-window-{dataset}-{'dark' if dark else 'light'}-{name}")


# -- in the main window ---------------------------------------------------------------------------


def main_window(qtbot, tmp_path: Path):
    from matchlight.gui.shell.mainwindow import MainWindow

    errors: list[tuple[str, str]] = []
    settings = QSettings(str(tmp_path / "matchlight.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings, error_sink=lambda t, m: errors.append((t, m)))
    qtbot.addWidget(window)
    docks = window.comparison_docks
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    return window, docks, errors


def open_in(qtbot, window, specs) -> None:
    with qtbot.waitSignal(window.controller.scoring_finished, timeout=120_000):
        assert window.open_specs(specs)
    settle()


def test_in_the_main_window(qtbot, tmp_path: Path, save_shot) -> None:
    window, docks, errors = main_window(qtbot, tmp_path)
    try:
        assert docks.dock in window.tabifiedDockWidgets(window.summary_dock)
        open_in(qtbot, window, sample_specs())
        assert docks.link.session is window.session and errors == []
        docks.dock.raise_()
        scatter = docks.panel.scatter
        docks.panel.tabs.setCurrentWidget(scatter)
        settle()
        scatter.set_choices(metric="bleu", x=0, y=2)
        scatter.refresh_now()
        settle()
        # The segment whose point is farthest from any other: a click there is unambiguous.
        gap = np.hypot(
            scatter.xs[:, None] - scatter.xs[None, :], scatter.ys[:, None] - scatter.ys[None, :]
        )
        np.fill_diagonal(gap, np.inf)
        segment = int(scatter.rows[np.argmax(gap.min(axis=1))])
        table = window.table
        click_at(
            qtbot,
            scatter.graphics,
            scatter.box,
            table.value("bleu", 0, segment),
            table.value("bleu", 2, segment),
        )
        assert window.current_segment() == segment
        save_shot(window, "charts-mainwindow-sample-scatter")
    finally:
        window.close()


@pytest.mark.parametrize("dataset", ["de-en", "en-zh"])
def test_main_window_screenshots(qtbot, tmp_path: Path, save_shot, dataset: str) -> None:
    folder = DE_EN if dataset == "de-en" else EN_ZH
    if not folder.is_dir():
        pytest.skip(f"{folder} is not there")
    window, docks, _ = main_window(qtbot, tmp_path)
    try:
        paths = [folder / "src.txt", *folder.glob("ref*.txt"), *folder.glob("sys.*.txt")]
        open_in(qtbot, window, assign_roles(str(p) for p in paths))
        docks.dock.raise_()
        settle()
        for page in docks.panel.panels():
            docks.panel.tabs.setCurrentWidget(page)
            page.refresh_now()
            job = getattr(page, "job", None)
            if job is not None:
                if page is docks.panel.significance:
                    page.run()
                wait_job(qtbot, job)
            settle()
            name = page.title.lower().replace(" ", "-")
            save_shot(window, f"charts-mainwindow-{dataset}-{name}")
        if dataset == "en-zh":
            assert "ref2 looks made from Online-B" in docks.panel.warning_label.text()
    finally:
        window.close()


def test_the_load_actions_and_the_dock_toggle_are_in_the_menus(qtbot, tmp_path: Path) -> None:
    window, docks, _ = main_window(qtbot, tmp_path)
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    file_actions = menus["File"].actions()
    for action in docks.actions():
        assert action in file_actions
    assert docks.dock.toggleViewAction() in menus["View"].actions()
