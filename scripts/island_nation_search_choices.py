"""Island Nation: what does the searching frogman choose that the ghost would not? (issue 14 §2)

Games of the base scenario (5 players) with the frogman searching against hunter, each replayed from
its trace. At every road-step decision of the search outside the window (IN-WIN-F1), bottle turns
(IN-BOTTLE-2) and turns with the frogman's own shot or draw (where the public set is not in the trace),
each candidate (a step, or stopping) gets the ghost's score without its noise (``policies._place_score``
with distance capped at SAFE, 6 by default as before the cap, + log2 of the public set after the step,
IN-BELIEF-2) and its
features: road distance to the nearest artillery (capped at 6), to the nearest free evac point, and the
public set's size after it. Prints, where the ghost's best candidate leads by more than its noise and
the search took another, the search-minus-ghost difference of each feature; and each distance's mean
rollout win share relative to its decision's mean.

    python scripts/island_nation_search_choices.py [GAMES] [SEED] [SAFE]

docs/search.md: run at main 0746010 (the ghost before the cap) with 300 3 6.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np

NOISE = 0.3  # policies.frogman_step: 0.3 x a uniform draw is added to every score
FAR = 6  # policies.FAR
STOP = 6  # search.STOP


def _bits(b0: int, b1: int) -> set[int]:
    return {64 * h + i for h, w in enumerate((b0, b1)) for i in range(64) if (w & (1 << 64) - 1) >> i & 1}


class Replay:
    def __init__(self, rules, safe: int):
        from sim.games.island_nation.board import board_for
        from sim.games.island_nation.tables import tables_for

        self.rules, self.board, self.safe = rules, board_for(rules), safe
        self.T = tables_for(self.board, rules.shot_range)
        self.evac = [int(p) for p in self.T.evac_points[: self.T.n_evac]]

    def image(self, s: set[int], d: int, arts: list[int]) -> set[int]:
        """IN-BELIEF-2 outside the window: the set through road steps d, artillery points dropped."""
        return {int(self.T.road_step[p, d]) for p in s if self.T.road_step[p, d] >= 0} - set(arts)

    def candidate(self, q: int, size: int, r: int, steps_left: int, arts: list[int]) -> dict:
        T, rules = self.T, self.rules
        free = [e for e in self.evac if e not in arts] or self.evac
        goal = min(int(T.road_dist[q, e]) for e in free)
        safety = min([FAR] + [int(T.road_dist[a, q]) for a in arts])
        late = max(0, goal - (rules.action_points * (rules.evac_from - r) + steps_left))
        return {"safety": safety, "goal": goal, "size": size,
                "ghost": min(safety, self.safe) - 3.0 * late + float(np.log2(max(size, 1)))}

    def decisions(self, policy, seed: int, index: int) -> list[list[dict]]:
        """Each eligible decision: its candidates with features, ``chosen`` and rollout ``share``."""
        from sim.games.island_nation import engine as E
        from sim.games.island_nation.batch import play_rows

        _, _, log = play_rows(self.rules, self.board, policy, seed, index, 1, 4096)
        rows = [tuple(int(x) for x in row) for row in log]
        apos, alive, s, f, spent, skip = {}, {}, set(), -1, 0, False
        out, i = [], 0
        while i < len(rows) and rows[i][0] != E.EV_END:
            ev, r, actor, a, b, c = rows[i]
            arts = [apos[k] for k in apos if alive[k]]
            if ev == E.EV_START:
                f = a
            elif ev == E.EV_PLACE:
                apos[actor], alive[actor] = a, True
            elif ev == E.EV_AMOVE:
                apos[actor] = b
            elif ev == E.EV_DEATH:
                alive[actor] = False
            elif ev == E.EV_TURN_END:
                s, f, spent, skip = _bits(b, c), a, 0, False
            elif ev in (E.EV_BOTTLE, E.EV_FSHOT, E.EV_DRAW) and actor == 0:
                skip = True
            elif ev == E.EV_STEP:
                s, f, spent = self.image(s, a - 1, arts), b, spent + 1
            elif ev == E.EV_HIDDEN_STEP:
                f, spent = b, spent + 1
            elif ev == E.EV_SEARCH and actor == 0:
                j = i
                while j < len(rows) and rows[j][0] == E.EV_SEARCH:
                    j += 1
                if not skip and r < self.rules.evac_from:
                    out.append([self._scored(code, f, s, r, spent, arts) | {"share": wins / n}
                                for *_, code, wins, n in rows[i:j]])
                i = j
                continue
            i += 1
        return out

    def _scored(self, code: int, f: int, s: set[int], r: int, spent: int, arts: list[int]) -> dict:
        d = code % 64
        steps_left = self.rules.action_points - spent - 1
        if d == STOP:
            c = self.candidate(f, len(s), r, steps_left + 1, arts)
        else:
            c = self.candidate(int(self.T.road_step[f, d]), len(self.image(s, d, arts)), r, steps_left, arts)
        return c | {"chosen": code >= 64, "stop": d == STOP}


def main(games: int = 300, seed: int = 3, safe: int = FAR) -> None:
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import GAME

    rules = load_scenario(GAME.name, GAME.rules_model, "base", ["players=5"]).rules
    replay = Replay(rules, safe)
    policy = GAME.policy_array(rules, {"frogman": "search"})
    shares: dict[int, list[float]] = defaultdict(list)
    diffs: dict[str, list[float]] = defaultdict(list)
    n_dec = clear = 0
    for g in range(games):
        for cands in replay.decisions(policy, seed, g):
            n_dec += 1
            mean = np.mean([c["share"] for c in cands])
            for c in cands:
                shares[c["safety"]].append(c["share"] - mean)
            scores = sorted(c["ghost"] for c in cands)
            if len(scores) > 1 and scores[-1] - scores[-2] < NOISE:
                continue
            clear += 1
            chosen = next(c for c in cands if c["chosen"])
            ghost = max(cands, key=lambda c: c["ghost"])
            if chosen is not ghost:
                for key in ("safety", "goal", "size", "stop"):
                    diffs[key].append(float(chosen[key]) - float(ghost[key]))
    print(f"seed {seed}, games 0-{games - 1}: {n_dec} decisions, {clear} with a clear ghost choice, "
          f"{len(diffs['safety'])} where the search took another")
    for key, v in diffs.items():
        v = np.array(v)
        print(f"  {key}: search - ghost mean {v.mean():+.2f}, higher in {np.mean(v > 0):.0%}, lower in {np.mean(v < 0):.0%}")
    print("rollout win share minus the decision's mean, by road distance to the nearest artillery:")
    for dist, v in sorted(shares.items()):
        print(f"  {dist}: {100 * np.mean(v):+.1f} pp (n {len(v)})")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
