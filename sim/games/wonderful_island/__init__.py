"""The Wonderful Island (美麗島風雲): hidden camps campaigning across six venues, 3–8 players."""

from sim.core.game import GameSpec
from sim.games.wonderful_island import analysis, search
from sim.games.wonderful_island.rules import PLAYER_COUNTS, WonderfulIslandRules
from sim.games.wonderful_island.state import CAMP_BOTS, POLITICIAN_BOTS


def _register_cli(app) -> None:
    """``sim wi-values``: the paired counterfactual tables."""
    from sim.games.wonderful_island.counterfactual import register_cli

    register_cli(app)


def _warm_analyses(rules) -> None:
    """Compile the analyses' own entry point (engine.play_forced_batch, the paired counterfactuals of
    ``sim wi-values`` and the report's plots), one game with nothing forced."""
    from sim.games.wonderful_island.counterfactual import _no_force
    from sim.games.wonderful_island.engine import run_forced

    run_forced(rules, GAME.policy_array(rules), 0, 0, _no_force(1))


GAME = GameSpec(
    name="wonderful-island",
    title="The Wonderful Island 美麗島風雲",
    rules_model=WonderfulIslandRules,
    player_counts=PLAYER_COUNTS,
    roles=analysis.ROLES,
    bots={"blue": CAMP_BOTS, "green": CAMP_BOTS, "politician": POLITICIAN_BOTS},
    default_bots={"blue": "partisan", "green": "partisan", "politician": "politician"},
    play=search.play,
    metrics=analysis.metrics,
    per_game=analysis.per_game,
    tally=analysis.tally,
    tables=analysis.tables,
    trace=search.trace,
    description="Blue, green and politician camps campaign at six venues with 123 effect cards, 35 characters "
                "and 24 meeting cards (assumed catalogue); elections, politicians' goals, jail and the forced count.",
    extras={"report_figures": analysis.report_figures, "register_cli": _register_cli,
            "robust_ranks": analysis.venue_ranks, "warm_analyses": _warm_analyses,
            "run_tables": {"venue_stats": ("venue", "bucket")}},  # venue totals: one table per run
    search=search.SEARCH_BOT,
)
