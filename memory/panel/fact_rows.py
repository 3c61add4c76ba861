"""What a fact's row shows beyond its own columns: its address, the open contradiction flags on it, and whether staff
may retract it from the row (the memory type keeps a retracted fact: Ledger and up). Reads only, one query each per
page."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from memory.facts.selectors import contradiction_flags
from memory.models import AISettings, Fact
from memory.types import DEFAULT_MEMORY_TYPE, profile_for


def attach_urls(facts: list[Fact]) -> None:
    """Give each row its base URL once per server, instead of a reverse() per row (Fact.url_base) or several
    {% url %} lookups per row in the template."""
    prefixes: dict[int, str] = {}
    for fact in facts:
        if fact.server_id not in prefixes:
            prefixes[fact.server_id] = reverse("memory:fact", args=[fact.server.guild_id, 0]).removesuffix("0/")
        fact.url_base = f"{prefixes[fact.server_id]}{fact.number}/"


def attach_flags(facts: Iterable[Fact]) -> None:
    """Give each fact `flags`: the open contradiction proposals it is in (ContradictionFlag, the other side's
    number); one query for the rows of the page, never for the whole memory."""
    facts = list(facts)
    flags = contradiction_flags(facts)
    for fact in facts:
        fact.flags = flags.get(fact.pk, [])


def servers_retracting_in_place(server_ids: Iterable[int]) -> set[int]:
    """Those of these servers whose memory type closes a retracted fact's window instead of deleting it: there,
    staff retract a fact from its row with a reason (under Classic, Delete is the way)."""
    server_ids = set(server_ids)
    if not server_ids:
        return set()
    types = dict(AISettings.objects.filter(server_id__in=server_ids).values_list("server_id", "memory_type"))
    return {server_id for server_id in server_ids
            if not profile_for(types.get(server_id, DEFAULT_MEMORY_TYPE)).retract_deletes}
