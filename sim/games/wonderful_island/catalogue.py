"""The card, character and meeting catalogue: TOML data, validated, packed into int tables.

A catalogue file (``scenarios/wonderful-island/catalogue/NAME.toml``) lists

* ``[[card]]`` effect cards: ``name``, ``type`` (support | obstruction | strategy), ``copies``,
  ``timing`` for strategy cards (action | reactive | response; support and obstruction cards go
  into venue slots), and ``effects``: one or two ``{primitive, amount, target}``;
* ``[[character]]``: ``name``, two ``active`` skills and one ``forced`` skill, each
  ``{trigger, primitive, amount, target}`` with an optional ``venue`` for ``own_campaign``, and the
  politician ``win`` condition ``{condition, amount}`` (or ``{condition = "camp_elected", camp}``);
* ``[[meeting]]`` meeting cards: ``name``, ``copies``, the ``camp`` asked about and the ``effect``
  the recipient carries out if they belong to it (WI-CARD-4);
* ``[counts]``: the deck sizes the copies must add up to (the text's: 26 support, 28 obstruction,
  69 strategy, 35 characters, 24 meeting cards).

Every entry carries ``assumed`` (a one-line note) unless it states a rule text fact. Errors name
the file, the key (``card[3].effects[0].primitive``), what was expected and what was found.

A catalogue may instead be a patch of another: ``extends = "base"`` plus the changes only (removed
entries, added entries, changed copies and counts; see ``_apply_patch``), e.g.
``catalogue/extra-card.toml``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from sim.core.errors import ScenarioError
from sim.core.scenario import scenario_root

TEXT_COUNTS = {"support": 26, "obstruction": 28, "strategy": 69, "characters": 35, "meetings": 24}
TYPES = ("support", "obstruction", "strategy")
TIMINGS = ("slot", "action", "reactive", "response")
MAX_CARD_KINDS = 63  # card kinds are bits 0..62 of an int64 mask (engine.table, R_*_KINDS)
PRIMITIVES = ("none", "votes", "iron", "subpoena", "clear_subpoena", "hospital", "draw", "discard",
              "move_votes", "cancel", "peek", "support")
TARGETS = ("self", "candidate", "other", "others", "venue_support", "venue_obstruction", "incoming", "sender")
TRIGGERS = ("turn_start", "own_campaign", "others_campaign", "subpoenaed", "hospitalized")
CONDITIONS = ("votes", "iron", "camp_elected", "jailed", "hand")
CAMPS = ("blue", "green", "politician")
VENUE_KEYS = ("any", "rally", "grassroots", "street_sweep", "legislature", "poaching", "tv_debate")

# card table columns
C_TYPE, C_TIMING, C_P1, C_A1, C_T1, C_P2, C_A2, C_T2, C_COPIES, C_VALUE = range(10)
CARD_COLS = 10
# character table: 3 skills x (trigger, venue, primitive, amount, target), then win condition
S_TRIG, S_VENUE, S_PRIM, S_AMT, S_TGT = range(5)
SKILL_COLS = 5
CH_WIN, CH_WIN_AMT, CH_SCORE = 15, 16, 17
CHAR_COLS = 18
# meeting table
M_CAMP, M_PRIM, M_AMT, M_TGT = range(4)
MEET_COLS = 4

HOSTILE = {"votes": -1, "subpoena": 1, "hospital": 1, "discard": 1, "move_votes": 1}
CARD_TARGETS = {
    "slot": ("candidate", "self"),
    "action": ("self", "other", "others"),
    "reactive": ("candidate", "venue_support", "venue_obstruction"),
    "response": ("incoming",),
}
SKILL_TARGETS = ("self", "other", "others", "candidate")
MEETING_TARGETS = ("self", "sender")


@dataclass(frozen=True)
class Catalogue:
    """A validated catalogue: names and the int tables the engine reads."""

    path: Path
    card_names: tuple[str, ...]
    card_table: np.ndarray  # [kinds, CARD_COLS]
    deck: np.ndarray  # kind of each of the effect cards
    char_names: tuple[str, ...]
    char_table: np.ndarray  # [characters, CHAR_COLS]
    meeting_names: tuple[str, ...]
    meeting_table: np.ndarray  # [kinds, MEET_COLS]
    meeting_deck: np.ndarray
    raw: dict[str, Any]

    def card_kind(self, name: str) -> int:
        return self.card_names.index(name)


def resolve(name: str) -> Path:
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        return path
    return scenario_root() / "wonderful-island" / "catalogue" / f"{name}.toml"


def load_catalogue(name: str) -> Catalogue:
    """Load and validate a catalogue by name or path (cached on the file's path and mtime)."""
    path = resolve(name)
    if not path.is_file():
        folder = path.parent
        known = sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []
        raise ScenarioError(str(path), "rules.catalogue", f"a catalogue file (known: {', '.join(known) or 'none'})",
                            name)
    return _load(str(path.resolve()), path.stat().st_mtime_ns)


@cache
def _load(path: str, _mtime: int) -> Catalogue:
    return parse_catalogue(_read(Path(path), ()), path)


def _read(file: Path, seen: tuple[Path, ...]) -> dict[str, Any]:
    """The catalogue's data; a patch (a file with ``extends``) is applied to its parent first."""
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(str(file), "(file)", "valid TOML", str(exc)) from None
    return _apply_patch(file, data, seen) if "extends" in data else data


PATCH_KEYS = ("extends", "description", "assumed", "counts", "card", "character", "meeting", "remove", "copies")
ENTRY_TABLES = ("card", "character", "meeting")


def _apply_patch(file: Path, patch: dict[str, Any], seen: tuple[Path, ...]) -> dict[str, Any]:
    """A catalogue patch: ``extends`` names the parent catalogue (a name, or a path relative to the
    patch's folder); then ``remove`` (names of cards, characters or meeting cards) drops entries,
    ``[[card]]``, ``[[character]]``, ``[[meeting]]`` entries are added (one with a name the parent
    uses replaces that entry), ``copies = { NAME = n }`` changes a card's or meeting card's copies,
    and ``[counts]`` entries replace the parent's. The result is validated as a whole catalogue, its
    errors naming the patch file."""
    where = str(file)
    unknown = sorted(set(patch) - set(PATCH_KEYS))
    if unknown:
        raise ScenarioError(where, unknown[0], "in a catalogue patch, one of " + ", ".join(PATCH_KEYS), unknown[0])
    name = patch["extends"]
    if not isinstance(name, str) or not name:
        raise ScenarioError(where, "extends", "the name of the catalogue this patch changes, e.g. \"base\"", name)
    local = file.parent / (name if name.endswith(".toml") else f"{name}.toml")
    parent = local if local.is_file() else resolve(name)
    if not parent.is_file():
        raise ScenarioError(where, "extends", "an existing catalogue file", name)
    if parent.resolve() in seen or parent.resolve() == file.resolve():
        raise ScenarioError(where, "extends", "a chain of catalogues without a cycle", name)
    data = _read(parent, (*seen, file.resolve()))
    data = {key: (list(value) if isinstance(value, list) else value) for key, value in data.items()}
    removed = patch.get("remove", [])
    if not isinstance(removed, list) or not all(isinstance(n, str) for n in removed):
        raise ScenarioError(where, "remove", "a list of entry names", removed)
    names = {e.get("name") for t in ENTRY_TABLES for e in data.get(t, []) if isinstance(e, dict)}
    for gone in removed:
        if gone not in names:
            raise ScenarioError(where, "remove", f"names of cards, characters or meeting cards of {name}", gone)
    for table in ENTRY_TABLES:
        entries = [e for e in data.get(table, []) if e.get("name") not in removed]
        added = _entries(where, patch, table)
        by_name = {e["name"]: i for i, e in enumerate(entries)}
        for entry in added:
            if entry["name"] in by_name:
                entries[by_name[entry["name"]]] = entry
            else:
                entries.append(entry)
        data[table] = entries
    copies = patch.get("copies", {})
    if not isinstance(copies, dict):
        raise ScenarioError(where, "copies", "a table { NAME = copies }", copies)
    for entry_name, n in copies.items():
        found = [e for t in ("card", "meeting") for e in data[t] if e.get("name") == entry_name]
        if not found:
            raise ScenarioError(where, f"copies.{entry_name}", f"the name of a card or meeting card of {name}",
                                entry_name)
        found[0]["copies"] = n  # validated with the whole catalogue
    counts = patch.get("counts", {})
    if not isinstance(counts, dict):
        raise ScenarioError(where, "counts", "a table of deck sizes", counts)
    data["counts"] = {**data.get("counts", {}), **counts}
    for key in ("description", "assumed"):
        if key in patch:
            data[key] = patch[key]
    return data


def _pick(file: str, key: str, value: Any, options: tuple[str, ...]) -> int:
    if value not in options:
        raise ScenarioError(file, key, "one of " + ", ".join(options), value)
    return options.index(value)


def _int(file: str, key: str, value: Any, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ScenarioError(file, key, f"an integer from {lo} to {hi}", value)
    return value


def _entries(file: str, data: dict, table: str) -> list[dict]:
    entries = data.get(table, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ScenarioError(file, table, f"an array of tables [[{table}]]", type(entries).__name__)
    names = set()
    for i, entry in enumerate(entries):
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise ScenarioError(file, f"{table}[{i}].name", "a name", name)
        if name in names:
            raise ScenarioError(file, f"{table}[{i}].name", "a name not used twice", name)
        names.add(name)
        if "assumed" not in entry and "rule" not in entry:
            raise ScenarioError(file, f"{table}[{i}].assumed", "a one-line note saying why this entry is assumed")
    return entries


def _effect(file: str, key: str, effect: Any, targets: tuple[str, ...]) -> tuple[int, int, int]:
    if not isinstance(effect, dict):
        raise ScenarioError(file, key, "a table {primitive, amount, target}", effect)
    unknown = set(effect) - {"primitive", "amount", "target"}
    if unknown:
        raise ScenarioError(file, f"{key}.{sorted(unknown)[0]}", "only primitive, amount, target", sorted(unknown)[0])
    prim = _pick(file, f"{key}.primitive", effect.get("primitive"), PRIMITIVES)
    amount = _int(file, f"{key}.amount", effect.get("amount", 1), -10, 10)
    target = _pick(file, f"{key}.target", effect.get("target"), targets)
    if PRIMITIVES[prim] == "cancel" and TARGETS[target] not in ("incoming", "venue_support", "venue_obstruction"):
        raise ScenarioError(file, f"{key}.target", "incoming, venue_support or venue_obstruction for cancel",
                            TARGETS[target])
    if TARGETS[target] in ("incoming", "venue_support", "venue_obstruction") and PRIMITIVES[prim] != "cancel":
        raise ScenarioError(file, f"{key}.primitive", f"cancel (the only primitive aimed at {TARGETS[target]})",
                            PRIMITIVES[prim])
    return prim, amount, target


def card_value(effects: list[tuple[int, int, int]]) -> int:
    """A rough worth of a card for the bots' discard order (higher is kept longer)."""
    weight = {"votes": 10, "iron": 14, "subpoena": 16, "clear_subpoena": 9, "hospital": 12, "draw": 8,
              "discard": 5, "move_votes": 12, "cancel": 11, "peek": 4, "support": 9, "none": 0}
    return sum(weight[PRIMITIVES[p]] * max(1, abs(a)) for p, a, _ in effects)


def parse_catalogue(data: dict, file: str = "catalogue") -> Catalogue:
    """Validate a parsed catalogue and pack it into tables."""
    unknown = set(data) - {"description", "counts", "card", "character", "meeting", "assumed"}
    if unknown:
        key = sorted(unknown)[0]
        raise ScenarioError(file, key, "description, counts, card, character, meeting or assumed", key)
    counts = dict(TEXT_COUNTS)
    for key, value in data.get("counts", {}).items():
        if key not in counts:
            raise ScenarioError(file, f"counts.{key}", "one of " + ", ".join(counts), key)
        counts[key] = _int(file, f"counts.{key}", value, 0, 500)

    cards = _entries(file, data, "card")
    if len(cards) > MAX_CARD_KINDS:
        raise ScenarioError(file, "card", f"at most {MAX_CARD_KINDS} kinds of card (the engine keeps a set of kinds "
                            "as the bits of one 64-bit word)", len(cards))
    card_rows, deck, per_type = [], [], dict.fromkeys(TYPES, 0)
    for i, card in enumerate(cards):
        key = f"card[{i}]"
        kind = _pick(file, f"{key}.type", card.get("type"), TYPES)
        copies = _int(file, f"{key}.copies", card.get("copies"), 1, 123)
        timing_name = "slot" if kind < 2 else card.get("timing")
        if kind < 2 and card.get("timing", "slot") != "slot":
            raise ScenarioError(file, f"{key}.timing", "slot (support and obstruction cards go into venue slots)",
                                card.get("timing"))
        timing = _pick(file, f"{key}.timing", timing_name, TIMINGS[1:] if kind == 2 else ("slot",))
        timing = timing + 1 if kind == 2 else 0
        raw_effects = card.get("effects")
        if not isinstance(raw_effects, list) or not 1 <= len(raw_effects) <= 2:
            raise ScenarioError(file, f"{key}.effects", "a list of one or two effects", raw_effects)
        effects = [_effect(file, f"{key}.effects[{j}]", e, TARGETS) for j, e in enumerate(raw_effects)]
        allowed = CARD_TARGETS[TIMINGS[timing]]
        for j, (_, _, tgt) in enumerate(effects):
            if TARGETS[tgt] not in allowed:
                raise ScenarioError(file, f"{key}.effects[{j}].target",
                                    f"one of {', '.join(allowed)} for a {TIMINGS[timing]} card", TARGETS[tgt])
        while len(effects) < 2:
            effects.append((0, 0, 0))
        row = [kind, timing, *effects[0], *effects[1], copies, card_value(effects)]
        card_rows.append(row)
        deck += [i] * copies
        per_type[TYPES[kind]] += copies
    for kind, n in per_type.items():
        if n != counts[kind]:
            raise ScenarioError(file, f"card ({kind})", f"copies adding up to {counts[kind]} {kind} cards", n)

    chars = _entries(file, data, "character")
    if len(chars) != counts["characters"]:
        raise ScenarioError(file, "character", f"{counts['characters']} characters", len(chars))
    char_rows = []
    for i, ch in enumerate(chars):
        key = f"character[{i}]"
        active = ch.get("active")
        if not isinstance(active, list) or len(active) != 2:
            raise ScenarioError(file, f"{key}.active", "two active skills (WI-SKILL-1)", active)
        row: list[int] = []
        score = 0
        for j, skill in enumerate([*active, ch.get("forced")]):
            skey = f"{key}.active[{j}]" if j < 2 else f"{key}.forced"
            if not isinstance(skill, dict):
                raise ScenarioError(file, skey, "a skill {trigger, primitive, amount, target}", skill)
            trig = _pick(file, f"{skey}.trigger", skill.get("trigger"), TRIGGERS)
            venue = _pick(file, f"{skey}.venue", skill.get("venue", "any"), VENUE_KEYS) - 1
            prim, amt, tgt = _effect(file, skey, {k: v for k, v in skill.items() if k not in ("trigger", "venue")},
                                     TARGETS)
            if TARGETS[tgt] not in SKILL_TARGETS or PRIMITIVES[prim] in ("cancel", "support"):
                raise ScenarioError(file, f"{skey}.target", "a skill aimed at self, other, others or candidate "
                                    "(not cancel or support)", f"{PRIMITIVES[prim]} -> {TARGETS[tgt]}")
            row += [trig, venue, prim, amt, tgt]
            score += card_value([(prim, amt, tgt)]) * (1 if j < 2 else -1)
        win = ch.get("win")
        if not isinstance(win, dict):
            raise ScenarioError(file, f"{key}.win", "a politician win condition {condition, amount}", win)
        cond = _pick(file, f"{key}.win.condition", win.get("condition"), CONDITIONS)
        if CONDITIONS[cond] == "camp_elected":
            amount = _pick(file, f"{key}.win.camp", win.get("camp"), CAMPS[:2])
        else:
            amount = _int(file, f"{key}.win.amount", win.get("amount"), 1, 100)
        row += [cond, amount, score]
        char_rows.append(row)

    meetings = _entries(file, data, "meeting")
    meet_rows, meet_deck = [], []
    for i, m in enumerate(meetings):
        key = f"meeting[{i}]"
        copies = _int(file, f"{key}.copies", m.get("copies"), 1, 24)
        camp = _pick(file, f"{key}.camp", m.get("camp"), CAMPS)
        prim, amt, tgt = _effect(file, f"{key}.effect", m.get("effect"), TARGETS)
        if TARGETS[tgt] not in MEETING_TARGETS:
            raise ScenarioError(file, f"{key}.effect.target", "self (the recipient) or sender", TARGETS[tgt])
        meet_rows.append([camp, prim, amt, tgt])
        meet_deck += [i] * copies
    if len(meet_deck) != counts["meetings"]:
        raise ScenarioError(file, "meeting", f"copies adding up to {counts['meetings']} meeting cards",
                            len(meet_deck))

    return Catalogue(
        path=Path(file),
        card_names=tuple(c["name"] for c in cards),
        card_table=np.array(card_rows, dtype=np.int64).reshape(-1, CARD_COLS),
        deck=np.array(deck, dtype=np.int64),
        char_names=tuple(c["name"] for c in chars),
        char_table=np.array(char_rows, dtype=np.int64).reshape(-1, CHAR_COLS),
        meeting_names=tuple(m["name"] for m in meetings),
        meeting_table=np.array(meet_rows, dtype=np.int64).reshape(-1, MEET_COLS),
        meeting_deck=np.array(meet_deck, dtype=np.int64),
        raw=data,
    )
