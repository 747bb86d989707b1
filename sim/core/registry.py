"""The registry of games: every package under ``sim/games/`` that exposes ``GAME``."""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import cache

from sim.core.errors import UserError
from sim.core.game import GameSpec


def _packages() -> list[str]:
    import sim.games

    return [info.name for info in pkgutil.iter_modules(sim.games.__path__) if info.ispkg]


def _spec_of(package: str) -> GameSpec | None:
    spec = getattr(importlib.import_module(f"sim.games.{package}"), "GAME", None)
    return spec if isinstance(spec, GameSpec) else None


@cache
def all_games() -> dict[str, GameSpec]:
    """Game name (as typed on the command line, e.g. ``island-nation``) to its spec; imports every game."""
    specs = (_spec_of(package) for package in _packages())
    return dict(sorted((spec.name, spec) for spec in specs if spec is not None))


def package_of(name: str) -> str:
    """The package under ``sim/games`` a game of this name lives in (``island-nation``: ``island_nation``)."""
    return name.replace("-", "_")


def get_game(name: str) -> GameSpec:
    """One game by name, importing only its own package (``package_of``)."""
    package = package_of(name)
    if package in _packages():
        spec = _spec_of(package)
        if spec is not None and spec.name == name:
            return spec
    games = all_games()
    if name in games:
        return games[name]
    hint = difflib.get_close_matches(name, list(games), n=1)
    raise UserError(f"unknown game {name!r}: expected one of {', '.join(games) or '(none)'}"
                    + (f" (did you mean {hint[0]!r}?)" if hint else ""))
