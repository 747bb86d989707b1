"""`sim trace`: the traitor card drawn by the frogman (IN-CARD-5) and the machine-readable `--json` output."""

from __future__ import annotations

import json

import numpy as np
from in_helpers import rules
from sim_cli import run_sim as _sim

from sim.games.island_nation import engine as E
from sim.games.island_nation.analysis import describe_log, log_events
from sim.games.island_nation.board import default_board
from sim.games.island_nation.rules import EFFECTS

TRAITOR = EFFECTS.index("traitor")


def test_in_card_5_the_traitor_event_drawn_by_the_frogman_is_told_as_doing_nothing():
    """IN-CARD-5: drawn by the frogman the traitor event does nothing, and the trace says so; drawn by
    an artillery, it turns traitor."""
    board = default_board()
    log = np.array([[E.EV_EFFECT, 2, 0, TRAITOR, 0, 0], [E.EV_EFFECT, 2, 3, TRAITOR, 0, 0]], dtype=np.int64)
    frogman, artillery = describe_log(board, log, rules())
    assert "does nothing" in frogman and "turns traitor" not in frogman and frogman.startswith("round 2: frogman")
    assert "turns traitor" in artillery and "artillery 3" in artillery
    first, second = log_events(board, log, rules())
    assert first["takes_effect"] is False and second["takes_effect"] is True


def test_trace_json_gives_the_row_the_lines_and_every_public_set_in_full():
    """`sim trace island-nation --json`: one JSON document; its lines are the text trace's; every turn's
    end carries the whole public set as labels, and the text prints the same set in full (above 40 points on
    wrapped lines below the turn's line), never a bare count."""
    args = ("trace", "island-nation", "--seed", "1", "--index", "17")
    text = _sim(*args)
    proc = _sim(*args, "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["game"] == "island-nation" and doc["seed"] == 1 and doc["index"] == 17 and doc["players"] == 5
    assert doc["lines"] == text.stdout.splitlines()
    assert doc["row"]["game"] == 17 and doc["row"]["winner"] in (0, 1)
    ends = [e for e in doc["events"] if e["event"] == "turn_end"]
    assert ends and all(isinstance(e["public_set"], list) for e in ends)
    big = [e for e in ends if len(e["public_set"]) > 40]
    assert big and all(len(set(e["public_set"])) == len(e["public_set"]) for e in big)
    assert [_text_set(text.stdout.splitlines(), i) for i in range(len(ends))] == [e["public_set"] for e in ends]
    assert doc["events"][-1]["event"] == "game_over"


def _text_set(lines: list[str], k: int) -> list[str]:
    """The public set printed at the k-th turn's end of a text trace: the labels after "public set (N):" and on
    the wrapped lines (indented 8 spaces) below it; the count N must match."""
    at = [i for i, line in enumerate(lines) if "public set (" in line and "end of" in line][k]
    head, _, rest = lines[at].partition("):")
    labels = rest.split()
    for line in lines[at + 1:]:
        if not line.startswith(" " * 8):
            break
        labels += line.split()
    assert int(head.rsplit("(", 1)[1]) == len(labels)
    return labels


def test_trace_json_works_for_a_game_without_event_records():
    """Ocracoke's trace has lines and a row, no event records: `events` is null."""
    proc = _sim("trace", "ocracoke", "--seed", "5", "--index", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["game"] == "ocracoke" and doc["events"] is None and len(doc["lines"]) > 5 and doc["row"]
