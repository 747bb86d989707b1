"""Balance lab for three island games: batch simulators, bots and balance reports."""

import os
import shutil
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

try:
    __version__ = version("island-balance-lab")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0"

__all__ = ["SimResult", "simulate", "__version__"]

STALE_CACHE_S = 3600  # compiled code of other source versions is removed after an hour unused


def _source_keyed_numba_cache() -> None:
    """Point numba's on-disk cache at a folder named by a hash of the sources compiled code uses.

    numba checks only the file of each cached function, but the engines inline bots, rules and the
    random streams from other modules: an edit there would silently run stale compiled code. With the
    folder keyed on every source compiled code is built from (``sim.core.sources``: the modules using
    numba and all they import), an edit there compiles afresh once; an edit of an analysis, reference
    or plotting module does not. Folders (and memo files) of other source versions unused for an hour
    are removed. An explicit ``NUMBA_CACHE_DIR`` is left alone.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    package = Path(__file__).resolve().parent
    parent = package / "__pycache__"
    if not os.access(package, os.W_OK):
        parent = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "island-balance-lab"
    from sim.core.sources import compiled_digest

    folder = parent / f"numba-{compiled_digest(package, parent)}"
    folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)
    for other in [*parent.glob("numba-*"), *parent.glob("sources-*")]:
        if other != folder and time.time() - other.stat().st_mtime > STALE_CACHE_S:
            if other.is_dir():
                shutil.rmtree(other, ignore_errors=True)
            else:
                other.unlink(missing_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)  # inherited by worker processes
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = str(folder)


_source_keyed_numba_cache()


def __getattr__(name: str):
    """``sim.simulate`` and ``sim.SimResult`` without importing the runner on ``import sim``."""
    if name in ("simulate", "SimResult"):
        from sim.core import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
