"""The workspace's count of undecided spans per output, kept as spans come and go (what the
review box shows after an import of 100,000), always equals counting them one by one.

Real WMT22 outputs, spans drawn at random on them; edits, reviews, deletions, a large import
applied in slices, its undo and redo, in a random order.
"""

from __future__ import annotations

import random
from collections import Counter

from matchlight.core.annotation.history import AddSpan, Batch, DeleteSpan, UpdateSpan
from matchlight.core.annotation.model import Status
from matchlight.core.annotation.review import reviewed
from matchlight.core.annotation.workspace import AnnotationWorkspace
from tests.core.annotation.test_workspace_bulk import N_SEGMENTS, SYSTEMS, draw, lines  # noqa: F401


def counted(ws: AnnotationWorkspace) -> Counter[tuple[str, int]]:
    return Counter((s.system, s.segment) for s in ws.spans() if s.status is Status.UNDECIDED)


def test_the_undecided_count_follows_every_kind_of_change(lines) -> None:  # noqa: F811
    rng = random.Random(16)
    ws = AnnotationWorkspace(
        systems=SYSTEMS, n_segments=N_SEGMENTS, spans=draw(rng, lines, 40), annotator="ann"
    )
    assert ws.status_counts(Status.UNDECIDED) == counted(ws) and sum(counted(ws).values()) == 40
    for round_ in range(60):
        spans = ws.spans()
        kind = rng.randrange(6)
        if kind == 0 or not spans:
            ws.execute(AddSpan(draw(rng, lines, 1)[0]))
        elif kind == 1:
            before = rng.choice(spans)
            status = rng.choice([s for s in Status if s is not before.status])
            after = before.edited(category="Accuracy/Mistranslation")
            ws.execute(UpdateSpan(before, reviewed(after, status, "ann")))
        elif kind == 2:
            ws.execute(DeleteSpan(rng.choice(spans)))
        elif kind == 3:
            batch = Batch(tuple(AddSpan(s) for s in draw(rng, lines, 300)), label="Import")
            for _ in ws.execute_in_steps(batch, 50):
                pass
        elif kind == 4 and ws.history.can_undo:
            if ws.is_large(ws.history.peek_undo(), 50):
                for _ in ws.undo_in_steps(50):
                    pass
            else:
                ws.undo()
        elif ws.history.can_redo:
            if ws.is_large(ws.history.peek_redo(), 50):
                for _ in ws.redo_in_steps(50):
                    pass
            else:
                ws.redo()
        assert ws.status_counts(Status.UNDECIDED) == counted(ws), round_
    assert sum(counted(ws).values()) > 0
