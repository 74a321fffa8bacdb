"""File ▸ Export CSV: the per-sentence scores of every row, or of the rows the filter keeps.

The file is core's (:func:`~core.io.export.write_csv`, the same columns ``matchlight score
--csv`` writes, with its sidecar), written atomically and never over an input or the session
file (safewrite refuses session files). Before every row is scored (scoring was cancelled) only
the scored rows are written, and the status message says so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, Slot
from PySide6.QtWidgets import QFileDialog, QWidget

from matchlight.core.io.export import comparison_inputs, write_csv
from matchlight.gui.shell.lifecycle import comparison_name

__all__ = ["CsvExport", "SavePathProvider", "default_save_path"]

# ``save_path_provider(parent, caption, suggested) -> path or None``.
SavePathProvider = Callable[[QWidget, str, str], "str | None"]


def default_save_path(parent: QWidget, caption: str, suggested: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(
        parent, caption, suggested, QCoreApplication.translate("exports", "CSV files (*.csv)")
    )
    return path or None


def _rows(count: int) -> str:
    if count == 1:
        return QCoreApplication.translate("CsvExport", "{0:,} row").format(count)
    return QCoreApplication.translate("CsvExport", "{0:,} rows").format(count)


class CsvExport(QObject):
    """The window's CSV exports (all rows, or the filtered ones)."""

    def __init__(self, window: Any, save_path: SavePathProvider) -> None:
        super().__init__(window)
        self.window = window
        self.save_path = save_path

    def name(self) -> str:
        """The comparison's short name, for suggested file names."""
        core = self.window.lifecycle.core
        if core is None or core.comparison is None:
            return "matchlight"
        return comparison_name(core.specs, core.comparison)

    @Slot()
    def ask_all(self) -> None:
        self._ask(filtered=False)

    @Slot()
    def ask_filtered(self) -> None:
        self._ask(filtered=True)

    def _ask(self, *, filtered: bool) -> None:
        table = self.window.table
        if table is None or self.window.comparison is None:
            return
        stem = self.name() or "matchlight"
        partial = not table.complete
        suffix = ("-filtered" if filtered else "") + ("-partial" if partial else "")
        suggested = str(Path.home() / f"{stem}{suffix}.csv")
        caption = (
            QCoreApplication.translate("CsvExport", "Export filtered rows as CSV")
            if filtered
            else QCoreApplication.translate("CsvExport", "Export all rows as CSV")
        )
        if partial:
            caption += QCoreApplication.translate(
                "CsvExport", " (only the {0} scored so far)"
            ).format(_rows(table.n_done))
        path = self.save_path(self.window, caption, suggested)
        if path:
            self.export_csv(path, filtered=filtered)

    def export_csv(self, path: str | Path, *, filtered: bool = False) -> Path | None:
        """Write the per-sentence CSV; its path, or None when it could not be written (the user
        is told why)."""
        w = self.window
        table, core = w.table, w.lifecycle.core
        if table is None or core is None or core.comparison is None:
            w.report_error(
                QCoreApplication.translate("CsvExport", "Nothing to export"),
                QCoreApplication.translate("CsvExport", "Open a comparison first."),
            )
            return None
        rows = core.selected_rows() if filtered else None
        if not table.complete:
            done = np.flatnonzero(table.done)
            rows = done if rows is None else np.intersect1d(rows, done)
        try:
            write_csv(
                path,
                table,
                rows=None if rows is None else rows.tolist(),
                inputs=comparison_inputs(core.comparison),
            )
        except OSError as exc:
            w.report_error(
                QCoreApplication.translate("CsvExport", "Cannot export"),
                f"{exc.filename or path}: {exc.strerror or exc}",
            )
            return None
        count = table.n_segments if rows is None else len(rows)
        note = ""
        if not table.complete:
            note = QCoreApplication.translate(
                "CsvExport", " (only the rows scored so far: scoring stopped at {0:,} of {1:,})"
            ).format(table.n_done, table.n_segments)
        w.statusBar().showMessage(
            QCoreApplication.translate("CsvExport", "Exported {0} to {path}{note}").format(
                _rows(count), path=path, note=note
            ),
            10_000,
        )
        return Path(path)
