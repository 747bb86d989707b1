"""Scenario files: extends chains, --set, sources, and one clear error per kind of mistake."""

from pathlib import Path

import pytest
from toy_game import SCENARIO, ToyRules

from sim.core.errors import ScenarioError
from sim.core.scenario import load_scenario, parse_set


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def test_base_values_are_labelled_rule_text_or_assumed():
    scen = load_scenario("toy", ToyRules, SCENARIO)
    assert scen.rules.die_sides == 6
    assert scen.sources["die_sides"].kind == "assumed"
    assert "no rulebook" in scen.sources["die_sides"].note
    assert scen.sources["target"].kind == "rule text" and scen.sources["target"].origin == "TOY-2"
    assert set(scen.assumptions()) == {"die_sides"}


def test_variant_extends_base_and_is_labelled_scenario(tmp_path):
    write(tmp_path, "base", SCENARIO.read_text())
    variant = write(tmp_path, "long", 'extends = "base"\n[rules]\ntarget = 5\n')
    scen = load_scenario("toy", ToyRules, variant)
    assert scen.rules.target == 5 and scen.rules.die_sides == 6
    assert scen.sources["target"].kind == "scenario"
    assert scen.sources["die_sides"].kind == "assumed"


def test_set_overrides_and_parses_toml_values():
    scen = load_scenario("toy", ToyRules, SCENARIO, ["target=4", "die_sides = 8"])
    assert (scen.rules.target, scen.rules.die_sides) == (4, 8)
    assert scen.sources["target"].origin == "--set"
    assert parse_set("xs=[1, 2]") == ("xs", [1, 2])
    assert parse_set("name=strict") == ("name", "strict")


def test_unknown_key_names_file_and_suggests(tmp_path):
    bad = write(tmp_path, "bad", SCENARIO.read_text().replace("die_sides = 6", "die_sides = 6\ntarghet = 2"))
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, bad)
    assert err.value.file == str(bad) and err.value.key == "rules.targhet"
    assert "did you mean 'target'" in str(err.value)


def test_wrong_type_names_key_expected_and_found(tmp_path):
    bad = write(tmp_path, "bad", SCENARIO.read_text().replace("die_sides = 6", 'die_sides = "six"'))
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, bad)
    assert err.value.key == "rules.die_sides" and err.value.found == "six"
    assert "faces of the die" in err.value.expected


def test_out_of_range_value_names_the_bound():
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, SCENARIO, ["target=11"])
    assert err.value.file == "--set" and err.value.key == "rules.target" and err.value.found == 11
    assert "10" in err.value.expected


def test_player_count_is_validated_like_any_rule():
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, SCENARIO, ["players=3"])
    assert err.value.key == "rules.players"


def test_assumed_value_missing_from_scenario(tmp_path):
    bad = write(tmp_path, "bad", "[rules]\ntarget = 2\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, bad)
    assert err.value.key == "rules.die_sides" and "not in the rule text" in err.value.expected


def test_assumed_value_needs_a_note(tmp_path):
    bad = write(tmp_path, "bad", "[rules]\ndie_sides = 6\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, bad)
    assert err.value.key == "assumed.die_sides"


def test_extends_cycle_is_reported(tmp_path):
    write(tmp_path, "a", 'extends = "b"\n')
    b = write(tmp_path, "b", 'extends = "a"\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, b)
    assert err.value.key == "extends"


def test_bad_toml_and_unknown_table(tmp_path):
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, write(tmp_path, "x", "[rules\n"))
    assert err.value.expected == "valid TOML"
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, write(tmp_path, "y", "[rule]\ntarget = 2\n"))
    assert err.value.key == "rule" and "did you mean 'rules'" in str(err.value)


def test_unknown_scenario_name_lists_the_known_ones():
    with pytest.raises(ScenarioError) as err:
        load_scenario("toy", ToyRules, "nope")
    assert err.value.key == "scenario"
