"""Pinned facts in the context (API.md §1, "How the facts are chosen"): first in every type, outside Maximum
injected memory items, the oldest change first up to the pinned caps, only where the reader may see them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.facts.services import fact_pin_set, fact_retract
from memory.models import Audience, Exchange, MemoryType
from memory.retrieval.context import pinned_that_fit
from tests.factories import make_fact, make_facts_in_bulk

from .helpers import configure

NEWEST_TYPES = [MemoryType.CLASSIC, MemoryType.LEDGER, MemoryType.ARCHIVE]


def pinned_fact(server, owner, key: str, content: str, days: int, **fields):
    fact = make_fact(server, key=key, content=content, kind="rule", created_at=timezone.now() - timedelta(days=days),
                     **fields)
    return fact_pin_set(fact=fact, pinned=True, actor=owner)


def block_lines(prompt: str) -> list[str]:
    return [line for line in prompt.splitlines() if line.startswith("[#")]


@pytest.mark.parametrize("memory_type", [*NEWEST_TYPES, MemoryType.RANKED, MemoryType.CONSOLIDATED])
def test_pinned_facts_come_first_oldest_change_first_outside_the_slots(api, server, owner, memory_type):
    configure(server, memory_type=memory_type, max_injected_items=2)
    spoilers = pinned_fact(server, owner, "rule_spoilers", "Spoilers go in spoiler tags.", 600)
    english = pinned_fact(server, owner, "rule_english", "#general is English only.", 500)
    make_facts_in_bulk(server, 30)
    body = api.context(server, content="hello there")
    assert body["pinned"] == [spoilers.number, english.number]
    assert [fact["number"] for fact in body["facts"]][:2] == [spoilers.number, english.number]
    assert len(body["facts"]) == 4  # two pinned and the two slots
    lines = body["prompt"].splitlines()
    assert lines.index("Pinned by staff; these always hold:") < lines.index(block_lines(body["prompt"])[0])
    assert Exchange.objects.get(pk=body["exchange"]).pinned_numbers == [spoilers.number, english.number]


def test_the_pinned_item_cap_keeps_the_oldest(api, server, owner):
    configure(server, pinned_max_items=2)
    pins = [pinned_fact(server, owner, f"rule_{days}", f"Rule of {days} days.", days) for days in (300, 200, 100)]
    body = api.context(server)
    assert body["pinned"] == [pins[0].number, pins[1].number]


def test_the_pinned_character_cap_stops_at_the_first_pinned_fact_that_no_longer_fits(api, server, owner):
    configure(server, pinned_max_chars=100)
    first = pinned_fact(server, owner, "rule_first", "F" * 60, 300)
    too_long = pinned_fact(server, owner, "rule_long", "L" * 60, 200)
    short = pinned_fact(server, owner, "rule_short", "S" * 10, 100)  # would fit, but comes after
    body = api.context(server)
    assert body["pinned"] == [first.number]
    # Past the caps a pinned fact counts as any other: Classic's newest changes bring both in.
    assert [fact["number"] for fact in body["facts"]] == [first.number, too_long.number, short.number]
    assert pinned_that_fit([first, too_long, short], 20, 100) == 1


@pytest.mark.parametrize("audience", [Audience.CHANNEL, Audience.STAFF])
def test_a_pinned_fact_the_channel_may_not_see_stays_out(api, server, owner, audience):
    elsewhere = pinned_fact(server, owner, "rule_mods", "Mods meet on Fridays.", 30, audience=audience,
                            source_channel_id="999" if audience == Audience.CHANNEL else "")
    everywhere = pinned_fact(server, owner, "rule_kind", "Be kind.", 20)
    body = api.context(server, channel_id="111")
    assert body["pinned"] == [everywhere.number]
    assert elsewhere.number not in [fact["number"] for fact in body["facts"]]
    assert api.context(server, channel_id="999")["pinned"] == (
        [elsewhere.number, everywhere.number] if audience == Audience.CHANNEL else [everywhere.number])


def test_a_retracted_pinned_fact_is_in_no_context(api, server, owner):
    configure(server, memory_type=MemoryType.LEDGER)
    rule = pinned_fact(server, owner, "rule_old", "An old rule.", 30)
    fact_retract(fact=rule, reason="the rule changed")
    assert api.context(server)["pinned"] == [] and api.context(server)["facts"] == []


def test_the_bot_cannot_retract_a_pinned_fact_it_was_shown(api, server, owner):
    configure(server, memory_type=MemoryType.LEDGER)
    rule = pinned_fact(server, owner, "rule_kind", "Be kind.", 30)
    exchange = api.context(server)["exchange"]
    [result] = api.actions(exchange, retract=[{"number": rule.number, "reason": "no"}])
    assert result["status"] == "ignored" and "pinned by staff" in result["detail"]


def test_the_character_budget_counts_pinned_lines_first(api, server, owner):
    configure(server, max_memory_chars=500, pinned_max_chars=2000)
    rule = pinned_fact(server, owner, "rule_long", "R" * 400, 100)
    newer = make_fact(server, key="newer", content="N" * 200)
    body = api.context(server)
    assert body["pinned"] == [rule.number] and body["budget_cut"] == [newer.number]
