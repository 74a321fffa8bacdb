"""A table model answering the roles the highlight delegate reads, over a corpus.

:class:`TextModel` stands in for :class:`~gui.table.model.SegmentTableModel` in the delegate's
tests and benchmark: it gives :data:`~gui.table.model.COLUMN_KIND_ROLE`,
:data:`~gui.table.model.SEGMENT_ROLE`, :data:`~gui.table.model.SYSTEM_ROLE`,
:data:`~gui.table.model.REF_ROLE` and the display text, which is all the delegate relies on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from matchlight.core.text.corpus import CorpusText
from matchlight.gui.table.model import COLUMN_KIND_ROLE, REF_ROLE, SEGMENT_ROLE, SYSTEM_ROLE

_ROOT = QModelIndex()


class TextModel(QAbstractTableModel):
    """The roles the delegate reads (:mod:`gui.table.model`'s), over a :class:`CorpusText`.

    Columns: the segment number, the source, the references, then each system's output and its
    sentence BLEU (when a score table is given). ``order[row]`` is the segment shown in ``row``
    (a sorted table).
    """

    def __init__(
        self,
        text: CorpusText,
        source: Sequence[str] | None,
        table: Any = None,
        order: Sequence[int] | None = None,
    ) -> None:
        super().__init__()
        self.text, self.source, self.table = text, source, table
        columns: list[tuple[str, int | None, int | None]] = [("segment", None, None)]
        if source is not None:
            columns.append(("source", None, None))
        columns += [("reference", None, r) for r in range(len(text.references))]
        for s in range(len(text.systems)):
            columns.append(("hypothesis", s, None))
            if table is not None:
                columns.append(("score", s, None))
        self.columns = columns
        self.order = list(range(len(text))) if order is None else list(order)
        self.rows = {segment: row for row, segment in enumerate(self.order)}
        #: Per segment: a background colour the model gives its cells (BackgroundRole).
        self.backgrounds: dict[int, Any] = {}

    def rowCount(self, parent: Any = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.order)

    def columnCount(self, parent: Any = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        kind, system, reference = self.columns[index.column()]
        segment = self.order[index.row()]
        role = int(role)
        if role == COLUMN_KIND_ROLE:
            return kind
        if role == SEGMENT_ROLE:
            return segment
        if role == SYSTEM_ROLE:
            return system
        if role == REF_ROLE:
            return reference
        if role == int(Qt.ItemDataRole.BackgroundRole):
            return self.backgrounds.get(segment)
        if role == int(Qt.ItemDataRole.TextAlignmentRole):
            right = kind in ("score", "segment")
            return Qt.AlignmentFlag.AlignRight if right else Qt.AlignmentFlag.AlignLeft
        if role != int(Qt.ItemDataRole.DisplayRole):
            return None
        if kind == "segment":
            return str(segment + 1)
        if kind == "source":
            return self.source[segment]
        if kind == "reference":
            return self.text.references[reference][segment]
        if kind == "hypothesis":
            return self.text.systems[system][segment]
        return f"{self.table.value('bleu', system, segment):.1f}"

    def kind(self, col: int) -> str:
        return self.columns[col][0]

    def hypothesis_column(self, system: int) -> int:
        return self.columns.index(("hypothesis", system, None))

    def reference_column(self, reference: int) -> int:
        return self.columns.index(("reference", None, reference))

    def score_column(self, system: int) -> int:
        return self.columns.index(("score", system, None))

    def source_column(self) -> int:
        return self.columns.index(("source", None, None))

    def text_columns(self) -> list[int]:
        kinds = ("source", "reference", "hypothesis")
        return [c for c, (kind, _, _) in enumerate(self.columns) if kind in kinds]
