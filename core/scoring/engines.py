"""Where a streaming command's chunks are scored: here, in worker processes, or on a cluster.

An :class:`Engine` runs one top-level function (the chunk task, e.g.
:func:`core.io.segmentrows.score_rows`) on many argument tuples, and :func:`ordered` hands the
results back in the order the tasks were given, with a bounded number in flight, so the caller
reads, scores and writes at once with bounded memory. The engines:

* ``local``: worker processes of this machine (forked from this one where that is safe, see
  :func:`core.scoring.engine.process_context`; bound to die with it, :mod:`.lifeline`), or this
  process alone for one worker;
* ``dask``: the workers of a Dask cluster (``dask.distributed``; the extra ``matchlight[dask]``)
  at an address, or of a local cluster started for the run;
* ``ray``: the same on Ray (the extra ``matchlight[ray]``).

Every chunk's statistics are additive and its result depends on its rows only, so the results,
and everything made of them in order, are the same on every engine, however the rows are cut.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from matchlight.core.scoring import lifeline
from matchlight.core.scoring.engine import default_workers, process_context

__all__ = [
    "ENGINES",
    "IN_PROCESS_PAIRS",
    "Engine",
    "EngineError",
    "LocalProcesses",
    "open_engine",
    "ordered",
]

#: The engines by name, as ``--engine`` takes them.
ENGINES: Final[tuple[str, ...]] = ("local", "dask", "ray")

#: Fewer (row, system) pairs than this are scored in this process when the number of workers
#: is left to the engine: starting worker processes, sending them the chunks and warming their
#: tables would cost more than the other cores save (the README gives the measurement).
IN_PROCESS_PAIRS: Final = 4096

#: How a missing engine package is installed.
_EXTRAS: Final[dict[str, str]] = {"dask": "matchlight[dask]", "ray": "matchlight[ray]"}


class EngineError(Exception):
    """An engine cannot run (its package is missing, its cluster cannot be reached); the
    message says what to do."""


Task = Callable[..., Any]


class Engine(ABC):
    """Runs tasks; ``workers`` of them at a time."""

    workers: int
    #: How the engine runs, for messages ("2 local processes", "the Dask cluster at ...").
    description: str
    #: Whether its workers are forked from this process (and so inherit what it loaded).
    forks: bool = False

    @abstractmethod
    def submit(self, task: Task, *args: Any) -> Any:
        """Start ``task(*args)``; returns a handle for :meth:`result`."""

    @abstractmethod
    def result(self, handle: Any) -> Any:
        """The result of a submitted task (waiting for it); its exception if it raised."""

    def close(self) -> None:  # noqa: B027 - nothing to stop by default
        """Stop what the engine started (workers, a local cluster)."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ordered(
    engine: Engine, task: Task, arguments: Iterable[tuple[Any, ...]], *, ahead: int | None = None
) -> Iterator[Any]:
    """``task(*args)`` for each of ``arguments``, run on ``engine``, yielded in the order the
    arguments come. At most ``ahead`` tasks (default: twice the workers, and one more) are
    submitted and not yet yielded, so ``arguments`` is read as the results are taken."""
    window = max(1, ahead if ahead is not None else 2 * engine.workers + 1)
    pending: deque[Any] = deque()
    for args in arguments:
        pending.append(engine.submit(task, *args))
        if len(pending) >= window:
            yield engine.result(pending.popleft())
    while pending:
        yield engine.result(pending.popleft())


class InProcess(Engine):
    """Every task run at once, here: no process to start, no data to copy."""

    workers = 1
    description = "this process"

    def submit(self, task: Task, *args: Any) -> Any:
        return task(*args)

    def result(self, handle: Any) -> Any:
        return handle


class LocalProcesses(Engine):
    """Worker processes of this machine, each bound to die with this one."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"{workers} local processes"
        context = process_context()
        self.forks = context.get_start_method() == "fork"
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=lifeline.bind_to_parent
        )

    def submit(self, task: Task, *args: Any) -> Any:
        return self._pool.submit(task, *args)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _missing(name: str) -> EngineError:
    return EngineError(f"--engine {name} needs {name}: pip install '{_EXTRAS[name]}'")


class DaskEngine(Engine):
    """The workers of a Dask cluster: the one at ``address``, or a local cluster of
    ``workers`` single-threaded processes started here (and stopped by :meth:`close`)."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise _missing("dask") from None
        self._cluster = None
        try:
            if address:
                self._client = Client(address, timeout="30s")
                where = f"the Dask cluster at {address}"
            else:
                self._cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
                self._client = Client(self._cluster)
                where = "a local Dask cluster"
        except (OSError, TimeoutError) as error:
            self.close()
            raise EngineError(
                f"cannot reach {address or 'a local Dask cluster'}: {error}"
            ) from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        self.description = f"{where} ({self.workers} worker threads)"

    def submit(self, task: Task, *args: Any) -> Any:
        return self._client.submit(task, *args, pure=False)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()


class RayEngine(Engine):
    """The workers of a Ray cluster: the one at ``address`` (``auto`` finds a running one), or
    a local one of ``workers`` CPUs started here (and stopped by :meth:`close`)."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise _missing("ray") from None
        self._ray = ray
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
            "configure_logging": False,
        }
        try:
            if address:
                ray.init(address=address, **options)
                where = f"the Ray cluster at {address}"
            else:
                ray.init(num_cpus=workers, **options)
                where = "a local Ray cluster"
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise EngineError(f"cannot start or reach {address or 'Ray'}: {error}") from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", workers)))
        self.description = f"{where} ({self.workers} CPUs)"
        self._remote: dict[Task, Any] = {}

    def submit(self, task: Task, *args: Any) -> Any:
        remote = self._remote.get(task)
        if remote is None:
            remote = self._remote[task] = self._ray.remote(num_cpus=1)(task)
        return remote.remote(*args)

    def result(self, handle: Any) -> Any:
        return self._ray.get(handle)

    def close(self) -> None:
        self._ray.shutdown()


def open_engine(
    name: str, *, workers: int = 0, address: str | None = None, pairs: int | None = None
) -> Engine:
    """The engine ``name`` (:data:`ENGINES`) with ``workers`` workers (0: every core of this
    machine; a cluster at ``address`` has the workers it has). ``pairs``, the (row, system)
    pairs to score, when known: with ``workers`` 0, fewer than :data:`IN_PROCESS_PAIRS` are
    scored in this process. Raises :class:`EngineError`."""
    count = workers or default_workers()
    if name == "local":
        if address:
            raise EngineError("--engine-address is for --engine dask or --engine ray")
        small = not workers and pairs is not None and pairs < IN_PROCESS_PAIRS
        return InProcess() if count == 1 or small else LocalProcesses(count)
    if name == "dask":
        return DaskEngine(count, address)
    if name == "ray":
        return RayEngine(count, address)
    raise EngineError(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")
