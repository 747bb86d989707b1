"""The test warm-up compiles only the games whose tests were collected (issue 22 §5): tests/conftest.py's
``games_of`` maps each collected test to the games it plays."""

import importlib.util
from pathlib import Path

GAMES = frozenset({"ocracoke", "island-nation", "wonderful-island"})


def _games_of():
    path = Path(__file__).resolve().parents[1] / "conftest.py"
    spec = importlib.util.spec_from_file_location("tests_root_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.games_of


def test_a_games_folder_needs_that_game_only():
    games_of = _games_of()
    assert games_of("tests/ocracoke/test_oc_game.py::test_x", GAMES) == {"ocracoke"}
    assert games_of("tests/island_nation/test_board.py::test_x[3]", GAMES) == {"island-nation"}
    assert games_of("tests/wonderful_island/test_wi_rules.py::test_x", GAMES) == {"wonderful-island"}


def test_game_agnostic_tests_need_no_game_and_parameters_name_theirs():
    games_of = _games_of()
    assert games_of("tests/core/test_stats.py::test_x", GAMES) == set()
    assert games_of("tests/workflow/test_wf_paired.py::test_x[toy-dice]", GAMES) == set()
    assert games_of("tests/workflow/test_wf_registered_games.py::test_x[ocracoke]", GAMES) == {"ocracoke"}
    assert games_of("tests/golden/test_golden.py::test_x[island-nation/seed0-game1]", GAMES) == {"island-nation"}


def test_unfiled_tests_and_the_warm_up_check_get_every_game():
    games_of = _games_of()
    assert games_of("tests/test_cli.py::test_x", GAMES) == GAMES
    assert games_of("tests/core/test_warm.py::test_x", GAMES) == GAMES
