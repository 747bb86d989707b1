"""Compiling the engines: once per machine and version of the sources, never silently.

numba compiles a game's engine the first time it runs and keeps the machine code in its on-disk cache
(``NUMBA_CACHE_DIR``, a folder per version of the sources: see ``sim/__init__.py``). That first
compile takes tens of seconds, so it is announced on stderr ("compiling the Island Nation engine,
about 19 s, once per machine") and done in the calling process before any worker starts (the workers
then load the cached code instead of each compiling it again). A marker file per game in the cache
folder records that the engine's ordinary path (the default bots) is compiled, so a warm cache stays
silent; two more per game record its search bot (``<game>.search.compiled``) and its analyses' own
compiled entry points, e.g. counterfactual batches (``<game>.analyses.compiled``, from the game's
``extras["warm_analyses"]``).

``python -m sim.core.warm`` (run by ``make install``) compiles every engine, each game in a process of its
own, all at once. The test suite's warm-up (``warm_all(search=True, only=...)``, tests/conftest.py) runs all
three steps of each game whose tests were collected (and of no other game), each game's steps in order in
one process, so that no test worker compiles any of them again.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from pydantic import BaseModel

from sim.core.game import GameSpec

# Cold compile of each engine on the project's 2-core machine, for the announcement: compile_s of
# `make first-hour` (reports/bench.json, 2026-12-03, quiet machine). Other games: no estimate.
COMPILE_S = {"ocracoke": 13, "island-nation": 19, "wonderful-island": 24}


def display_name(spec: GameSpec) -> str:
    """The game's English name for messages: 'Island Nation (同島一命)' -> 'Island Nation'."""
    latin = re.sub(r"[^\x00-\x7f]+", "", spec.title).replace("()", "").strip()
    return latin.removeprefix("The ") or spec.name


# A game's warm-up steps, in order (each reuses what the one before compiled): the engine (default
# bots, one game played and replayed), the search bot, the analyses. Estimated seconds of each on the
# project's 2-core machine (engine: COMPILE_S; search and analyses: the marker files of a cold run,
# 2026-12-03, two steps at a time), only to order the games; other games: 30 s a step.
STEPS = ("engine", "search", "analyses")
STEP_S = {"ocracoke": (13, 47, 24), "island-nation": (19, 24, 5), "wonderful-island": (24, 15, 3)}


def _marker(spec: GameSpec, step: str = "engine") -> Path | None:
    """The file in the cache folder recording that ``step`` of ``spec`` is compiled: ``<game>.compiled``
    for the engine, ``<game>.<step>.compiled`` for the others."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    name = spec.name if step == "engine" else f"{spec.name}.{step}"
    return Path(folder) / f"{name}.compiled" if folder else None


def is_compiled(spec: GameSpec, step: str = "engine") -> bool:
    """Whether this machine's cache holds ``step`` of ``spec`` (by default its engine) for the current
    sources."""
    marker = _marker(spec, step)
    return marker is not None and marker.exists()


def announcement(spec: GameSpec) -> str:
    about = f", about {COMPILE_S[spec.name]} s" if spec.name in COMPILE_S else ""
    return f"compiling the {display_name(spec)} engine{about}, once per machine"


def is_engine(spec: GameSpec) -> bool:
    """Whether ``spec`` is one of the project's engines (``sim/games``), the ones worth announcing."""
    return getattr(spec.play, "__module__", "").startswith("sim.games.")


def _to_compile(spec: GameSpec, step: str) -> bool:
    """Whether ``step`` of ``spec`` has compiled code the cache does not hold yet (a game without a
    search bot, or without ``extras["warm_analyses"]``, has none for that step)."""
    present = {"engine": True, "search": spec.search is not None, "analyses": "warm_analyses" in spec.extras}
    return is_engine(spec) and present[step] and not is_compiled(spec, step)


def _base_rules(spec: GameSpec) -> BaseModel:
    from sim.core.scenario import load_scenario

    return load_scenario(spec.name, spec.rules_model, "base").rules


def _play(spec: GameSpec, rules: BaseModel, policy, trace: bool) -> None:
    """Play game 0 (and, with ``trace``, replay it) so numba compiles what it runs."""
    spec.play(rules, policy, 0, 0, 1)
    if trace:
        spec.trace(rules, policy, 0, 0)


def _timed_and_marked(spec: GameSpec, step: str, compile_step: Callable[[], object]) -> float:
    """Run ``compile_step``, then leave the step's marker holding the seconds it took. Returns them."""
    began = time.perf_counter()
    compile_step()
    elapsed = time.perf_counter() - began
    if (marker := _marker(spec, step)) is not None:
        marker.write_text(f"{elapsed:.1f}\n")
    return elapsed


def ensure_compiled(spec: GameSpec, rules: BaseModel | None = None, announce: bool = True,
                    trace: bool = False) -> float:
    """Compile the engine of ``spec`` (its default bots, by playing one game under ``rules``, by default
    the base scenario's; with ``trace``, also the replay of one game) unless the cache already holds it;
    say so on stderr first. Returns the seconds it took (0 when warm)."""
    if not _to_compile(spec, "engine"):
        return 0.0
    rules = _base_rules(spec) if rules is None else rules
    if announce:
        print(announcement(spec), file=sys.stderr, flush=True)
    return _timed_and_marked(spec, "engine", lambda: _play(spec, rules, spec.policy_array(rules, None), trace))


def ensure_search_compiled(spec: GameSpec) -> float:
    """Compile the search bot of ``spec`` (every role searching: one game played and one replayed)
    unless the cache already holds it. Returns the seconds it took (0 when warm or no search bot)."""
    if not _to_compile(spec, "search"):
        return 0.0
    rules = _base_rules(spec)
    policy = spec.policy_array(rules, {"all": spec.search.name})
    return _timed_and_marked(spec, "search", lambda: _play(spec, rules, policy, True))


def ensure_analyses_compiled(spec: GameSpec) -> float:
    """Compile the analyses' own compiled entry points of ``spec`` (``extras["warm_analyses"](rules)``
    runs each once under the base scenario, e.g. a counterfactual batch of one game) unless the cache
    already holds them. Returns the seconds it took (0 when warm or none)."""
    if not _to_compile(spec, "analyses"):
        return 0.0
    rules = _base_rules(spec)
    return _timed_and_marked(spec, "analyses", lambda: spec.extras["warm_analyses"](rules))


def _steps_to_do(spec: GameSpec, search: bool) -> list[str]:
    """The steps ``warm_all`` still has to run for ``spec`` (with ``search``: all three, as the tests)."""
    return [step for step in STEPS[:3 if search else 1] if _to_compile(spec, step)]


def _compile_steps(name: str, steps: list[str]) -> tuple[str, dict[str, float]]:
    """Game ``name``'s warm-up ``steps``, in order, in one process: the search and the analyses call the
    engine's functions, which a step in a fresh process would compile again (a cold warm-up of the three
    games took 8.6 % less CPU this way: 257 against 282 CPU-s, one run each beside other work, 2026-12-05).
    The seconds of each step."""
    from sim.core.registry import get_game

    spec = get_game(name)
    compile_step = {"engine": lambda: ensure_compiled(spec, announce=False, trace=True),
                    "search": lambda: ensure_search_compiled(spec),
                    "analyses": lambda: ensure_analyses_compiled(spec)}
    return name, {step: compile_step[step]() for step in steps}


def _remaining_s(name: str, steps: list[str]) -> float:
    estimates = STEP_S.get(name, (30, 30, 30))
    return sum(estimates[STEPS.index(step)] for step in steps)


def _run_steps(todo: dict[str, list[str]], jobs: int | None, say: Callable[[str], None]) -> dict[str, float]:
    """Run every game's steps in order in one process (``_compile_steps``), ``jobs`` games at a time (None:
    all at once), the game with the most estimated work first (so the longest chain of steps is not left
    for last). All at once is the default: on 2 cores the three games' cold warm-up took 128 s of wall
    time against 140 s two at a time (one run each, 2026-12-07; 234 against 213 CPU-s), since with two at
    a time the last game compiles alone on one core. Returns the seconds per game."""
    times = dict.fromkeys(todo, 0.0)
    longest_first = sorted(todo, key=lambda name: -_remaining_s(name, todo[name]))
    with ProcessPoolExecutor(max_workers=max(1, min(jobs or len(todo), len(todo)))) as pool:
        games = [pool.submit(_compile_steps, name, todo[name]) for name in longest_first]
        for future in as_completed(games):
            name, seconds = future.result()
            times[name] = sum(seconds.values())
            say(f"  compiled the {', '.join(seconds)} of {name} in "
                f"{' + '.join(f'{s:.0f}' for s in seconds.values())} s")
    return times


def warm_all(jobs: int | None = None, quiet: bool = False, search: bool = False,
             only: Iterable[str] | None = None) -> dict[str, float]:
    """Compile every registered engine not yet in the cache (with ``search``, also every search bot and
    every game's analyses: the tests of a game play them all), ``jobs`` games at a time, all at once by
    default (``_run_steps``); with ``only``, just the registered games named there (the test warm-up passes the
    games whose tests were collected). Returns the seconds each game took (0 for those already
    compiled)."""
    from sim.core.registry import all_games

    games = {name: spec for name, spec in all_games().items() if only is None or name in set(only)}
    todo = {name: _steps_to_do(spec, search) for name, spec in games.items()}
    todo = {name: steps for name, steps in todo.items() if steps}
    say = (lambda text: None) if quiet else (lambda text: print(text, file=sys.stderr, flush=True))
    what = "engines, search bots and analyses" if search else "engines"
    if not todo:
        which = "engine, search bot and analysis" if search else "engine"
        of = "" if only is None else f"of {', '.join(games) or 'no game'} "
        say(f"numba cache: every {which} {of}is already compiled for these sources")
        return dict.fromkeys(games, 0.0)
    cold = sorted(todo, key=lambda name: -COMPILE_S.get(name, 30))
    cores = os.cpu_count() or 1
    about = sum(COMPILE_S.get(name, 30) for name in cold) / max(1, min(jobs or cores, cores, len(cold)))
    say(f"numba cache: compiling the {what} of {len(cold)} games once for this machine ({', '.join(cold)}; "
        f"{'' if search else f'about {about:.0f} s '}on {cores} cores), so that the first run of each is fast")
    began = time.perf_counter()
    times = dict.fromkeys(games, 0.0) | _run_steps(todo, jobs, say)
    say(f"numba cache: warm ({time.perf_counter() - began:.0f} s), in {os.environ.get('NUMBA_CACHE_DIR')}")
    return times


if __name__ == "__main__":  # ``python -m sim.core.warm`` has imported sim (which sets NUMBA_CACHE_DIR) first
    warm_all()
