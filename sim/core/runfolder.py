"""``--out`` folders: one complete run each, or a clear error.

A run never writes into the folder it was given. It writes into a fresh hidden sibling
(``.NAME.partial-<pid>``), under a lock file (``.NAME.lock``, holding the writer's pid) that a second
writer of the same folder finds and is refused by; when the run ends its record ``run.json`` is written
last and the sibling is swapped in by renaming. So the folder holds the previous run or the new one,
never a mix. A folder that already holds files is refused unless ``--overwrite`` is given. A run
stopped by Ctrl-C or SIGTERM is swapped in too, with ``"complete": false`` in ``run.json``: its shards
cover exactly the games its figures cover.

Readers use :func:`read_run`, which refuses a folder without a finished record, or (unless asked) an
incomplete run.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from sim.core.errors import UserError

RECORD = "run.json"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _check_target(target: Path, overwrite: bool) -> None:
    """Refuse, before any game is played, a target that is a file, lies below a file, holds another run
    (unless ``overwrite``) or cannot be written."""
    for parent in [target, *target.parents]:
        if parent.exists() and not parent.is_dir():
            where = "is a file" if parent == target else f"lies below the file {parent}"
            raise UserError(f"--out {target}: {where}; expected a folder (new, or one written by --out)")
    if target.is_dir() and any(target.iterdir()):
        if not (target / RECORD).is_file():
            raise UserError(f"--out {target}: holds files that are not a run (no {RECORD}); choose a new "
                            "or empty folder")
        if not overwrite:
            raise UserError(f"--out {target}: holds a run already; pass --overwrite to replace it, "
                            "or choose a new folder")
    existing = next((p for p in [target, *target.parents] if p.exists()), None)
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f"--out {target}: cannot write in {existing} (permission denied)")


class RunFolder:
    """The staging folder of one run into ``target`` and the lock that keeps other writers out."""

    def __init__(self, target: str | Path, overwrite: bool = False):
        self.target = Path(target)
        self.overwrite = overwrite
        _check_target(self.target, overwrite)
        parent = self.target.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"--out {self.target}: cannot create {parent} ({exc.strerror})") from None
        self.lock = parent / f".{self.target.name}.lock"
        self._take_lock()
        self.staging = parent / f".{self.target.name}.partial-{os.getpid()}"
        try:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging.mkdir()
        except OSError as exc:
            self.lock.unlink(missing_ok=True)
            raise UserError(f"--out {self.target}: cannot write in {parent} ({exc.strerror})") from None

    def _take_lock(self) -> None:
        for _ in range(2):
            try:
                fd = os.open(self.lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    pid = int(self.lock.read_text().strip() or 0)
                except (OSError, ValueError):
                    pid = 0
                if pid and pid != os.getpid() and _pid_alive(pid):
                    raise UserError(f"--out {self.target}: another run (process {pid}) is writing this folder; "
                                    "wait for it or choose another folder") from None
                self.lock.unlink(missing_ok=True)  # left by a run that died: stale
                continue
            except OSError as exc:
                raise UserError(f"--out {self.target}: cannot write in {self.lock.parent} ({exc.strerror})") from None
            with os.fdopen(fd, "w") as fh:
                fh.write(f"{os.getpid()}\n")
            return
        raise UserError(f"--out {self.target}: could not take the lock {self.lock}")

    def commit(self, record: dict[str, Any]) -> None:
        """Write ``run.json`` last, then swap the finished run in place of whatever ``target`` held."""
        (self.staging / RECORD).write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        old = self.target.parent / f".{self.target.name}.old-{os.getpid()}"
        if self.target.exists():
            self.target.rename(old)
        self.staging.rename(self.target)
        shutil.rmtree(old, ignore_errors=True)
        self.lock.unlink(missing_ok=True)

    def abort(self) -> None:
        """Nothing of this run is kept (an error before any game finished)."""
        shutil.rmtree(self.staging, ignore_errors=True)
        self.lock.unlink(missing_ok=True)


def compiled_sources_digest() -> str:
    """The digest naming the sources compiled code is built from (``sim.core.sources.compiled_digest``)."""
    key = Path(os.environ.get("NUMBA_CACHE_DIR", "")).name.removeprefix("numba-")
    if re.fullmatch(r"[0-9a-f]{16}", key):  # the folder sim/__init__.py chose, not one the user named
        return key
    from sim.core.sources import compiled_digest

    package = Path(__file__).resolve().parents[1]
    return compiled_digest(package, Path(tempfile.gettempdir()) / "island-balance-lab")


def now_text() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_run(folder: str | Path, allow_incomplete: bool = False) -> dict[str, Any]:
    """The record of the run in ``folder`` (written by ``sim run --out``), checked to be a finished run.

    Read its tables with ``polars.scan_parquet(f"{folder}/games/*.parquet")`` and so on (the record's
    ``tables`` lists them); an incomplete (interrupted) run is refused unless ``allow_incomplete``."""
    path = Path(folder) / RECORD
    if not path.is_file():
        raise UserError(f"{folder}: no {RECORD}; expected a folder written by `sim run --out` "
                        "(a run still being written, or not a run folder)")
    try:
        record = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: expected the JSON record of a run ({exc})") from None
    if not record.get("complete") and not allow_incomplete:
        raise UserError(f"{path}: the run was interrupted after {record.get('games', 0):,} of "
                        f"{record.get('games_requested', 0):,} games; pass allow_incomplete=True to read it")
    return record
