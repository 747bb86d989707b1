"""The packed rule vectors: each declared once (sim.core.layout.Layout) in the game's rules.py, and the
engine's column constants point at the columns the packer writes each rule value to."""

from typing import Literal

import pytest
from pydantic import BaseModel

from sim.core.layout import Layout, switchable_rules, switched
from sim.core.scenario import load_scenario
from sim.games.ocracoke import GAME as OC_GAME
from sim.games.ocracoke import engine as oc_engine
from sim.games.ocracoke import rules as oc_rules
from sim.games.ocracoke import rules_array
from sim.games.wonderful_island import catalogue as wi_catalogue
from sim.games.wonderful_island import engine as wi_engine
from sim.games.wonderful_island import rules as wi_rules
from sim.games.wonderful_island import state as wi_state


class Toy(BaseModel):
    players: int = 4
    flag: bool = True
    bit: int = 0
    other: int = 3


def test_layout_packs_in_declared_order_and_indexes_by_name():
    lay = Layout(("P", "players"), ("F", "flag"), ("X", None), ("D", lambda r: 2 * r.other), first=1)
    assert lay.index("D", "P") == (4, 1)
    assert lay.end == 5
    assert lay.pack(Toy()).tolist() == [0, 4, 1, 0, 6]
    with pytest.raises(KeyError, match="Q"):
        lay.index("Q")
    with pytest.raises(ValueError, match="P"):
        Layout(("P", "players"), ("P", "flag"))


def test_switchable_rules_are_bools_0_1_ints_and_two_texts():
    from pydantic import Field

    class Model(BaseModel):
        a: bool = False
        b: int = Field(1, ge=0, le=1)
        c: int = Field(1, ge=0, le=2)
        d: int = 0
        e: Literal["secret", "announced"] = "secret"
        f: Literal["x", "y", "z"] = "x"

    assert switchable_rules(Model) == ["a", "b", "e"]
    assert switched(Model(), "a").a is True and switched(Model(), "b").b == 0
    assert switched(Model(), "e").e == "announced"


def oc_rules_value():
    return load_scenario("ocracoke", oc_rules.OcracokeRules, "base",
                         ["players=2", "win_gold=7", "pay_zero=4", "pay_range=2"]).rules


def wi_rules_value():
    return load_scenario("wonderful-island", wi_rules.WonderfulIslandRules, "base",
                         ["players=5", "meeting_fewer=true", "dice=4", "hand_limit=7"]).rules


@pytest.mark.parametrize("layout, row", [(oc_rules.PARAMS, oc_engine.PARAMS), (oc_rules.PAY, oc_engine.PAY)])
def test_ocracoke_engine_reads_each_rule_value_where_pack_writes_it(layout, row):
    """Each column the engine names (engine.PLAYERS, engine.PAY_C, ...) holds, in the engine's rule
    array R, the value the layout declares for that name."""
    r = oc_rules_value()
    R = rules_array(r, OC_GAME.bot_numbers({"0": "random", "1": "naive"}))
    for name in layout.names:
        assert getattr(oc_engine, name) == layout.index(name)[0], name
        assert R[row, getattr(oc_engine, name)] == layout.value(r, name), name


def test_wonderful_island_engine_reads_each_rule_value_where_pack_writes_it():
    r = wi_rules_value()
    T = wi_engine.table(wi_catalogue.load_catalogue(r.catalogue), r)
    assert wi_state.R_SIZE == wi_rules.RULE_ROW.end
    for name, reader in wi_rules.RULE_ROW.columns:
        assert getattr(wi_state, name) == wi_rules.RULE_ROW.index(name)[0], name
        if reader is not None:
            assert T[0, getattr(wi_state, name)] == wi_rules.RULE_ROW.value(r, name), name


@pytest.mark.parametrize("game, model, layouts", [
    ("ocracoke", oc_rules.OcracokeRules, (oc_rules.PARAMS, oc_rules.PAY)),
    ("wonderful-island", wi_rules.WonderfulIslandRules, (wi_rules.RULE_ROW,))])
def test_every_switchable_rule_is_packed(game, model, layouts):
    """A switchable rule added to the model reaches the engine through a layout column: by field name, or through
    a computed column whose packed value changes when the rule is switched (e.g. Ocracoke's PAY_E_ZERO)."""
    packed = {reader for lay in layouts for _, reader in lay.columns if isinstance(reader, str)}
    base = load_scenario(game, model, "base").rules
    for name in set(switchable_rules(model)) - packed:
        assert any((lay.pack(switched(base, name)) != lay.pack(base)).any() for lay in layouts), name


def test_island_nation_switchable_rules_reach_the_params_record():
    """Island Nation packs into a structured record (tables.Params) whose fields the engine reads by
    name, so its layout is declared once there; switching any switchable rule changes that record."""
    from sim.games.island_nation import rules as in_rules
    from sim.games.island_nation.tables import params_for

    r = load_scenario("island-nation", in_rules.IslandNationRules, "base", ["players=5"]).rules
    for name in switchable_rules(in_rules.IslandNationRules):
        assert params_for(switched(r, name)).tobytes() != params_for(r).tobytes(), name
