"""Dry runs of the memory-type scale: what switching would move, in numbers from the server's data."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db.models import Sum
from django.db.models.functions import Length

from teams.models import Server

from .memory_types import PROFILES, TypeProfile, profile_for
from .models import Fact, MemoryType
from .selectors import search_query_for


@dataclass(frozen=True)
class TypeCard:
    profile: TypeProfile
    is_current: bool
    dry_run: list[str]  # sentences with this server's numbers
    offer_restore_all: bool = False


def _archive_numbers(server: Server, facts: int) -> list[str]:
    in_force = Fact.objects.filter(server=server, retracted_at__isnull=True)
    characters = in_force.aggregate(characters=Sum(Length("content") + Length("key")))["characters"] or 0
    sample = in_force.order_by("-changed_at").values_list("key", flat=True).first() or "memory"
    query = search_query_for(sample.replace("_", " ").split()[0])
    started = time.perf_counter()
    found = len(list(in_force.filter(search_vector=query).values_list("pk", flat=True)[:20])) if query else 0
    took_ms = (time.perf_counter() - started) * 1000
    return [
        f"{facts:,} facts in force would be searchable, {characters:,} characters of text.",
        f"The index already exists: a real search for “{sample.split('_')[0]}” just took {took_ms:.1f} ms "
        f"({found} of the first 20 results).",
    ]


def type_cards(server: Server, current: str) -> list[TypeCard]:
    """The six cards, each with what choosing it would move on this server right now."""
    retracted = Fact.objects.filter(server=server, retracted_at__isnull=False).count()
    in_force = Fact.objects.filter(server=server, retracted_at__isnull=True).count()
    current_profile = profile_for(current)
    cards = []
    for profile in PROFILES:
        lines: list[str] = []
        offer_restore_all = False
        if profile.value == current:
            lines.append("This server uses it now.")
        elif not profile.ready:
            lines.append("Not ready yet: it cannot be chosen until its machinery is built.")
        elif profile.value == MemoryType.CLASSIC:
            lines.append(f"Moves nothing: {in_force:,} facts stay in force.")
            if retracted:
                lines.append(f"{retracted:,} retracted facts stay hidden from the bot (and stay on this page); "
                             "from now on a retraction by the bot deletes the fact.")
                offer_restore_all = True
        elif profile.value == MemoryType.LEDGER:
            lines.append(f"Moves nothing: {in_force:,} facts keep counting as in force, with their creation dates.")
            if current_profile.can_search:
                lines.append("The bot loses its one search per reply.")
        elif profile.value == MemoryType.ARCHIVE:
            lines.extend(_archive_numbers(server, in_force))
        cards.append(TypeCard(profile=profile, is_current=profile.value == current, dry_run=lines,
                              offer_restore_all=offer_restore_all))
    return cards
