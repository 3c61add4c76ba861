"""Load test against gunicorn on loopback: the context and actions endpoints at rising rates, then a soak.

gunicorn is started as bench/context.py starts it (`gunicorn -c config/gunicorn.conf.py config.wsgi` with
production settings, bound to 127.0.0.1 on a free port; the helpers are imported from there) and the
load generator runs in this process, on the same 2 cores.

Generator: open loop. Requests are scheduled at a constant rate R (one every 1/R s) whatever the server
does, handed to LOAD_CONNECTIONS threads (default 32), each with its own keep-alive connection
(HTTP/1.1 written and read on a socket by hand: httpx's transport cost about 0.9 ms of CPU per request,
its Client 1.6 ms, CPU the server under test shares); latency is
measured from the scheduled send time, so time spent waiting for a free connection counts (no
coordinated omission). An error is a non-2xx answer, an answer that is not what the call should
give (actions: a remember that is not "applied"), a transport error or timeout (10 s), or a request
still not sent 10 s after the step ended (dropped). 429s are counted apart as well. Requests are spread
over enough bot tokens of the Bench team that the per-token budget (LOREKEEPER_API_REQUESTS_PER_MINUTE,
when the gunicorn environment enables it) is never what stops a step.

Steps: each rate is held LOAD_STEP_SECONDS (default 60), after an unmeasured burst of two requests
per connection; a step holds when every request answered, with zero errors and p95 < 100 ms. The
search rises through a fixed list and stops at the first step that does not hold (at most
LOAD_MAX_STEPS, default 10). Figures, one `#` line per step (rate,
achieved rate, p50/p95/p99, errors, CPU per request of this process, PostgreSQL and gunicorn, from
/proc as bench/context.py's CpuMeter reads it; PostgreSQL split into the backends serving gunicorn and
the rest), a `#` line of what those backends were doing (sampled from pg_stat_activity: running, or
waiting on a lock, or idle in a transaction while gunicorn works), and one `bench:` line per series:

- load.context.classic rps=<x>: POST /api/v1/servers/{guild}/context on the 1k-fact Bench Hamlet
  server (guild 900000000000000003, seeded by bench/_seed.py ensure_server_facts), under Classic,
  cycling through bench/context.py's message bodies. Rates 25, 50, 100, 150, 200, 250, 300, 400, ...
- load.actions.classic rps=<x>: POST /api/v1/exchanges/{exchange}/actions with one `remember` op; every
  request has its own exchange, opened beforehand in this process with exchange_open, each for another
  member (the per-member remember limit, 20 per hour by default, is never reached). Same rates.
- load.soak.classic: LOAD_SOAK_SECONDS (default 600; 0 skips it) on the context endpoint at half the
  Classic rate found. gunicorn's resident memory (VmRSS of the master and its workers) is sampled
  every 10 s: rss_growth_mb is the mean of the last minute's samples minus the first minute's (a
  third of the soak each when it is shorter than 3 minutes). p50/p95 over the whole soak, errors.
- load.context.semantic rps=<x>: the same server switched to Semantic with the built-in local
  embedding provider (memory.clients.embeddings.LocalProvider, in each gunicorn worker; every message of 12
  characters or more is embedded in the request). Rates 5, 10, 20, 30, 50, 75, 100, ... Switching
  queues a catch-up round for the server's facts; Celery is eager under config.settings.test, so the
  switch embeds them here, in this process, and its duration is printed (the server's vectors are
  deleted before the switch and after the run, so every run times the same catch-up of 1,000 facts).
  Before the first step and after each one, 8 probes (a context call on a new connection, then that
  exchange's one search with the same message) ask gunicorn which mode its search used: a step only
  counts when every probe answers "hybrid", so a figure is never words-only under the Semantic name.
  Classic is restored afterwards whatever happens.

Everything is bounded: at most LOAD_MAX_STEPS steps per series, each at most its duration plus 20 s of
drain, then the soak. On 2026-12-01 the context and actions series took 18 minutes (context held all ten
steps up to 500 rps, actions stopped at 200) and the soak and Semantic (which stopped at 150) 21 minutes;
every part together is under an hour (opening the exchanges of the actions steps alone takes a quarter of
it), and the total is printed. LOAD_SOAK_SECONDS=0 saves 10 minutes.
Ctrl-C (or SIGTERM) stops gunicorn, restores Classic, and cleans up: the exchanges this run created on
the server (context calls open one each), the facts the actions learned (deleted right after the
actions series, so the soak and Semantic see the seeded 1,000, and the tables vacuumed then as before
the first part), the bot tokens it issued, and the embedding round and vectors of its switch to Semantic.

Environment: LOAD_STEP_SECONDS, LOAD_SOAK_SECONDS, LOAD_CONNECTIONS, LOAD_MAX_STEPS, LOAD_PARTS
(comma-separated subset of context,actions,soak,semantic; default all four), LOAD_CLASSIC_RATES and
LOAD_SEMANTIC_RATES (the rising lists, e.g. "150,200,250" to start near the limit), and LOAD_GUNICORN_ENV
("NAME=VALUE,..." added to gunicorn's environment only, for experiments such as OMP_NUM_THREADS=1).
The soak needs the Classic context rate: with LOAD_PARTS without context it runs at LOAD_SOAK_RPS
(default 50).

`--smoke` runs every part once, whatever the LOAD_* variables say, on a 30-fact server of its own (guild
900000000000000092): one step per series (10 requests of Classic context and of actions at 20/s, 5 of
Semantic at 10/s), a 1 s soak, 2 connections, 2 probes; any request that fails fails the run. About 15 s.

    make bench   # runs every bench script, this one included
    LOREKEEPER_EMBEDDED_PG_OPTIONS="-c shared_buffers=2GB" DJANGO_SETTINGS_MODULE=config.settings.test \
        .venv/bin/python -m config.embedded run --var var/bench -- .venv/bin/python -m bench.load
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench._harness import BASE_DIR, percentile, report_metric, run, setup_django
from bench.context import (
    SERVERS,
    CpuMeter,
    _children,
    _context_bodies,
    _free_port,
    _gunicorn_env,
    _load,
    _messages,
    _spent_by_group,
    _stop,
    _wait_until_serving,
)

STEP_SECONDS = float(os.environ.get("LOAD_STEP_SECONDS", "60"))
SOAK_SECONDS = float(os.environ.get("LOAD_SOAK_SECONDS", "600"))
CONNECTIONS = int(os.environ.get("LOAD_CONNECTIONS", "32"))
MAX_STEPS = int(os.environ.get("LOAD_MAX_STEPS", "10"))
PARTS = {part.strip() for part in os.environ.get("LOAD_PARTS", "context,actions,soak,semantic").split(",")}
SOAK_RPS_WITHOUT_CONTEXT = float(os.environ.get("LOAD_SOAK_RPS", "50"))
# Extra environment for gunicorn only, "NAME=VALUE,NAME=VALUE" (e.g. OMP_NUM_THREADS=1 to try the local
# model single-threaded in each worker); empty by default: gunicorn runs exactly as bench/context.py runs it.
GUNICORN_EXTRA_ENV = dict(pair.split("=", 1) for pair in os.environ.get("LOAD_GUNICORN_ENV", "").split(",")
                          if "=" in pair)


def _rates(name: str, default: list[float]) -> list[float]:
    """LOAD_CLASSIC_RATES / LOAD_SEMANTIC_RATES ("150,200,250"): start an experiment near the limit."""
    given = os.environ.get(name, "")
    return [float(rate) for rate in given.split(",") if rate.strip()] or default


CLASSIC_RATES = _rates("LOAD_CLASSIC_RATES", [25, 50, 100, 150, 175, 200, 250, 300, 400, 500, 600])
SEMANTIC_RATES = _rates("LOAD_SEMANTIC_RATES", [5, 10, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300])
P95_LIMIT_MS = 100.0
TARGETS = {"load.context.classic": 200, "load.context.semantic": 50}
HTTP_TIMEOUT_S = 10.0
DRAIN_S = 10.0  # a request not sent this long after its step ended is dropped (an error)
PAUSE_BETWEEN_STEPS_S = 2.0
RSS_SAMPLE_S = 10.0
WAIT_SAMPLE_S = 0.25
PROBES = 8  # meaning probes under Semantic, before the first step and after each
SMOKE = False  # --smoke: _smoke_settings()
GUILD_ID, SERVER_NAME, SERVER_FACTS = next((guild, name, facts) for label, guild, name, facts in SERVERS
                                           if label == "1k")


def _smoke_settings() -> None:
    """--smoke (see the module's docstring): every part once, small and short, errors fatal."""
    global SMOKE, STEP_SECONDS, SOAK_SECONDS, CONNECTIONS, MAX_STEPS, PARTS, CLASSIC_RATES, SEMANTIC_RATES
    global PAUSE_BETWEEN_STEPS_S, PROBES, GUILD_ID, SERVER_NAME, SERVER_FACTS
    SMOKE, PARTS = True, {"context", "actions", "soak", "semantic"}
    STEP_SECONDS, SOAK_SECONDS, CONNECTIONS, MAX_STEPS, PAUSE_BETWEEN_STEPS_S, PROBES = 0.5, 1.0, 2, 1, 0.0, 2
    CLASSIC_RATES, SEMANTIC_RATES = [20.0], [10.0]
    GUILD_ID, SERVER_NAME, SERVER_FACTS = "900000000000000092", "Bench Smoke Hamlet", 30


def _log(message: str) -> None:
    print(f"# {message}", file=sys.stderr, flush=True)


# The generator ------------------------------------------------------------------------------


@dataclass
class Step:
    """One rate held for a while: what was sent and what came back."""

    expect: bytes | None  # a 2xx answer must contain this, else it counts as an error
    give_up_at: float = math.inf
    results: list = field(default_factory=list)  # (scheduled, done, status); list.append is atomic
    dropped: list = field(default_factory=list)


class _KeepAliveConnection:
    """HTTP/1.1 POSTs over one keep-alive socket, written and read by hand: the generator shares the two
    cores with the server under test, and this costs about a fifth of the CPU per request of httpx's
    transport (which itself costs half of httpx.Client). Reconnects after an error or a close."""

    def __init__(self, base_url: str) -> None:
        address = base_url.split("://", 1)[1].rstrip("/")
        host, port = address.rsplit(":", 1)
        self.address, self.host_header = (host, int(port)), address
        self.sock: socket.socket | None = None

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def post(self, path: str, body: bytes, headers: dict) -> tuple[int, bytes]:
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=HTTP_TIMEOUT_S)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        headers = {"content-type": "application/json", **{name.lower(): value for name, value in headers.items()}}
        lines = [f"POST {path} HTTP/1.1", f"Host: {self.host_header}", f"Content-Length: {len(body)}",
                 *(f"{name}: {value}" for name, value in headers.items())]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        received = b""
        while b"\r\n\r\n" not in received:
            received += self._recv()
        head, _, content = received.partition(b"\r\n\r\n")
        status = int(head[9:12])
        fields = {name.strip().lower(): value.strip() for name, _, value in
                  (line.partition(b":") for line in head.split(b"\r\n")[1:])}
        length = int(fields[b"content-length"])  # Django's responses say how long they are
        while len(content) < length:
            content += self._recv()
        if fields.get(b"connection", b"").lower() == b"close":
            self.close()
        return status, content[:length]

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk


class Generator:
    """CONNECTIONS threads, each with one keep-alive connection (_KeepAliveConnection), taking requests
    from one queue; queue.Queue wakes its waiters in turn, so the requests are spread over every
    connection."""

    def __init__(self, base_url: str, connections: int) -> None:
        self.base_url = base_url
        self.queue: queue.Queue = queue.Queue()
        self.threads = [threading.Thread(target=self._work, name=f"load-{index}", daemon=True)
                        for index in range(connections)]
        for thread in self.threads:
            thread.start()

    def _work(self) -> None:
        connection = _KeepAliveConnection(self.base_url)
        while True:
            item = self.queue.get()
            if item is None:
                connection.close()
                return
            step, scheduled, path, body, headers = item
            if time.perf_counter() > step.give_up_at:
                step.dropped.append(scheduled)
                continue
            try:
                status, content = connection.post(path, body, headers)
                if 200 <= status < 300 and step.expect is not None and step.expect not in content:
                    status = f"{status}-unexpected"
            except Exception as error:  # noqa: BLE001 - counted as an error; the thread must go on
                connection.close()
                status = error.__class__.__name__
            step.results.append((scheduled, time.perf_counter(), status))

    def close(self) -> None:
        """Stop the threads, each closing its connection, and wait for them (bounded). Before gunicorn stops:
        an open keep-alive connection holds its graceful stop about 3 s."""
        for _ in self.threads:
            self.queue.put(None)
        deadline = time.perf_counter() + HTTP_TIMEOUT_S
        for thread in self.threads:
            thread.join(timeout=max(0.0, deadline - time.perf_counter()))


@dataclass
class Outcome:
    rate: float
    sent: int
    answered: int
    achieved: float
    p50: float
    p95: float
    p99: float
    errors: int
    too_many: int  # 429s (also errors)
    error_kinds: dict
    latencies: list
    results: list
    started: float

    @property
    def held(self) -> bool:
        return self.errors == 0 and self.answered == self.sent and self.p95 < P95_LIMIT_MS


def run_step(generator: Generator, rate: float, requests: list[tuple[str, bytes, dict]],
             expect: bytes | None = None, during=None) -> Outcome:
    """Send `requests` at `rate` per second, on schedule; wait for the answers (bounded) and sum up.
    `during(stop_event)` runs in a thread alongside until the step is over (memory and wait samplers)."""
    step = Step(expect=expect)
    count = len(requests)
    started = time.perf_counter() + 0.05
    step.give_up_at = started + count / rate + DRAIN_S
    helper = None
    if during is not None:
        stop_helper = threading.Event()
        helper = threading.Thread(target=during, args=(stop_helper,), daemon=True)
        helper.start()
    try:
        for index, (path, body, headers) in enumerate(requests):
            scheduled = started + index / rate
            delay = scheduled - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            generator.queue.put((step, scheduled, path, body, headers))
        # Every request is answered, dropped, or (past the deadline) counted as lost.
        deadline = step.give_up_at + HTTP_TIMEOUT_S + 2
        while len(step.results) + len(step.dropped) < count and time.perf_counter() < deadline:
            time.sleep(0.05)
    finally:
        if helper is not None:
            stop_helper.set()
            helper.join(timeout=RSS_SAMPLE_S + 5)
    results = list(step.results)
    latencies = [(done - scheduled) * 1000 for scheduled, done, _ in results]
    kinds: dict[str, int] = {}
    for _, _, status in results:
        if not (isinstance(status, int) and 200 <= status < 300):
            kinds[str(status)] = kinds.get(str(status), 0) + 1
    if step.dropped:
        kinds["dropped"] = len(step.dropped)
    lost = count - len(results) - len(step.dropped)
    if lost > 0:
        kinds["lost"] = lost
    ok_done = [done for _, done, status in results if isinstance(status, int) and 200 <= status < 300]
    span = (max(ok_done) - started) if ok_done else 0.0
    return Outcome(
        rate=rate, sent=count, answered=len(results),
        achieved=len(ok_done) / span if span > 0 else 0.0,
        p50=statistics.median(latencies) if latencies else math.inf,
        p95=percentile(latencies, 0.95) if latencies else math.inf,
        p99=percentile(latencies, 0.99) if latencies else math.inf,
        errors=sum(kinds.values()), too_many=kinds.get("429", 0), error_kinds=kinds, latencies=latencies,
        results=results, started=started,
    )


def warm(generator: Generator, requests: list[tuple[str, bytes, dict]], expect: bytes | None = None,
         attempts: int = 3) -> None:
    """Send a burst, two per connection, unmeasured, until one comes back clean (at most `attempts`):
    opens every keep-alive connection (gunicorn closes them after 30 s idle) and warms each worker
    (under Semantic the local model loads on a worker's first embedding, seconds on a busy machine)."""
    for attempt in range(1, attempts + 1):
        outcome = run_step(generator, 1000.0, requests, expect)
        if not outcome.errors:
            return
        _log(f"warm-up {attempt}/{attempts}: {outcome.errors} errors of {outcome.sent} ({outcome.error_kinds})")


def probe_meaning(base_url: str, context_path: str, headers: dict, bodies: list[bytes],
                  probes: int = 8) -> dict[str, int]:
    """Ask gunicorn whether meaning is used: `probes` context calls, each on a new connection (so on
    various workers), then the exchange's one search with the same message (12 characters or more);
    the search answers its mode ("hybrid", or "words" with the reason meaning was not used). Returns
    how often each answer came back."""
    import httpx

    long_bodies = [body for body in bodies if len(json.loads(body)["content"].strip()) >= 12]
    answers: dict[str, int] = {}
    for index in range(probes):
        body = long_bodies[index % len(long_bodies)]
        try:
            with httpx.Client(base_url=base_url, headers=headers, timeout=HTTP_TIMEOUT_S) as client:
                opened = client.post(context_path, content=body).json()
                found = client.post(f"/api/v1/exchanges/{opened['exchange']}/search",
                                    json={"query": json.loads(body)["content"]}).json()
            answer = found.get("mode", "?") + (f" ({found['fallback_reason']})" if found.get("fallback_reason") else "")
        except (httpx.HTTPError, ValueError, KeyError) as error:
            answer = f"probe failed: {error.__class__.__name__}"
        answers[answer] = answers.get(answer, 0) + 1
    return answers


# CPU and memory --------------------------------------------------------------------------------


def _socket_inodes(pid: int) -> set[int]:
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    inodes.add(int(link[8:-1]))
    return inodes


def _local_ports(inodes: set[int], remote_port: int) -> set[int]:
    """Local TCP ports of the sockets `inodes` connected to `remote_port` (from /proc/net/tcp*)."""
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[9]) in inodes and int(fields[2].rsplit(":", 1)[1], 16) == remote_port:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


class GroupMeter(CpuMeter):
    """bench/context.py's CpuMeter, with the figures per group kept (bench here = the generator), and
    PostgreSQL split in two: `postgres` counts the backends serving gunicorn's connections (found by
    matching the local ports of the workers' sockets with pg_stat_activity.client_port) and the backends
    that exited during the step (gunicorn closes a connection after CONN_MAX_AGE; an autovacuum worker
    that finished is counted here too), and `pg_other` everything else under the postmaster: background
    processes (WAL writer, checkpointer, io workers) and other clients (other benches, other sessions)."""

    def _gunicorn_backends(self) -> set[int]:
        from django.db import connection

        if not self.gunicorn:
            return set()
        inodes = set()
        for pid in [self.gunicorn, *_children(self.gunicorn)]:
            inodes |= _socket_inodes(pid)
        ports = _local_ports(inodes, int(connection.settings_dict.get("PORT") or 5432))
        if not ports:
            return set()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE client_port = ANY(%s)", [list(ports)])
            return {row[0] for row in cursor.fetchall()}

    def _groups(self) -> dict[str, list[int]]:
        groups = super()._groups()
        everything = groups.pop("postgres", None)
        if everything is not None:
            serving = self._gunicorn_backends()
            groups["postgres"] = [pid for pid in everything if pid in serving]
            groups["pg_other"] = [pid for pid in everything if pid not in serving]
        return groups

    def stop_parts(self, requests: int) -> dict[str, float]:
        spent = _spent_by_group(self.before, self._sample())
        return {name: seconds * 1000 / max(1, requests) for name, seconds in spent.items()}


class WaitSampler:
    """What gunicorn's PostgreSQL backends are doing during a step, sampled every WAIT_SAMPLE_S from
    pg_stat_activity: running, waiting on something (Lock:tuple / Lock:transactionid: a row lock held by
    another transaction until it commits), or idle in a transaction, waiting for gunicorn's next query.
    Says whether a step that did not hold was short of CPU or queued behind a lock."""

    def __init__(self, meter: GroupMeter) -> None:
        self.meter = meter
        self.counts: dict[str, int] = {}
        self.samples = 0

    def __call__(self, stop: threading.Event) -> None:
        from django.db import connection

        try:
            backends = list(self.meter._gunicorn_backends())
            while not stop.wait(WAIT_SAMPLE_S):
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT CASE WHEN state <> 'active' THEN 'idle in transaction (waiting for gunicorn)' "
                        "ELSE coalesce(wait_event_type || ':' || wait_event, 'running') END FROM pg_stat_activity "
                        "WHERE pid = ANY(%s) AND state IN ('active', 'idle in transaction')", [backends])
                    rows = cursor.fetchall()
                self.samples += 1
                for (what,) in rows:
                    self.counts[what] = self.counts.get(what, 0) + 1
        finally:
            connection.close()

    def summary(self) -> str:
        if not self.samples:
            return "no samples"
        if not self.counts:
            return f"{self.samples} samples, never a busy backend"
        top = sorted(self.counts.items(), key=lambda item: -item[1])[:5]
        return (f"{self.samples} samples, busy backends on average {sum(self.counts.values()) / self.samples:.1f}: "
                + ", ".join(f"{what} {count / self.samples:.1f}" for what, count in top))


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def gunicorn_rss(master: int) -> tuple[int, list[int]]:
    """(total VmRSS in kB of the master and its workers, worker pids)."""
    workers = _children(master)
    return sum(_rss_kb(pid) for pid in [master, *workers]), workers


# The run ------------------------------------------------------------------------------------------


def _describe(name: str, outcome: Outcome, cpu: dict[str, float], wall_s: float) -> str:
    """One step: rate, latency, errors, and CPU ms per request of the generator (bench), gunicorn,
    PostgreSQL for gunicorn, and the rest of PostgreSQL (pg_other); cores_busy counts all four."""
    total = sum(cpu.values())
    detail = ", ".join(f"{group} {ms:.2f}" for group, ms in cpu.items())
    busy = total * outcome.sent / 1000 / wall_s if wall_s > 0 else 0.0
    errors = f"errors={outcome.errors}"
    if outcome.errors:
        errors += " (" + ", ".join(f"{kind}: {count}" for kind, count in sorted(outcome.error_kinds.items())) + ")"
    return (f"{name} rate={outcome.rate:g} achieved={outcome.achieved:.1f} p50_ms={outcome.p50:.1f} "
            f"p95_ms={outcome.p95:.1f} p99_ms={outcome.p99:.1f} n={outcome.sent} {errors} "
            f"cpu_ms_per_request=({detail}) cores_busy={busy:.2f}/{os.cpu_count()} {_load()} "
            f"{'held' if outcome.held else 'NOT HELD'}")


def _capacity(name: str, cpu: dict[str, float]) -> str:
    """What the CPU spent per request allows on this machine's cores, with and without the generator."""
    cores = os.cpu_count() or 1
    served = cpu.get("gunicorn", 0.0) + cpu.get("postgres", 0.0)
    with_generator = served + cpu.get("bench", 0.0)
    if served <= 0:
        return f"{name}: no CPU measured"
    return (f"{name}: {served:.2f} ms of CPU per request to serve it (gunicorn {cpu.get('gunicorn', 0):.2f} + "
            f"PostgreSQL {cpu.get('postgres', 0):.2f}) and {cpu.get('bench', 0):.2f} ms to send it: {cores} cores "
            f"give at most {cores * 1000 / with_generator:.0f} requests/s with the generator, "
            f"{cores * 1000 / served:.0f} without it (pg_other {cpu.get('pg_other', 0):.2f} ms per request "
            f"not counted)")


def rising(name: str, generator: Generator, meter: GroupMeter, rates: list[float],
           make_requests, expect: bytes | None = None, check=None) -> float:
    """Hold each rate in turn; the highest one held, 0 when none. Prints one `#` line per step.
    `check()`, when given, runs after each step and returns why the step does not count ('' if it does)."""
    best = 0.0
    for rate in rates[:MAX_STEPS]:
        requests = make_requests(rate, round(rate * STEP_SECONDS))
        warm(generator, make_requests(None, 2 * CONNECTIONS), expect)
        time.sleep(PAUSE_BETWEEN_STEPS_S)
        waits = WaitSampler(meter)
        meter.start()
        began = time.perf_counter()
        outcome = run_step(generator, rate, requests, expect, during=waits)
        wall = time.perf_counter() - began
        cpu = meter.stop_parts(outcome.sent)
        print(f"# {_describe(name, outcome, cpu, wall)}", flush=True)
        print(f"# {name} rate={rate:g} PostgreSQL backends of gunicorn: {waits.summary()}", flush=True)
        if outcome.too_many:
            print(f"# {name}: {outcome.too_many} answers were 429 (rate limited)", flush=True)
        refused = check() if check is not None else ""
        if SMOKE and (outcome.errors or refused):
            raise RuntimeError(f"smoke: {name} rate={rate:g}: {outcome.errors} errors {outcome.error_kinds} {refused}")
        if refused:
            print(f"# {name} rate={rate:g} does not count: {refused}", flush=True)
            break
        if not outcome.held:
            print(f"# {_capacity(name, cpu)}", flush=True)
            break
        best = rate
    report_metric(name, "rps", best)
    target = TARGETS.get(name)
    if target is not None:
        print(f"# {name} target_rps={target} {'met' if best >= target else 'MISSED'}", flush=True)
    return best


def soak(generator: Generator, meter: GroupMeter, master: int, rate: float, requests) -> None:
    samples: list[tuple[float, int, list[int]]] = []

    def sample(stop: threading.Event) -> None:
        begun = time.perf_counter()
        while True:
            total, workers = gunicorn_rss(master)
            samples.append((time.perf_counter() - begun, total, workers))
            if stop.wait(RSS_SAMPLE_S):
                return

    meter.start()
    began = time.perf_counter()
    outcome = run_step(generator, rate, requests, during=sample)
    wall = time.perf_counter() - began
    cpu = meter.stop_parts(outcome.sent)
    print(f"# {_describe('load.soak.classic', outcome, cpu, wall)}", flush=True)
    # Per minute: p95 and errors, to see whether latency drifts.
    minutes: dict[int, list[float]] = {}
    for (scheduled, done, _status), latency in zip(outcome.results, outcome.latencies, strict=True):
        minutes.setdefault(int((scheduled - outcome.started) // 60), []).append(latency)
    print("# load.soak.classic p95_ms by minute: " + ", ".join(
        f"{minute}: {percentile(values, 0.95):.1f}" for minute, values in sorted(minutes.items())), flush=True)
    print("# load.soak.classic gunicorn rss_mb every 10 s: " + " ".join(
        f"{total / 1024:.0f}" for _, total, _ in samples), flush=True)
    if len({tuple(workers) for _, _, workers in samples}) > 1:
        print("# load.soak.classic: the gunicorn worker pids changed during the soak (a worker restarted)", flush=True)
    duration = samples[-1][0] if samples else 0.0
    window = 60.0 if duration >= 180 else duration / 3
    first = [total for at, total, _ in samples if at <= window]
    last = [total for at, total, _ in samples if at >= duration - window]
    growth = (statistics.mean(last) - statistics.mean(first)) / 1024 if first and last else 0.0
    print(f"# load.soak.classic rate={rate:g} for {SOAK_SECONDS:g} s; rss windows of {window:.0f} s: first "
          f"{statistics.mean(first) / 1024 if first else 0:.1f} MB, "
          f"last {statistics.mean(last) / 1024 if last else 0:.1f} MB",
          flush=True)
    report_metric("load.soak.classic", "rss_growth_mb", round(growth, 1))
    print(f"bench: load.soak.classic p50_ms={outcome.p50:.2f} p95_ms={outcome.p95:.2f} n={outcome.sent}", flush=True)
    report_metric("load.soak.classic", "errors", outcome.errors)
    if SMOKE and outcome.errors:
        raise RuntimeError(f"smoke: load.soak.classic: {outcome.errors} errors {outcome.error_kinds}")


@contextlib.contextmanager
def gunicorn_serving(extra_env: dict[str, str] | None = None):
    """gunicorn as bench/context.py's _time_http starts it; yields (process, base_url); always stopped."""
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    executable = Path(sys.executable).parent / "gunicorn"
    env = _gunicorn_env() | (extra_env or {})
    with tempfile.TemporaryDirectory(prefix="bench-load-gunicorn-") as log_dir:
        log_path = Path(log_dir) / "gunicorn.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [str(executable), "-c", "config/gunicorn.conf.py", "config.wsgi", "--bind", f"127.0.0.1:{port}"],
                cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
        try:
            _wait_until_serving(process, base_url, log_path)
            _log(f"gunicorn pid {process.pid} serving on {base_url} (config/gunicorn.conf.py), "
                 f"workers {_children(process.pid)}")
            yield process, base_url
        finally:
            _stop(process)
            lines = log_path.read_text(errors="replace").splitlines()
            problems = [line for line in lines if "ERROR" in line or "WARNING" in line or "Traceback" in line]
            _log(f"gunicorn stopped (exit {process.returncode}); its log holds {len(problems)} error/warning lines"
                 + ("; the first: " + " | ".join(problems[:3]) if problems else ""))
            if problems:
                print(f"# gunicorn logged {len(problems)} errors or warnings, first: {problems[0][:300]}", flush=True)
                if SMOKE:
                    raise RuntimeError(f"smoke: gunicorn logged {len(problems)} errors or warnings")


def _tokens_needed(max_rate: float) -> tuple[int, int]:
    """(per-token requests per minute gunicorn enforces, 0 = none; tokens to spread max_rate over)."""
    from django.conf import settings

    raw = _gunicorn_env().get("LOREKEEPER_API_REQUESTS_PER_MINUTE")
    limit = int(raw) if raw not in (None, "") else int(getattr(settings, "LOREKEEPER_API_REQUESTS_PER_MINUTE", 0))
    if not limit:
        return 0, 1
    return limit, max(1, math.ceil(max_rate * 60 / (limit * 0.8)))


def main(*, smoke: bool) -> None:
    if smoke:
        _smoke_settings()

    def stop_on_term(signum, frame):  # SIGTERM: clean up as on Ctrl-C
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_term)
    started_at = time.perf_counter()
    setup_django()
    import logging

    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    from datetime import UTC, datetime

    from django.db import connection, transaction

    from bench._seed import ensure_server_facts
    from memory.bot.exchanges import IncomingMessage, exchange_open
    from memory.models import EmbeddingRound, FactEmbedding, MemoryType
    from memory.configuration.selectors import ai_settings_for_server
    from memory.indexing.catchup import meaning_for
    from memory.configuration.services import memory_type_set
    from memory.facts.deletes import _permit_fact_deletes
    from teams.services import bot_token_issue, bot_token_revoke

    server, user = ensure_server_facts(GUILD_ID, SERVER_NAME, SERVER_FACTS)
    run_started = datetime.now(UTC)
    limit, token_count = _tokens_needed(max(CLASSIC_RATES[:MAX_STEPS]))
    tokens = [bot_token_issue(team=server.team, name=f"bench load {index + 1} {time.strftime('%Y-%m-%d %H:%M:%S')}",
                              created_by=user) for index in range(token_count)]
    headers = [{"Authorization": f"Bearer {plaintext}", "Content-Type": "application/json"} for _, plaintext in tokens]
    _log(f"per-token limit in gunicorn: {limit or 'none'}/min; {token_count} bot token(s); "
         f"{CONNECTIONS} connections; steps of {STEP_SECONDS:g} s; soak {SOAK_SECONDS:g} s; parts {sorted(PARTS)}"
         + (f"; gunicorn environment adds {GUNICORN_EXTRA_ENV}" if GUNICORN_EXTRA_ENV else ""))
    bodies = [json.dumps(body).encode() for body in _context_bodies(_messages(205))]
    context_path = f"/api/v1/servers/{GUILD_ID}/context"

    def context_requests(_rate, count: int) -> list[tuple[str, bytes, dict]]:
        return [(context_path, bodies[index % len(bodies)], headers[index % len(headers)]) for index in range(count)]

    rng = random.Random()
    member_base = rng.randrange(10**17, 8 * 10**17)
    opened = [0]
    channel = str(rng.randrange(10**17, 10**18))

    def action_requests(_rate, count: int) -> list[tuple[str, bytes, dict]]:
        """One exchange per request, each opened for a member of its own (outside the timing)."""
        from bench._seed import CHARACTERS, GAMES, NICKNAMES, PLATFORMS

        began = time.perf_counter()
        requests = []
        for _ in range(count):
            opened[0] += 1
            author = str(member_base + opened[0])
            nick = rng.choice(NICKNAMES).capitalize()
            game, character, platform = rng.choice(GAMES), rng.choice(CHARACTERS), rng.choice(PLATFORMS)
            message = IncomingMessage(channel_id=channel, author_id=author, author_name=nick,
                                      content=f"remember that I main {character} in {game} on {platform}")
            exchange = exchange_open(server=server, message=message, source="api").exchange
            body = {"remember": [{"key": "main_game", "scope": "member", "member_id": author,
                                  "content": f"{nick} mains {character} in {game} and plays on {platform}."}]}
            requests.append((f"/api/v1/exchanges/{exchange.pk}/actions", json.dumps(body).encode(),
                             headers[opened[0] % len(headers)]))
        if count > 2 * CONNECTIONS:
            _log(f"opened {count} exchanges for the actions step in {time.perf_counter() - began:.1f} s")
        return requests

    def delete_facts() -> int:
        """The facts this run's remember calls wrote: the server is back to its seeded facts for the soak and
        for Semantic's catch-up round. Plain SQL, as a server wipe deletes (the database cascades to their
        vectors): the ORM's delete would bind every id as a parameter, and a fast machine writes more than
        the 65,535 a statement may carry (42,384 at 175 actions/s)."""
        with transaction.atomic(), _permit_fact_deletes("bench load: facts the load test's remember calls wrote"), \
                connection.cursor() as cursor:
            cursor.execute("DELETE FROM memory_fact WHERE server_id = %s AND source_exchange_id IN "
                           "(SELECT id FROM memory_exchange WHERE server_id = %s AND created_at >= %s)",
                           [server.pk, server.pk, run_started])
            return cursor.rowcount

    def vacuum_churned(after: str) -> None:
        """Remember calls and their clean-up leave dead rows among this server's newest facts and exchanges
        (thousands on a server of a thousand); autovacuum does not notice them in a table of a million
        facts (20 % must be dead), and every context call walks them: 262 buffers and 0.31 ms per
        newest-facts read instead of 24 and 0.06 ms; under Semantic 17-20 ms of PostgreSQL per call
        instead of 13. Each part starts from vacuumed tables, so runs and parts compare."""
        began = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE) memory_fact, memory_exchange")
        _log(f"vacuumed memory_fact and memory_exchange after {after} in {time.perf_counter() - began:.1f} s")

    vacuum_churned("the last run")
    meter = GroupMeter()
    generator = None
    switched_at = None
    try:
        memory_type_set(server=server, actor=user, memory_type=MemoryType.CLASSIC)
        with gunicorn_serving(GUNICORN_EXTRA_ENV) as (process, base_url), \
                contextlib.closing(Generator(base_url, CONNECTIONS)) as generator:  # closed before gunicorn stops
            meter.gunicorn = process.pid
            classic_rate = 0.0
            if "context" in PARTS:
                classic_rate = rising("load.context.classic", generator, meter, CLASSIC_RATES, context_requests)
            if "actions" in PARTS:
                rising("load.actions.classic", generator, meter, CLASSIC_RATES, action_requests, expect=b'"applied"')
                began = time.perf_counter()
                _log(f"deleted the {delete_facts()} rows the actions wrote in {time.perf_counter() - began:.1f} s")
                vacuum_churned("the actions")
            if "soak" in PARTS and SOAK_SECONDS > 0:
                rate = classic_rate / 2 if "context" in PARTS else SOAK_RPS_WITHOUT_CONTEXT
                if SMOKE and rate <= 0:  # the step did not hold on a busy machine: soak all the same
                    rate = CLASSIC_RATES[0] / 2
                if rate <= 0:
                    print("# load.soak.classic skipped: no Classic context rate was held", flush=True)
                else:
                    warm(generator, context_requests(None, 2 * CONNECTIONS))
                    soak(generator, meter, process.pid, rate, context_requests(rate, int(rate * SOAK_SECONDS)))
            if "semantic" in PARTS:
                switched_at = datetime.now(UTC)
                FactEmbedding.objects.filter(server=server).delete()  # every run times the same catch-up
                switch_began = time.perf_counter()
                memory_type_set(server=server, actor=user, memory_type=MemoryType.SEMANTIC)  # eager catch-up
                switch_s = time.perf_counter() - switch_began
                catchup = EmbeddingRound.objects.filter(server=server).order_by("-created_at").first()
                meaning = meaning_for(server, ai_settings_for_server(server))
                embedded = catchup.total if catchup else 0
                print(f"# load.context.semantic: switching to Semantic took {switch_s:.1f} s: catch-up round "
                      f"{catchup.status if catchup else 'none'}, {embedded} facts embedded with the local model in "
                      f"this process ({embedded / switch_s if switch_s else 0:.0f} facts/s)", flush=True)
                long_share = sum(len(json.loads(body)["content"].strip()) >= 12 for body in bodies) / len(bodies)
                print(f"# load.context.semantic: {long_share:.0%} of the messages are 12 characters or more "
                      f"(embedded in the request)", flush=True)
                warm(generator, context_requests(None, 2 * CONNECTIONS))  # loads the model in the workers

                def meaning_check() -> str:
                    answers = probe_meaning(base_url, context_path, headers[0], bodies, PROBES)
                    print("# load.context.semantic probe, the one search's mode as gunicorn answers it: "
                          + ", ".join(f"{answer} x{count}" for answer, count in answers.items()), flush=True)
                    words = sum(count for answer, count in answers.items() if answer != "hybrid")
                    return f"meaning was not used in {words} of {sum(answers.values())} probes" if words else ""

                refused = meaning_check() if meaning.provider is not None else meaning.fallback_reason
                if refused:
                    print(f"# load.context.semantic skipped: meaning cannot be used ({refused})", flush=True)
                    report_metric("load.context.semantic", "rps", 0)
                    if SMOKE:
                        raise RuntimeError(f"smoke: meaning cannot be used under Semantic ({refused})")
                else:
                    rising("load.context.semantic", generator, meter, SEMANTIC_RATES, context_requests,
                           check=meaning_check)
    except KeyboardInterrupt:
        _log("interrupted: stopping gunicorn and cleaning up")
        raise
    finally:
        if generator is not None:
            generator.close()
        cleanup_began = time.perf_counter()
        done, failed = [], []

        def step(label: str, action) -> None:
            """Each clean-up step on its own: one that fails is reported and the others still run."""
            try:
                done.append(f"{label} {action()}")
            except Exception as error:  # noqa: BLE001 - report, go on with the rest
                _log(f"cleanup: {label} failed: {error.__class__.__name__}: {error}")
                failed.append(label)
                connection.close()

        def delete_rounds_and_vectors() -> str:
            if switched_at is None:
                return "0"
            rounds = EmbeddingRound.objects.filter(server=server, created_at__gte=switched_at).delete()[0]
            return f"{rounds}, vectors deleted {FactEmbedding.objects.filter(server=server).delete()[0]}"

        def delete_exchanges() -> int:
            with connection.cursor() as cursor:  # plain SQL: the ORM would load every exchange first
                cursor.execute("UPDATE memory_fact SET source_exchange_id = NULL WHERE source_exchange_id IN "
                               "(SELECT id FROM memory_exchange WHERE server_id = %s AND created_at >= %s)",
                               [server.pk, run_started])
                cursor.execute("DELETE FROM memory_exchange WHERE server_id = %s AND created_at >= %s",
                               [server.pk, run_started])
                return cursor.rowcount

        step("Classic restored", lambda: memory_type_set(server=server, actor=user,
                                                         memory_type=MemoryType.CLASSIC).memory_type)
        step("tokens revoked", lambda: sum(bot_token_revoke(token=token, revoked_by=user) is None
                                           for token, _ in tokens))
        step("embedding rounds deleted", delete_rounds_and_vectors)
        step("facts deleted (with cascades)", delete_facts)
        step("exchanges deleted", delete_exchanges)
        connection.close()
        _log(f"cleanup in {time.perf_counter() - cleanup_began:.1f} s: " + "; ".join(done))
        print(f"# load done in {time.perf_counter() - started_at:.0f} s", flush=True)
        if SMOKE and failed:
            raise RuntimeError(f"smoke: clean-up failed: {', '.join(failed)}")


if __name__ == "__main__":
    run(main)
