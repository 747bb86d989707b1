"""Compiling the engines: once per machine and version of the sources, never silently.

numba compiles a game's engine the first time it runs and keeps the machine code in its on-disk cache
(``NUMBA_CACHE_DIR``, a folder per version of the sources: see ``sim/__init__.py``). That first
compile takes tens of seconds, so it is announced on stderr ("compiling the Island Nation engine,
about 24 s, once per machine") and done in the calling process before any worker starts (the workers
then load the cached code instead of each compiling it again). A marker file per game in the cache
folder records that the engine's ordinary path (the default bots) is compiled, so a warm cache stays
silent.

``python -m sim.core.warm`` (run by ``make install``) compiles every engine, two at a time.
"""

from __future__ import annotations

import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pydantic import BaseModel

from sim.core.game import GameSpec

# Cold compile of each engine on the project's 2-core machine, for the announcement: compile_s of
# `make first-hour` (reports/bench.json, 2026-12-03, quiet machine). Other games: no estimate.
COMPILE_S = {"ocracoke": 17, "island-nation": 24, "wonderful-island": 44}


def display_name(spec: GameSpec) -> str:
    """The game's English name for messages: 'Island Nation (同島一命)' -> 'Island Nation'."""
    latin = re.sub(r"[^\x00-\x7f]+", "", spec.title).replace("()", "").strip()
    return latin.removeprefix("The ") or spec.name


def _marker(spec: GameSpec) -> Path | None:
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) / f"{spec.name}.compiled" if folder else None


def is_compiled(spec: GameSpec) -> bool:
    """Whether this machine's cache holds the engine of ``spec`` for the current sources."""
    marker = _marker(spec)
    return marker is not None and marker.exists()


def announcement(spec: GameSpec) -> str:
    about = f", about {COMPILE_S[spec.name]} s" if spec.name in COMPILE_S else ""
    return f"compiling the {display_name(spec)} engine{about}, once per machine"


def is_engine(spec: GameSpec) -> bool:
    """Whether ``spec`` is one of the project's engines (``sim/games``), the ones worth announcing."""
    return getattr(spec.play, "__module__", "").startswith("sim.games.")


def ensure_compiled(spec: GameSpec, rules: BaseModel | None = None, announce: bool = True,
                    trace: bool = False) -> float:
    """Compile the engine of ``spec`` (its default bots, by playing one game under ``rules``, by default
    the base scenario's; with ``trace``, also the replay of one game) unless the cache already holds it;
    say so on stderr first. Returns the seconds it took (0 when warm)."""
    if not is_engine(spec) or is_compiled(spec):
        return 0.0
    if rules is None:
        from sim.core.scenario import load_scenario

        rules = load_scenario(spec.name, spec.rules_model, "base").rules
    if announce:
        print(announcement(spec), file=sys.stderr, flush=True)
    return _play_and_mark(spec, rules, spec.policy_array(rules, None), trace, _marker(spec))


def _play_and_mark(spec: GameSpec, rules: BaseModel, policy, trace: bool, marker: Path | None) -> float:
    """Play game 0 (and, with ``trace``, replay it) so numba compiles what it runs, then leave ``marker``
    holding the seconds it took. Returns them."""
    began = time.perf_counter()
    spec.play(rules, policy, 0, 0, 1)
    if trace:
        spec.trace(rules, policy, 0, 0)
    elapsed = time.perf_counter() - began
    if marker is not None:
        marker.write_text(f"{elapsed:.1f}\n")
    return elapsed


def _search_marker(spec: GameSpec) -> Path | None:
    marker = _marker(spec)
    return marker.with_suffix(".search.compiled") if marker else None


def _search_compiled(spec: GameSpec) -> bool:
    """Whether ``spec`` has no search bot to compile, or this machine's cache holds it."""
    marker = _search_marker(spec)
    return spec.search is None or not is_engine(spec) or (marker is not None and marker.exists())


def ensure_search_compiled(spec: GameSpec) -> float:
    """Compile the search bot of ``spec`` (every role searching: one game played and one replayed)
    unless the cache already holds it. Returns the seconds it took (0 when warm or no search bot)."""
    if _search_compiled(spec):
        return 0.0
    from sim.core.scenario import load_scenario

    rules = load_scenario(spec.name, spec.rules_model, "base").rules
    policy = spec.policy_array(rules, {"all": spec.search.name})
    return _play_and_mark(spec, rules, policy, True, _search_marker(spec))


def _compile_one(name: str, search: bool = False) -> tuple[str, float]:
    """The engine of game ``name`` and, with ``search``, its search bot, in one process (the search
    reuses the engine's functions compiled just before)."""
    from sim.core.registry import get_game

    spec = get_game(name)
    seconds = ensure_compiled(spec, announce=False, trace=True)
    return name, seconds + (ensure_search_compiled(spec) if search else 0.0)


def warm_all(jobs: int = 2, quiet: bool = False, search: bool = False) -> dict[str, float]:
    """Compile every registered engine not yet in the cache (with ``search``, also every search bot:
    the test suite plays them all), ``jobs`` at a time (each in its own process, the slowest to
    compile first); returns the seconds each game took (0 for those already compiled)."""
    from sim.core.registry import all_games

    games = all_games()
    cold = [name for name, spec in games.items()
            if not is_compiled(spec) or (search and not _search_compiled(spec))]
    say = (lambda text: None) if quiet else (lambda text: print(text, file=sys.stderr, flush=True))
    what = "engines and search bots" if search else "engines"
    if not cold:
        say(f"numba cache: every engine{' and search bot' if search else ''} is already compiled for these sources")
        return dict.fromkeys(games, 0.0)
    cold.sort(key=lambda name: -COMPILE_S.get(name, 30))
    about = sum(COMPILE_S.get(name, 30) for name in cold) / max(1, min(jobs, len(cold)))
    say(f"numba cache: compiling the {what} of {len(cold)} games once for this machine ({', '.join(cold)}; "
        f"{'' if search else f'about {about:.0f} s '}on two cores), so that the first run of each is fast")
    began = time.perf_counter()
    times = dict.fromkeys(games, 0.0)
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(cold)))) as pool:
        for name, seconds in pool.map(_compile_one, cold, [search] * len(cold)):
            times[name] = seconds
            say(f"  compiled {name} in {seconds:.0f} s")
    say(f"numba cache: warm ({time.perf_counter() - began:.0f} s), in {os.environ.get('NUMBA_CACHE_DIR')}")
    return times


if __name__ == "__main__":
    import sim  # noqa: F401  (sets NUMBA_CACHE_DIR)

    warm_all()
