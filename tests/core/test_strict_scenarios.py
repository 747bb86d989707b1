"""Issue 24 items 3, 5 and 6 at the scenario loader: strict types, errors that name their file, names that
stay inside the game's folder. Each case was accepted (or raised a Python error) before the fix."""

from pathlib import Path

import pytest

from sim.core.errors import ScenarioError
from sim.core.registry import get_game
from sim.core.scenario import load_scenario

OC = get_game("ocracoke")


def load(scenario="base", sets=(), players=None, game=OC):
    return load_scenario(game.name, game.rules_model, scenario, list(sets), players)


@pytest.mark.parametrize("setting,key", [("win_gold=true", "win_gold"), ("pay_zero=false", "pay_zero"),
                                         ("navy_values=[true, 2, 3, 4]", "navy_values"),
                                         ("hand_match_per_card=1", "hand_match_per_card"),
                                         ("win_gold=7.0", "win_gold")])
def test_booleans_are_not_numbers_nor_numbers_booleans_in_set(setting, key):
    with pytest.raises(ScenarioError) as err:
        load(sets=[setting])
    assert err.value.file == "--set" and err.value.key.startswith(f"rules.{key}")


def test_booleans_are_not_numbers_in_a_toml_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "base"\n[rules]\nwin_gold = true\n')
    with pytest.raises(ScenarioError) as err:
        load(bad)
    assert err.value.file == str(bad) and err.value.key == "rules.win_gold" and err.value.found is True
    assert "true/false is not a number" in str(err.value)


def test_every_shipped_scenario_still_loads_strictly():
    from sim.core.registry import all_games
    from sim.core.scenario import list_scenarios

    for spec in all_games().values():
        for name in list_scenarios(spec.name):
            assert load(name, game=spec).name == name


def test_players_error_names_the_players_option():
    with pytest.raises(ScenarioError) as err:
        load(players=5)
    assert err.value.file == "--players" and str(err.value).startswith("--players: rules.players")


def test_a_name_is_not_a_path_out_of_the_games_folder():
    with pytest.raises(ScenarioError) as err:
        load("../island-nation/strict-evac")
    assert err.value.file == "--scenario" and "not a path" in err.value.expected


def test_an_explicit_path_to_a_file_is_fine():
    path = Path(__file__).resolve().parents[2] / "scenarios" / "ocracoke" / "strong-cards.toml"
    assert load(str(path)).name == "strong-cards"


def test_empty_scenario_argument_says_what_is_wrong():
    with pytest.raises(ScenarioError) as err:
        load("")
    assert err.value.file == "--scenario" and "scenario name" in err.value.expected


def test_extends_pointing_nowhere_names_the_file_holding_it(tmp_path):
    bad = tmp_path / "v.toml"
    bad.write_text('extends = "nowhere"\n')
    with pytest.raises(ScenarioError) as err:
        load(bad)
    assert err.value.file == str(bad) and err.value.key == "extends" and err.value.found == "nowhere"


def test_empty_toml_names_itself(tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    with pytest.raises(ScenarioError) as err:
        load(empty)
    assert err.value.file == str(empty) and "empty" in str(err.value)


def test_non_utf8_scenario_is_a_scenario_error(tmp_path):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('description = "café"\n'.encode("latin-1"))
    with pytest.raises(ScenarioError) as err:
        load(bad)
    assert err.value.file == str(bad) and "UTF-8" in err.value.expected


def test_a_folder_named_like_a_scenario_file_is_a_scenario_error(tmp_path):
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    with pytest.raises(ScenarioError):
        load(folder)


@pytest.mark.parametrize("setting", ["=3", " = 3", "a b=3", "rules..x=1"])
def test_set_without_a_rule_name(setting):
    with pytest.raises(ScenarioError) as err:
        load(sets=[setting])
    assert err.value.file == "--set"
