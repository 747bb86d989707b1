"""Every tunable parameter of The Wonderful Island (美麗島風雲), with its source.

Values the rule text gives carry ``rule`` (an ID in docs/rules/wonderful-island.md) and a default.
The text's tables (camp cards by player count; vote pool, starting votes, rounds and threshold by
the number of blue/green players) were pictures and are lost: they are ``assumed``, have no default
in code and come from ``scenarios/wonderful-island/base.toml`` with a one-line note each.

* ``camp_cards`` is indexed by ``players - 3`` (3..8 players): ``[blue, green, politician]``.
* ``vote_pool``, ``starting_votes``, ``max_rounds``, ``threshold`` are indexed by the number of
  blue/green players minus one (1..6).
* ``catalogue`` names the card/character/meeting catalogue under
  ``scenarios/wonderful-island/catalogue/`` (validated by :mod:`.catalogue` when the rules load).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sim.core.layout import Layout

PLAYER_COUNTS = (3, 4, 5, 6, 7, 8)
BG_COUNTS = (1, 2, 3, 4, 5, 6)
CAMP_CARDS = (3, 3, 2)  # WI-COMP-1: 3 blue, 3 green, 2 politician camp cards in the box
VENUES = ("rally", "grassroots", "street_sweep", "legislature", "poaching", "tv_debate")
VENUE_NAMES = ("造勢晚會", "走訪基層", "地方掃街", "立院決戰", "挖角拔樁", "電視辯論")


def _per_bg(description: str) -> object:
    return Field(description=description, min_length=6, max_length=6,
                 json_schema_extra={"assumed": True, "per_bg_count": list(BG_COUNTS)})


def _rule(default: int, rule: str, description: str, lo: int, hi: int) -> object:
    return Field(default, ge=lo, le=hi, description=description, json_schema_extra={"rule": rule})


class WonderfulIslandRules(BaseModel):
    """The rules of one Wonderful Island run."""

    model_config = ConfigDict(extra="forbid")

    players: int = _rule(6, "WI-COMP-2", "players (3–8)", 3, 8)
    catalogue: str = Field(description="catalogue name under scenarios/wonderful-island/catalogue/ or a path",
                           json_schema_extra={"assumed": True})
    camp_cards: list[list[int]] = Field(
        description="camp cards [blue, green, politician] for 3, 4, 5, 6, 7, 8 players", min_length=6,
        max_length=6, json_schema_extra={"assumed": True, "per_player_count": list(PLAYER_COUNTS),
                                         "entries": ["blue", "green", "politician"]})
    vote_pool: list[int] = _per_bg("vote tokens in the pool for 1..6 blue/green players")
    starting_votes: list[int] = _per_bg("votes each player takes at setup for 1..6 blue/green players")
    max_rounds: list[int] = _per_bg("maximum rounds for 1..6 blue/green players")
    threshold: list[int] = _per_bg("election threshold (votes + iron votes) for 1..6 blue/green players")
    venue_slots: int = Field(ge=1, le=16, description="slots for support/obstruction cards on a venue board",
                             json_schema_extra={"assumed": True})

    threshold_shift: int = _rule(0, "WI-END-1", "added to the threshold table (the text invites adjusting it)",
                                 -10, 10)
    starting_votes_shift: int = _rule(0, "WI-SETUP-7", "added to the starting-votes table (the text invites it)",
                                      -5, 5)
    characters_dealt: int = _rule(2, "WI-SETUP-1", "characters dealt to each player (one is kept)", 1, 4)
    hand_size: int = _rule(3, "WI-SETUP-4", "effect cards dealt to each player", 0, 10)
    meeting_per_player: int = _rule(2, "WI-SETUP-5", "meeting cards dealt to each player", 0, 3)
    meeting_fewer: bool = Field(False, description="text variant: deal (blue/green players − 1) meeting cards",
                                json_schema_extra={"rule": "WI-SETUP-6"})
    meeting_removed_after_use: bool = Field(False, description="text variant: used meeting cards leave the game",
                                            json_schema_extra={"rule": "WI-MEET-3"})
    draw_per_turn: int = _rule(2, "WI-TURN-2", "cards drawn at step B", 0, 5)
    hand_limit: int = _rule(5, "WI-TURN-5", "hand limit at the discard step", 1, 12)
    trade_for_meeting: int = _rule(3, "WI-MEET-2", "cards discarded to take one meeting card", 1, 6)
    jail_subpoenas: int = _rule(3, "WI-SUBP-2", "subpoenas that send a player to jail", 1, 6)
    iron_tokens: int = _rule(30, "WI-COMP-1", "iron-vote tokens in the box", 0, 100)
    support_per_bonus: int = _rule(2, "WI-V-RALLY-2", "support cards per step of every venue's support bonus", 1, 6)
    rally_votes: int = _rule(3, "WI-V-RALLY-1", "votes from a rally", 0, 10)
    grassroots_iron: int = _rule(2, "WI-V-GRASS-1", "iron votes from grassroots visits", 0, 10)
    legislature_votes: int = _rule(3, "WI-V-LEG-1", "votes the candidate shares out when a bill passes", 0, 10)
    debate_success_votes: int = _rule(2, "WI-V-DEBATE-5", "votes for a debater who meets the issue", 0, 10)
    debate_walkover_votes: int = _rule(3, "WI-V-DEBATE-3", "votes for the candidate when nobody debates", 0, 10)
    dice: int = _rule(3, "WI-COMP-1", "dice in the box (caps the street-sweep dice)", 2, 6)

    @field_validator("camp_cards")
    @classmethod
    def _camps(cls, value: list[list[int]]) -> list[list[int]]:
        for players, row in zip(PLAYER_COUNTS, value, strict=True):
            if len(row) != 3 or any(v < 0 for v in row):
                raise ValueError(f"{players} players: expected [blue, green, politician] counts, found {row}")
            if sum(row) != players:
                raise ValueError(f"{players} players: camp cards {row} add up to {sum(row)}, not {players}")
            if any(v > cap for v, cap in zip(row, CAMP_CARDS, strict=True)):
                raise ValueError(f"{players} players: the box has only 3 blue, 3 green and 2 politician cards")
        return value

    @field_validator("vote_pool", "starting_votes", "max_rounds", "threshold")
    @classmethod
    def _positive(cls, value: list[int]) -> list[int]:
        if any(v < 0 or v > 100 for v in value):
            raise ValueError("each entry must be between 0 and 100")
        return value

    @model_validator(mode="after")
    def _fits_the_box(self) -> WonderfulIslandRules:
        from sim.games.wonderful_island.catalogue import load_catalogue

        load_catalogue(self.catalogue)  # raises ScenarioError naming the catalogue file and key
        row = self.camp_cards[self.players - 3]
        bg = row[0] + row[1]
        if bg == 0:
            raise ValueError(f"{self.players} players: at least one blue or green player is needed")
        start = self.start_votes()
        if start * self.players > self.vote_pool[bg - 1]:
            raise ValueError(f"{self.players} players: {self.players} × {start} starting votes exceed the "
                             f"pool of {self.vote_pool[bg - 1]}")
        if self.max_rounds[bg - 1] < 1 or self.election_threshold() < 1:
            raise ValueError("max_rounds and threshold must be at least 1 for the blue/green count in use")
        return self

    # -- derived values -------------------------------------------------------------------------------
    def camps(self) -> tuple[int, int, int]:
        """Blue, green and politician players at this player count (WI-SETUP-2)."""
        blue, green, politician = self.camp_cards[self.players - 3]
        return blue, green, politician

    def bg_count(self) -> int:
        blue, green, _ = self.camps()
        return blue + green

    def start_votes(self) -> int:
        return max(0, self.starting_votes[self.bg_count() - 1] + self.starting_votes_shift)

    def election_threshold(self) -> int:
        return max(1, self.threshold[self.bg_count() - 1] + self.threshold_shift)

    def pool(self) -> int:
        return self.vote_pool[self.bg_count() - 1]

    def rounds(self) -> int:
        return self.max_rounds[self.bg_count() - 1]


# The rule row T[0] of the engine, declared once (sim.core.layout): engine.table() writes the rule
# values in this order and state.py takes the engine's R_* constants from it by name. A new rule value
# is one line here. Columns read by None are filled by engine.table() from the catalogue, or per game.
RULE_ROW = Layout(
    ("R_PLAYERS", "players"),
    ("R_BLUE", lambda r: r.camps()[0]),  # WI-SETUP-2
    ("R_GREEN", lambda r: r.camps()[1]),
    ("R_POL", lambda r: r.camps()[2]),
    ("R_POOL", WonderfulIslandRules.pool),
    ("R_START", WonderfulIslandRules.start_votes),
    ("R_ROUNDS", WonderfulIslandRules.rounds),
    ("R_THRESH", WonderfulIslandRules.election_threshold),
    ("R_SLOTS", "venue_slots"),
    ("R_CHARS_DEALT", "characters_dealt"),
    ("R_HAND", "hand_size"),
    ("R_MEET", "meeting_per_player"),
    ("R_MEET_FEWER", "meeting_fewer"),
    ("R_MEET_REMOVE", "meeting_removed_after_use"),
    ("R_DRAW", "draw_per_turn"),
    ("R_LIMIT", "hand_limit"),
    ("R_TRADE", "trade_for_meeting"),
    ("R_JAIL", "jail_subpoenas"),
    ("R_IRON", "iron_tokens"),
    ("R_SUP_PER", "support_per_bonus"),
    ("R_RALLY", "rally_votes"),
    ("R_GRASS", "grassroots_iron"),
    ("R_LEG", "legislature_votes"),
    ("R_DEB_WIN", "debate_success_votes"),
    ("R_DEB_WALK", "debate_walkover_votes"),
    ("R_DICE", "dice"),
    # from the catalogue: the first character and meeting rows of T, the card kinds by how they are played
    ("R_CHAR0", None), ("R_MEET0", None),
    ("R_SLOT_KINDS", None), ("R_ACTION_KINDS", None), ("R_REACTIVE_KINDS", None), ("R_RESPONSE_KINDS", None),
    ("R_HOSTILE_KINDS", None),
    # the trace log rows of ``st`` (engine.new_state)
    ("R_LOG0", None), ("R_LOG_END", None),
    # forced decisions of paired counterfactuals (engine.play_forced_batch)
    ("R_FORCE_TURN", None), ("R_FORCE_VENUE", None), ("R_FORCE_SEAT", None), ("R_FORCE_CHAR", None),
    ("R_SPARE_JAIL", None), ("R_SPARE_HOSP", None), ("R_FORCE_DEBATER", None), ("R_FORCE_ANSWER", None),
)
