"""Run every benchmark script in bench/ (files not starting with '_' or 'run_'), one process each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent


def main() -> int:
    failed = []
    for script in sorted(BENCH_DIR.glob("*.py")):
        if script.name.startswith(("_", "run_")):
            continue
        print(f"# {script.name}", flush=True)
        if subprocess.run([sys.executable, str(script)], cwd=BENCH_DIR).returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"# failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
