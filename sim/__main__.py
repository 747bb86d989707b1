"""``python -m sim`` is the ``sim`` command."""

from sim.cli import main

main()
