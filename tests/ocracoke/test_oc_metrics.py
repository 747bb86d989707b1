"""Ocracoke's headline metrics beyond the win rates, recomputed from what the engine paid."""

from ocracoke_helpers import make_rules, seated

from sim.games.ocracoke import analysis, play


def test_first_declarer_right_is_rule_e_paid_at_the_games_first_declaration(warm):
    """OC-PAY-E (with OC-PAY-A, OC-PAY-B): the headline rate ``first_declarer_right`` is 1 exactly when the
    engine paid rule E to the declarer at the game's first declaration (pay_declarer = 1 in the base rules),
    for the counter and the random bots."""
    rules = make_rules()
    for bots in (seated("counter"), seated("random", "naive", "noswap", "counter")):
        chunk = play(rules, bots, 3, 0, 3000)
        ev = chunk.events["declarations"]
        expected = [0] * len(chunk)
        seen = set()
        for i in range(len(ev["game"])):
            game = int(ev["game"][i]) - int(chunk.games["game"][0])
            if game not in seen:
                seen.add(game)
                expected[game] = int(ev[f"e_{int(ev['declarer'][i])}"][i] > 0)
        got = analysis.per_game(rules, chunk)["first_declarer_right"]
        assert got.tolist() == expected
        assert 0 < sum(expected) < len(expected)
