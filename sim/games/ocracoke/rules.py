"""Every tunable rule of Ocracoke 迷霧島, with its source (rule ID in docs/rules/ocracoke.md).

Values the rule text does not give (card values, dial ranges, the two-player reading of rule D)
have no default here: they come from ``scenarios/ocracoke/base.toml`` with a note saying why.

The 11 character cards (OC-COMP-1) have fixed identities, numbered for the engine::

    0..3   navy  (blue, positive values)        navy_values[0..3]
    4..7   pirates (red, negative values)       pirate_values[0..3]
    8      ghost   情婦亡魂 (purple, 0)
    9      mermaid 人魚     (purple, 0)
    10     kraken  海怪     (purple, 0)

A dial (OC-DECL-1) has the zero position and, for each colour, the ranges given by
``dial_ranges`` (lower ends of the ranges: ``[1, 3, 5]`` means 1–2, 3–4 and 5 or more).
"""

from __future__ import annotations

from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from sim.core.layout import Layout

N_CARDS = 11
N_NAVY = 4
GHOST, MERMAID, KRAKEN = 8, 9, 10
N_ISLAND = 3  # OC-SETUP-1
MAX_ROUNDS = 4  # OC-ROUND-1
MAX_CARD = 6  # largest card value allowed, so a ship sum stays within ±24
SUM_LIMIT = 4 * MAX_CARD  # at most four cards of one colour on the ship

NavyValue = Annotated[int, Field(ge=1, le=MAX_CARD)]
PirateValue = Annotated[int, Field(ge=-MAX_CARD, le=-1)]


class OcracokeRules(BaseModel):
    """The rules of one Ocracoke run."""

    model_config = ConfigDict(extra="forbid")

    players: int = Field(4, ge=2, le=4, description="number of players",
                         json_schema_extra={"rule": "OC-PLAYERS"})
    navy_values: list[NavyValue] = Field(
        min_length=4, max_length=4, description="values of the 4 navy cards (positive)",
        json_schema_extra={"assumed": True})
    pirate_values: list[PirateValue] = Field(
        min_length=4, max_length=4, description="values of the 4 pirate cards (negative)",
        json_schema_extra={"assumed": True})
    dial_ranges: list[int] = Field(
        min_length=1, max_length=4,
        description="lower ends of the dial's ranges on each colour, starting at 1, increasing",
        json_schema_extra={"assumed": True})
    navy_cards: Literal[4] = Field(
        description="navy cards (blue, positive) among the 11; the engine knows only 4",
        json_schema_extra={"assumed": True})
    pirate_cards: Literal[4] = Field(
        description="pirate cards (red, negative) among the 11; the engine knows only 4",
        json_schema_extra={"assumed": True})
    special_cards: Literal[3] = Field(
        description="purple special cards (ghost, mermaid, kraken) among the 11; the engine knows only 3",
        json_schema_extra={"assumed": True})
    special_value: Literal[0] = Field(
        description="value of each purple special card in the ship's sum; the engine knows only 0",
        json_schema_extra={"assumed": True})
    purple_pays_hand: Literal[False] = Field(
        description="rule D pays a purple hand card (never: purple is neither the blue nor the red of a sum)",
        json_schema_extra={"assumed": True})
    hand_match_per_card: bool = Field(
        description="with 2 players (2 hand cards each) rule D pays for each matching hand card",
        json_schema_extra={"assumed": True})
    zero_declaration_bonus: bool = Field(
        False, description="a voluntary declarer whose dial 0 is right (sum 0) also earns rule E's bonus "
                           "(OC-ASM-ZERO-E; false: 0 is neither a sign nor a range of the dial, no bonus)",
        json_schema_extra={"assumed": True})
    win_gold: int = Field(5, ge=1, le=20, description="gold that ends the game",
                          json_schema_extra={"rule": "OC-END-1"})
    pay_colour: int = Field(1, ge=0, le=5, description="gold for the right colour (rule A)",
                            json_schema_extra={"rule": "OC-PAY-A"})
    pay_range: int = Field(1, ge=0, le=5, description="gold for the right range as well (rule B)",
                           json_schema_extra={"rule": "OC-PAY-B"})
    pay_zero: int = Field(3, ge=0, le=9, description="gold for dial 0 on a zero sum (rule C)",
                          json_schema_extra={"rule": "OC-PAY-C"})
    pay_hand: int = Field(1, ge=0, le=5, description="gold for a hand card of the sum's colour (rule D)",
                          json_schema_extra={"rule": "OC-PAY-D"})
    pay_declarer: int = Field(1, ge=0, le=5, description="extra gold for a right voluntary declarer (rule E)",
                              json_schema_extra={"rule": "OC-PAY-E"})
    kraken_toll: bool = Field(False, description="house rule: after a declaration's payout the kraken's holder "
                              "pays 1 gold (never below 0) to the declarer; off in the game as printed",
                              json_schema_extra={"rule": "OC-VAR-TOLL"})

    @field_validator("dial_ranges")
    @classmethod
    def _ranges_increase_from_one(cls, value: list[int]) -> list[int]:
        if value[0] != 1:
            raise ValueError("the first range must start at 1")
        if any(b <= a for a, b in zip(value, value[1:], strict=False)):
            raise ValueError("range starts must increase")
        if value[-1] > SUM_LIMIT:
            raise ValueError(f"range starts must be at most {SUM_LIMIT}")
        return value

    @property
    def ship_cards(self) -> int:
        """OC-SETUP-2: 4 ship cards, 5 with 3 players."""
        return 5 if self.players == 3 else 4

    @property
    def hand_cards(self) -> int:
        """OC-SETUP-3: 1 card each, 2 each with 2 players."""
        return 2 if self.players == 2 else 1

    @property
    def n_dials(self) -> int:
        return 1 + 2 * len(self.dial_ranges)


def card_values(rules: OcracokeRules) -> np.ndarray:
    """Value of each of the 11 cards (OC-COMP-1)."""
    specials = [rules.special_value] * rules.special_cards
    return np.array(list(rules.navy_values) + list(rules.pirate_values) + specials, dtype=np.int64)


def card_name(card: int, values: np.ndarray) -> str:
    if card == GHOST:
        return "ghost"
    if card == MERMAID:
        return "mermaid"
    if card == KRAKEN:
        return "kraken"
    side = "navy" if card < N_NAVY else "pirate"
    return f"{side} {int(values[card]):+d}"


def dial_bounds(rules: OcracokeRules) -> tuple[np.ndarray, np.ndarray]:
    """Sum range covered by each dial position: 0 is zero, 1..R blue ranges, R+1..2R red ranges."""
    starts = list(rules.dial_ranges)
    ends = [s - 1 for s in starts[1:]] + [SUM_LIMIT]
    lo = [0] + starts + [-e for e in ends]
    hi = [0] + ends + [-s for s in starts]
    return np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)


def dial_name(dial: int, rules: OcracokeRules) -> str:
    if dial < 0:
        return "-"
    lo, hi = dial_bounds(rules)
    if dial == 0:
        return "0"
    colour = "blue" if lo[dial] > 0 else "red"
    a, b = sorted((abs(int(lo[dial])), abs(int(hi[dial]))))
    return f"{colour} {a}+" if b >= SUM_LIMIT else f"{colour} {a}–{b}"


# The packed rule rows, declared once (sim.core.layout): pack() writes them in this order and the engine
# takes its column constants from them by name. A new rule value is one line here.
PARAMS = Layout(  # R[PARAMS]
    ("PLAYERS", "players"),  # OC-PLAYERS
    ("N_SHIP", "ship_cards"),  # OC-SETUP-2
    ("HAND_CARDS", "hand_cards"),  # OC-SETUP-3
    ("WIN_GOLD", "win_gold"),  # OC-END-1
    ("D_EACH", "hand_match_per_card"),  # OC-PAY-D with 2 players
    ("N_DIALS", "n_dials"),  # OC-DECL-1
    ("KRAKEN_TOLL", "kraken_toll"),  # OC-VAR-TOLL
)
def _zero_declarer_pay(rules: OcracokeRules) -> int:
    """OC-ASM-ZERO-E: rule E's bonus for a voluntary declarer's right dial 0, or 0 when that reading is off."""
    return rules.pay_declarer if rules.zero_declaration_bonus else 0


PAY = Layout(  # R[PAY]: gold by rule A..E, in the order of the payout rows S[PAID + r], then E for a right 0
    ("PAY_A", "pay_colour"),
    ("PAY_B", "pay_range"),
    ("PAY_C", "pay_zero"),
    ("PAY_D", "pay_hand"),
    ("PAY_E", "pay_declarer"),
    ("PAY_E_ZERO", _zero_declarer_pay),  # OC-PAY-E for a right dial 0 (OC-ASM-ZERO-E)
)


def pack(rules: OcracokeRules) -> dict[str, np.ndarray]:
    """The rules as a few arrays for the compiled engine (rows PARAMS and PAY by their layouts)."""
    lo, hi = dial_bounds(rules)
    return {"params": PARAMS.pack(rules), "values": card_values(rules), "dial_lo": lo, "dial_hi": hi,
            "pay": PAY.pack(rules)}
