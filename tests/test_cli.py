"""The `sim` command as a user meets it: output with intervals, exit code 2 and no traceback on bad input.

Most cases run ``sim`` in the test process (``run_sim``); those marked "a real process" start
``python -m sim``, so the entry point as a user starts it is covered too."""

import subprocess
import sys

import pytest
from sim_cli import run_sim as sim


def sim_process(*args):
    """``python -m sim ARGS`` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, timeout=600)


def assert_user_error(proc, *fragments):
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    for fragment in fragments:
        assert fragment in proc.stderr, proc.stderr


def test_games_lists_games_players_bots_and_scenarios():
    """A real process."""
    proc = sim_process("games")
    assert proc.returncode == 0, proc.stderr
    assert "ocracoke" in proc.stdout and "players: 2, 3, 4" in proc.stdout
    assert "random, naive, noswap, counter" in proc.stdout and "scenarios: " in proc.stdout


def test_rules_marks_rule_text_and_assumed_values():
    proc = sim("rules", "ocracoke")
    assert proc.returncode == 0, proc.stderr
    assert "rule text" in proc.stdout and "assumed" in proc.stdout


def test_run_prints_rates_with_intervals_and_n():
    proc = sim("run", "ocracoke", "--games", "20000", "--jobs", "1", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "20,000 games" in proc.stdout and "[95% interval]" in proc.stdout and "%" in proc.stdout


def test_unknown_game():
    """A real process: exit 2 and one line, no traceback, from the interpreter's point of view."""
    assert_user_error(sim_process("run", "ocracok"), "unknown game 'ocracok'", "did you mean 'ocracoke'")


def test_unknown_key_in_a_scenario_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "base"\n[rules]\nplayrs = 3\n')
    proc = sim("run", "ocracoke", "--scenario", str(bad), "--games", "10")
    assert_user_error(proc, str(bad), "rules.playrs", "did you mean 'players'")


def test_wrong_type_in_a_scenario_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "base"\n[rules]\nplayers = "four"\n')
    assert_user_error(sim("rules", "ocracoke", "--scenario", str(bad)), str(bad), "rules.players", "'four'")


@pytest.mark.parametrize("args,fragments", [
    (["--players", "5"], ["--players: rules.players", "found 5"]),
    (["--set", "players"], ["--set", "key=value"]),
    (["--policy", "0=genius"], ["expected one of random, naive, noswap, counter"]),
    (["--policy", "9=random"], ["has no role '9'"]),
    (["--scenario", "nope"], ["scenarios/ocracoke", "scenario"]),
])
def test_bad_command_line_values(args, fragments):
    assert_user_error(sim("run", "ocracoke", "--games", "10", *args), *fragments)


def test_trace_replays_a_game():
    proc = sim("trace", "ocracoke", "--seed", "5", "--index", "3")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) > 5
    assert proc.stdout == sim_process("trace", "ocracoke", "--seed", "5", "--index", "3").stdout  # a fresh process


def test_trace_draws_map_frames_for_a_map_game(tmp_path):
    """`sim trace --map-frames`: one PNG per round the game reached, drawn at the round's last turn end (a game
    over in the middle of a turn, as this escape in round 7, has no picture of that round)."""
    from sim.core.scenario import load_scenario
    from sim.games.island_nation import GAME

    proc = sim("trace", "island-nation", "--seed", "3", "--index", "2", "--map-frames", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    frames = sorted(tmp_path.glob("round-*.png"))
    assert frames and f"wrote {len(frames)} map frames" in proc.stdout
    rules = load_scenario("island-nation", GAME.rules_model, "base").rules
    end_round = GAME.play(rules, GAME.policy_array(rules), 3, 2, 1).games["end_round"][0]
    rnd, turn_ends = 0, set()  # the rounds in which the text trace shows a turn ending
    for line in proc.stdout.splitlines():
        if line.startswith("round "):
            rnd = int(line.split(":")[0].removeprefix("round "))
        elif line.lstrip().startswith("end of"):
            turn_ends.add(rnd)
    assert [f.name for f in frames] == [f"round-{r:02d}.png" for r in sorted(turn_ends)]
    assert sorted(turn_ends) == list(range(1, end_round))  # the escape in round 7 ended the frogman's turn early
    assert all(frame.stat().st_size > 0 for frame in frames)


def test_map_frames_of_a_game_without_a_map():
    assert_user_error(sim("trace", "ocracoke", "--map-frames", "/tmp/x"), "ocracoke is not played on a map")
