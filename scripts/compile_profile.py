"""Where an engine's cold compile goes: CPU seconds per compiled function, from numba's compile events.

Plays one game of GAME on an empty numba cache (a temporary folder) and lists, per compiled function,
its own compile time (self: without the functions it made numba compile while typing it), the time
including them, and how many specialisations (argument types) were compiled. ``--signatures`` lists
the argument types of functions compiled more than once; ``--parents`` which functions asked for
numba's own helpers (a helper that costs seconds names the line to look at).

    python scripts/compile_profile.py GAME [--top N] [--signatures] [--parents]
"""

from __future__ import annotations

import argparse
import collections
import os
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--signatures", action="store_true")
    parser.add_argument("--parents", action="store_true")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")

    from numba.core import event

    own, total = collections.defaultdict(float), collections.defaultdict(float)
    signatures, parents = collections.defaultdict(list), collections.defaultdict(set)

    def name_of(data) -> str:
        func = data["dispatcher"].py_func
        return f"{func.__module__.removeprefix('sim.games.')}.{func.__qualname__}"

    class Listener(event.Listener):
        def __init__(self):
            self.stack: list[list] = []

        def on_start(self, ev):
            name = name_of(ev.data)
            if self.stack:
                parents[name].add(self.stack[-1][2])
            self.stack.append([time.process_time(), 0.0, name])

        def on_end(self, ev):
            began, children, name = self.stack.pop()
            spent = time.process_time() - began
            if self.stack:
                self.stack[-1][1] += spent
            total[name] += spent
            own[name] += spent - children
            signatures[name].append(str(ev.data["args"]))

    event.register("numba:compile", Listener())
    from sim.core.registry import get_game
    from sim.core.scenario import load_scenario

    spec = get_game(args.game)
    rules = load_scenario(spec.name, spec.rules_model, "base").rules
    began = time.process_time()
    spec.play(rules, spec.policy_array(rules, None), 0, 0, 100)
    print(f"{spec.name}: cold compile and 100 games, {time.process_time() - began:.1f} CPU s; "
          f"{len(own)} functions, {sum(map(len, signatures.values()))} compiles")
    print(f"{'self s':>7} {'incl s':>7} {'n':>3}  function")
    for name, seconds in sorted(own.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{seconds:7.2f} {total[name]:7.2f} {len(signatures[name]):3d}  {name}")
    if args.signatures:
        for name, sigs in signatures.items():
            if len(sigs) > 1:
                print(f"\n{name}:", *sigs, sep="\n    ")
    if args.parents:
        for name, callers in sorted(parents.items()):
            if name.startswith("numba."):
                print(f"{name} <- {', '.join(sorted(callers))}")


if __name__ == "__main__":
    main()
