"""Rewrite the `sim wi-values` tables of docs/wonderful-island-balance.md from reports/wi-values/*.json.

    .venv/bin/sim wi-values venues --players 6 --games 20000 --seed 1 --out reports/wi-values
    .venv/bin/python scripts/wi_doc_tables.py
"""

from __future__ import annotations

from sim.core import docblocks
from sim.games.wonderful_island.doc_tables import DOC, sync

if __name__ == "__main__":
    docblocks.main(DOC, sync)
