"""Ocracoke's counterfactual move values (docs/search.md, "What each move is worth") to a committed result file.

    .venv/bin/python scripts/oc_action_values.py [--games 200000] [--seed 2026] [--jobs 2]
    .venv/bin/python scripts/search_doc_tables.py   # then rewrites the doc's table from the file

Writes reports/search/ocracoke-action-values.json: the settings (4 players, base scenario, counter in every seat),
the date and every row of sim.games.ocracoke.analysis.action_values.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime

from sim.core.scenario import load_scenario
from sim.games.ocracoke import GAME
from sim.games.ocracoke.analysis import action_values
from sim.workflow.robust_doc import ACTION_VALUES

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    rules = load_scenario(GAME.name, GAME.rules_model, "base", ["players=4"]).rules
    frame = action_values(rules, args.games, args.seed, jobs=args.jobs)
    data = {"game": GAME.name, "scenario": "base", "players": 4, "bots": "counter in every seat", "games": args.games,
            "seed": args.seed, "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "rows": frame.to_dicts()}
    ACTION_VALUES.parent.mkdir(parents=True, exist_ok=True)
    ACTION_VALUES.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {ACTION_VALUES}")
