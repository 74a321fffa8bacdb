"""core.scoring.engines: tasks run anywhere come back in order, with a bounded number ahead."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from matchlight.core.scoring.engines import (
    ENGINES,
    EngineError,
    InProcess,
    LocalProcesses,
    open_engine,
    ordered,
)


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_in_order_and_arguments_are_read_as_they_go(workers: int) -> None:
    read: list[int] = []

    def arguments() -> Iterator[tuple[int]]:
        for i in range(40):
            read.append(i)
            yield (i,)

    with open_engine("local", workers=workers) as engine:
        assert isinstance(engine, InProcess if workers == 1 else LocalProcesses)
        results = []
        for k, value in enumerate(ordered(engine, square, arguments(), ahead=3)):
            results.append(value)
            assert len(read) <= k + 3  # never more than `ahead` tasks beyond what was taken
    assert results == [i * i for i in range(40)]


def test_a_task_that_raises_raises_in_the_caller() -> None:
    with open_engine("local", workers=2) as engine, pytest.raises(ValueError, match="three"):
        list(ordered(engine, fail_on_three, [(i,) for i in range(6)]))


def test_engine_names_and_misuse() -> None:
    from matchlight.core.cli.options import ENGINE_NAMES

    assert ENGINE_NAMES == ENGINES  # the parser's choices, written out so --help imports none
    with pytest.raises(EngineError, match="unknown engine 'spark'"):
        open_engine("spark")
    with pytest.raises(EngineError, match="--engine-address is for --engine dask or --engine ray"):
        open_engine("local", address="tcp://host:8786")


def test_a_missing_cluster_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_cluster(name: str, *args: object, **kwargs: object) -> object:
        if name.split(".")[0] in ("dask", "ray"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_cluster)
    for name in ("dask", "ray"):
        with pytest.raises(EngineError) as error:
            open_engine(name, workers=1)
        assert str(error.value) == f"--engine {name} needs {name}: pip install 'matchlight[{name}]'"


def test_a_small_input_is_scored_here_unless_workers_are_asked_for() -> None:
    from matchlight.core.scoring.engine import default_workers
    from matchlight.core.scoring.engines import IN_PROCESS_PAIRS

    with open_engine("local", pairs=IN_PROCESS_PAIRS - 1) as engine:
        assert isinstance(engine, InProcess)
    with open_engine("local", workers=2, pairs=10) as engine:
        assert isinstance(engine, LocalProcesses) and engine.workers == 2
    with open_engine("local", pairs=IN_PROCESS_PAIRS) as engine:
        assert isinstance(engine, InProcess if default_workers() == 1 else LocalProcesses)
    with open_engine("local") as engine:  # size unknown
        assert isinstance(engine, InProcess if default_workers() == 1 else LocalProcesses)
