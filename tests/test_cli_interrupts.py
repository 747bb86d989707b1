"""Issue 24 item 2: Ctrl-C (SIGINT to the process group, as a terminal sends) and SIGTERM during a 2-job
`sim run --out`: exit 130 / 143, the shards on disk are exactly the games reported, the run is marked
incomplete, and no worker or resource tracker outlives the run."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

import sim.cli
from sim.core.runner import Terminated


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_run_exits_non_zero_and_its_folder_agrees(tmp_path, sig, code):
    out = tmp_path / "D"
    proc = subprocess.Popen([sys.executable, "-m", "sim", "run", "ocracoke", "-n", "20000000", "-j", "2",
                             "--seed", "3", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    staging = tmp_path / f".D.partial-{proc.pid}" / "games"
    deadline = time.time() + 300
    while time.time() < deadline and len(list(staging.glob("part-*"))) < 4:
        time.sleep(0.2)
    workers = children(proc.pid)
    assert workers, "the run should have started its workers"
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # as a terminal's Ctrl-C: every process of the group
    else:
        proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == code, stderr
    said = {signal.SIGINT: "interrupted: ", signal.SIGTERM: "terminated (SIGTERM): "}[sig]  # sim.cli.STOPPED_BY
    assert "Traceback" not in stderr and said in stdout
    record = json.loads((out / "run.json").read_text())
    assert record["complete"] is False and 0 < record["games"] < 20_000_000
    on_disk = pl.scan_parquet(out / "games" / "*.parquet").select(pl.len()).collect().item()
    assert on_disk == record["games"]
    assert pl.read_csv(out / "metrics.csv")["n"][0] == record["games"]
    time.sleep(1)
    assert not [pid for pid in workers if alive(pid)], "workers or resource trackers outlived the run"


@pytest.mark.parametrize("interrupt,code,words", [(KeyboardInterrupt, 130, "interrupted"),
                                                  (Terminated, 143, "terminated (SIGTERM)")])
def test_interrupt_before_any_game_names_the_signal(monkeypatch, capsys, interrupt, code, words):
    """An interrupt before any game finished (``sim.cli.main``): one line naming what stopped it, nothing
    written, and the exit code of that signal (130 Ctrl-C, 143 SIGTERM), no traceback."""

    def stopped(**_):
        raise interrupt()

    monkeypatch.setattr(sim.cli, "app", stopped)
    monkeypatch.setattr(sys, "argv", ["sim", "run", "ocracoke"])
    with pytest.raises(SystemExit) as exit_:
        sim.cli.main()
    assert exit_.value.code == code
    assert capsys.readouterr().err == f"{words} before any game finished: nothing written\n"
