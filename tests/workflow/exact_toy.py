"""Exact win probabilities of the toy dice duel, by enumeration (the truth the workflow should find)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product


def roll_distribution(sides: int, smart: bool) -> dict[int, Fraction]:
    """A smart bot rerolls a roll in the lower half once; a naive bot keeps it."""
    dist = {k: Fraction(0) for k in range(1, sides + 1)}
    for first in range(1, sides + 1):
        if smart and 2 * first <= sides:
            for second in range(1, sides + 1):
                dist[second] += Fraction(1, sides * sides)
        else:
            dist[first] += Fraction(1, sides)
    return dist


def seat_win(seat: int, players: int = 3, sides: int = 6, bonus: int = 0, bonus_chance: float = 0.0,
             smart: tuple[bool, ...] = (True, True, True, True)) -> float:
    """P(seat's total is the highest, ties shared) with seat 0 getting ``bonus`` (+1 w.p. bonus_chance)."""
    dists = [roll_distribution(sides, smart[s]) for s in range(players)]

    def prob(extra: int) -> Fraction:
        total = Fraction(0)
        for rolls in product(*(sorted(d.items()) for d in dists)):
            totals = [r for r, _ in rolls]
            totals[0] += extra
            weight = Fraction(1)
            for _, w in rolls:
                weight *= w
            if totals[seat] == max(totals):
                total += weight
        return total

    return float((1 - Fraction(bonus_chance).limit_denominator(10**6)) * prob(bonus)
                 + Fraction(bonus_chance).limit_denominator(10**6) * prob(bonus + 1))
