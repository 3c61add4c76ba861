"""Run every benchmark in SCRIPTS, one process each: `python -m bench.<name>` from the repository root.

    python -m bench.run_all                  # every bench (`make bench` runs this under the bench database)
    python -m bench.run_all context load     # those two (`make bench BENCH="context load"`)
    python -m bench.run_all --smoke          # every bench's set-up and one timed call, small servers (`make test`)

The working directory is the root and each script runs as a module of the bench package, so bench/ is never
on sys.path and no script (bench/consolidation.py) can stand in for an app of the same name. A script fails
when it exits non-zero or prints no `bench:` line; with --smoke also when its main takes no `smoke` (it
would run the full bench). Prints `# failed: <names>` and exits 1 when any script failed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# Every module of bench/ is one of these, a helper (a name starting with "_" or "run_"), or in NOT_SCRIPTS;
# tests/bench checks it, so a new bench cannot be left out.
SCRIPTS = ("consolidation", "context", "dedupe", "discord", "home_and_auth", "learning", "load", "many",
           "memory_page", "retrieval", "scenarios", "semantic")
# Data sets the benches read (`python -m bench.<name>` checks each one's invariants): bench.retrieval reads
# retrieval_data and retrieval_natural_data, bench.dedupe dedupe_data.
NOT_SCRIPTS = ("dedupe_data", "retrieval_data", "retrieval_natural_data")
SMOKE_TIMEOUT_S = 300  # a smoke takes seconds; one that hangs is killed and fails


def supports_smoke(name: str) -> bool:
    """Whether bench.<name>'s main takes `smoke` (importing a bench module touches no database)."""
    from bench._harness import supports_smoke as main_supports_smoke

    main = getattr(importlib.import_module(f"bench.{name}"), "main", None)
    return main is not None and main_supports_smoke(main)


def run(name: str, args: list[str], timeout_s: float | None = None) -> str:
    """Run one script, its output passed through; '' when it succeeded, else why it failed."""
    print(f"# bench.{name}", flush=True)
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", f"bench.{name}", *args], cwd=BASE_DIR,
                               env=dict(os.environ, PYTHONUNBUFFERED="1"),  # its lines as they come, as before
                               stdout=subprocess.PIPE, text=True, bufsize=1)
    watchdog = threading.Timer(timeout_s, process.kill) if timeout_s else None
    if watchdog:
        watchdog.start()
    figures = 0
    try:
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            figures += line.startswith("bench: ")
        status = process.wait()
    finally:
        if watchdog:
            watchdog.cancel()
    seconds = time.perf_counter() - began
    print(f"# bench.{name}: exit {status}, {figures} figures in {seconds:.0f} s", flush=True)
    if timeout_s and seconds >= timeout_s:
        return f"killed after {timeout_s:g} s"
    if status != 0:
        return f"exit status {status}"
    return "" if figures else "no bench: line"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run_all", description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="each script's set-up and one timed call (make test)")
    parser.add_argument("names", nargs="*", metavar="name", help=f"run only these, of: {', '.join(SCRIPTS)}")
    options = parser.parse_args(argv)
    unknown = sorted(set(options.names) - set(SCRIPTS))
    if unknown:
        parser.error(f"no bench named {', '.join(unknown)}; the benches: {', '.join(SCRIPTS)}")
    smoke, names = options.smoke, [name for name in SCRIPTS if not options.names or name in options.names]
    began = time.perf_counter()
    failed = {}
    for name in names:
        if smoke and not supports_smoke(name):
            print(f"# bench.{name}: its main takes no `smoke`: not run", flush=True)
            failed[name] = "no smoke mode"
            continue
        failed[name] = run(name, ["--smoke"], SMOKE_TIMEOUT_S) if smoke else run(name, [])
    failed = {name: why for name, why in failed.items() if why}
    print(f"# {len(names) - len(failed)} of {len(names)} scripts ran{' (smoke)' if smoke else ''} "
          f"in {time.perf_counter() - began:.0f} s", flush=True)
    if failed:
        print(f"# failed: {', '.join(f'{name} ({why})' for name, why in failed.items())}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
