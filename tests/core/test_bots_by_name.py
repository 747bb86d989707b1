"""Bots by name (issue 22 §1): tests, defaults and stored rows name bots, so inserting a bot anywhere in a
role's list (first, in the middle, last) changes no choice, no default and no stored row's meaning. The
games are looped over inside each test, not parametrized by name, so this file compiles no engine."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.core.game import GameSpec
from sim.core.registry import all_games

PLACES = {"first": lambda bots: 0, "middle": lambda bots: len(bots) // 2, "last": len}


def with_dummy(spec: GameSpec, place: str) -> GameSpec:
    """``spec`` with a bot named "dummy" inserted at ``place`` of every role's list."""
    def insert(bots: tuple[str, ...]) -> tuple[str, ...]:
        at = PLACES[place](bots)
        return bots[:at] + ("dummy",) + bots[at:]

    return dataclasses.replace(spec, bots={role: insert(tuple(bots)) for role, bots in spec.bots.items()})


def choices_to_try(spec: GameSpec) -> list[dict[str, str] | None]:
    """No choice (the defaults), every bot at every role alone, and one mixed table."""
    tried: list[dict[str, str] | None] = [None]
    for role in spec.roles:
        tried += [{role: bot} for bot in spec.choices(role)]
    tried.append({role: spec.choices(role)[i % len(spec.choices(role))] for i, role in enumerate(spec.roles)})
    return tried


def stored_row(spec: GameSpec, policy: np.ndarray) -> dict[str, list]:
    """The bot columns of a stored row (Parquet, golden) of a game played with ``policy``."""
    columns = {f"bot_{role}": np.array([policy[i]]) for i, role in enumerate(spec.roles)}
    return {key: list(value) for key, value in spec.named_rows(columns).items()}


@pytest.mark.parametrize("place", PLACES)
def test_a_dummy_bot_anywhere_changes_no_choice_default_or_stored_row(place):
    for name, spec in all_games().items():
        grown = with_dummy(spec, place)
        for chosen in choices_to_try(spec):
            before, after = spec.policy_array(None, chosen), grown.policy_array(None, chosen)
            assert grown.policy_names(after) == spec.policy_names(before), (name, chosen)
            assert stored_row(grown, after) == stored_row(spec, before), (name, chosen)
        assert grown.policy_names(grown.policy_array(None)) == spec.default_bots, name


def test_the_default_bot_is_named_not_the_last_in_the_list():
    for name, spec in all_games().items():
        assert set(spec.default_bots) == set(spec.roles), name
        assert spec.policy_names(spec.policy_array(None)) == spec.default_bots, name


def test_a_default_that_is_not_one_of_the_roles_bots_is_refused():
    spec = next(iter(all_games().values()))
    role = spec.roles[0]
    with pytest.raises(ValueError, match=f"default_bots\\['{role}'\\] = 'dummy'"):
        dataclasses.replace(spec, default_bots={**spec.default_bots, role: "dummy"})


def test_stored_rows_name_the_search_bot_too():
    for name, spec in all_games().items():
        if spec.search is not None:
            policy = spec.policy_array(None, {"all": spec.search.name})
            assert set(stored_row(spec, policy)[f"bot_{spec.roles[0]}"]) == {spec.search.name}, name
