"""One package per game, each with the same files (see ``sim.core.game``)."""
