"""Write tests/reference_results.json: the plain-Python references' results of the cross-check tests.

Runs the cross-checks (the test files using the ``reference_memo`` fixture) with an empty pytest cache of
its own, so every entry they keep is either played now or read from the committed file under the current
digest, and writes all of them (sorted by key) as the new committed file. Run it after changing a
reference, anything it imports, a cross-check test module or the Python version; without it the suite
stays right and only plays those references again (tests/reference_memo.py). Review the diff: an entry
whose digest did not change must keep its result.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from reference_memo import COMMITTED  # noqa: E402

CROSS_CHECKS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").glob("*/test_*_reference.py"))


def main() -> None:
    with tempfile.TemporaryDirectory() as cache_dir:
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "auto", "--dist", "loadfile",
                        "-o", f"cache_dir={cache_dir}", *CROSS_CHECKS], cwd=ROOT, check=True)
        kept = Path(cache_dir, "v", "reference")
        entries = {f"reference/{path.name}": json.loads(path.read_text()) for path in sorted(kept.iterdir())}
    COMMITTED.write_text(json.dumps(entries, indent=0, sort_keys=True) + "\n")
    print(f"{COMMITTED.relative_to(ROOT)}: {len(entries)} results of {len(CROSS_CHECKS)} cross-check files")


if __name__ == "__main__":
    main()
