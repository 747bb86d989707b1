"""Dask for runs bigger than one machine: the same chunks, on a cluster's workers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sim.core.errors import UserError

CONNECT_TIMEOUT_S = 10


@contextmanager
def dask_client(scheduler: str | None, jobs: int) -> Iterator[object]:
    """A client of the cluster at ``scheduler``, or of a local cluster bound to 127.0.0.1.

    The local cluster's nannies do not set ``MALLOC_TRIM_THRESHOLD_``: measured here, that
    distributed default makes numpy-heavy chunks 2-3x slower.
    """
    try:
        import dask
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UserError("--backend dask needs the cluster extra: pip install -e '.[cluster]'") from None
    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserError(f"--scheduler {scheduler}: cannot reach a Dask scheduler there within "
                            f"{CONNECT_TIMEOUT_S} s ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"
                            ) from None
        with client:
            yield client
        return
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), \
            LocalCluster(host="127.0.0.1", n_workers=jobs, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster, Client(cluster) as client:
        yield client
