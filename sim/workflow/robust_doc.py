"""The `sim robust` result tables quoted in docs/search.md, generated from the committed result files, and
Ocracoke's move values (``<!-- action-values-table ocracoke -->`` from reports/search/ocracoke-action-values.json,
written by scripts/oc_action_values.py) and Island Nation's search probes (``<!-- probes-table NAME -->`` from
reports/search/NAME.json, written by scripts/in_search_probes.py).

docs/search.md holds one generated block (``sim.core.docblocks``) per game between the markers
``<!-- robust-table GAME -->`` and ``<!-- /robust-table -->``; ``render(game)`` writes its table from
``reports/robust/GAME-robust.json`` (every headline rate of every arm: scripted and search values with 95 %
intervals, the paired change with its interval, p and whether it is beyond noise). ``sync`` rewrites the blocks
(``scripts/search_doc_tables.py``, to run after ``sim robust`` re-writes the results); the test suite
checks that they match (tests/workflow/test_search_doc.py), so the doc cannot quote stale figures.
"""

from __future__ import annotations

import json
from pathlib import Path

from sim.core import docblocks

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "search.md"
RESULTS = ROOT / "reports" / "robust"
ACTION_VALUES = ROOT / "reports" / "search" / "ocracoke-action-values.json"
KIND = "robust-table"  # <!-- robust-table GAME --> ... <!-- /robust-table -->
ACTION_KIND = "action-values-table"  # <!-- action-values-table ocracoke --> ... <!-- /action-values-table -->
PROBES_KIND = "probes-table"  # <!-- probes-table NAME --> ... <!-- /probes-table -->, from reports/search/NAME.json


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def _interval(est: dict) -> str:
    return f"{_pct(est['value'])} [{100 * est['lo']:.1f}, {100 * est['hi']:.1f}]"


def render(game: str, folder: Path = RESULTS) -> str:
    """The markdown table (with a one-line heading) of ``folder/GAME-robust.json``."""
    data = json.loads((folder / f"{game}-robust.json").read_text(encoding="utf-8"))
    budget = ", ".join(f"{k}={v}" for k, v in data["budget"].items())
    lines = [f"`sim robust {game}` ({data['scenario']} scenario, {data['players']} players, "
             f"{data['n_games']:,} games per arm, seed {data['seed']}, search budget {budget}; "
             f"`reports/robust/{game}-robust.json`, {data['date']}), paired on the same games:", "",
             "| arm | rate | scripted [95 %] | with search [95 %] | change, pp [95 %] | p | beyond noise |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for c in data["changes"]:
        lines.append(f"| {c['arm']} | {c['label']} | {_interval(c['base'])} | {_interval(c['value'])} | "
                     f"{_pp(c['diff'])} [{_pp(c['lo'])}, {_pp(c['hi'])}] | {c['p_value']:.2g} | "
                     f"{'yes' if c['beyond_noise'] else 'no'} |")
    return "\n".join(lines) + "\n"


def render_action_values(path: Path = ACTION_VALUES) -> str:
    """The markdown table of Ocracoke's counterfactual move values (with a one-line heading) from ``path``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    lines = [f"`python scripts/oc_action_values.py --games {data['games']} --seed {data['seed']}` ({data['scenario']} "
             f"scenario, {data['players']} players, {data['bots']}, {data['games']:,} games; "
             f"`reports/search/{path.name}`, {data['date']}); differences paired, forced minus own choice:", "",
             "| move forced | n (turns where legal) | counter chooses it | win rate forced [95 %] | win rate with "
             "counter's own move | difference [95 %] | p | gold margin difference [95 %] |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in data["rows"]:
        always = not all(isinstance(x, float) and x == x for x in (r["lo"], r["hi"], r["p"]))
        diff = ("+0.00 pp (always its choice)" if always else
                f"{_pp(r['win difference'])} pp [{_pp(r['lo'])}, {_pp(r['hi'])}]")
        margin = (f"{r['gold margin difference']:+.3f}" if always else
                  f"{r['gold margin difference']:+.3f} [{r['margin lo']:+.3f}, {r['margin hi']:+.3f}]")
        lines.append(f"| {r['move']} | {r['n']:,} | {_pct(r['counter chooses it'])} | "
                     f"{_pct(r['win rate forced'])} [{100 * r['lo (forced)']:.1f}, {100 * r['hi (forced)']:.1f}] | "
                     f"{_pct(r['win rate own choice'])} | {diff} | {'—' if always else format(r['p'], '.2g')} | "
                     f"{margin} |")
    return "\n".join(lines) + "\n"


def render_probes(name: str, folder: Path = ACTION_VALUES.parent) -> str:
    """The markdown table of Island Nation's per-decision search probes (scripts/in_search_probes.py) from
    ``folder/NAME.json``: per round, the public set's size at the decisions probed, the value of a budget's
    choice over the hunter's own (points of artillery win share a decision) and each doubling's step with its
    95 % half-width; the last row sums, over the rounds probed, searched decisions a game times the step."""
    data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    budgets = data["budgets"]
    shown = [i for i, b in enumerate(budgets) if b >= 256]
    columns = (["round", "decisions probed", "public set (median points)", "searched decisions a game"]
               + [f"value at {budgets[i]:,}" for i in shown] + [f"step to {budgets[i]:,} [± 95 %]" for i in shown[1:]])
    played = "base scenario" if data["scenario"] == "base" else f"scenario `{data['scenario']}`"
    lines = [f"`{data['command']}` ({played}, 5 players, both sides searching at rollouts={data['level']}, "
             f"{data['probed']:,} decisions probed in {data['games']:,} games, {data['worlds']:,} worlds a candidate; "
             f"`reports/search/{name}.json`, {data['date']}); points of artillery win share a decision:", "",
             "| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    for r in data["rounds"]:
        cells = ([str(r["round"]), f"{r['decisions']:,}", f"{r['set_median']:g}", f"{r['per_game']:.1f}"]
                 + [f"{r['value_pp'][i]:.2f}" for i in shown]
                 + [f"{r['step_pp'][i - 1] + 0.0:+.3f} ± {r['step_half_width'][i - 1]:.3f}" for i in shown[1:]])
        lines.append("| " + " | ".join(cells) + " |")
    game = ["Σ over these rounds: decisions a game × step"] + [""] * (len(shown) + 3)
    lines.append("| " + " | ".join(game + [f"{data['game_step_pp'][i - 1]:+.2f}" for i in shown[1:]]) + " |")
    return "\n".join(lines) + "\n"


def sync(doc: Path = DOC, folder: Path = RESULTS) -> list[str]:
    """Rewrite every block of ``doc`` from the result files (the move values and the probes from ``folder``'s
    sibling search/, when it has them); returns the names of the blocks that changed."""
    changed = docblocks.sync(doc, KIND, lambda game: render(game, folder))
    values = folder.parent / "search" / ACTION_VALUES.name
    if values.exists() and docblocks.sync(doc, ACTION_KIND, lambda _ocracoke: render_action_values(values)):
        changed.append("ocracoke move values")
    if values.parent.is_dir():
        changed += docblocks.sync(doc, PROBES_KIND, lambda name: render_probes(name, values.parent))
    return changed
