"""The `sim robust` result tables quoted in docs/search.md, generated from the committed result files.

docs/search.md holds one block per game between the markers ``<!-- robust-table GAME -->`` and
``<!-- /robust-table -->``; ``render(game)`` writes its table from ``reports/robust/GAME-robust.json``
(every headline rate of every arm: scripted and search values with 95 % intervals, the paired change
with its interval, p and whether it is beyond noise). ``sync`` rewrites the blocks
(``scripts/search_doc_tables.py``, to run after ``sim robust`` re-writes the results); the test suite
checks that they match (tests/workflow/test_search_doc.py), so the doc cannot quote stale figures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "search.md"
RESULTS = ROOT / "reports" / "robust"
BLOCK = re.compile(r"(<!-- robust-table (?P<game>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /robust-table -->)", re.S)


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


def blocks(text: str) -> dict[str, str]:
    """The generated blocks of the doc, by game."""
    return {m["game"]: m["body"] for m in BLOCK.finditer(text)}


def sync(doc: Path = DOC, folder: Path = RESULTS) -> list[str]:
    """Rewrite every block of ``doc`` from the result files; returns the games whose block changed."""
    text = doc.read_text(encoding="utf-8")
    changed = [game for game, body in blocks(text).items() if body != render(game, folder)]
    text = BLOCK.sub(lambda m: m.group(1) + render(m["game"], folder) + m.group(4), text)
    doc.write_text(text, encoding="utf-8")
    return changed
