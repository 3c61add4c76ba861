"""Run every benchmark in SCRIPTS, one process each: `python -m bench.<name>` from the repository root.

`make bench` runs this under the bench database. The working directory is the root and each script is
run as a module of the bench package, so bench/ is never on sys.path and no script (bench/consolidation.py)
can stand in for an app of the same name. Prints `# failed: <names>` and exits 1 when any script fails.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# Every module of bench/ is one of these, a helper (a name starting with "_" or "run_"), or in NOT_SCRIPTS;
# tests/bench checks it, so a new bench cannot be left out.
SCRIPTS = ("consolidation", "context", "home_and_auth", "load", "memory_page", "retrieval", "semantic")
NOT_SCRIPTS = ("retrieval_data",)  # the data set bench.retrieval reads (`python -m bench.retrieval_data` checks it)


def run(name: str, args: list[str]) -> int:
    print(f"# bench.{name}", flush=True)
    return subprocess.run([sys.executable, "-m", f"bench.{name}", *args], cwd=BASE_DIR).returncode


def main(argv: list[str]) -> int:
    failed = [name for name in SCRIPTS if run(name, argv) != 0]
    if failed:
        print(f"# failed: {', '.join(failed)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
