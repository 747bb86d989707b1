"""``sim ARGS`` in the test process, through the real entry point ``sim.cli.main``.

It returns what ``subprocess.run`` would (exit code, stdout, stderr) without starting a Python that
imports numpy, numba, polars and the games again (about 1.5 s of CPU a call). Any exception that
escapes ``main`` escapes here too and fails the test, which is stricter than looking for "Traceback"
on a child's stderr. Tests about the process itself (signals, a fresh interpreter's imports, the
installed entry point) start a real ``python -m sim`` instead.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path


def run_sim(*args: str, cwd: str | Path | None = None) -> subprocess.CompletedProcess:
    """``sim *args`` run in ``cwd`` (default: here); the exit code is 0 when ``main`` returns."""
    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    here, argv = os.getcwd(), sys.argv
    sys.argv = ["sim", *map(str, args)]
    code = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code or 0
    finally:
        sys.argv = argv
        os.chdir(here)
    return subprocess.CompletedProcess(["sim", *args], code, out.getvalue(), err.getvalue())
