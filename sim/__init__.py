"""Balance lab for three island games: batch simulators, bots and balance reports."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("island-balance-lab")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0"

from sim.core.runner import SimResult, simulate  # noqa: E402

__all__ = ["SimResult", "simulate", "__version__"]
