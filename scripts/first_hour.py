"""A new user's first hour, measured from fresh clones of this repository (`make first-hour`).

In one run, in a temporary folder (nothing is fetched from the network but the packages `make install`
installs; the clones are of this very repository, at its current commit):

1. clone A: ``make install`` (creates .venv, installs, compiles every engine into numba's cache);
2. the first answer of each game right after it: ``sim run GAME --games 100000`` (wall, incl. start-up);
3. the cold compile of each engine: ``sim run GAME --games 1000 --jobs 1`` on an empty numba cache,
   minus the same run on the warm cache;
4. ``make test`` from a cold numba cache (the folder of compiled code removed; .venv kept), then again
   warm;
5. clone B: ``make report`` as the very first command (install, compile, simulate, write the PDFs).

Writes first_answer_s and compile_s (per game), make_install_s, make_report_fresh_s, test_cold_s and
test_warm_s into reports/bench.json (with the commit, date and load average in first_hour_run), and
prints them. Times are wall seconds: on a shared machine they include other processes' load, which
the recorded load averages show.

    python scripts/first_hour.py [--keep] [--skip-report] [--skip-test]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("ocracoke", "island-nation", "wonderful-island")
TARGETS = {"first_answer_s": {"ocracoke": 25, "island-nation": 45, "wonderful-island": 45},
           "make_report_fresh_s": 360, "test_cold_s": 240, "test_warm_s": 120}


def clean_env() -> dict[str, str]:
    """The user's environment, without anything pointing at this checkout's venv or numba cache."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "VIRTUAL_ENV", "CI")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    return env


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, log: Path | None = None) -> float:
    """Wall seconds of ``cmd``; its output goes to ``log``. Stops the script if it fails."""
    began = time.perf_counter()
    with open(log or os.devnull, "ab") as out:
        proc = subprocess.run(cmd, cwd=cwd, env=env or clean_env(), stdout=out, stderr=subprocess.STDOUT)
    seconds = round(time.perf_counter() - began, 1)
    print(f"{seconds:8.1f} s  {' '.join(cmd)}", flush=True)
    if proc.returncode != 0:
        raise SystemExit(f"failed (exit {proc.returncode}): {' '.join(cmd)} in {cwd}; see {log}")
    return seconds


def fresh_clone(where: Path, name: str) -> Path:
    path = where / name
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(path)], check=True)
    return path


def numba_caches(clone: Path) -> list[Path]:
    return sorted((clone / "sim" / "__pycache__").glob("numba-*"))


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary clones (and their logs)")
    parser.add_argument("--skip-report", action="store_true", help="do not measure make report fresh")
    parser.add_argument("--skip-test", action="store_true", help="do not measure make test")
    args = parser.parse_args()

    where = Path(tempfile.mkdtemp(prefix="first-hour-"))
    logs = where / "logs"
    logs.mkdir()
    out_path = ROOT / "reports" / "bench.json"
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    figures: dict[str, object] = {}

    def record(key: str, value: object) -> None:
        """Keep a figure and write bench.json at once (a run stopped half-way keeps what it measured)."""
        figures[key] = value
        results.update(figures)
        results["first_hour_run"] = {**run, "load_average_now": load_average(), "targets": TARGETS,
                                     "logs": str(logs)}
        out_path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")

    run = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "cpu": os.cpu_count(),
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                    text=True).stdout.strip(), "load_average_start": load_average()}
    print(f"first hour in {where} (logs in {logs}), commit {run['commit']}", flush=True)
    completed = False
    try:
        a = fresh_clone(where, "a")
        record("make_install_s", timed(["make", "install"], a, log=logs / "install.log"))
        sim = str(a / ".venv" / "bin" / "sim")
        record("first_answer_s", {game: timed([sim, "run", game, "--games", "100000"], a,
                                              log=logs / f"first-{game}.log") for game in GAMES})
        compile_s = {}
        for game in GAMES:
            with tempfile.TemporaryDirectory() as cache:
                cmd = [sim, "run", game, "--games", "1000", "--jobs", "1"]
                cold = timed(cmd, a, {**clean_env(), "NUMBA_CACHE_DIR": cache}, logs / f"compile-{game}.log")
                warm = timed(cmd, a, {**clean_env(), "NUMBA_CACHE_DIR": cache}, logs / f"compile-{game}.log")
            compile_s[game] = round(cold - warm, 1)
        record("compile_s", compile_s)
        if not args.skip_test:
            for cache in numba_caches(a):
                shutil.rmtree(cache)
            record("test_cold_s", timed(["make", "test"], a, log=logs / "test-cold.log"))
            record("test_warm_s", timed(["make", "test"], a, log=logs / "test-warm.log"))
        if not args.skip_report:
            b = fresh_clone(where, "b")
            record("make_report_fresh_s", timed(["make", "report"], b, log=logs / "report.log"))
        completed = True
    finally:
        if not args.keep:
            shutil.rmtree(where / "a", ignore_errors=True)
            shutil.rmtree(where / "b", ignore_errors=True)
        record("first_hour_complete", completed)
    print(json.dumps({**figures, "first_hour_run": results["first_hour_run"]}, indent=2))
    print(f"wrote {out_path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
