"""Balance lab for three island games: batch simulators, bots and balance reports."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("island-balance-lab")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0"

__all__ = ["SimResult", "simulate", "__version__"]


def __getattr__(name: str):
    """``sim.simulate`` and ``sim.SimResult`` without importing the runner on ``import sim``."""
    if name in ("simulate", "SimResult"):
        from sim.core import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
