"""``sim report``: one balance PDF per game and a one-page overview (``make report``).

Each game's PDF: a cover (scenario, player counts, bots, game counts, seed, toolkit version, date),
every assumed value in force, the metrics table with 95 % intervals, the game's own key plots
(``GameSpec.extras["report_figures"]``), the sensitivity tornado, the skill ladder, and "does it hold
under stronger play?" (``sim robust``: a result ``sim robust GAME --out reports/robust`` wrote for the
same scenario and compiled code if there is one, else a smaller run played for the report), and the skill
curve (``sim skill GAME --out reports/skill``: read from ``<out>/skill``, never played by the report; page one
states its strong-play figure beside the scripted one, or that strong play was not measured).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from sim.core import registry
from sim.core.game import GameSpec
from sim.core.pages import (
    blocks_pages,
    on_a4,
    plot_axes,
    section_of,
    table_pages,
    text_pages,
    use_fonts,
    write_pdf,
)
from sim.core.runner import SimResult, simulate
from sim.core.scenario import list_scenarios
from sim.workflow.common import active_roles, is_seated, resolve_game, scenario_of, toolkit_version
from sim.workflow.compare import Comparison, changed_rules, compare
from sim.workflow.fairness import Fairness, draw_fairness, fairness
from sim.workflow.ladder import Ladder, ladder, ladder_figures
from sim.workflow.robust import (
    TABLE_HEADER,
    Robustness,
    cached,
    flip_lines,
    robust,
    robust_figure,
    robust_summary,
    speed_line,
    table_rows,
)
from sim.workflow.sensitivity import Tornado, sensitivity, tornado_figure
from sim.workflow.skill import DEFAULT_OUT as DEFAULT_SKILL
from sim.workflow.skill import (
    DEVIATOR,
    SCRIPTED,
    SkillCurve,
    fresh,
    level_in_play,
    load_curve,
    skill_figure,
    within,
)

HEADLINE_GAMES = 50_000  # Wilson half-width at p = 0.5: 1.96 * sqrt(0.25 / 50000) = 0.44 points
ANALYSIS_GAMES = 20_000
LADDER_GAMES = 5_000
ROBUST_GAMES = 1_000  # per arm, when no cached `sim robust` result: half-width at p = 0.5 about 3.1 points
ROBUST_TITLE = "Does it hold under stronger play?"
ROBUST_FLIPS_SHOWN = 8
SKILL_TITLE = "Strong play: the skill curve"


@dataclass
class GameReport:
    spec: GameSpec
    path: Path
    headline: SimResult
    tornado: Tornado | None
    ladder: Ladder | None
    pages: list[str] = field(default_factory=list)  # page titles, in order
    elapsed_s: float = 0.0
    robust: Robustness | None = None
    robust_note: str = ""  # where the stronger-play result came from, or why there is none
    verdict: list[str] = field(default_factory=list)  # page one's text
    brief: list[str] = field(default_factory=list)  # the overview's block (strong play in one line)
    curve: SkillCurve | None = None  # ``sim skill``'s cached curve, if any

    def widest_rate_half_width(self) -> float:
        frame = self.headline.metrics(headline_only=True)
        rates = frame.filter(frame["kind"] == "rate")
        return float(((rates["hi"] - rates["lo"]) / 2).max()) if rates.height else 0.0


def _cover(spec: GameSpec, headline: SimResult, counts: dict[str, str], seed: int, began: str):
    scen = headline.scenario
    bots = [f"  {role}: {', '.join(spec.bots[role])} (in this run: {headline.policies[role]})" for role in spec.roles]
    lines = [
        f"Scenario: {scen.name}" + (f" - {scen.description}" if scen.description else ""),
        "Scenario files: " + ", ".join(p.name for p in scen.files),
        f"Player counts of the game: {', '.join(map(str, spec.player_counts))}"
        + (f"; this scenario: {scen.rules.players}" if hasattr(scen.rules, "players") else ""),
        "Bots per role (weakest to strongest):", *bots,
        "Game counts:", *[f"  {k}: {v}" for k, v in counts.items()],
        f"Seed: {seed} (game i of a run uses the random stream (seed, i) alone)",
        f"Toolkit version: {toolkit_version()}",
        f"Date: {began}",
        "",
        "Every rate is shown with its 95 % interval (Wilson for rates, t for means) and its number of games.",
        "Differences (sensitivity) are paired over common random numbers; see docs/workflow.md.",
    ]
    return text_pages(f"{spec.title}: balance report", lines)


def _assumption_pages(headline: SimResult):
    scen = headline.scenario
    values = scen.rules.model_dump()
    rows = [[key, _value_text(values.get(key), headline.game.name), src.origin, src.note]
            for key, src in scen.assumptions().items()]
    return table_pages(f"Assumed values in force ({len(rows)})", ["rule", "value", "file", "why assumed"], rows,
                       [0.17, 0.25, 0.1, 0.48])


VALUE_CHARS = 240  # a longer value (a deck, a map) is summarised; `sim rules GAME` prints it whole


def _value_text(value, game: str) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= VALUE_CHARS:
        return text
    size = f"{len(value)} entries" if isinstance(value, list | dict) else f"{len(text)} characters"
    return f"{text[:VALUE_CHARS // 2].rstrip()} ... ({size}; in full: sim rules {game})"


def _metric_pages(headline: SimResult):
    rows = []
    frame = headline.metrics()
    headline_names = {m.name for m in headline.game.metrics(headline.rules) if m.headline}
    for r in sorted(frame.iter_rows(named=True), key=lambda r: r["metric"] not in headline_names):
        if r["kind"] == "rate":
            est = f"{100 * r['value']:.2f}% [{100 * r['lo']:.2f}, {100 * r['hi']:.2f}]"
            half = f"±{50 * (r['hi'] - r['lo']):.2f} pt"
        else:
            est = f"{r['value']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"
            half = f"±{(r['hi'] - r['lo']) / 2:.3f}"
        rows.append([("* " if r["metric"] in headline_names else "") + r["label"], est, half, f"{r['n']:,}"])
    return table_pages("Metrics with 95 % intervals (* headline)", ["metric", "estimate [95 % interval]",
                                                                    "half-width", "games"], rows,
                       [0.42, 0.3, 0.13, 0.15])


def _variant_pages(variants: list[Comparison]):
    """Every other scenario of the game against the base: paired differences, Holm over metrics."""
    rows = []
    for c in variants:
        changed = ", ".join(f"{k}: {_value_text(old, c.spec.name)} -> {_value_text(new, c.spec.name)}"
                            for k, (old, new) in changed_rules(c).items())
        rows.append([f"{c.variant.name}", changed or "(same rules)", "", "", ""])
        for row in c.rows:
            d = row.difference
            if d is None:
                continue
            scale, unit = (100, " pt") if row.metric.kind == "rate" else (1, "")
            value = (f"{100 * d.base.value:.2f} % -> {100 * d.variant.value:.2f} %" if row.metric.kind == "rate"
                     else f"{d.base.value:.3f} -> {d.variant.value:.3f}")
            rows.append(["", f"  {row.metric.label}", value,
                         f"{scale * d.diff:+.2f}{unit} [{scale * d.lo:+.2f}, {scale * d.hi:+.2f}]",
                         "yes" if row.beyond_noise else "no"])
    if not variants:
        return []
    n = variants[0].n_games
    return table_pages(f"Scenario variants against the base ({n:,} paired games each)",
                       ["variant", "metric / rules changed", "base -> variant", "difference [95 %]", "beyond noise"],
                       rows, [0.14, 0.36, 0.2, 0.2, 0.1])


CALIBRATED = re.compile(r"calibrat|(?<!not )tuned", re.IGNORECASE)


def _fairness_by_players(spec: GameSpec, scen, n_games: int, seed: int, jobs: int) -> dict[int | None, Fairness]:
    """Each player count's fairness figures (rows kept for the tie rate and the paired spread); the
    scenario's own count first."""
    own = getattr(scen.rules, "players", None)
    counts = [own] + [p for p in spec.player_counts if p != own] if own is not None else [None]
    return {p: fairness(simulate(spec, scen, n_games, seed, jobs, players=p, keep_rows=True, progress=False))
            for p in counts}


def _calibrated(scen) -> list[str]:
    """The assumed values tuned to give a result (their notes say calibrated or tuned): that result is their
    consequence, not a finding."""
    return [f"{key}: {src.note}" for key, src in scen.assumptions().items() if CALIBRATED.search(src.note)]


def _who(spec: GameSpec, roles: list[str]) -> str:
    """Who plays at a level in plain words: "both sides", "every seat" or "every role"."""
    if len(roles) == 2 and not is_seated(spec):
        return "both sides"
    return "every seat" if is_seated(spec) else "every role"


def _budget(level: str) -> str:
    """A level's budget as said in a sentence: "search:rollouts=128" -> "rollouts=128"."""
    return level.partition(":")[2] or level


def _strong_lines(spec: GameSpec, curve: SkillCurve) -> list[str]:
    """Each win rate's strong-play figure beside the scripted one: the level where it settled, else the
    highest level measured, with its interval and n."""
    scripted = {p.metric: p for p in curve.points if p.level == SCRIPTED}
    who = _who(spec, list(curve.bots.get(curve.levels[-1], {})))
    lines = []
    for v in curve.verdicts:
        if not v.metric.startswith("win_") or v.metric not in scripted:
            continue
        base = scripted[v.metric].value
        where = (f"settled: within ±{100 * curve.tolerance:.1f} points of the level before" if v.settled else
                 "the curve had not settled" + (f" (last change {_points(v.change)})" if v.change else "")
                 + (f"; {v.trend_text(value=False)}" if v.trend else ""))
        lines.append(f"{v.label} {_pct(v.value)} with {who} searching at {_budget(v.level)} (n={v.value.n:,}), "
                     f"against {_pct(base)} scripted on the same games; {where}.")
    return lines


def _pct(est) -> str:
    return f"{100 * est.value:.1f} % [{100 * est.lo:.1f}, {100 * est.hi:.1f}]"


def _points(change: tuple[float, float, float], unit: str = "points") -> str:
    d, lo, hi = (100 * x for x in change)
    return f"{d:+.1f} {unit} [{lo:+.1f}, {hi:+.1f}]"


def _skill_command(spec: GameSpec, folder: Path, scenario: str = "base", players: int | None = None) -> str:
    return (f"sim skill {spec.name}" + (f" --scenario {scenario}" if scenario != "base" else "")
            + (f" -p {players}" if players else "") + f" --out {folder}")


def _curve_note(spec: GameSpec, curve: SkillCurve | None, folder: Path, scenario: str = "base") -> str:
    """Where the skill curve of ``scenario`` came from (cached file, date, games per level, whether it is
    fresh), or the command that measures it."""
    command = (_skill_command(spec, folder, scenario) if curve is None
               else _skill_command(spec, folder, curve.scenario, curve.players_asked))
    if spec.search is None:
        return f"{spec.title} has no search bot yet (GameSpec.search), so strong play cannot be measured."
    if curve is None:
        return (f"Strong play has not been measured for this scenario: `{command}` plays search at rising budgets "
                "until the headlines stop moving, and the report then shows its result.")
    stale = "" if fresh(curve, spec) else (
        " It was played with other compiled sources or other rules than today's: run it again to refresh.")
    state = "settled" if curve.settled else f"not settled ({curve.stopped})"
    return (f"Strong play: cached result of `{command}` from {curve.date}: {curve.n_games:,} games per level, the "
            f"same games at every level, seed {curve.seed}; levels scripted, then "
            f"{', '.join(_budget(lv) for lv in curve.levels[1:])}; {state}.{stale}" + _in_play_note(curve))


def _in_play_note(curve: SkillCurve) -> str:
    """The next level, when a run of it is under way (its chunks kept so far): its win rates on those games
    and their paired change from the curve's last level; "" when none is."""
    going = curve.in_play
    if going is None:
        return ""
    wins = [p for p in going.points if p.metric.startswith("win_")]
    figures = "; ".join(f"{_name(p.label)} {_pct(p.value)}" + (
        "" if p.change is None else f", change from {_budget(curve.levels[-1])} on the same games {_points(p.change)}")
        for p in wins)
    return (f" The next level, {_budget(going.level)}, is partly played: {going.kept:,} of {going.n_games:,} games so "
            f"far (kept in {going.folder}), on which {figures}. Until it is whole, the curve's verdicts stand.")


def _play_level(spec: GameSpec, headline: SimResult, curve: SkillCurve | None, folder: Path,
                brief: bool = False) -> list[str]:
    """At which play level the figures hold: the scripted bots, and strong play if ``sim skill`` measured it
    (``brief``: strong play in one line, for the overview)."""
    playing = {role: bot for role, bot in headline.policies.items() if role in active_roles(spec, headline.rules)}
    bots = (f"{next(iter(playing.values()))} in every seat" if len(set(playing.values())) == 1 and len(playing) > 1
            else ", ".join(f"{role} {bot}" for role, bot in playing.items()))
    lines = [f"Every figure in this report (unless a page says otherwise) is from scripted bots: {bots}. They "
             "follow fixed rules of thumb; they are not strong players."]
    if curve is None:
        lines.append(_curve_note(spec, curve, folder, headline.scenario.name) + (
            " Until it is, these figures hold for scripted play only; 'Does it hold under stronger play?' shows "
            "what one search bot changes." if spec.search is not None else ""))
    elif brief or len(_strong_lines(spec, curve)) > 2:  # three roles or more: one sentence keeps page one short
        lines += [_curve_note(spec, curve, folder)] * (not brief) + [curve_sentence(spec, curve, alone=brief)]
    else:
        lines += [_curve_note(spec, curve, folder), *[f"  {line}" for line in _strong_lines(spec, curve)],
                  "  Every headline at every level: the page 'Strong play: the skill curve'."]
    return lines + _other_counts(spec, headline.scenario.name, folder)


def _other_counts(spec: GameSpec, scenario: str, folder: Path) -> list[str]:
    """Strong play at each player count ``sim skill GAME -p P`` measured (its cached curve, fresh for today's
    sources and rules; a stale one is not shown): one sentence per count."""
    curves = {p: load_curve(spec, scenario, players=p, folder=folder) for p in spec.player_counts}
    return [f"At {p} players (`{_skill_command(spec, folder, scenario, p)}`): "
            + curve_sentence(spec, c, alone=False).removeprefix("Strong play: ") for p, c in curves.items() if c]


def curve_sentence(spec: GameSpec, curve: SkillCurve, alone: bool = True) -> str:
    """Strong play in one sentence: each win rate at the settled (else the highest) level, beside scripted
    (``alone``, with no ``_curve_note`` before it: and whether the curve is stale or its next level partly
    played)."""
    scripted = {p.metric: p.value for p in curve.points if p.level == SCRIPTED}
    wins = [v for v in curve.verdicts if v.metric.startswith("win_") and v.metric in scripted]
    if not wins:
        return "Strong play: the skill curve has no win rate."
    one_level = len({v.level for v in wins}) == 1
    who = _who(spec, list(curve.bots.get(curve.levels[-1], {})))
    at = f" at {_budget(wins[0].level)}" if one_level else ""
    figures = ", ".join(f"{_name(v.label)} {_pct(v.value)}" + ("" if one_level else f" (at {_budget(v.level)})")
                        for v in wins)
    before = ", ".join(f"{100 * scripted[v.metric].value:.1f} %" for v in wins)
    moving = [v for v in wins if not v.settled and v.change]
    largest = max(moving, key=lambda v: abs(v.change[0]), default=None)
    trend = f"; {largest.trend_text(value=False)}" if largest and largest.trend else ""
    state = ("every win rate settled" if all(v.settled for v in wins) else "the curve had not settled"
             + (f" (largest last move: {_name(largest.label)} {_points(largest.change)}{trend})" if largest else ""))
    stale = "" if not alone or fresh(curve, spec) else (
        " (played with other compiled sources or other rules than today's)")
    going = curve.in_play
    later = "" if going is None or not alone else (
        f" The next level, {_budget(going.level)}, is partly played ({going.kept:,} of {going.n_games:,} games so far).")
    return (f"Strong play{stale}: with {who} searching{at}, {figures} (n={curve.n_games:,} each; scripted "
            f"{before} on the same games); {state}.{later}")


def _name(label: str) -> str:
    """A label without its parenthesis: "seat 0 wins (seat 0 starts)" -> "seat 0 wins"."""
    return label.split(" (")[0]


def _depends_on(tornado: Tornado | None, count: int = 3) -> list[str]:
    if tornado is None or not tornado.rows:
        return ["Not measured (the sensitivity analysis was skipped)."]
    unit = "points" if tornado.metric.kind == "rate" else "units"
    scale = 100 if tornado.metric.kind == "rate" else 1
    firsts: dict[str, object] = {}  # each assumption once, at its largest move (a list's entries are rows of their own)
    for row in tornado.rows:
        firsts.setdefault(re.split(r"\[| at ", row.param)[0], row)
    return [f"{k}. {row.describe()}: moves {tornado.metric.label} by up to {scale * row.swing:.1f} {unit}"
            for k, row in enumerate(list(firsts.values())[:count], 1)]


def verdict_lines(spec: GameSpec, scen, fair: dict[int | None, Fairness], headline: SimResult,
                  tornado: Tornado | None, strong: Robustness | None, n_games: int, curve: SkillCurve | None = None,
                  skill_dir: Path = DEFAULT_SKILL, brief: bool = False) -> list[str]:
    """Page one and the overview's block (``brief``: strong play in one line): is it balanced, by how much,
    under which play (scripted; strong play from ``sim skill``'s cached curve) and which assumptions."""
    counts = [p for p in fair if p is not None]
    lines = ["# Is it balanced?", *[f.sentence() for f in fair.values()], ""]
    lines.append("# Player counts covered: " + (", ".join(map(str, sorted(counts))) if counts else "the game's own")
                 + f" ({n_games:,} games each, seed {headline.seed}).")
    lines += ["", "# Play level", *_play_level(spec, headline, curve, skill_dir, brief)]
    if strong is not None:
        lines.append(robust_summary(strong))
    calibrated = _calibrated(scen)
    lines += ["", "# Calibrated, not found"]
    lines += ([*calibrated, "A rate these values were tuned to reach is their consequence, not a finding about the "
               "game: read it as 'the assumed table makes it so'."] if calibrated else
              ["No assumed value of this scenario was tuned to reach a result."])
    lines += ["", f"# The answer depends most on (of {len(tornado.rows) if tornado else 0} assumptions and rules "
              "moved one step)", *_depends_on(tornado)]
    return lines


VERDICT_PLOT = 0.25  # the foot of page one: the fairness figure
VERDICT_PT = 8.0
VERDICT_SMALL_PT = 7.0


def _verdict_pages(spec: GameSpec, lines: list[str], fair: dict[int | None, Fairness]):
    """Page one: the verdict over the fairness figure; in smaller print when that keeps it on one page (The
    Wonderful Island's six player counts)."""
    for size in (VERDICT_PT, VERDICT_SMALL_PT):
        pages = text_pages(f"{spec.title}: the verdict", lines, size=size, plot=VERDICT_PLOT)
        if len(pages) == 1 or size == VERDICT_SMALL_PT:
            break
    draw_fairness(plot_axes(pages[0], VERDICT_PLOT), fair)
    return pages


def _robust_result(spec: GameSpec, scen, out: Path, robust_games: int, seed: int, jobs: int
                   ) -> tuple[Robustness | None, str]:
    """The stronger-play result for the report and a sentence saying where it came from."""
    players = getattr(scen.rules, "players", None)
    command = f"sim robust {spec.name} --scenario {scen.name} --out {out / 'robust'}"
    if spec.search is None:
        return None, (f"{spec.title} has no search bot yet (GameSpec.search), so this check (the headline "
                      "metrics again with search in place of the scripted bots) cannot run.")
    result = cached(out / "robust", spec, scen.name, players)
    if result is not None:
        return result, (f"Cached result of `{command}` from {result.date} ({result.n_games:,} games per arm, "
                        f"seed {result.seed}); the compiled code is unchanged since.")
    if robust_games < 2:
        return None, f"Not run for this report (--robust-games {robust_games}); run `{command}`."
    result = robust(spec, scen, robust_games, seed, jobs)
    half = 100 * 1.96 * (0.25 / robust_games) ** 0.5
    return result, (f"Played for this report: {robust_games:,} games per arm (a rate near 50 % to about "
                    f"±{half:.1f} points). For about ±1 point run `{command}` (10,000 games per arm): the "
                    "report then shows that result.")


def _robust_pages(spec: GameSpec, result: Robustness | None, note: str):
    """The stronger-play page (summary, flips, table), its continuation and the plot; a note when not run."""
    if result is None:
        return text_pages(ROBUST_TITLE, [note])
    budget = ", ".join(f"{k}={v}" for k, v in result.budget.items())
    flips = flip_lines(result)
    hidden = len(flips) - ROBUST_FLIPS_SHOWN
    shown = flips[:ROBUST_FLIPS_SHOWN] + ([f"... and {hidden} more, listed in full by `sim robust`"]
                                          if hidden > 0 else [])
    lines = [note,
             f"Search ({spec.search.name if spec.search else 'search'}, budget {budget}) replaces the scripted bot "
             "in one role at a time, then in every role; every arm plays the same games (game i from the stream "
             "(seed, i)), so each change is a paired difference with its 95 % interval, Holm over the arm's "
             "metrics.",
             "Baseline bots: " + ", ".join(f"{k}={v}" for k, v in result.bots["baseline"].items()),
             speed_line(result), "",
             "Conclusions that flip (beyond noise: settled by the baseline's interval and the arm's both ways):",
             *[f"  {line}" for line in shown]]
    rows = [[r[0].replace("search as ", "search: "), *r[1:]] for r in table_rows(result)]
    return (text_pages(ROBUST_TITLE, lines)
            + table_pages(f"{ROBUST_TITLE} (table)", TABLE_HEADER, rows, [0.12, 0.17, 0.15, 0.15, 0.17, 0.08, 0.08,
                                                                          0.08])
            + [on_a4(robust_figure(result))])


def _skill_pages(spec: GameSpec, curve: SkillCurve | None, folder: Path, title: str = SKILL_TITLE,
                 scenario: str = "base"):
    """The skill curve of ``scenario``: its figure, then the headline at every level (value [interval], n, the
    paired change from the level before), the exploitability gaps and one verdict line per headline; a note
    (with the command that measures it) when not measured."""
    note = _curve_note(spec, curve, folder, scenario)
    if curve is None:
        return text_pages(title, [note])
    tol = f"±{100 * curve.tolerance:.1f}"
    rows = [[p.level, p.label, _pct(p.value), f"{p.value.n:,}", "—" if p.change is None else _points(p.change, "pt"),
             "—" if p.change is None else ("yes" if within(p.change, curve.tolerance) else "no")]
            for level in curve.levels for p in curve.points if p.level == level]
    blocks = [([note, f"Verdict per headline (settled: the paired 95 % interval of its change from the level "
                f"before lies within {tol} points, and stays so at every later level):",
                *[v.text(curve.tolerance) for v in curve.verdicts]],
               ["level", "headline", "value [95 %]", "n", "change from the level before [95 %, paired]",
                f"within {tol}"], rows, [0.19, 0.24, 0.19, 0.07, 0.22, 0.09])]
    if curve.gaps:
        roles = list(dict.fromkeys(g.role for g in curve.gaps))
        by_level = {(g.level, g.role): g for g in curve.gaps}
        unit = "seat " if is_seated(spec) else ""
        gap_rows = [[level + f"\n(deviator: {by_level[level, roles[0]].deviator})"
                     if (level, roles[0]) in by_level else level,
                     *[_points((g.diff, g.lo, g.hi), "pt") if (g := by_level.get((level, r))) else "—"
                       for r in roles]]
                    for level in curve.levels]
        sizes = sorted({g.n for g in curve.gaps})
        played = f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,}–{sizes[-1]:,}"
        blocks.append(([f"Exploitability gaps. Per level and role: that role alone searches at {DEVIATOR}x the "
                        "level's budget while the others stay at the level; the gap is its paired win-rate gain "
                        f"against the level itself (on the level's first {played} games). Strong play has small "
                        "gaps; a gap that does not shrink as the level rises says the level is still exploitable."],
                       ["level", *[f"{unit}{r} searches" for r in roles]], gap_rows,
                       [0.3] + [0.7 / len(roles)] * len(roles)))
    return [on_a4(skill_figure(curve))] + blocks_pages(f"{title} (tables)", blocks)


def _cached_curve(spec: GameSpec, scenario: str, skill_dir: Path) -> SkillCurve | None:
    """``sim skill``'s cached curve of ``scenario`` (fresh or not), with what a run of its next level has
    kept so far; None when there is none or the game has no search bot."""
    curve = load_curve(spec, scenario, folder=skill_dir, fresh_only=False) if spec.search else None
    return curve and replace(curve, in_play=level_in_play(spec, curve, skill_dir / "levels"))


def game_report(game: str | GameSpec, out: Path, n_games: int = HEADLINE_GAMES, analysis_games: int = ANALYSIS_GAMES,
                ladder_games: int = LADDER_GAMES, seed: int = 0, jobs: int = 1, scenario: str = "base",
                robust_games: int = ROBUST_GAMES, on_step: Callable[[str], None] | None = None
                ) -> GameReport:
    """Run the analyses of one game and write ``out/<game>.pdf``; ``on_step`` is told each step as it starts
    (the analysis, then each page written)."""
    spec = resolve_game(game)
    use_fonts()
    step = on_step or (lambda text: None)
    began = time.perf_counter()
    date = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    scen = scenario_of(spec, scenario)
    step(f"headline metrics: {n_games:,} games")
    headline = simulate(spec, scen, n_games, seed, jobs, progress=False)
    make_figures = spec.extras.get("report_figures")
    if make_figures:
        step("the game's own plots")
    game_figs = make_figures(scen, n_games, seed, jobs) if make_figures else []
    variants = []
    for name in list_scenarios(spec.name) if analysis_games else []:
        if name != scen.name:
            step(f"scenario variant {name}: {analysis_games:,} paired games")
            variants.append(compare(spec, scen, name, (), analysis_games, seed, jobs))
    if analysis_games:
        step(f"sensitivity tornado: {analysis_games:,} paired games per one-step move")
    tornado = sensitivity(spec, scen, n_games=analysis_games, seed=seed, jobs=jobs) if analysis_games else None
    if ladder_games:
        step(f"skill ladder: {ladder_games:,} games per matchup")
    lad = ladder(spec, scen, n_games=ladder_games, seed=seed, jobs=jobs) if ladder_games else None
    if spec.search is not None:
        step("stronger play: the search bot in each role")
    strong, strong_note = _robust_result(spec, scen, out, robust_games, seed, jobs)
    step("the verdict: fairness at every player count")
    fair = _fairness_by_players(spec, scen, n_games, seed, jobs)
    skill_dir = out / "skill"
    curve = _cached_curve(spec, scen.name, skill_dir)
    variant_curves = {name: c for name in list_scenarios(spec.name)
                      if name != scen.name and (c := _cached_curve(spec, name, skill_dir))}
    verdict = verdict_lines(spec, scen, fair, headline, tornado, strong, n_games, curve, skill_dir)
    brief = verdict_lines(spec, scen, fair, headline, tornado, strong, n_games, curve, skill_dir, brief=True)
    counts = {"headline metrics and the game's plots": f"{n_games:,} games",
              "sensitivity and scenario variants": f"{analysis_games:,} paired games per one-step move or variant"
              if tornado else "not run",
              "skill ladder": f"{ladder_games:,} games per matchup" + (f" ({len(lad.matchups)} matchups)" if lad else "")
              if lad else "not run",
              "stronger play (search)": f"{strong.n_games:,} paired games per arm ({len(strong.arms)} arms)"
              if strong else "not run"}

    pages: list[tuple[str, object]] = [("Verdict", f) for f in _verdict_pages(spec, verdict, fair)]
    pages += [("Cover", f) for f in _cover(spec, headline, counts, seed, date)]
    pages += [("Assumed values", f) for f in _assumption_pages(headline)]
    pages += [("Metrics", f) for f in _metric_pages(headline)]
    for fig in game_figs:
        pages.append((f"Game plot: {section_of(fig, 'figure')}", on_a4(fig)))
    pages += [("Scenario variants", f) for f in _variant_pages(variants)]
    if tornado is not None:
        pages.append(("Sensitivity tornado", on_a4(tornado_figure(tornado))))
    if lad is not None:
        share = next(iter(fair.values())).equal_share  # the scenario's own player count, the ladder's
        pages += [("Skill ladder", on_a4(f)) for f in ladder_figures(lad, share)]
    pages += [("Stronger play", f) for f in _robust_pages(spec, strong, strong_note)]
    pages += [("Skill curve", f) for f in _skill_pages(spec, curve, skill_dir, scenario=scen.name)]
    for name, c in variant_curves.items():
        pages += [(f"Skill curve: {name}", f)
                  for f in _skill_pages(spec, c, skill_dir, f"{SKILL_TITLE}, scenario variant {name}")]
    step(f"writing {len(pages)} pages")
    path = write_pdf(out / f"{spec.name}.pdf", f"{spec.title} balance report",
                     f"toolkit {toolkit_version()}, seed {seed}", pages)
    return GameReport(spec, path, headline, tornado, lad, [t for t, _ in pages], time.perf_counter() - began,
                      strong, strong_note, verdict, brief, curve)


def overview(reports: list[GameReport], out: Path, total_s: float) -> Path:
    """One block per game: its verdict (page one's text) in plain words, and where its PDF is."""
    lines = [f"toolkit {toolkit_version()} · {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC · "
             f"report time {total_s / 60:.1f} min", ""]
    for rep in reports:
        lines.append(f"# {rep.spec.title} (scenario {rep.headline.scenario.name}; details: {rep.path.name})")
        lines += [line.removeprefix("# ") if line.startswith("# ") else line for line in rep.brief or rep.verdict
                  if line != "# Is it balanced?"]
        if rep.ladder is not None:
            lines += rep.ladder.plain_text()
        lines.append("")
    pages = text_pages("Balance overview", lines, size=8)
    return write_pdf(out / "overview.pdf", "Balance overview", f"toolkit {toolkit_version()}",
                     [("Overview", page) for page in pages])


def report(games: list[str | GameSpec] | None = None, out: Path = Path("reports"), n_games: int = HEADLINE_GAMES,
           analysis_games: int = ANALYSIS_GAMES, ladder_games: int = LADDER_GAMES, seed: int = 0,
           jobs: int = 1, on_done: Callable[[GameReport], None] | None = None,
           on_step: Callable[[str], None] | None = None, robust_games: int = ROBUST_GAMES
           ) -> tuple[list[GameReport], Path, float]:
    """Every game's PDF (``on_done`` is told as each one is written, ``on_step`` each step as it starts,
    prefixed with the game and its place in the run), then the overview."""
    specs = [resolve_game(g) for g in games] if games else list(registry.all_games().values())
    began = time.perf_counter()
    reports = []
    for k, spec in enumerate(specs, 1):
        def game_step(text: str, prefix: str = f"[{k}/{len(specs)}] {spec.name}: ") -> None:
            if on_step is not None:
                on_step(prefix + text)

        reports.append(game_report(spec, out, n_games, analysis_games, ladder_games, seed, jobs,
                                   robust_games=robust_games, on_step=game_step))
        if on_done is not None:
            on_done(reports[-1])
    total = time.perf_counter() - began
    return reports, overview(reports, out, total), total
