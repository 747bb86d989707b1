"""The catalogue as data: counts, named cards, every entry marked, clear validation errors (WI-COMP-1)."""

import copy
import tomllib

import pytest

from sim.core.errors import ScenarioError
from sim.games.wonderful_island.catalogue import TEXT_COUNTS, load_catalogue, parse_catalogue, resolve

NAMED = ("特偵查弊", "有罪宣判", "死亡之握", "槍擊案", "假民調", "無罪定讞", "沙盤推演", "離間", "轉移焦點", "狗仔錄音", "政治獻金")


@pytest.fixture(scope="module")
def raw():
    return tomllib.loads(resolve("base").read_text(encoding="utf-8"))


def test_base_catalogue_has_the_texts_counts_and_names(raw):
    """WI-COMP-1: 26 support, 28 obstruction, 69 strategy cards, 35 characters, 24 meeting cards; the named cards."""
    cat = load_catalogue("base")
    assert len(cat.deck) == 123 and len(cat.meeting_deck) == 24 and len(cat.char_names) == 35
    by_type = {}
    for card in raw["card"]:
        by_type[card["type"]] = by_type.get(card["type"], 0) + card["copies"]
    assert by_type == {k: TEXT_COUNTS[k] for k in ("support", "obstruction", "strategy")}
    assert set(NAMED) <= set(cat.card_names)


def test_every_entry_is_marked_assumed(raw):
    """Every card, character and meeting card says why it is assumed."""
    for table in ("card", "character", "meeting"):
        for entry in raw[table]:
            assert isinstance(entry.get("assumed"), str) and entry["assumed"].strip(), entry["name"]


def _broken(raw, edit):
    data = copy.deepcopy(raw)
    edit(data)
    return data


@pytest.mark.parametrize("edit,key,expected", [
    (lambda d: d["card"][0]["effects"][0].update(primitive="teleport"), "card[0].effects[0].primitive", "one of"),
    (lambda d: d["card"][0]["effects"][0].update(target="moon"), "card[0].effects[0].target", "one of"),
    (lambda d: d["card"][0]["effects"][0].update(target="other"), "card[0].effects[0].target", "slot card"),
    (lambda d: d["card"][0].update(copies=9), "card (support)", "adding up to 26"),
    (lambda d: d["card"][12].update(timing="whenever"), "card[12].timing", "one of"),
    (lambda d: d["card"][0]["effects"][0].update(primitive="cancel"), "card[0].effects[0].target", "cancel"),
    (lambda d: d["character"].pop(), "character", "35 characters"),
    (lambda d: d["character"][0]["active"].pop(), "character[0].active", "two active skills"),
    (lambda d: d["character"][0]["forced"].update(trigger="teatime"), "character[0].forced.trigger", "one of"),
    (lambda d: d["character"][0]["win"].update(condition="charisma"), "character[0].win.condition", "one of"),
    (lambda d: d["meeting"][0].update(copies=5), "meeting", "adding up to 24"),
    (lambda d: d["meeting"][0].update(camp="purple"), "meeting[0].camp", "one of"),
    (lambda d: d["card"][1].pop("assumed"), "card[1].assumed", "note"),
    (lambda d: d["card"][1].update(name=d["card"][0]["name"]), "card[1].name", "not used twice"),
    (lambda d: d["card"].extend({**d["card"][0], "name": f"extra {i}"} for i in range(40)), "card", "at most 63"),
])
def test_validation_errors_name_the_key(raw, edit, key, expected):
    """WI-COMP-1: a bad catalogue names the file, the key, what was expected and what was found."""
    with pytest.raises(ScenarioError) as info:
        parse_catalogue(_broken(raw, edit), "catalogue/test.toml")
    assert info.value.key == key and expected in info.value.expected and info.value.file == "catalogue/test.toml"


def test_an_unknown_catalogue_is_a_scenario_error():
    with pytest.raises(ScenarioError, match="catalogue"):
        load_catalogue("no-such-catalogue")
