"""Time the memory page on a server with a million facts: the list, searches, page 5, the strip *Memory at a
glance*, and the page of a member with 10,000 facts.

The first run seeds the bench server (bench/_seed.py, several minutes, progress on stderr); the
data stays under var/bench/ and later runs reuse it. Requests go through Django's test client in
process, logged in as the server's configure user, with the headers HTMX sends when it swaps the
list, so the fragment the browser waits for is what is timed.

- memory_page.full: the whole page (no HTMX headers), which loads the strip after itself (`memory:glance`);
  memory_page.glance: that fragment alone (on a server this large its weeks come from the cache:
  memory.facts.glance.WEEKS_CACHED_FOR), memory_page.glance_counting_weeks: the visit that counts them;
  memory_page.full_and_glance: the page and the strip, one after the other, what a browser waits for.
- member_page.10k: /servers/{guild}/members/{id}/ for bench._seed.BUSY_MEMBER_ID, 6,000 facts about them and 4,000
  learned from their messages (bench._seed.ensure_busy_member, loaded once), as the configure user (who also sees
  the wipe's counts).

Set BENCH_EXPLAIN=1 to print, on stderr, EXPLAIN ANALYZE of every query of one request of each kind.
`--smoke`: the same on bench._seed's 400-fact smoke server (five pages of 50), one timed call each.
"""

from __future__ import annotations

import html
import itertools
import os
import re
import sys
import time
from urllib.parse import urlencode

from bench._harness import explain_reads, percentile, report_latency, run, setup_django, time_calls

RUNS = 50
WARMUP = 5
FULL_RUNS = 20
# Issue 25's envelope at a million facts: the page with its strip, and a member with 10,000 facts.
TARGET_P95_MS = {"memory_page.full_and_glance": 60.0, "member_page.10k": 60.0}
HTMX_HEADERS = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "fact-list"}
# What members and staff type into the search box: common words, rare words, two words, prefixes.
SEARCH_QUERIES = [
    "tournament", "minecraft", "birthday", "rules", "saturday", "moderator", "pronouns", "giveaway",
    "lorcana", "pinochle", "axolotl", "hackathon", "quokka", "welsh",
    "game night", "valorant tournament", "birthday june", "spoiler channel", "elden ring", "timezone cet",
    "tourn", "birth", "mod", "valo", "pron", "stream",
]
NEXT_LINK = re.compile(r'<a href="([^"]*)" rel="next">')


def _next_url(response) -> str:
    match = NEXT_LINK.search(response.content.decode())
    assert match, "the page has no Next link"
    return "/memory/" + html.unescape(match.group(1))


def _report_against_target(name: str, samples: list[float], *, smoke: bool) -> None:
    report_latency(name, samples)
    if name in TARGET_P95_MS and not smoke:  # a smoke's one call on 400 facts says nothing about the envelope
        met = percentile(samples, 0.95) <= TARGET_P95_MS[name]
        print(f"# {name} target_p95_ms={TARGET_P95_MS[name]:g} {'met' if met else 'MISSED'}", flush=True)


def main(*, smoke: bool) -> None:
    setup_django()
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from bench._seed import (
        BENCH_GUILD_ID,
        SMOKE_FACTS,
        SMOKE_GUILD_ID,
        SMOKE_SERVER_NAME,
        BUSY_MEMBER_ID,
        ensure_bench_facts,
        ensure_busy_member,
        ensure_server_facts,
    )

    guild_id = SMOKE_GUILD_ID if smoke else BENCH_GUILD_ID
    server, user = (ensure_server_facts(SMOKE_GUILD_ID, SMOKE_SERVER_NAME, SMOKE_FACTS) if smoke
                    else ensure_bench_facts())
    # The smoke server's member gets a few facts of each list and a few exchanges: enough to render every part.
    ensure_busy_member(server, **({"about": 30, "learned": 20, "exchanges": 3} if smoke else {}))
    client = Client()
    client.force_login(user)

    list_url = "/memory/?" + urlencode({"server": guild_id})
    first = client.get(list_url, **HTMX_HEADERS)
    assert first.status_code == 200 and b'id="fact-list"' in first.content, first.status_code
    assert b"<html" not in first.content.lower(), "the HTMX request got the whole page"

    page5_url = list_url
    for _ in range(4):
        page5_url = _next_url(client.get(page5_url, **HTMX_HEADERS))
    assert client.get(page5_url, **HTMX_HEADERS).status_code == 200

    search_urls = [
        "/memory/?" + urlencode({"server": guild_id, "q": query}) for query in SEARCH_QUERIES
    ]
    full = client.get(list_url)
    glance_url = reverse("memory:glance", args=[guild_id])
    assert full.status_code == 200 and f'hx-get="{glance_url}"'.encode() in full.content, "no glance strip"
    glance = client.get(glance_url, HTTP_HX_REQUEST="true")
    assert glance.status_code == 200 and b"Memory at a glance" in glance.content, glance.status_code
    member_url = reverse("memory:member", args=[guild_id, BUSY_MEMBER_ID])
    member = client.get(member_url)
    assert member.status_code == 200 and b"Facts about them" in member.content, member.status_code

    if os.environ.get("BENCH_EXPLAIN"):
        for url in [list_url, page5_url, glance_url, member_url, *search_urls]:
            explain_reads(url, lambda url=url: client.get(url, **HTMX_HEADERS))

    # Searches last: a slow search scans much of the table and would evict what the others read.
    report_latency(
        "memory_page.list", time_calls(lambda: client.get(list_url, **HTMX_HEADERS), RUNS, warmup=WARMUP)
    )
    report_latency(
        "memory_page.page5", time_calls(lambda: client.get(page5_url, **HTMX_HEADERS), RUNS, warmup=WARMUP)
    )
    report_latency("memory_page.full", time_calls(lambda: client.get(list_url), FULL_RUNS, warmup=2))
    report_latency("memory_page.glance", time_calls(
        lambda: client.get(glance_url, HTTP_HX_REQUEST="true"), RUNS, warmup=WARMUP))
    def glance_counting_weeks() -> None:
        cache.delete(f"glance-weeks:{server.pk}")  # what the first visit in WEEKS_CACHED_FOR pays
        client.get(glance_url, HTTP_HX_REQUEST="true")

    report_latency("memory_page.glance_counting_weeks", time_calls(glance_counting_weeks, FULL_RUNS, warmup=2))
    _report_against_target("memory_page.full_and_glance", time_calls(
        lambda: (client.get(list_url), client.get(glance_url, HTTP_HX_REQUEST="true")), FULL_RUNS, warmup=2),
        smoke=smoke)
    _report_against_target(f"member_page.{'smoke' if smoke else '10k'}",
                           time_calls(lambda: client.get(member_url), RUNS, warmup=WARMUP), smoke=smoke)
    for url in search_urls:
        assert client.get(url, **HTMX_HEADERS).status_code == 200
    queries = itertools.cycle(SEARCH_QUERIES)
    slowest: dict[str, float] = {}

    def search_once() -> None:
        query = next(queries)
        started = time.perf_counter()
        client.get("/memory/?" + urlencode({"server": guild_id, "q": query}), **HTMX_HEADERS)
        slowest[query] = max(slowest.get(query, 0.0), (time.perf_counter() - started) * 1000)

    report_latency("memory_page.search", time_calls(search_once, RUNS, warmup=WARMUP))
    worst = sorted(slowest.items(), key=lambda item: -item[1])[:5]
    print("# slowest searches: " + ", ".join(f"{query!r} {ms:.0f} ms" for query, ms in worst), file=sys.stderr)


if __name__ == "__main__":
    run(main)
