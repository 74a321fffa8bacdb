"""SegmentTableModel: scores-first columns from the registry, values straight from the
ScoreTable, chunked updates and the baseline through the comparison session."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex, Qt

from matchlight.core.scoring.config import ScoringConfig
from matchlight.core.scoring.engine import iter_score_chunks, score_corpus
from matchlight.core.scoring.results import ScoreTable
from matchlight.core.session.comparison import ComparisonSession
from matchlight.core.text.corpus import corpus_text_from_lines
from matchlight.gui.state.session import SessionModel
from matchlight.gui.table.model import (
    COLUMN_KIND_ROLE,
    PENDING,
    RECORD_ROLE,
    REF_ROLE,
    SEGMENT_ROLE,
    SHORT_TITLE_ROLE,
    SORT_ROLE,
    SYSTEM_ROLE,
    ColumnInfo,
    SegmentTableModel,
)

DISPLAY = Qt.ItemDataRole.DisplayRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole


def session_of(data: Any, table: ScoreTable | None = None) -> SessionModel:
    core = ComparisonSession(
        data.text,
        config=data.config,
        source=data.source,
        reference_names=data.reference_names,
        table=data.table if table is None else table,
    )
    return SessionModel(core)


def model_of(data: Any, table: ScoreTable | None = None, **kw: Any) -> SegmentTableModel:
    return SegmentTableModel(session_of(data, table), **kw)


def bare_model(text: Any, source: list[str] | None, config: ScoringConfig) -> SegmentTableModel:
    table = score_corpus(text, config)
    core = ComparisonSession(text, config=config, source=source, table=table)
    return SegmentTableModel(SessionModel(core))


def empty_table(data: Any) -> ScoreTable:
    return ScoreTable(
        systems=data.text.system_names,
        n_segments=len(data.text),
        config=data.config,
        nrefs=len(data.text.references),
    )


def headers(model: SegmentTableModel) -> list[str]:
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


def test_columns_of_the_sample(sample: Any) -> None:
    """The texts, each output followed by its scores and (but the baseline's) its differences;
    the table shows a score by its metric, next to its system's output."""
    model = model_of(sample)
    assert headers(model) == [
        "#",
        "Source",
        "ref.en",
        "ref2.en",
        "fluent",
        "fluent BLEU",
        "fluent R-L",
        "literal",
        "literal BLEU",
        "literal ΔBLEU",
        "literal R-L",
        "literal ΔR-L",
        "rough",
        "rough BLEU",
        "rough ΔBLEU",
        "rough R-L",
        "rough ΔR-L",
    ]
    shown = [model.headerData(c, Qt.Orientation.Horizontal, SHORT_TITLE_ROLE) for c in range(8)]
    assert shown == ["#", "Source", "ref.en", "ref2.en", "fluent", "BLEU", "R-L", "literal"]
    assert model.headerData(9, Qt.Orientation.Horizontal, SHORT_TITLE_ROLE) == "ΔBLEU"
    assert model.column_info(0) == ColumnInfo("segment")
    assert model.column_info(3) == ColumnInfo("reference", reference=1)
    assert model.column_info(4) == ColumnInfo("hypothesis", system=0)
    assert model.column_info(5) == ColumnInfo("score", system=0, metric="bleu")
    assert model.column_info(6) == ColumnInfo("score", system=0, metric="rougeL_f")
    assert model.column_info(14) == ColumnInfo("delta", system=2, metric="bleu")
    assert model.numeric_runs() == [(5, 6), (8, 11), (13, 16)]
    assert model.rowCount() == 160
    # Roles describing the column agree with column_info everywhere.
    for col in range(model.columnCount()):
        info = model.column_info(col)
        index = model.index(7, col)
        assert index.data(COLUMN_KIND_ROLE) == info.kind
        assert index.data(SYSTEM_ROLE) == info.system
        assert index.data(REF_ROLE) == info.reference
        assert index.data(SEGMENT_ROLE) == 7
    with pytest.raises(IndexError):
        model.column_info(model.columnCount())


def test_the_shown_score_columns_come_from_the_registry_and_can_change(
    qtbot: Any, sample: Any
) -> None:
    model = model_of(sample)
    assert model.shown_scores == ("bleu", "rougeL_f")  # each metric's primary column
    with qtbot.waitSignal(model.modelReset):
        model.set_shown_scores(["rouge1_f", "hyp_len", "nope", "rouge2_p"])
    # Only score columns the table has; counts are not per-system score columns.
    assert model.shown_scores == ("rouge1_f", "rouge2_p")
    assert headers(model)[4:7] == ["fluent", "fluent R-1", "fluent R-2 P"]
    assert "rough ΔR-2 P" in headers(model)


def test_one_system_and_no_source_has_no_delta_or_source_column() -> None:
    text = corpus_text_from_lines(references=[["a b c"]], systems=[["a b"]], names=["only"])
    model = bare_model(text, None, ScoringConfig())
    assert headers(model) == ["#", "Reference", "only", "only BLEU", "only R-L"]


def test_scores_are_read_from_the_score_table(sample: Any) -> None:
    model = model_of(sample)
    table = sample.table
    rows = range(0, 160, 7)
    for col in model.columns_of_kind("score"):
        info = model.column_info(col)
        for row in rows:
            expected = table.value(info.metric, info.system, row)
            index = model.index(row, col)
            assert index.data(SORT_ROLE) == expected
            assert index.data(DISPLAY) == f"{expected:.1f}"
        np.testing.assert_array_equal(model.values(col), table.column(info.metric, info.system))
    for col in model.columns_of_kind("delta"):
        info = model.column_info(col)
        expected = table.column(info.metric, info.system) - table.column(info.metric, 0)
        np.testing.assert_allclose(model.values(col), expected)
        for row in rows:
            shown = model.index(row, col).data(DISPLAY)
            rounded = round(expected[row], 1)  # no sign where the difference shows as none
            assert shown == ("0.0" if rounded == 0 else f"{rounded:+.1f}")
            assert model.index(row, col).data(SORT_ROLE) == pytest.approx(expected[row])


def test_text_columns_show_the_original_text(sample: Any) -> None:
    model = model_of(sample)
    source = model.columns_of_kind("source")[0]
    for row in (0, 59, 159):
        assert model.index(row, 0).data(DISPLAY) == str(row + 1)
        assert model.index(row, 0).data(SORT_ROLE) == row
        assert model.index(row, source).data(DISPLAY) == sample.source[row]  # type: ignore[index]
        for r in range(2):
            col = model.reference_column(r)
            assert model.index(row, col).data(DISPLAY) == sample.text.references[r][row]
        for s in range(3):
            col = model.hypothesis_column(s)
            assert model.index(row, col).data(DISPLAY) == sample.text.systems[s][row]
            assert model.index(row, col).data(SORT_ROLE) == sample.text.systems[s][row]


def test_special_characters_are_passed_through_verbatim() -> None:
    odd = ['<b>bold</b> & "quotes"', "tab\there", "line\u2028separator", "שלום עולם", ""]
    text = corpus_text_from_lines(references=[odd], systems=[list(reversed(odd))], names=["s"])
    model = bare_model(text, odd, ScoringConfig())
    source = model.columns_of_kind("source")[0]
    ref = model.reference_column(0)
    for row, line in enumerate(odd):
        assert model.index(row, source).data(DISPLAY) == line
        assert model.index(row, ref).data(DISPLAY) == line
    # The tooltip of a text cell is rich text, so it must be escaped.
    assert "&lt;b&gt;bold&lt;/b&gt; &amp;" in model.index(0, source).data(TOOLTIP)
    assert model.index(4, source).data(TOOLTIP) == "(empty)"


def test_record_role_is_the_segment_scores(sample: Any) -> None:
    model = model_of(sample, shown=["rouge2_f"])
    col = model.score_column(1, "rouge2_f")
    record = model.index(42, col).data(RECORD_ROLE)
    assert record == sample.table.segment(1, 42)
    assert record.scores["rouge2_f"] == sample.table.value("rouge2_f", 1, 42)
    assert model.index(42, model.hypothesis_column(2)).data(RECORD_ROLE) == sample.table.segment(
        2, 42
    )
    assert model.index(42, model.reference_column(0)).data(RECORD_ROLE) is None


def test_tooltips_give_the_metrics_other_columns(sample: Any) -> None:
    model = model_of(sample)
    table = sample.table
    tip = model.index(10, model.score_column(0, "rougeL_f")).data(TOOLTIP)
    p, r, f = (table.value(f"rougeL_{x}", 0, 10) for x in "prf")
    assert f"ROUGE-L F {f:.2f}" in tip and f"ROUGE-L P {p:.2f}" in tip
    assert f"ROUGE-L R {r:.2f}" in tip and f"ROUGE-1 F {table.value('rouge1_f', 0, 10):.2f}" in tip
    bleu_tip = model.index(10, model.score_column(0, "bleu")).data(TOOLTIP)
    assert f"BLEU {table.value('bleu', 0, 10):.2f}" in bleu_tip
    assert f"Output tokens {int(table.value('hyp_len', 0, 10))}" in bleu_tip
    delta_tip = model.index(10, model.delta_column(1, "bleu")).data(TOOLTIP)
    assert "literal − fluent (baseline)" in delta_tip


def test_model_passes_qtmodeltester(qtmodeltester, sample: Any) -> None:
    qtmodeltester.check(model_of(sample))


def test_unscored_rows_show_pending_and_chunks_fill_them(qtbot, qtmodeltester, sample) -> None:
    table = empty_table(sample)
    model = model_of(sample, table)
    qtmodeltester.check(model)
    bleu_col = model.score_column(0, "bleu")
    assert model.index(0, bleu_col).data(DISPLAY) == PENDING
    assert math.isnan(model.index(0, bleu_col).data(SORT_ROLE))
    assert model.index(0, bleu_col).data(RECORD_ROLE) is None
    assert "not scored yet" in model.index(0, bleu_col).data(TOOLTIP)
    assert model.index(0, model.delta_column(1)).data(DISPLAY) == PENDING

    numeric = set(model.columns_of_kind("score") + model.columns_of_kind("delta"))
    changed: list[tuple[int, int, int, int]] = []
    model.dataChanged.connect(
        lambda tl, br, roles=(): changed.append((tl.row(), br.row(), tl.column(), br.column()))
    )
    chunks = list(iter_score_chunks(sample.text, sample.config, chunk_size=50, first_chunk_size=20))
    assert [(c.start, c.stop) for c in chunks][:3] == [(0, 20), (20, 70), (70, 120)]
    for chunk in chunks:
        changed.clear()
        with qtbot.waitSignal(model.dataChanged):
            model.session.apply_chunk(chunk)  # the session stores it and tells the model
        # Only this chunk's rows, only score/delta columns, and all of them.
        assert {(a, b) for a, b, _, _ in changed} == {(chunk.start, chunk.stop - 1)}
        covered = {c for _, _, first, last in changed for c in range(first, last + 1)}
        assert covered == numeric
    expected = sample.table
    for s in range(3):
        for metric in ("bleu", "rougeL_f"):
            np.testing.assert_allclose(
                model.values(model.score_column(s, metric)), expected.column(metric, s)
            )
    assert model.index(159, bleu_col).data(DISPLAY) == f"{expected.value('bleu', 0, 159):.1f}"


def test_a_new_baseline_moves_the_delta_columns_to_the_old_baselines_group(
    qtbot, qtmodeltester, sample: Any
) -> None:
    model = model_of(sample)
    qtmodeltester.check(model)
    before = model.columnCount()
    with qtbot.waitSignal(model.modelReset):
        model.session.session.set_baseline(2)
    qtmodeltester.check(model)
    assert model.columnCount() == before
    assert model.baseline == 2
    assert headers(model)[4:12] == [
        "fluent",
        "fluent BLEU",
        "fluent ΔBLEU",
        "fluent R-L",
        "fluent ΔR-L",
        "literal",
        "literal BLEU",
        "literal ΔBLEU",
    ]
    assert [model.column_info(c).system for c in model.columns_of_kind("delta")] == [0, 0, 1, 1]
    delta = model.delta_column(0, "bleu")
    table = sample.table
    expected = table.column("bleu", 0) - table.column("bleu", 2)
    np.testing.assert_allclose(model.values(delta), expected)
    assert model.index(3, delta).data(SORT_ROLE) == pytest.approx(expected[3])
    with qtbot.assertNotEmitted(model.modelReset):
        model.session.session.set_baseline(2)
    with pytest.raises(ValueError):
        model.session.session.set_baseline(3)


def test_new_settings_keep_the_view_when_the_columns_stay(qtbot, sample: Any) -> None:
    model = model_of(sample)
    core = model.session.session
    lowercase = sample.config.with_settings("bleu", lowercase=True)
    with qtbot.assertNotEmitted(model.modelReset), qtbot.waitSignal(model.dataChanged):
        table = core.set_config(lowercase)
    assert model.table is table and table.n_done == 0
    col = model.score_column(1, "bleu")
    assert model.index(5, col).data(DISPLAY) == PENDING

    with qtbot.waitSignal(model.modelReset):
        core.set_config(ScoringConfig(metrics=("rouge",)))
    assert "fluent BLEU" not in headers(model)
    assert "fluent R-L" in headers(model)


def test_a_100k_row_model_reads_its_arrays() -> None:
    # (qtmodeltester walks every cell; it runs on the same model class above.)
    n = 100_000
    words = ["alpha beta", "beta gamma delta", "gamma"]
    text = corpus_text_from_lines(
        references=[[words[i % 3] for i in range(n)]],
        systems=[[words[(i + 1) % 3] for i in range(n)], [words[i % 3] for i in range(n)]],
        names=["a", "b"],
    )
    config = ScoringConfig()
    table = ScoreTable(systems=("a", "b"), n_segments=n, config=config, nrefs=1)
    rng = np.random.default_rng(1)
    table.scores[:] = rng.uniform(0, 100, table.scores.shape)
    table.done[: n // 2] = True
    table.scores[:, n // 2 :] = np.nan
    model = SegmentTableModel(SessionModel(ComparisonSession(text, config=config, table=table)))
    assert model.rowCount() == n
    col = model.score_column(1, "bleu")
    assert model.index(n // 2 - 1, col).data(SORT_ROLE) == table.value("bleu", 1, n // 2 - 1)
    assert model.index(n - 1, col).data(DISPLAY) == PENDING
    assert model.index(n - 1, model.reference_column(0)).data(DISPLAY) == words[(n - 1) % 3]
    assert model.data(QModelIndex()) is None


def test_every_role_the_model_answers_is_declared(sample: Any, monkeypatch) -> None:
    """ANSWERED_ROLES lets the proxy skip the others; it must not drop any the model answers."""
    import matchlight.gui.table.model
    from matchlight.gui.table.proxy import SegmentFilterProxy

    model = model_of(sample)
    cells = [(row, col) for row in (0, 7) for col in range(model.columnCount())]
    roles = range(int(Qt.ItemDataRole.UserRole) + 64)

    def answered() -> set[int]:
        return {
            role
            for role in roles
            for row, col in cells
            if model.data(model.index(row, col), role) is not None
        }

    declared = answered()
    assert declared == set(matchlight.gui.table.model.ANSWERED_ROLES)
    monkeypatch.setattr(
        matchlight.gui.table.model, "ANSWERED_ROLES", frozenset(roles)
    )  # no shortcut at all
    assert answered() == declared
    monkeypatch.undo()
    # The proxy's shortcut gives what the model gives, cell for cell and role for role.
    proxy = SegmentFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(model.hypothesis_column(0), Qt.SortOrder.DescendingOrder)
    for prow in (0, 5):
        for col in range(model.columnCount()):
            source = proxy.mapToSource(proxy.index(prow, col))
            assert source == model.index(source.row(), col)
            for role in roles:
                assert proxy.index(prow, col).data(role) == source.data(role)
