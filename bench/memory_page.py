"""Time the memory page on a server with a million facts: the list, searches, and page 5.

The first run seeds the bench server (bench/_seed.py, several minutes, progress on stderr); the
data stays under var/bench/ and later runs reuse it. Requests go through Django's test client in
process, logged in as the server's configure user, with the headers HTMX sends when it swaps the
list, so the fragment the browser waits for is what is timed.

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

from bench._harness import explain_reads, report_latency, run, setup_django, time_calls

RUNS = 50
WARMUP = 5
FULL_RUNS = 20
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


def main(*, smoke: bool) -> None:
    setup_django()
    from django.test import Client

    from bench._seed import (
        BENCH_GUILD_ID,
        SMOKE_FACTS,
        SMOKE_GUILD_ID,
        SMOKE_SERVER_NAME,
        ensure_bench_facts,
        ensure_server_facts,
    )

    guild_id = SMOKE_GUILD_ID if smoke else BENCH_GUILD_ID
    _, user = ensure_server_facts(SMOKE_GUILD_ID, SMOKE_SERVER_NAME, SMOKE_FACTS) if smoke else ensure_bench_facts()
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
    if os.environ.get("BENCH_EXPLAIN"):
        for url in [list_url, page5_url, *search_urls]:
            explain_reads(url, lambda url=url: client.get(url, **HTMX_HEADERS))

    # Searches last: a slow search scans much of the table and would evict what the others read.
    report_latency(
        "memory_page.list", time_calls(lambda: client.get(list_url, **HTMX_HEADERS), RUNS, warmup=WARMUP)
    )
    report_latency(
        "memory_page.page5", time_calls(lambda: client.get(page5_url, **HTMX_HEADERS), RUNS, warmup=WARMUP)
    )
    report_latency("memory_page.full", time_calls(lambda: client.get(list_url), FULL_RUNS, warmup=2))
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
