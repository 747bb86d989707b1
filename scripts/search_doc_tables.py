"""Rewrite the `sim robust` tables of docs/search.md from reports/robust/*.json (run after `sim robust`) and its
Ocracoke move values table from reports/search/ocracoke-action-values.json (run after scripts/oc_action_values.py)
and its Island Nation probe tables from reports/search/island-nation-probes*.json (run after scripts/in_search_probes.py).

    .venv/bin/python scripts/search_doc_tables.py
"""

from __future__ import annotations

from sim.core import docblocks
from sim.workflow.robust_doc import DOC, sync

if __name__ == "__main__":
    docblocks.main(DOC, sync)
