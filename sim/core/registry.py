"""The registry of games: every package under ``sim/games/`` that exposes ``GAME``."""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import cache

from sim.core.errors import UserError
from sim.core.game import GameSpec


@cache
def all_games() -> dict[str, GameSpec]:
    """Game name (as typed on the command line, e.g. ``island-nation``) to its spec."""
    import sim.games

    games: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(sim.games.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"sim.games.{info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            games[spec.name] = spec
    return dict(sorted(games.items()))


def get_game(name: str) -> GameSpec:
    games = all_games()
    if name in games:
        return games[name]
    hint = difflib.get_close_matches(name, list(games), n=1)
    raise UserError(f"unknown game {name!r}: expected one of {', '.join(games) or '(none)'}"
                    + (f" (did you mean {hint[0]!r}?)" if hint else ""))
