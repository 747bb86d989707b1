"""The contract every game fulfils, so the runner, CLI and balance workflow treat games alike.

A game is a folder ``sim/games/<name>/`` with the same files in each:

``rules.py``      the pydantic model of every tunable parameter (default from the rule text, with
                  the rule ID; assumed values have no default and come from ``scenarios/``)
``engine.py``     the batch simulator: numba-compiled per-game rules looped over a batch
``policies.py``   the bots, compiled functions from what a seat may see to its choice
``analysis.py``   per-game rows to metrics, tallies, tables and plots
``reference.py``  one game at a time in plain Python: the cross-check and the speed baseline
``__init__.py``   exposes ``GAME = GameSpec(...)``; the registry finds it there

Everything a chunk returns is integer-valued, so merging chunk summaries is exact addition and
a run is bit-identical for any chunking, job count and backend.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel

Columns = dict[str, np.ndarray]
MAX_SEARCH_OPTION = 1 << 16  # a search budget option (rollouts, worlds, ...): beyond it a game takes hours


@dataclass(frozen=True)
class Metric:
    """A per-game quantity the runner aggregates with an interval.

    ``kind="rate"``: a 0/1 indicator per game (reported as a proportion with a Wilson interval).
    ``kind="mean"``: an integer per game (reported as a mean with a t interval).
    ``headline`` metrics are the ones compare, drift and the report put first.
    ``favours``: the roles for whom a higher value is a better result (e.g. Island Nation's "escaped by round
    7" goes with the frogman's win); a role's win rate ``win_<role>`` favours that role without saying so.
    ``sim robust`` counts a change in the direction of the searching role's favour as the expected effect.
    """

    name: str
    label: str
    kind: str = "rate"
    headline: bool = False
    favours: tuple[str, ...] = ()


@dataclass
class Chunk:
    """What one batch call returns: one row per game, plus named event tables (e.g. declarations)."""

    games: Columns
    events: dict[str, Columns] = field(default_factory=dict)

    def __len__(self) -> int:
        first = next(iter(self.games.values()), np.empty(0))
        return int(first.shape[0])


@dataclass
class Trace:
    """One game told as readable lines, plus its per-game row (to check it matches the batch)."""

    lines: list[str]
    chunk: Chunk


@dataclass(frozen=True)
class SearchBot:
    """A game's search bot: chosen like any bot (``--policy ROLE=search``), with an integer budget.

    ``options`` lists each budget option as (name, default, what it sets). A choice may override
    any of them: ``search:rollouts=64,worlds=8``. The search bot is never a role's default (it is
    far slower than the scripted bots): its index in the policy array is ``len(bots[role])``, one
    past the scripted bots.
    """

    name: str = "search"
    options: tuple[tuple[str, int, str], ...] = ()

    @property
    def defaults(self) -> dict[str, int]:
        return {name: default for name, default, _ in self.options}

    def syntax(self) -> str:
        """How to choose it, for ``sim games`` and ``--help``."""
        parts = ", ".join(f"{name}={default} ({what})" for name, default, what in self.options)
        return f"{self.name}[:OPTION=N,...]; options: {parts}" if parts else self.name


@dataclass(frozen=True)
class GameSpec:
    """A registered game: what it is, its rules model, its bots, and its engine entry points.

    ``play(rules, policy, seed, start, count) -> Chunk`` plays games ``start .. start+count-1``
    of the run ``seed``; game ``i`` uses ``sim.core.rng.game_stream(seed, i)`` and nothing else.
    ``policy`` is an int array (``policy_array``): first the bot of each role, indexed like
    ``roles``, as an index into ``bots[role]`` (``len(bots[role])`` for the search bot); then, when
    the game has a search bot, its options for each role in turn (``search_options``).

    Bots are chosen by name everywhere outside the engine: ``policy_array(rules, {"all": "counter"})``;
    ``default_bots`` names the bot a role plays when none is chosen; stored rows name bots
    (``named_rows``). So inserting a bot anywhere in ``bots[role]`` changes no test's or stored
    output's meaning (the position is only the engine's compiled dispatch number).
    """

    name: str
    title: str
    rules_model: type[BaseModel]
    player_counts: tuple[int, ...]
    roles: tuple[str, ...]
    bots: Mapping[str, tuple[str, ...]]  # per role, the scripted bots, weakest to strongest
    play: Callable[[BaseModel, np.ndarray, int, int, int], Chunk]
    metrics: Callable[[BaseModel], list[Metric]]
    per_game: Callable[[BaseModel, Chunk], Columns]  # metric name -> int64 per game
    tally: Callable[[BaseModel, Chunk], Columns]  # additive counts, merged by +
    tables: Callable[[BaseModel, Any], dict[str, Any]]  # (rules, RunSummary) -> named DataFrames
    trace: Callable[[BaseModel, np.ndarray, int, int], Trace]
    default_bots: Mapping[str, str]  # per role, the bot it plays unless another is chosen
    description: str = ""
    extras: Mapping[str, Any] = field(default_factory=dict)  # game-specific hooks (plots, maps)
    search: SearchBot | None = None  # the search bot, if the game has one

    def __post_init__(self) -> None:
        for role in self.roles:
            if self.default_bots.get(role) not in self.bots[role]:
                raise ValueError(f"{self.name}: default_bots[{role!r}] = {self.default_bots.get(role)!r}; "
                                 f"expected one of its scripted bots {', '.join(self.bots[role])}")

    def choices(self, role: str) -> tuple[str, ...]:
        """Every bot name a role accepts: the scripted bots, then the search bot."""
        return tuple(self.bots[role]) + ((self.search.name,) if self.search else ())

    def policy_array(self, rules: BaseModel, chosen: Mapping[str, str] | None = None) -> np.ndarray:
        """Bot index per role, then the search options per role (defaults where not chosen).

        Unnamed roles get their ``default_bots``; ``all=BOT`` sets every role."""
        from sim.core.errors import UserError

        chosen = dict(chosen or {})
        everyone = chosen.pop("all", None)
        if everyone is not None and all(everyone.partition(":")[0] not in self.choices(r) for r in self.roles):
            names = sorted({b for r in self.roles for b in self.choices(r)})
            raise UserError(f"--policy all={everyone}: expected a bot name, one of {', '.join(names)}")
        for role in chosen:
            if role not in self.roles:
                raise UserError(f"--policy {role}=...: {self.name} has no role {role!r}; roles are "
                                + ", ".join(self.roles) + " (or all)")
        width = len(self.search.options) if self.search else 0
        policy = np.empty(len(self.roles) * (1 + width), dtype=np.int64)
        for i, role in enumerate(self.roles):
            text = chosen.get(role, everyone or self.default_bots[role])
            who = role if role in chosen or everyone is None else f"all (for {role})"
            name, _, options = text.partition(":")
            if name not in self.choices(role):
                raise UserError(f"--policy {who}={text}: expected one of {', '.join(self.choices(role))}")
            if options and (self.search is None or name != self.search.name):
                raise UserError(f"--policy {who}={text}: only the search bot takes options")
            policy[i] = self.choices(role).index(name)
            if width:
                start = len(self.roles) + i * width
                policy[start:start + width] = list(self._search_budget(role, text, options).values())
        return policy

    def bot_numbers(self, chosen: Mapping[str, str] | None = None) -> np.ndarray:
        """The bots of ``chosen`` (by name, as in ``policy_array``) as the engine's dispatch numbers,
        one per role, without the search options: for tests that call an engine directly."""
        return self.policy_array(None, chosen)[:len(self.roles)]

    def _search_budget(self, role: str, text: str, options: str) -> dict[str, int]:
        """The search options of ``search:k=v,...``, defaults for those not given."""
        from sim.core.errors import UserError

        assert self.search is not None
        budget = self.search.defaults
        for item in filter(None, (part.strip() for part in options.split(","))):
            key, sep, value = item.partition("=")
            if not sep or key not in budget:
                raise UserError(f"--policy {role}={text}: {item!r}: expected OPTION=N with OPTION one of "
                                + ", ".join(budget))
            digits = value.strip()
            if not (digits.isascii() and digits.isdigit()) or not 1 <= int(digits) <= MAX_SEARCH_OPTION:
                raise UserError(f"--policy {role}={text}: {key}: expected a whole number from 1 to "
                                f"{MAX_SEARCH_OPTION:,}; found {value!r}")
            budget[key] = int(digits)
        return budget

    def policy_names(self, policy: np.ndarray) -> dict[str, str]:
        """Bot name per role; a search bot with its options where they differ from the defaults."""
        names = {}
        for i, role in enumerate(self.roles):
            name = self.choices(role)[int(policy[i])]
            if self.search is not None and name == self.search.name:
                width = len(self.search.options)
                values = policy[len(self.roles) + i * width: len(self.roles) + (i + 1) * width]
                changed = [f"{key}={int(v)}" for (key, default, _), v in zip(self.search.options, values,
                                                                             strict=True) if v != default]
                name += ":" + ",".join(changed) if changed else ""
            names[role] = name
        return names

    def named_rows(self, columns: Columns) -> dict[str, Any]:
        """Per-game columns as stored (Parquet rows, golden rows): each ``bot_<role>`` column of bot
        indices becomes the bots' names, so a stored row keeps its meaning when a bot is added."""
        named: dict[str, Any] = dict(columns)
        for role in self.roles:
            if f"bot_{role}" in named:
                names = np.asarray(self.choices(role))
                named[f"bot_{role}"] = names[np.asarray(named[f"bot_{role}"], dtype=np.int64)]
        return named

    def search_options(self, policy: np.ndarray) -> np.ndarray:
        """The search options as a (roles, options) int64 array (the defaults for roles without search)."""
        width = len(self.search.options) if self.search else 0
        return np.asarray(policy[len(self.roles):], dtype=np.int64).reshape(len(self.roles), width)
