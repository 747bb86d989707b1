"""The `sim wi-values` tables quoted in docs/wonderful-island-balance.md, generated from committed result files.

``sim wi-values venues ... --out reports/wi-values`` writes ``reports/wi-values/venues.json`` (the run's players,
games, seed, scenario and date, and every row of the table with its intervals and n). The doc holds the table
in a generated block (``sim.core.docblocks``) between the markers ``<!-- wi-values-table NAME -->`` and
``<!-- /wi-values-table -->``; ``render(name)`` writes it from the file, ``sync`` rewrites the blocks
(``scripts/wi_doc_tables.py``, to run after a new ``--out``), and tests/wonderful_island/test_wi_doc_tables.py
checks that they match, so the doc cannot quote stale figures.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from sim.core import docblocks

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "wonderful-island-balance.md"
RESULTS = ROOT / "reports" / "wi-values"
MIN_WHEN = 20  # fewer decisions where the bot chose a venue: no interval is quoted (a t interval of 0/1 differences)
KIND = "wi-values-table"  # the doc's markers: <!-- wi-values-table NAME --> ... <!-- /wi-values-table -->


def save(folder: Path, name: str, frame: pl.DataFrame, players: int, games: int, seed: int, scenario: str) -> Path:
    """Write one table of a `sim wi-values` run with what it was run with (``--out``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    data = {"table": name, "players": players, "games": games, "seed": seed, "scenario": scenario,
            "date": datetime.now(UTC).strftime("%Y-%m-%d"), "rows": frame.to_dicts()}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _pp(value: float, lo: float, hi: float) -> str:
    """A paired difference of win rates in percentage points with its 95 % interval ("n/a" without one)."""
    if any(x is None or not math.isfinite(x) for x in (value, lo, hi)):
        return "n/a"
    return f"{100 * value:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def render_venues(data: dict) -> str:
    """The venue table: each venue forced at one sampled campaign decision per game, by support cards in hand."""
    lines = [f"`sim wi-values venues --players {data['players']} --games {data['games']} --seed {data['seed']}` "
             f"({data['scenario']} scenario, `reports/wi-values/venues.json`, {data['date']}). Differences are in "
             "percentage points (pp) of the candidate's win rate, paired on the same games, with 95 % intervals; "
             "n counts sampled decisions:", "",
             "| venue | support cards in hand | forced − bot's choice, pp [95 %] | n | forced − forced rally, pp "
             "[95 %] | bot chooses it, % of n | when chosen: forced − forced rally, pp [95 %] | n when chosen |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in data["rows"]:
        rally = r["venue"].startswith("rally")  # the scale's zero: a rally against itself
        vs_rally = "0 (reference)" if rally else _pp(r["vs_rally"], r["vs_rally_lo"], r["vs_rally_hi"])
        when = ("0 (reference)" if rally else f"too few (n < {MIN_WHEN})" if r["when_chosen_n"] < MIN_WHEN
                else _pp(r["when_chosen_vs_rally"], r["when_chosen_vs_rally_lo"], r["when_chosen_vs_rally_hi"]))
        lines.append(f"| {r['venue']} | {r['support_in_hand']} | {_pp(r['value'], r['lo'], r['hi'])} | {r['n']:,} | "
                     f"{vs_rally} | {100 * r['bot_chooses']:.1f} | {when} | {r['when_chosen_n']:,} |")
    return "\n".join(lines) + "\n"


RENDER = {"venues": render_venues}


def render(name: str, folder: Path = RESULTS) -> str:
    """The block of table ``name``, from ``folder/NAME.json``."""
    return RENDER[name](json.loads((folder / f"{name}.json").read_text(encoding="utf-8")))


def sync(doc: Path = DOC, folder: Path = RESULTS) -> list[str]:
    """Rewrite every block of ``doc`` from the result files; returns the tables whose block changed."""
    return docblocks.sync(doc, KIND, lambda name: render(name, folder))
