"""Shared by every benchmark: Django set-up, timing loops, and the one-line figure format.

Every figure is printed as `bench: <name> p50_ms=<x> p95_ms=<y> n=<runs>` (latency) or
`bench: <name> <metric>=<value>` (rates, recall), so runs can be compared line by line.

Every script ends with `run(main)`: `python -m bench.<name> --smoke` runs its set-up and one timed call on
small servers of its own (seconds; `make test` runs them all, `python -m bench.run_all --smoke`), prints its
`bench:` lines as usual (the sizes in their names read `smoke`) and exits non-zero on any error. Smoke
figures are not measurements; they show the bench can start and run its calls.
"""

from __future__ import annotations

import argparse
import inspect
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SMOKE = False  # set by run() for --smoke: time_calls makes one call, scaled() answers its smoke value


def scaled(full: int, smoke: int = 1) -> int:
    """`full`, or `smoke` in smoke mode: how many messages, queries or facts a script uses."""
    return smoke if SMOKE else full


def call_plan(runs: int, warmup: int) -> tuple[int, int]:
    """(timed calls, warm-up calls) time_calls makes: (runs, warmup), or one call and no warm-up in smoke mode."""
    return (1, 0) if SMOKE else (runs, warmup)


def supports_smoke(main: Callable) -> bool:
    """Whether a script's main takes `smoke` (bench.run_all checks every script before a smoke run)."""
    return "smoke" in inspect.signature(main).parameters


def run(main: Callable, **flags: str) -> None:
    """The command line of a bench script: `--smoke`, and `flags` (name: help) of its own, each passed to
    main as a keyword (`seed_only=True` for `--seed-only`). An error ends the process with a traceback and
    exit status 1, smoke or not."""
    global SMOKE
    parser = argparse.ArgumentParser(prog=f"python -m bench.{Path(sys.argv[0]).stem}",
                                     description=(sys.modules["__main__"].__doc__ or "").split("\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="set-up and one timed call on small servers of its own (seconds), for make test")
    for name, help_text in flags.items():
        parser.add_argument(f"--{name.replace('_', '-')}", action="store_true", help=help_text)
    options = vars(parser.parse_args())
    SMOKE = options["smoke"]
    main(**options)


def setup_django() -> None:
    """Configure Django against the database `make bench` provides (kept under var/bench/)."""
    sys.path.insert(0, str(BASE_DIR))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    # Keep database connections between requests, as gunicorn with production settings does.
    os.environ.setdefault("LOREKEEPER_CONN_MAX_AGE", "60")
    import django

    django.setup()
    import logging

    logging.getLogger("django.request").setLevel(logging.ERROR)  # 4xx answers are expected here
    from django.core.management import call_command

    call_command("migrate", "--no-input", verbosity=0)
    from config.heap import freeze_what_is_loaded  # after django.setup(), as config/wsgi.py calls it

    freeze_what_is_loaded()  # as every gunicorn worker and the bot's process do after start-up


def percentile(samples_ms: list[float], fraction: float) -> float:
    ordered = sorted(samples_ms)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def time_calls(call: Callable[[], object], runs: int, warmup: int = 5) -> list[float]:
    runs, warmup = call_plan(runs, warmup)
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def report_latency(name: str, samples_ms: list[float]) -> None:
    print(
        f"bench: {name} p50_ms={statistics.median(samples_ms):.2f} "
        f"p95_ms={percentile(samples_ms, 0.95):.2f} n={len(samples_ms)}",
        flush=True,
    )


def report_metric(name: str, metric: str, value: float) -> None:
    print(f"bench: {name} {metric}={value:g}", flush=True)


# What the bot's calls and the memory page read; loaded into PostgreSQL's buffers before timing, as
# on a server that has been answering for a while (a fresh start reads them from disk instead).
HOT_RELATIONS = ["memory_fact", "fact_in_force_newest", "fact_search", "memory_fact_pkey", "memory_exchange",
                 "fact_newest", "fact_in_force_weight"]  # the last two: the Ranked context's walk and weight reads


def prewarm() -> None:
    """Load HOT_RELATIONS into shared buffers with pg_prewarm; says so on stderr, skips when the
    extension cannot be created (a managed database without the rights)."""
    from django.db import DatabaseError, connection

    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
            cursor.execute("SHOW shared_buffers")
            shared_buffers = cursor.fetchone()[0]
            pages = 0
            from memory.indexing.server_indexes import WORDS, server_indexes

            for relation in [*HOT_RELATIONS, *server_indexes(WORDS).values()]:
                cursor.execute("SELECT pg_prewarm(%s)", [relation])
                pages += cursor.fetchone()[0]
    except DatabaseError as error:
        print(f"# prewarm skipped: {error}".strip(), file=sys.stderr)
        return
    print(f"# prewarmed {pages * 8 // 1024} MiB into shared_buffers={shared_buffers} "
          f"in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def build_server_indexes(servers: list, build_memory: str = "1GB") -> None:
    """The word and vector indexes of their own that the app's worker builds for large servers on its
    10-minute sweep (memory/indexing/server_indexes.py), built here the way the worker does, once: later runs
    find them valid and reuse them. Progress on stderr."""
    from django.conf import settings

    from memory.indexing.server_indexes import KINDS, ensure_server_indexes, server_index_state

    settings.LOREKEEPER_SERVER_INDEX_BUILD_MEMORY = build_memory
    for label, server in servers:
        if all(server_index_state(kind, server.pk) == "valid" for kind in KINDS):
            continue
        print(f"# {label}: building the server's own indexes where it is large enough (once)", file=sys.stderr,
              flush=True)
        started = time.perf_counter()
        built = ensure_server_indexes(server.pk)
        print(f"# {label}: built {', '.join(built) or 'nothing (small server)'} in "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def explain_reads(label: str, call: Callable[[], object]) -> None:
    """EXPLAIN ANALYZE, on stderr, of every read `call` makes (a SELECT, or a WITH that writes nothing: the words
    search is one), with the values written in: the plan PostgreSQL makes for those values. Writes are listed."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    print(f"# {label}: {len(captured.captured_queries)} queries", file=sys.stderr)
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            sql = query["sql"]
            words = sql.upper().split()
            if not words or words[0] not in ("SELECT", "WITH") or {"INSERT", "UPDATE", "DELETE"} & set(words):
                print(f"## {query['time']}s {' '.join(sql.split())[:300]}\n", file=sys.stderr)
                continue
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            print(f"## {query['time']}s {sql}\n{plan}\n", file=sys.stderr)
