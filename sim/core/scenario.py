"""Scenario files: the rules a run uses, as TOML data validated by each game's pydantic model.

A scenario file lives under ``scenarios/<game>/NAME.toml``::

    description = "What this variant changes and why"
    extends = "base"            # optional: start from another scenario of the same game

    [rules]                     # any rule parameter of the game
    players = 3

    [assumed]                   # a note for every value that is not in the rule text
    navy_values = "The card pictures are lost; assumed +1, +2, +3, +4."

Each value in force has a source: ``rule text`` (the model's default, which cites a rule
ID), ``assumed`` (set in a file together with a note in ``[assumed]``) or ``scenario``
(set by a variant file or ``--set`` without such a note). Model fields marked
``assumed=True`` have no default in code: a scenario must give them, with a note, so a
designer who owns the real components edits a file, not code.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from sim.core.errors import ScenarioError

FILE_KEYS = {"description", "extends", "rules", "assumed"}
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")  # a scenario name: a file stem, never a path


def scenario_root() -> Path:
    """Folder holding ``<game>/*.toml``: ``$SIM_SCENARIOS`` or the repository's ``scenarios/``."""
    env = os.environ.get("SIM_SCENARIOS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "scenarios"


def list_scenarios(game: str) -> list[str]:
    folder = scenario_root() / game
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


@dataclass(frozen=True)
class Source:
    """Where one effective rule value came from."""

    kind: str  # "rule text" | "assumed" | "scenario"
    origin: str  # rule ID, file name or "--set"
    note: str = ""


@dataclass
class Scenario:
    """The effective rules of a run and where each value came from."""

    game: str
    name: str
    rules: BaseModel
    sources: dict[str, Source]
    files: list[Path] = field(default_factory=list)
    description: str = ""

    def assumptions(self) -> dict[str, Source]:
        return {k: s for k, s in self.sources.items() if s.kind == "assumed"}


def _resolve_path(game: str, name_or_path: str | Path, near: Path | None = None, holder: str | None = None) -> Path:
    """A scenario path, or a name looked up beside ``near`` (the extending file), then in scenarios/<game>/.

    A name is a file stem (letters, digits, ``_``, ``-``, ``.``): ``../other-game/x`` is not followed out of
    the game's folder; a path to a file (``*.toml`` or an existing file) is taken as given. ``holder`` is the
    file whose ``extends`` names this one, and is the file an error names.
    """
    text = str(name_or_path)
    where, key = (holder, "extends") if holder else ("--scenario", "scenario")
    if not text.strip():
        raise ScenarioError(where, key, "a scenario name (see `sim games`) or a path to a .toml file", text)
    path = Path(text)
    if path.suffix == ".toml" or path.is_file():
        if holder and not path.is_absolute() and near is not None and (near / path).is_file():
            return near / path
        if not path.is_file():
            raise ScenarioError(where if holder else text, key, "an existing scenario file", text)
        return path
    if not NAME.fullmatch(text):
        raise ScenarioError(where, key, "a scenario name (letters, digits, '-', '_'; not a path into another "
                            "folder) or a path to a .toml file", text)
    beside = near / f"{text}.toml" if near is not None else None
    if beside is not None and beside.is_file():
        return beside
    candidate = scenario_root() / game / f"{text}.toml"
    if not candidate.is_file():
        known = list_scenarios(game)
        hint = difflib.get_close_matches(text, known, n=1)
        expected = f"one of {', '.join(known) or '(none)'}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
        raise ScenarioError(holder or f"scenarios/{game}", key, expected, text)
    return candidate


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(str(path), "(file)", "valid TOML", str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(path), "(file)", "UTF-8 text", f"byte {exc.object[exc.start]:#04x} at "
                            f"offset {exc.start}") from None
    except OSError as exc:
        raise ScenarioError(str(path), "(file)", "a readable file", exc.strerror or type(exc).__name__) from None
    if not data:
        raise ScenarioError(str(path), "(file)", "a scenario: `extends = \"base\"` and/or a [rules] table",
                            "an empty file")
    unknown = set(data) - FILE_KEYS
    if unknown:
        key = sorted(unknown)[0]
        hint = difflib.get_close_matches(key, FILE_KEYS, n=1)
        expected = "one of " + ", ".join(sorted(FILE_KEYS)) + (f" (did you mean {hint[0]!r}?)" if hint else "")
        raise ScenarioError(str(path), key, expected, key)
    for table in ("rules", "assumed"):
        if not isinstance(data.get(table, {}), dict):
            raise ScenarioError(str(path), table, "a table", data[table])
    return data


def _deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def parse_set(assignment: str) -> tuple[str, Any]:
    """``key=value`` with the value read as TOML (``3``, ``true``, ``[1, 2]``), else as text."""
    if "=" not in assignment:
        raise ScenarioError("--set", assignment, "key=value")
    key, raw = (part.strip() for part in assignment.split("=", 1))
    if not key or not all(part.isidentifier() for part in key.split(".")):
        raise ScenarioError("--set", assignment, "key=value with a rule name as key (see `sim rules GAME`)")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def _nest(key: str, value: Any) -> dict[str, Any]:
    head, _, rest = key.partition(".")
    return {head: _nest(rest, value) if rest else value}


def _field_meta(model: type[BaseModel], name: str) -> dict[str, Any]:
    extra = model.model_fields[name].json_schema_extra
    return extra if isinstance(extra, dict) else {}


def row_in_play(rules: BaseModel, name: str) -> int | None:
    """The index of the entry a table by player count (json_schema_extra "per_player_count") uses at the
    rules' player count; None for any other field, or when the count is not in the table."""
    counts = _field_meta(type(rules), name).get("per_player_count")
    players = getattr(rules, "players", None)
    return counts.index(players) if counts and players in counts else None


_BOUND_WORDS = (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"))


def _expected_text(model: type[BaseModel], loc: tuple, msg: str) -> str:
    """'<description>: int ≥ 1, ≤ 10 (<pydantic's message>)' for a field, else pydantic's message."""
    name = loc[0] if loc else None
    if not (isinstance(name, str) and name in model.model_fields):
        return msg
    info = model.model_fields[name]
    bounds = [f"{word} {getattr(m, attr)}" for m in info.metadata for attr, word in _BOUND_WORDS
              if getattr(m, attr, None) is not None]
    kind = getattr(info.annotation, "__name__", str(info.annotation))
    return f"{info.description or name}: {' '.join([kind, ', '.join(bounds)]).strip()} ({msg})"


def validate_rules(model: type[BaseModel], values: dict[str, Any], origin_of: dict[str, str]) -> BaseModel:
    """Build the game's rules model, turning the first validation error into a ScenarioError."""
    for key in values:
        if key not in model.model_fields:
            hint = difflib.get_close_matches(key, list(model.model_fields), n=1)
            expected = "a rule parameter of this game" + (f" (did you mean {hint[0]!r}?)" if hint else "")
            raise ScenarioError(origin_of.get(key, "scenario"), f"rules.{key}", expected, key)
    try:
        # strict: true/false is not the number 1/0 and a number is not a boolean (the same in --set and TOML)
        return model.model_validate(values, strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err.get("loc", ()))
        top = loc[0] if loc else ""
        key = "rules." + ".".join(str(p) for p in loc) if loc else "rules"
        found = err.get("input") if err.get("type") != "missing" else None
        if err.get("type") == "missing":
            return_expected = "a value in the scenario (this value is not in the rule text: give it with a note)"
            raise ScenarioError(origin_of.get(str(top), "scenario"), key, return_expected) from None
        expected = _expected_text(model, loc, err.get("msg", "a valid value"))
        if isinstance(found, bool) and err.get("type") in ("int_type", "float_type"):
            expected += "; true/false is not a number"
        elif err.get("type") == "bool_type":
            expected += "; write true or false"
        raise ScenarioError(origin_of.get(str(top), "scenario"), key, expected, found) from None


def load_scenario(
    game: str,
    model: type[BaseModel],
    scenario: str | Path = "base",
    sets: list[str] | tuple[str, ...] = (),
    players: int | None = None,
) -> Scenario:
    """Resolve ``extends`` chains, apply ``--set`` overrides (then ``--players``), validate, and record
    sources; an error names the option or file that gave the value."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    path = _resolve_path(game, scenario)
    seen: set[Path] = set()
    while True:
        if path.resolve() in seen:
            raise ScenarioError(str(path), "extends", "no cycle of scenarios extending each other", path.stem)
        seen.add(path.resolve())
        data = _read_toml(path)
        chain.append((path, data))
        parent = data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise ScenarioError(str(path), "extends", "a scenario name or path", parent)
        path = _resolve_path(game, parent, near=path.parent, holder=str(path))
    chain.reverse()

    values: dict[str, Any] = {}
    origin_of: dict[str, str] = {}
    sources: dict[str, Source] = {}
    root_file = chain[0][0]
    for file, data in chain:
        notes = data.get("assumed", {})
        for key, note in notes.items():
            if key not in data.get("rules", {}) and key not in values:
                raise ScenarioError(str(file), f"assumed.{key}", "a note for a value set in [rules]", key)
            if not isinstance(note, str) or not note.strip():
                raise ScenarioError(str(file), f"assumed.{key}", "a one-line reason (text)", note)
        for key, value in data.get("rules", {}).items():
            values[key] = _deep_merge(values[key], value) if isinstance(value, dict) and isinstance(
                values.get(key), dict) else value
            origin_of[key] = str(file)
            note = notes.get(key)
            sources[key] = Source("assumed", file.name, note) if note else Source("scenario", file.name)
        # a note alone re-labels an inherited value as assumed
        for key, note in notes.items():
            if key not in data.get("rules", {}):
                sources[key] = Source("assumed", file.name, note)
    settings = [(parse_set(a), "--set") for a in sets]
    if players is not None:
        settings.append((("players", players), "--players"))
    for (key, value), option in settings:
        head = key.split(".", 1)[0]
        values = _deep_merge(values, _nest(key, value))
        origin_of[head] = option
        sources[head] = Source("scenario", option)

    rules = validate_rules(model, values, origin_of)
    for name in model.model_fields:
        meta = _field_meta(model, name)
        if name not in sources:
            sources[name] = Source("rule text", str(meta.get("rule", "")))
        elif meta.get("assumed") and sources[name].kind != "assumed" and origin_of.get(name) == str(root_file):
            raise ScenarioError(str(root_file), f"assumed.{name}",
                                "a note saying why this value is assumed (it is not in the rule text)")
    name = Path(scenario).stem if str(scenario).endswith(".toml") else str(scenario)
    return Scenario(game, name, rules, sources, [f for f, _ in chain], chain[-1][1].get("description", ""))
