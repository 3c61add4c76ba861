"""Time the bot's two hot calls on servers of 1k, 100k and 1M facts: context (Classic) and the one search.

Three servers of the Bench team hold realistic text from bench/_seed.py: the million-fact server that
bench/memory_page.py uses, and servers of 100,000 and 1,000 facts, seeded on the first run (about a
minute for the 100k one, progress on stderr) and reused afterwards. A tenth of each server's facts are
channel-limited, learned in one of a few private channels (bench._seed.ensure_channel_limited, an UPDATE
made once), and every message is read in one public channel (bench._seed.PUBLIC_CHANNEL), so every read
leaves those facts out in its statement. Each fact has the kind its template says (rules, lore, member profiles,
preferences, events: bench._seed.ensure_kinds, an UPDATE made once), by which Ranked ages it. Every run issues a
fresh bot token for the team and revokes it at the end.

Figures, 200 requests each, cycling through messages drawn the way members talk (names, topics, a few
common words, picked with Zipf-like weights from the seed's own word lists):

- context.classic.<size>: POST /api/v1/servers/{guild}/context under Classic, in process through
  django.test.Client, from members the server holds no facts about;
- context.classic.speaking.<size>: the same messages from members it knows (picked by fact, so the member with
  the most facts, 42,000 on the million-fact server, talks most), every other one mentioning another, with five
  of its rules pinned for the figure: the pinned facts, the speaker's share and the names are read too;
- context.ranked.<size>: the same under Ranked (the best-scored facts for the message, memory/retrieval/ranking/,
  with the server's default weights), followed by `context.ranked.<size> settled_without_cap=<fraction>`:
  the share of those messages whose exact top N the first walk and one read of the weight index proved,
  without the read hitting its cap or the walk going deeper;
- context.classic.http.<size>: the same over HTTP with one httpx client (keep-alive) against
  `gunicorn -c config/gunicorn.conf.py config.wsgi` (the README's production command: threaded
  workers that keep connections open) on 127.0.0.1 with production settings;
- search.words.<size>: POST /api/v1/exchanges/{exchange}/search under Searchable archive, in process;
  each search needs an exchange of its own, opened with exchange_open before the timed loop.

After each figure a `#` line gives the load average (the two cores are shared with other work) and the
CPU time spent per request by this process, PostgreSQL and gunicorn (read from /proc, Linux only):
wall time well above that CPU time means the request waited for a core, not for work.
Set BENCH_EXPLAIN=1 to print, on stderr, EXPLAIN ANALYZE of every SELECT of one context request per
server and of one search per distinct query on the million-fact server.

`--smoke`: every part, gunicorn included, with one timed call each on bench._seed's 400-fact smoke server
(figures named `<figure>.smoke`) and three messages.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import _harness
from bench._harness import (
    BASE_DIR,
    build_server_indexes,
    call_plan,
    explain_reads,
    prewarm,
    report_latency,
    report_metric,
    run,
    scaled,
    setup_django,
    time_calls,
)

RUNS = 200
WARMUP = 5
CONTEXT_TARGET_P95_MS = 20.0  # at 1M facts, Classic
RANKED_TARGET_P95_MS = {"100k": 30.0, "1m": 60.0}
SEARCH_TARGET_P95_MS = 30.0  # at 1M facts
GUNICORN_START_TIMEOUT_S = 60
GUNICORN_STOP_TIMEOUT_S = 15
HTTP_TIMEOUT_S = 10

# (label, guild id, server name, facts). The 1m server is the one bench/memory_page.py uses.
SERVERS = [
    ("1k", "900000000000000003", "Bench Hamlet", 1_000),
    ("100k", "900000000000000002", "Bench Town", 100_000),
    ("1m", None, None, None),  # filled from _seed: BENCH_GUILD_ID, BENCH_SERVER_NAME, TARGET_FACTS
]

# How members ask: a name, a topic, or a few common words, in the words they use in chat.
MESSAGE_TEMPLATES = [
    ("when is the {game} {event}?", 8),
    ("{nick}", 6),
    ("{game}", 6),
    ("what's {nick}'s birthday", 5),
    ("what does {nick} main in {game}", 4),
    ("is there a {event} this {day}", 4),
    ("what are the rules about {topic}", 4),
    ("{event} {day}", 3),
    ("who won the {game} {event}", 3),
    ("what timezone is {nick} in", 3),
    ("which channel is for {game}", 2),
    ("what's the prize for the {event}", 2),
    ("who are the {role}s", 2),
    ("rules", 2),
    ("does {nick} have a {pet}", 1),
    ("what rank is {nick} in {game}", 1),
    ("{nick} pronouns", 1),
    ("anyone up for {game} tonight", 1),
]
TOPICS = ["spoilers", "spam", "memes", "voice", "cheating", "politics", "pings", "fan art", "trading", "leaks"]


def _messages(count: int) -> list[str]:
    """`count` messages from one seeded generator, so every run asks the same things in the same order."""
    from bench._seed import CHANNELS, DAYS, EVENTS, GAMES, NICKNAMES, PETS, ROLES, _cumulative

    rng = random.Random(20261201)
    lists = {"game": GAMES, "event": EVENTS, "nick": NICKNAMES, "day": DAYS, "topic": TOPICS, "role": ROLES,
             "pet": PETS, "channel": CHANNELS}
    cums = {name: _cumulative(len(words)) for name, words in lists.items()}
    templates, weights = zip(*MESSAGE_TEMPLATES, strict=True)

    def pick(name: str) -> str:
        return rng.choices(lists[name], cum_weights=cums[name])[0]

    messages = []
    for _ in range(count):
        template = rng.choices(templates, weights=weights)[0]
        text = template.format(**{name: pick(name) for name in lists if "{" + name + "}" in template})
        messages.append(text[0].upper() + text[1:] if rng.random() < 0.5 else text)
    return messages


def _context_bodies(messages: list[str]) -> list[dict]:
    """The context call's bodies: members in one public channel (the channel-limited facts are not theirs)."""
    from bench._seed import PUBLIC_CHANNEL

    rng = random.Random(7)
    channels = [PUBLIC_CHANNEL]
    authors = [(str(rng.randrange(10**17, 10**18)), name.capitalize()) for name in
               ("sam", "alex", "nova", "pixel", "kai", "luna", "toast", "otter")]
    bodies = []
    for message in messages:
        author_id, author_name = rng.choice(authors)
        bodies.append({"channel_id": rng.choice(channels), "thread_parent_id": None, "author_id": author_id,
                       "author_name": author_name, "content": message})
    return bodies


def _speaking_bodies(server, bodies: list[dict]) -> list[dict]:
    """The same messages from members the server has facts about, picked by fact (a member with 40,000 facts is
    picked most often, as they talk most), every other one mentioning a second such member: the speaker's share
    of the context reads their facts (memory.retrieval.context)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT member_id FROM memory_fact WHERE server_id = %s AND scope = 'member' AND "
                       "retracted_at IS NULL AND number %% 997 = 1 ORDER BY number", [server.pk])
        members = [member_id for (member_id,) in cursor.fetchall()] or ["1"]
    rng = random.Random(11)
    speaking = []
    for index, body in enumerate(bodies):
        author, mentioned = rng.choice(members), rng.choice(members)
        mentions = [{"id": mentioned, "name": f"Member {mentioned[-4:]}"}] if index % 2 and mentioned != author else []
        speaking.append({**body, "author_id": author, "author_name": f"Member {author[-4:]}", "mentions": mentions})
    return speaking


# A few rules staff pin on a real server; pinned for the speaking figure only (PINNED_RULES of its rule facts).
PINNED_RULES = 5


def _pin_rules(server, pinned: bool) -> list[int]:
    """Pin (or unpin) the server's PINNED_RULES oldest rule facts in force, by a plain UPDATE (the bench's own
    state, undone at the end); their numbers."""
    from memory.models import Fact

    rules = list(Fact.objects.filter(server=server, kind="rule", retracted_at__isnull=True)
                 .order_by("changed_at", "id").values_list("pk", flat=True)[:PINNED_RULES])
    Fact.objects.filter(pk__in=rules).update(pinned=pinned)
    return rules


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load_avg={one:.2f},{five:.2f},{fifteen:.2f}"


def _stat_seconds(pid: int, first: int) -> float:
    """Two adjacent clock-tick fields of /proc/PID/stat (counted after the command name), in seconds;
    0 when the process is gone or /proc is not there."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """utime + stime of one process."""
    return _stat_seconds(pid, 11)


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


# The key under which a group's sample holds the CPU of the postmaster's children that exited and were
# reaped (its cutime + cstime): backends gunicorn closed after CONN_MAX_AGE, parallel query workers,
# autovacuum workers. Without it a 60 s step lost most of its backends' CPU.
REAPED = -1


def _reaped_children_seconds(pid: int) -> float:
    """cutime + cstime of one process: the CPU of its children that exited and were waited for."""
    return _stat_seconds(pid, 13)


# The groups of processes under the postmaster (bench/load.py splits "postgres" in two).
POSTMASTER_GROUPS = ("postgres", "pg_other")


def _spent_by_group(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> dict[str, float]:
    """CPU seconds per group between two samples. Each process is measured from its own first value,
    whichever group held it then (a backend gunicorn connected during the step moves to its group). A
    postmaster child that exited in between has its whole life in REAPED's growth, so what it had spent
    before the first sample comes off, whichever group it was in."""
    baseline = {pid: cpu for group in before.values() for pid, cpu in group.items()}
    alive = {pid for group in after.values() for pid in group}
    exited_earlier = sum(cpu for name in POSTMASTER_GROUPS for pid, cpu in before.get(name, {}).items()
                         if pid != REAPED and pid not in alive)
    spent = {}
    for name, pids in after.items():
        total = sum(max(0.0, cpu - baseline.get(pid, 0.0)) for pid, cpu in pids.items())
        if REAPED in pids:
            total -= exited_earlier
        spent[name] = max(0.0, total)
    return spent


class CpuMeter:
    """CPU time per process group between start() and stop(): this process, the PostgreSQL server (the
    postmaster of this connection and its children, those that exited in between included) and gunicorn
    (master and workers) when running."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        try:
            self.postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            self.postmaster = None  # PostgreSQL runs elsewhere: count only what is local
        self.gunicorn: int | None = None
        self.before: dict[str, dict[int, float]] = {}

    def _groups(self) -> dict[str, list[int]]:
        groups = {"bench": [os.getpid()]}
        if self.postmaster:
            groups["postgres"] = [self.postmaster, *_children(self.postmaster)]
        if self.gunicorn:
            groups["gunicorn"] = [self.gunicorn, *_children(self.gunicorn)]
        return groups

    def _sample(self) -> dict[str, dict[int, float]]:
        sample = {name: {pid: _cpu_seconds(pid) for pid in pids} for name, pids in self._groups().items()}
        if "postgres" in sample and self.postmaster:
            sample["postgres"][REAPED] = _reaped_children_seconds(self.postmaster)
        return sample

    def start(self) -> None:
        self.before = self._sample()

    def stop(self, requests: int) -> str:
        spent = _spent_by_group(self.before, self._sample())
        parts = {name: seconds * 1000 / requests for name, seconds in spent.items()}
        detail = ", ".join(f"{name} {ms:.1f}" for name, ms in parts.items())
        return f"cpu_ms_per_request={sum(parts.values()):.1f} ({detail})"


def _timed(meter: CpuMeter, call) -> tuple[list[float], str]:
    meter.start()
    samples = time_calls(call, RUNS, warmup=WARMUP)
    return samples, meter.stop(sum(call_plan(RUNS, WARMUP)))


def _report(name: str, samples: list[float], cpu: str, target_ms: float | None = None) -> None:
    from bench._harness import percentile

    report_latency(name, samples)
    verdict = ""
    if target_ms is not None:
        p95 = percentile(samples, 0.95)
        verdict = f" target_p95_ms={target_ms:g} {'met' if p95 < target_ms else 'MISSED'}"
    print(f"# {name} {_load()} (1/5/15 min, {os.cpu_count()} cores) {cpu}{verdict}", flush=True)


def _context_call(post, url: str, bodies: list[dict]):
    """One timed call: `post(url, body)` of the next body (cycling) to the context endpoint, in process
    or over HTTP; anything but 200 stops the bench."""
    cycle = itertools.cycle(bodies)

    def call() -> None:
        response = post(url, next(cycle))
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}: {response.content[:300]!r}")

    return call


def _settled_without_cap(server, messages: list[str]) -> float:
    """Share of the messages whose ranking the first walk and one read of the weight index settled
    (ranked again outside the timing, to see how each was found)."""
    from django.utils import timezone

    from bench._seed import PUBLIC_CHANNEL
    from memory.configuration.selectors import ai_settings_for_server
    from memory.retrieval.audience import Reader
    from memory.retrieval.context import message_relevance
    from memory.retrieval.ranking import HalfLives, Weights, rank_top

    ai_settings = ai_settings_for_server(server)
    reader = Reader.for_message(PUBLIC_CHANNEL)
    settled = 0
    for message in messages:
        run = rank_top(server.pk, Weights.of(ai_settings), ai_settings.max_injected_items,
                       message_relevance(server, message, reader=reader).by_fact, timezone.now(), reader=reader,
                       half_lives=HalfLives.of(ai_settings))
        settled += run.capped == 0 and "deeper" not in run.steps
    return settled / len(messages)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _gunicorn_env() -> dict[str, str]:
    import secrets

    from cryptography.fernet import Fernet

    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not env.get(name):
            raise SystemExit(f"{name} is not set: run under `python -m config.embedded run --var var/bench --`.")
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        LOREKEEPER_FERNET_KEYS=Fernet.generate_key().decode(),
        DJANGO_SECURE_SSL_REDIRECT="0",
        LOREKEEPER_API_REQUESTS_PER_MINUTE="0",  # the bench measures the service, not the per-token limit
    )
    if _harness.SMOKE:  # one worker boots in half the time of config/gunicorn.conf.py's four on 2 cores
        env.setdefault("GUNICORN_WORKERS", "1")
    return env


def _wait_until_serving(process: subprocess.Popen, base_url: str, log_path: Path) -> None:
    import httpx

    deadline = time.monotonic() + GUNICORN_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            if httpx.get(f"{base_url}/api/v1/schema.json", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {GUNICORN_START_TIMEOUT_S} s:\n{log_path.read_text()[-3000:]}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.terminate()  # SIGTERM: the master stops its workers gracefully
    try:
        process.wait(timeout=GUNICORN_STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=GUNICORN_STOP_TIMEOUT_S)


def _time_http(servers, token: str, bodies: list[dict], meter: CpuMeter) -> None:
    import httpx

    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    gunicorn = Path(sys.executable).parent / "gunicorn"
    with tempfile.TemporaryDirectory(prefix="bench-gunicorn-") as log_dir:
        log_path = Path(log_dir) / "gunicorn.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [str(gunicorn), "-c", "config/gunicorn.conf.py", "config.wsgi", "--bind", f"127.0.0.1:{port}"],
                cwd=BASE_DIR, env=_gunicorn_env(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
        try:
            meter.gunicorn = process.pid
            _wait_until_serving(process, base_url, log_path)
            print(f"# gunicorn pid {process.pid} serving on {base_url} (config/gunicorn.conf.py)", file=sys.stderr)
            with httpx.Client(base_url=base_url, timeout=HTTP_TIMEOUT_S,
                              headers={"Authorization": f"Bearer {token}"}) as client:
                for label, server in servers:
                    url = f"/api/v1/servers/{server.guild_id}/context"
                    call = _context_call(lambda url, body: client.post(url, json=body), url, bodies)
                    _report(f"context.classic.http.{label}", *_timed(meter, call),
                            CONTEXT_TARGET_P95_MS if label == "1m" else None)
                    if label == servers[-1][0]:
                        reused = client.post(url, json=bodies[0]).headers.get("connection", "")
                        print(f"# gunicorn answered Connection: {reused or '(not set)'}", file=sys.stderr)
        finally:
            meter.gunicorn = None
            _stop(process)
            print(f"# gunicorn stopped (exit {process.returncode})", file=sys.stderr)


def main(*, smoke: bool) -> None:
    setup_django()
    import logging

    for noisy in ("httpx", "httpcore"):  # one INFO line per request otherwise
        logging.getLogger(noisy).setLevel(logging.WARNING)
    from django.db import connection
    from django.test import Client

    from bench._seed import (
        BENCH_GUILD_ID,
        BENCH_SERVER_NAME,
        SMOKE_FACTS,
        SMOKE_GUILD_ID,
        SMOKE_SERVER_NAME,
        TARGET_FACTS,
        ensure_channel_limited,
        ensure_kinds,
        ensure_server_facts,
    )
    from memory.bot.exchanges import IncomingMessage, exchange_open
    from memory.models import Exchange, Member, MemoryType
    from memory.configuration.services import memory_type_set
    from teams.services import bot_token_issue, bot_token_revoke

    started_at = time.perf_counter()
    servers = []
    for label, guild_id, name, facts in (
            [("smoke", SMOKE_GUILD_ID, SMOKE_SERVER_NAME, SMOKE_FACTS)] if smoke else SERVERS):
        if guild_id is None:
            guild_id, name, facts = BENCH_GUILD_ID, BENCH_SERVER_NAME, TARGET_FACTS
        seed_started = time.perf_counter()
        server, user = ensure_server_facts(guild_id, name, facts)
        ensure_channel_limited(server)
        ensure_kinds(server)
        print(f"# server {label}: guild {guild_id}, ready in {time.perf_counter() - seed_started:.1f} s",
              file=sys.stderr, flush=True)
        servers.append((label, server))
    build_server_indexes(servers)  # as the app's worker does for large servers
    prewarm()
    team = servers[0][1].team
    token, plaintext = bot_token_issue(team=team, name=f"bench context {time.strftime('%Y-%m-%d %H:%M:%S')}",
                                       created_by=user)
    messages = _messages(scaled(RUNS + WARMUP, 3))
    bodies = _context_bodies(messages)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {plaintext}")
    run_started = time.time()
    server_ids = [server.pk for _, server in servers]
    explain = bool(os.environ.get("BENCH_EXPLAIN"))
    meter = CpuMeter()

    def post(url: str, body: dict):
        return client.post(url, data=json.dumps(body), content_type="application/json")

    try:
        for _, server in servers:
            memory_type_set(server=server, actor=user, memory_type=MemoryType.CLASSIC)

        # 1. Context under Classic, in process.
        for label, server in servers:
            url = f"/api/v1/servers/{server.guild_id}/context"
            first = post(url, bodies[0])
            assert first.status_code == 200, (first.status_code, first.content[:300])
            assert first.json()["memory_type"] == "classic" and first.json()["facts"], first.json()
            if explain:
                explain_reads(f"context {label}", lambda url=url: post(url, bodies[1]))
            call = _context_call(post, url, bodies)
            _report(f"context.classic.{label}", *_timed(meter, call),
                    CONTEXT_TARGET_P95_MS if label == "1m" else None)

        # 1b. The same under Classic with speakers the server knows, members mentioned and pinned rules.
        for label, server in servers:
            url = f"/api/v1/servers/{server.guild_id}/context"
            speaking = _speaking_bodies(server, bodies)
            _pin_rules(server, True)
            try:
                first = post(url, speaking[0]).json()
                assert first["memory_type"] == "classic" and first["pinned"], first
                if explain:
                    explain_reads(f"speaking context {label}", lambda url=url: post(url, speaking[1]))
                _report(f"context.classic.speaking.{label}", *_timed(meter, _context_call(post, url, speaking)),
                        CONTEXT_TARGET_P95_MS if label == "1m" else None)
            finally:
                _pin_rules(server, False)

        # 2. Context under Ranked, in process.
        for label, server in servers:
            memory_type_set(server=server, actor=user, memory_type=MemoryType.RANKED)
            url = f"/api/v1/servers/{server.guild_id}/context"
            first = post(url, bodies[0])
            assert first.status_code == 200 and first.json()["memory_type"] == "ranked", first.content[:300]
            if explain:
                explain_reads(f"ranked context {label}", lambda url=url: post(url, bodies[1]))
            call = _context_call(post, url, bodies)
            _report(f"context.ranked.{label}", *_timed(meter, call), RANKED_TARGET_P95_MS.get(label))
            report_metric(f"context.ranked.{label}", "settled_without_cap", _settled_without_cap(server, messages))
            memory_type_set(server=server, actor=user, memory_type=MemoryType.CLASSIC)

        # 3. Classic over HTTP against gunicorn with production settings.
        _time_http(servers, plaintext, bodies, meter)

        # 4. The one search under Searchable archive: one exchange per search, opened outside the timing.
        slowest: dict[str, float] = {}
        for label, server in servers:
            memory_type_set(server=server, actor=user, memory_type=MemoryType.ARCHIVE)
            exchanges = []
            for body in bodies:
                message = IncomingMessage(channel_id=body["channel_id"], author_id=body["author_id"],
                                          author_name=body["author_name"], content=body["content"])
                exchanges.append(exchange_open(server=server, message=message, source="api").exchange)
            assert all(exchange.can_search for exchange in exchanges)
            if explain and label == "1m":
                spare = []
                for body in {body["content"].lower(): body for body in bodies}.values():
                    message = IncomingMessage(channel_id=body["channel_id"], author_id=body["author_id"],
                                              content=body["content"])
                    spare.append((exchange_open(server=server, message=message).exchange, body["content"]))
                for exchange, query in spare:
                    explain_reads(f"search {label} {query!r}", lambda exchange=exchange, query=query: post(
                        f"/api/v1/exchanges/{exchange.pk}/search", {"query": query}))
            pending = iter(zip(exchanges, messages, strict=True))

            def search_once(label=label, pending=pending) -> None:
                exchange, query = next(pending)
                begun = time.perf_counter()
                response = post(f"/api/v1/exchanges/{exchange.pk}/search", {"query": query})
                elapsed = (time.perf_counter() - begun) * 1000
                if response.status_code != 200 or response.json()["mode"] != "words":
                    raise RuntimeError(f"search answered {response.status_code}: {response.content[:300]}")
                if label == "1m":
                    slowest[query.lower()] = max(slowest.get(query.lower(), 0.0), elapsed)

            _report(f"search.words.{label}", *_timed(meter, search_once),
                    SEARCH_TARGET_P95_MS if label == "1m" else None)
        worst = sorted(slowest.items(), key=lambda item: -item[1])[:8]
        if worst:  # none in smoke mode
            print("# slowest searches at 1m: " + ", ".join(f"{query!r} {ms:.0f} ms" for query, ms in worst),
                  file=sys.stderr)
    finally:
        for _, server in servers:
            memory_type_set(server=server, actor=user, memory_type=MemoryType.CLASSIC)
        bot_token_revoke(token=token, revoked_by=user)
        # The exchanges this run opened are bench noise; drop them so var/bench does not grow run by run.
        from datetime import UTC, datetime

        deleted, _ = Exchange.objects.filter(
            server_id__in=server_ids, created_at__gte=datetime.fromtimestamp(run_started, UTC)
        ).delete()
        # And the names of the members the run's messages reported (the member directory).
        Member.objects.filter(server_id__in=server_ids, seen_at__gte=datetime.fromtimestamp(run_started, UTC)).delete()
        connection.close()
        print(f"# done in {time.perf_counter() - started_at:.0f} s; removed {deleted} bench exchanges",
              file=sys.stderr)


if __name__ == "__main__":
    run(main)
