"""Every tunable parameter of Island Nation (同島一命), with its source.

Values the rule text gives carry ``rule`` (an ID in docs/rules/island-nation.md) and a default.
Values the text does not give (the HP and bullet table, the map) are ``assumed``: they have no
default in code and come from ``scenarios/island-nation/base.toml`` with a one-line note.
Per-player-count tables are lists indexed by ``players - 4`` (4, 5, 6 players).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

PLAYER_COUNTS = (4, 5, 6)
LAST_ROUND = 10  # IN-WIN-A3: the artillery win when round 10 ends; per-round columns are fixed at 10


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
    evac_from: int = Field(7, ge=1, le=LAST_ROUND, description="first round in which entering an evac point escapes",
                           json_schema_extra={"rule": "IN-WIN-F1"})
    evac_to: int = Field(10, ge=1, le=LAST_ROUND, description="last round in which entering an evac point escapes",
                         json_schema_extra={"rule": "IN-WIN-F1"})
    bottle_rounds: list[int] = Field([2, 6], description="rounds in which the frogman must place a water bottle",
                                     json_schema_extra={"rule": "IN-BOTTLE-1"})
    mines: int = Field(1, ge=0, le=1, description="mine tokens of the frogman",
                       json_schema_extra={"rule": "IN-MINE-1"})
    shot_range: int = Field(3, ge=1, le=3, description="range of a shot in hexes",
                            json_schema_extra={"rule": "IN-SHOOT-3"})

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

    @model_validator(mode="after")
    def _window(self) -> IslandNationRules:
        if self.evac_from > self.evac_to:
            raise ValueError(f"evac_from ({self.evac_from}) must not come after evac_to ({self.evac_to})")
        return self

    @property
    def n_artillery(self) -> int:
        return self.players - 1

    def loadout(self) -> tuple[int, int, int, int]:
        """(frogman HP, frogman bullets, artillery HP, artillery bullets) for this player count."""
        i = self.players - 4
        return self.frogman_hp[i], self.frogman_bullets[i], self.artillery_hp[i], self.artillery_bullets[i]
