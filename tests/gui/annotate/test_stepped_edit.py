"""SteppedEdit (gui/annotate/stepping.py): a large step's slices run over turns of the event
loop, and the observers of the workspace are told in a turn of their own."""

from __future__ import annotations

from collections.abc import Iterator

from matchlight.gui.annotate.stepping import SteppedEdit


def test_a_repeated_progress_ends_the_turn(qtbot) -> None:
    """Quick slices share a turn; after a progress yielded twice, what follows (the workspace
    telling its observers, the longest slice) starts the next turn."""
    edit = SteppedEdit()
    seen: list[tuple[str, int]] = []

    def steps() -> Iterator[tuple[int, int]]:
        for k in range(1, 6):
            seen.append(("slice", edit.turns))
            yield k, 7
        yield 5, 7  # the same again: the observers next
        seen.append(("told", edit.turns))
        yield 7, 7

    finished: list[bool] = []
    edit.start(steps(), lambda ok, error: finished.append(ok))
    qtbot.waitUntil(lambda: finished == [True], timeout=10_000)
    slices = [turn for what, turn in seen if what == "slice"]
    told = [turn for what, turn in seen if what == "told"]
    assert len(set(slices)) == 1  # five quick slices, one turn
    assert told == [slices[-1] + 1]
    assert edit.turns == slices[-1] + 2


def test_no_collection_pass_while_stepping_and_what_it_built_is_frozen(qtbot) -> None:
    """An import's spans live with the comparison: no pass walks them while they come in,
    and once the step is done they are frozen (never walked again)."""
    import gc

    from matchlight.gui.workers import controller as workers

    workers.ensure_main_thread_gc()
    guard = workers._gc_guard
    assert guard is not None
    edit = SteppedEdit()
    built: list[list[dict[str, int]]] = []
    holding: list[bool] = []

    def steps() -> Iterator[tuple[int, int]]:
        for k in range(3):
            built.append([{"n": n} for n in range(20_000)])
            holding.append(guard.holding())
            yield k + 1, 3

    finished: list[bool] = []
    edit.start(steps(), lambda ok, error: finished.append(ok))
    qtbot.waitUntil(lambda: finished == [True], timeout=10_000)
    assert holding == [True, True, True]
    guard.check()  # the guard's timer tick: the step is done
    assert not guard.holding()
    ours = {id(part) for part in built} | {id(part[0]) for part in built}
    assert not any(id(o) in ours for o in gc.get_objects())  # frozen: in no generation
