"""Every tunable parameter of Island Nation (同島一命), with its source.

Values the rule text gives carry ``rule`` (an ID in docs/rules/island-nation.md) and a default.
Values the text does not give (the HP and bullet table, the map) are ``assumed``: they have no
default in code and come from ``scenarios/island-nation/base.toml`` with a one-line note.
Per-player-count tables are lists indexed by ``players - 4`` (4, 5, 6 players).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

PLAYER_COUNTS = (4, 5, 6)

# Readings of the rule text that no rule value switches (the switched ones are fields below, marked
# assumed): the clause ID and the reading, listed by ``sim rules island-nation`` (docs/rules/island-nation.md).
READINGS = (
    ("IN-SETUP-4", "戰略點 (strategic point) read as a numbered point: no artillery starts on an evac point A–F"),
    ("IN-TURN-3", "a frogman that cannot step shoots if it has a bullet, else draws if it may, else passes "
                  "(the public learns it is boxed in)"),
    ("IN-SHOOT-6", "on a shared point the frogman's bots hit the artillery with the fewest HP"),
    ("IN-SHOOT-7", "a traitor and the frogman on one point: an artillery shot hits the frogman"),
    ("IN-BOTTLE-2", "in a bottle turn the frogman tells neither the directions nor how many steps"),
    ("IN-CARD-2", "items are used at the start of one's own turn, at most one card of each kind a turn"),
    ("IN-CARD-5", "the traitor wins with the frogman; drawn by the frogman the traitor event does nothing"),
    ("IN-ABILITY-2", "an ability is used at most once a turn"),
    ("IN-ABILITY-3", "the can is silent in bottle turns"),
)
LAST_ROUND = 10  # IN-WIN-A3: the artillery win when round 10 ends; per-round columns are fixed at 10


EFFECTS = ("heal", "bullets", "extra_ap", "radar", "traitor", "can")
ITEM_EFFECTS = ("heal", "bullets", "extra_ap", "radar")
EVENT_EFFECTS = ("heal", "bullets", "traitor")
ABILITY_EFFECTS = ("heal", "bullets", "extra_ap", "radar", "can")


class Card(BaseModel):
    """One kind of card of the deck, as an effect primitive (IN-CARD-1..5).

    ``heal``: +amount HP (up to the starting HP); ``bullets``: +amount bullets; ``extra_ap``: +amount
    action points this turn; ``radar``: the frogman says whether it is within ``amount`` road steps of
    the user; ``traitor``: an artillery that draws it turns traitor (IN-CARD-5).
    """

    model_config = ConfigDict(extra="forbid")
    name: str
    kind: Literal["item", "event"]
    effect: Literal["heal", "bullets", "extra_ap", "radar", "traitor"]
    amount: int = Field(1, ge=0, le=5)
    count: int = Field(1, ge=1, le=28)

    @model_validator(mode="after")
    def _effect_fits_kind(self) -> Card:
        allowed = ITEM_EFFECTS if self.kind == "item" else EVENT_EFFECTS
        if self.effect not in allowed:
            raise ValueError(f"card {self.name!r}: a {self.kind} card's effect is one of {', '.join(allowed)}")
        return self


class Ability(BaseModel):
    """One artillery character's ability (IN-ABILITY-1/2): an effect primitive used ``uses`` times a
    game at no action point. ``can``: put the can token on one's point; a frogman announcing a step
    that ends there must say so (IN-ABILITY-3)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    effect: Literal["heal", "bullets", "extra_ap", "radar", "can"]
    amount: int = Field(1, ge=0, le=5)
    uses: int = Field(1, ge=1, le=5)


def _per_count(description: str) -> object:
    return Field(description=description, min_length=3, max_length=3,
                 json_schema_extra={"assumed": True, "per_player_count": list(PLAYER_COUNTS)})


class IslandNationRules(BaseModel):
    """The rules of one Island Nation run."""

    model_config = ConfigDict(extra="forbid")

    players: int = Field(5, ge=4, le=6, description="players: 1 frogman + 3–5 artillery",
                         json_schema_extra={"rule": "IN-SETUP-1"})
    map: str = Field(description="map name under scenarios/island-nation/maps/ or a path to a map file",
                     json_schema_extra={"assumed": True})
    frogman_hp: list[int] = _per_count("frogman HP for 4, 5, 6 players")
    frogman_bullets: list[int] = _per_count("frogman bullets for 4, 5, 6 players")
    artillery_hp: list[int] = _per_count("HP of each artillery for 4, 5, 6 players")
    artillery_bullets: list[int] = _per_count("bullets of each artillery for 4, 5, 6 players")
    action_points: int = Field(3, ge=1, le=6, description="action points per turn",
                               json_schema_extra={"rule": "IN-TURN-2"})
    evac_from: int = Field(ge=1, le=LAST_ROUND, description="first round in which entering an evac point escapes",
                           json_schema_extra={"assumed": True})
    evac_to: int = Field(ge=1, le=LAST_ROUND, description="last round in which entering an evac point escapes",
                         json_schema_extra={"assumed": True})
    bottle_rounds: list[int] = Field([2, 6], description="rounds in which the frogman must place a water bottle",
                                     json_schema_extra={"rule": "IN-BOTTLE-1"})
    mines: int = Field(ge=0, le=1, description="mine tokens of the frogman (one on the board at a time)",
                       json_schema_extra={"assumed": True})
    evac_escape: Literal["entering", "standing"] = Field(
        description="IN-WIN-F1 reading: 'entering' = only a step onto an evac point in the window escapes; "
                    "'standing' = a frogman already on one when its turn in the window opens escapes too",
        json_schema_extra={"assumed": True})
    frogman_shot_direction: Literal["secret", "announced"] = Field(
        description="IN-SHOOT-4 reading: the frogman says who its shot hit; 'announced' = it says the direction too",
        json_schema_extra={"assumed": True})
    frogman_shoots_traitors: bool = Field(
        description="IN-CARD-5 reading: false = a traitor is immune to the frogman's shots; true = the "
                    "frogman's shot hits the nearest artillery, traitor or not",
        json_schema_extra={"assumed": True})
    frogman_may_stay_on_artillery: bool = Field(
        description="IN-MOVE-4 reading (不能主動停留): true = a frogman sharing its point with artillery may "
                    "stay there (0 steps); false = it must step off when it can",
        json_schema_extra={"assumed": True})
    shot_range: int = Field(3, ge=1, le=3, description="range of a shot in hexes",
                            json_schema_extra={"rule": "IN-SHOOT-3"})
    deck: list[Card] = Field(description="item and event cards (28 small cards in the box; list lost)",
                             max_length=16, json_schema_extra={"assumed": True})
    abilities: list[Ability] = Field(description="the artillery characters' abilities (9 in the box; lost)",
                                     max_length=9, json_schema_extra={"assumed": True})

    @field_validator("frogman_hp", "artillery_hp")
    @classmethod
    def _positive_hp(cls, value: list[int]) -> list[int]:
        if any(v < 1 or v > 20 for v in value):
            raise ValueError("each HP must be between 1 and 20")
        return value

    @field_validator("frogman_bullets", "artillery_bullets")
    @classmethod
    def _bullets(cls, value: list[int]) -> list[int]:
        if any(v < 0 or v > 20 for v in value):
            raise ValueError("each bullet count must be between 0 and 20")
        return value

    @field_validator("bottle_rounds")
    @classmethod
    def _bottle_rounds(cls, value: list[int]) -> list[int]:
        if any(r < 1 or r > LAST_ROUND for r in value) or len(set(value)) != len(value):
            raise ValueError(f"distinct rounds between 1 and {LAST_ROUND}")
        return sorted(value)

    @field_validator("deck")
    @classmethod
    def _deck_size(cls, value: list[Card]) -> list[Card]:
        if sum(c.count for c in value) > 64:
            raise ValueError("at most 64 cards in all")
        return value

    @field_validator("evac_to")
    @classmethod
    def _window(cls, value: int, info: ValidationInfo) -> int:
        first = info.data.get("evac_from")
        if first is not None and first > value:
            raise ValueError(f"the window must not end (round {value}) before it starts (evac_from = {first})")
        return value

    @field_validator("abilities")
    @classmethod
    def _one_ability_each(cls, value: list[Ability], info: ValidationInfo) -> list[Ability]:
        artillery = info.data.get("players", 5) - 1
        if value and len(value) < artillery:
            raise ValueError(f"{len(value)} abilities for {artillery} artillery: give at least one per "
                             "artillery (or none)")
        return value

    @property
    def n_artillery(self) -> int:
        return self.players - 1

    def loadout(self) -> tuple[int, int, int, int]:
        """(frogman HP, frogman bullets, artillery HP, artillery bullets) for this player count."""
        i = self.players - 4
        return self.frogman_hp[i], self.frogman_bullets[i], self.artillery_hp[i], self.artillery_bullets[i]
