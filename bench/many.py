"""Time the Ranked context and the words search over 10,000 servers and 5M facts: issue 22's held-scale check.

The bench servers above hold one to three servers each; a hosted Lorekeeper holds thousands, most of them small, in
the same tables and shared indexes. Here 10,000 servers of a team of their own ("Bench Many", guild ids from
930000000000000001 up: no other bench's, which use 900000000000000xxx, and tests/scenarios start at 95xxx) hold
about five million facts, sizes drawn once from a fixed seed (TIERS): 9,900 servers log-uniform between 10 and 1,000
facts, 90 between 1,000 and 20,000, seven of 100,000, two of 300,000 and one of a million. Every server is Ranked
(its AI settings row), its facts are bench/_seed.py's realistic text (its generator and COPY columns, a seed per
server), a tenth channel-limited as bench._seed.ensure_channel_limited makes them, every fact with its template's
kind. The rows of all servers are copied interleaved, in random order, as a multi-tenant table fills: no server's
facts sit together in the heap. Seeded once (COPY in one transaction, the secondary indexes rebuilt after it when the
load at least doubles memory_fact, then VACUUM ANALYZE: about 16 minutes on two cores, progress on stderr), reused
afterwards: each run counts the facts of every planned server and loads only what is missing. Servers of 20,000
facts and more get their own word index, as the app's worker builds (bench._harness.build_server_indexes).

Figures, RUNS calls each after WARMUP, each call to a server drawn as traffic comes (TRAFFIC: most calls to the small
and medium servers, a share to the large ones; within a tier a server is drawn by its facts, a busier server
holding more), with messages members write (bench/context.py's, plus questions naming rare words and some naming
words no fact holds):

- context.ranked.many: POST /api/v1/servers/{guild}/context in process through django.test.Client, the call
  bench/context.py times for context.ranked.1m (a member in one public channel);
- search.words.many: memory.retrieval.fusion.search_words(server, query, reader=Reader.any_channel()).

Target p95 TARGET_P95_MS each. After each figure, `#` lines give p50/p95 per size band (<=1k, 1k-100k, 100k+ and
the 1m server alone, which 100k+ includes), the load and CPU per call (bench.context.CpuMeter), and on stderr the
slowest calls. BENCH_EXPLAIN=1 prints, on stderr, EXPLAIN ANALYZE of every SELECT of the EXPLAIN_SLOWEST slowest
calls of each figure, with the values written in: the plan PostgreSQL makes for those values. A statement a
connection runs a fifth time is prepared (config/settings/base.py) and may run a generic plan, made for any server;
to see the plans the calls ran, run with PGOPTIONS="-c session_preload_libraries=auto_explain
-c auto_explain.log_min_duration=100 -c auto_explain.log_analyze=on -c auto_explain.log_nested_statements=on" and
read var/bench/postgres/server.log.

`--smoke`: 20 servers of a few hundred facts in all, a guild range of its own, one timed call each.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from array import array
from dataclasses import dataclass
from datetime import UTC, datetime

from bench._harness import (
    build_server_indexes,
    call_plan,
    explain_reads,
    percentile,
    prewarm,
    run,
    setup_django,
    time_calls,
)

RUNS = 600
WARMUP = 20
TARGET_P95_MS = 15.0
SEED = 20261202
TEAM_NAME, USER_NAME = "Bench Many", "bench-many-owner"
GUILD_BASE = 930_000_000_000_000_000  # guild GUILD_BASE + 1 .. + 10,000
SMOKE_GUILD_BASE = 931_000_000_000_000_000
LOAD_CHUNK = 50_000  # rows per write to the COPY stream
EXPLAIN_SLOWEST = 3

# (tier, servers, fewest facts, most facts): log-uniform between the two, drawn from SEED.
TIERS = [
    ("small", 9_900, 10, 1_000),
    ("medium", 90, 1_000, 20_000),
    ("large", 7, 100_000, 100_000),
    ("large", 2, 300_000, 300_000),
    ("1m", 1, 1_000_000, 1_000_000),
]
SMOKE_TIERS = [("small", 16, 5, 30), ("medium", 2, 40, 60), ("large", 1, 100, 100), ("1m", 1, 200, 200)]
# Share of the calls per tier. Traffic follows activity, and activity the facts a server holds, but not in
# proportion: the 9,900 small servers hold 43% of the facts and send over half the calls.
TRAFFIC = {"small": 0.55, "medium": 0.15, "large": 0.20, "1m": 0.10}
# The bands the figures are broken down by: the tiers each takes (100k+ includes the million-fact server).
BANDS = {"<=1k": ("small",), "1k-100k": ("medium",), "100k+": ("large", "1m"), "1m": ("1m",)}

# Questions naming a word few facts hold (the tail of the seed's word lists), and some naming words none holds.
RARE_TEMPLATES = [
    "anyone here play {rare}?", "when is the {rare} {event}", "is there a {rare} channel",
    "who is good at {rare}", "{rare} night this {day}?", "does anyone do {rare} on weekends",
]
UNKNOWN_MESSAGES = [
    "what's the wifi password", "who keeps stealing the sandwiches", "recommend a horror podcast",
    "how do I reset my password", "is the parking lot open tonight", "lol", "good morning everyone",
    "anyone watching the eclipse", "what is the capital of australia", "thanks!",
]
SHARE_RARE, SHARE_UNKNOWN = 0.2, 0.1  # of the messages; the rest are bench/context.py's


@dataclass(frozen=True)
class Planned:
    guild_id: str
    name: str
    facts: int
    tier: str


def _plan(smoke: bool) -> list[Planned]:
    """Every server the bench wants, the same on every run: sizes from SEED, the tiers shuffled among the ids."""
    rng = random.Random(SEED)
    sized = []
    for tier, count, fewest, most in SMOKE_TIERS if smoke else TIERS:
        for _ in range(count):
            facts = fewest if fewest == most else round(math.exp(rng.uniform(math.log(fewest), math.log(most))))
            sized.append((tier, facts))
    rng.shuffle(sized)
    base, prefix = (SMOKE_GUILD_BASE, "Bench Many Smoke") if smoke else (GUILD_BASE, "Bench Many")
    return [Planned(str(base + index), f"{prefix} {index:05d}", facts, tier)
            for index, (tier, facts) in enumerate(sized, 1)]


def _log(message: str) -> None:
    print(f"seed many: {message}", file=sys.stderr, flush=True)


def _team_and_user():
    """The team of the many servers and its one member (not bench-owner: the other benches' pages list what
    bench-owner may view, and 10,000 servers would change them)."""
    from bench._seed import bench_team_and_user

    return bench_team_and_user(TEAM_NAME, USER_NAME)


def _ensure_servers(planned: list[Planned], team) -> dict[str, object]:
    """The planned servers by guild id, created when missing, every one Ranked: its AI settings row, written in bulk
    (memory_type_set's row without its audit line, 10,000 times)."""
    from django.db import transaction

    from memory.models import AISettings, MemoryType
    from teams.models import Server
    from teams.services import server_create

    by_guild = {server.guild_id: server for server in
                Server.objects.filter(guild_id__in=[plan.guild_id for plan in planned])}
    missing = [plan for plan in planned if plan.guild_id not in by_guild]
    if missing:
        started = time.perf_counter()
        with transaction.atomic():
            for plan in missing:
                by_guild[plan.guild_id] = server_create(team=team, guild_id=plan.guild_id, name=plan.name)
        _log(f"created {len(missing):,} servers in {time.perf_counter() - started:.0f} s")
    server_ids = [server.pk for server in by_guild.values()]
    with transaction.atomic():
        have = set(AISettings.objects.filter(server_id__in=server_ids).values_list("server_id", flat=True))
        AISettings.objects.bulk_create([AISettings(server_id=server_id, memory_type=MemoryType.RANKED)
                                        for server_id in server_ids if server_id not in have], batch_size=500)
        AISettings.objects.filter(server_id__in=server_ids).exclude(memory_type=MemoryType.RANKED).update(
            memory_type=MemoryType.RANKED)
    return by_guild


def _fact_counts(cursor, server_ids: list[int]) -> dict[int, tuple[int, int]]:
    """(facts, highest number) per server that holds any."""
    cursor.execute("SELECT server_id, count(*), max(number) FROM memory_fact WHERE server_id = ANY(%s) "
                   "GROUP BY server_id", [server_ids])
    return {server_id: (count, highest) for server_id, count, highest in cursor.fetchall()}


def _ensure_facts(planned: list[Planned], by_guild: dict[str, object], user) -> None:
    """Load the facts the planned servers miss, interleaved over the servers in random order, in one transaction
    (COPY; the secondary indexes dropped and rebuilt when the load at least doubles memory_fact, as bench/_seed.py
    does), then VACUUM ANALYZE."""
    from django.db import connection, transaction

    from bench._seed import (
        CHANNEL_LIMITED_REMAINDER,
        COLUMNS,
        MEMBER_POOL,
        NULLABLE,
        PRIVATE_CHANNELS,
        _Generator,
        _secondary_indexes,
    )

    with connection.cursor() as cursor:
        have = _fact_counts(cursor, [server.pk for server in by_guild.values()])
    loads = []  # (server id, first number, rows, planned)
    for index, plan in enumerate(planned):
        server = by_guild[plan.guild_id]
        count, highest = have.get(server.pk, (0, 0))
        if count < plan.facts:
            loads.append((server.pk, highest + 1, plan.facts - count, index))
    total_have = sum(count for count, _ in have.values())
    if not loads:
        _log(f"reusing {total_have:,} facts on {len(planned):,} servers")
        return
    missing = sum(rows for _, _, rows, _ in loads)
    _log(f"{len(planned):,} servers hold {total_have:,} facts; loading {missing:,} more on {len(loads):,} servers"
         + (" (takes a while: about 3 minutes per million rows on two cores, indexes included)"
            if missing >= 500_000 else ""))
    started = time.perf_counter()
    now = datetime.now(UTC)
    shared_cum, shared_fields = {}, {}  # what a generator caches depends on the word lists only: share it
    generators = []
    for server_id, _, rows, index in loads:
        plan = planned[index]
        generator = _Generator(now, seed=SEED + index, member_pool=min(MEMBER_POOL, max(100, plan.facts // 40)))
        generator.cum, generator.fields = shared_cum, shared_fields
        generators.append(generator)
    order = array("I")  # one entry per row to write: which load it belongs to
    for slot, (_, _, rows, _) in enumerate(loads):
        order.extend(array("I", [slot]) * rows)
    random.Random(SEED).shuffle(order)
    next_number = [first for _, first, _, _ in loads]
    server_ids = [str(server_id) for server_id, _, _, _ in loads]
    user_id = str(user.pk)
    audience, channel = COLUMNS.index("audience"), COLUMNS.index("source_channel_id")
    _log(f"planned the write order in {time.perf_counter() - started:.0f} s")

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '1GB'")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # as bench/_seed.py: no deferred checks before CREATE INDEX
        cursor.execute("SELECT count(*) FROM memory_fact")
        rebuild = missing >= cursor.fetchone()[0]
        indexes = _secondary_indexes(cursor) if rebuild else []
        for index_name, _ in indexes:
            cursor.execute(f'DROP INDEX "{index_name}"')
        _log(f"dropped {len(indexes)} secondary indexes for the load" if rebuild
             else "loading with the indexes in place")
        with cursor.connection.cursor() as raw_cursor, raw_cursor.copy(
                f"COPY memory_fact ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            buffer = io.StringIO()
            for written, slot in enumerate(order, 1):
                number = next_number[slot]
                next_number[slot] = number + 1
                fields = [server_ids[slot]]
                for column, value in zip(COLUMNS[1:], generators[slot].row(number), strict=True):
                    if column == "author_user_id":
                        value = user_id if value is None else ""
                    fields.append("\\N" if value == "" and column in NULLABLE else str(value))
                if number % 10 == CHANNEL_LIMITED_REMAINDER:  # bench._seed.ensure_channel_limited's rule
                    fields[audience] = "channel"
                    fields[channel] = PRIVATE_CHANNELS[(number // 10) % len(PRIVATE_CHANNELS)]
                buffer.write("\t".join(fields))
                buffer.write("\n")
                if written % LOAD_CHUNK == 0 or written == missing:
                    copy.write(buffer.getvalue())
                    buffer = io.StringIO()
                    if written % (10 * LOAD_CHUNK) == 0 or written == missing:
                        _log(f"copied {written:,}/{missing:,} rows ({time.perf_counter() - started:.0f} s)")
        for index_name, definition in indexes:
            index_started = time.perf_counter()
            cursor.execute(definition)
            _log(f"rebuilt index {index_name} ({time.perf_counter() - index_started:.0f} s)")
        cursor.execute(
            """INSERT INTO memory_factcounter (server_id, last_number) SELECT * FROM unnest(%s::int[], %s::int[])
               ON CONFLICT (server_id) DO UPDATE SET last_number = greatest(memory_factcounter.last_number,
                                                                            excluded.last_number)""",
            [[server_id for server_id, _, _, _ in loads], [number - 1 for number in next_number]])
    _log(f"committed in {time.perf_counter() - started:.0f} s; running VACUUM ANALYZE")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) memory_fact")
        for table in ("teams_server", "memory_aisettings", "memory_factcounter"):
            cursor.execute(f"ANALYZE {table}")
        cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('memory_fact')), "
                       "pg_size_pretty(pg_database_size(current_database()))")
        table_size, database_size = cursor.fetchone()
    _log(f"seeded in {time.perf_counter() - started:.0f} s; memory_fact {table_size}, database {database_size}")


def _texts(count: int) -> list[str]:
    """`count` messages from one seeded generator: bench/context.py's, some naming a rare word, some naming words no
    fact holds."""
    from bench._seed import DAYS, EVENTS, FOODS, GAMES, HOBBIES, PETS
    from bench.context import _messages

    rng = random.Random(SEED + 1)
    rare_words = GAMES[-15:] + HOBBIES[-5:] + PETS[-3:] + FOODS[-3:]
    common = iter(_messages(count))
    texts = []
    for _ in range(count):
        draw = rng.random()
        if draw < SHARE_RARE:
            texts.append(rng.choice(RARE_TEMPLATES).format(rare=rng.choice(rare_words), event=rng.choice(EVENTS[:8]),
                                                           day=rng.choice(DAYS[:4])))
        elif draw < SHARE_RARE + SHARE_UNKNOWN:
            texts.append(rng.choice(UNKNOWN_MESSAGES))
        else:
            texts.append(next(common))
    return texts


@dataclass(frozen=True)
class Call:
    server: object
    facts: int
    tier: str
    text: str


def _traffic(planned: list[Planned], by_guild: dict[str, object], count: int, seed: int) -> list[Call]:
    """`count` calls: a tier by TRAFFIC, a server of it by its facts, a message."""
    rng = random.Random(seed)
    by_tier: dict[str, list[Planned]] = {}
    for plan in planned:
        by_tier.setdefault(plan.tier, []).append(plan)
    tiers = list(TRAFFIC)
    cumulative = {tier: list(itertools.accumulate(plan.facts for plan in by_tier[tier])) for tier in tiers}
    calls = []
    for text in _texts(count):
        tier = rng.choices(tiers, weights=[TRAFFIC[tier] for tier in tiers])[0]
        plan = rng.choices(by_tier[tier], cum_weights=cumulative[tier])[0]
        calls.append(Call(by_guild[plan.guild_id], plan.facts, tier, text))
    rng.shuffle(calls)  # the messages in another order than the draws, so no tier gets the same texts in turn
    return calls


def _report(name: str, samples: list[float], calls: list[Call], cpu: str) -> None:
    """The figure, its bands, and the slowest calls; `calls` are the timed ones, in the order of `samples`."""
    from bench.context import _load, _report as report_with_cpu

    report_with_cpu(name, samples, cpu, TARGET_P95_MS)
    for band, tiers in BANDS.items():
        timed = [ms for ms, call in zip(samples, calls, strict=True) if call.tier in tiers]
        if timed:
            print(f"# {name} band {band}: p50_ms={statistics.median(timed):.2f} "
                  f"p95_ms={percentile(timed, 0.95):.2f} n={len(timed)}", flush=True)
    slowest = sorted(zip(samples, calls, strict=True), key=lambda pair: -pair[0])[:8]
    print(f"# slowest {name}: " + "; ".join(f"{ms:.1f} ms on {call.facts:,} facts {call.text!r}"
                                            for ms, call in slowest) + f" ({_load()})", file=sys.stderr, flush=True)


def main(*, smoke: bool) -> None:
    setup_django()
    from django.db import connection
    from django.test import Client

    from bench._seed import PUBLIC_CHANNEL
    from bench.context import CpuMeter
    from memory.indexing.server_indexes import SERVER_INDEX_MIN_ROWS, WORDS, server_index_state
    from memory.models import Exchange, Member
    from memory.retrieval.audience import Reader
    from memory.retrieval.fusion import search_words
    from teams.services import bot_token_issue, bot_token_revoke

    started_at = time.perf_counter()
    planned = _plan(smoke)
    team, user = _team_and_user()
    by_guild = _ensure_servers(planned, team)
    _ensure_facts(planned, by_guild, user)
    print(f"# {len(planned):,} servers, {sum(plan.facts for plan in planned):,} facts planned, ready in "
          f"{time.perf_counter() - started_at:.0f} s", file=sys.stderr, flush=True)
    # Only the servers large enough for a word index of their own and without one yet (their facts have no vectors:
    # build_server_indexes would count them again on every run for the vector index, and say so for each).
    build_server_indexes([(f"server {plan.guild_id} ({plan.facts:,} facts)", by_guild[plan.guild_id])
                          for plan in planned if plan.facts >= SERVER_INDEX_MIN_ROWS
                          and server_index_state(WORDS, by_guild[plan.guild_id].pk) != "valid"])
    prewarm()
    for tier in TRAFFIC:
        held = [plan.facts for plan in planned if plan.tier == tier]
        print(f"# tier {tier}: {len(held):,} servers, {sum(held):,} facts, {TRAFFIC[tier]:.0%} of the calls",
              flush=True)
    print("# traffic: a tier by its share of the calls, then a server of it drawn by its facts (busier servers "
          f"hold more); messages: {1 - SHARE_RARE - SHARE_UNKNOWN:.0%} bench/context.py's, {SHARE_RARE:.0%} naming a "
          f"rare word, {SHARE_UNKNOWN:.0%} words no fact holds; reader: a member in one public channel", flush=True)

    runs, warmup = call_plan(RUNS, WARMUP)
    token, plaintext = bot_token_issue(team=team, name=f"bench many {time.strftime('%Y-%m-%d %H:%M:%S')}",
                                       created_by=user)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {plaintext}")
    run_started = datetime.now(UTC)
    explain = bool(os.environ.get("BENCH_EXPLAIN"))
    meter = CpuMeter()
    rng = random.Random(SEED + 2)
    authors = [(str(rng.randrange(10**17, 10**18)), name) for name in ("Sam", "Alex", "Nova", "Pixel", "Kai")]

    def post_context(call: Call):
        author_id, author_name = rng.choice(authors)
        body = {"channel_id": PUBLIC_CHANNEL, "thread_parent_id": None, "author_id": author_id,
                "author_name": author_name, "content": call.text}
        response = client.post(f"/api/v1/servers/{call.server.guild_id}/context", data=json.dumps(body),
                               content_type="application/json")
        if response.status_code != 200 or response.json()["memory_type"] != "ranked":
            raise RuntimeError(f"context answered {response.status_code}: {response.content[:300]!r}")

    def search(call: Call):
        return search_words(call.server, call.text, reader=Reader.any_channel())

    try:
        for name, seed, once in (("context.ranked.many", SEED + 3, post_context),
                                 ("search.words.many", SEED + 4, search)):
            calls = _traffic(planned, by_guild, runs + warmup, seed)
            pending = iter(calls)
            meter.start()
            samples = time_calls(lambda: once(next(pending)), RUNS, warmup=WARMUP)
            cpu = meter.stop(runs + warmup)
            timed = calls[warmup:]
            _report(f"{name}.smoke" if smoke else name, samples, timed, cpu)
            if explain:
                for ms, call in sorted(zip(samples, timed, strict=True), key=lambda pair: -pair[0])[:EXPLAIN_SLOWEST]:
                    explain_reads(f"{name} {ms:.1f} ms on {call.facts:,} facts {call.text!r}",
                             lambda call=call: once(call))
    finally:
        bot_token_revoke(token=token, revoked_by=user)
        # The exchanges and member names this run's context calls left are bench noise: var/bench must not grow.
        deleted, _ = Exchange.objects.filter(server__team=team, created_at__gte=run_started).delete()
        Member.objects.filter(server__team=team, seen_at__gte=run_started).delete()
        connection.close()
        print(f"# done in {time.perf_counter() - started_at:.0f} s; removed {deleted} bench exchanges",
              file=sys.stderr)


if __name__ == "__main__":
    run(main)
