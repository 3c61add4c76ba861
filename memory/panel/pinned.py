"""The pinned facts of a server as the memory page shows them: in the order every context takes them, with where the
pinned caps (AISettings.pinned_max_items and pinned_max_chars) leave one out. Reads only.

A pinned fact goes into every reply whose channel may see it, before the other facts, until the caps are reached:
a fact for one channel counts only there, so a server fact can fit in every channel but the one whose own pinned
facts came first. The page therefore walks the caps once for a channel that sees the server's facts alone and once
for each channel that has pinned facts of its own, and names the places where a fact is cut."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext

from memory.configuration.selectors import ai_settings_for_server
from memory.models import Audience, Fact
from memory.retrieval.audience import Reader, visible_to
from memory.retrieval.context import PINNED_ORDER, pinned_that_fit
from teams.models import Server

from .audiences import attach_audiences



@dataclass
class PinnedRow:
    """One pinned fact in force, the characters it counts against the caps, and the places where the caps cut it."""

    fact: Fact
    characters: int
    cut_in: list[str] = field(default_factory=list)  # "every channel", "#general", …

    @property
    def staff_only(self) -> bool:
        return self.fact.audience == Audience.STAFF

    @property
    def fits_everywhere(self) -> bool:
        return not self.cut_in and not self.staff_only


@dataclass(frozen=True)
class PinnedFacts:
    rows: list[PinnedRow]
    max_items: int
    max_chars: int

    @property
    def cut(self) -> list[PinnedRow]:
        return [row for row in self.rows if row.cut_in]



def pinned_in_force(server: Server) -> list[Fact]:
    """The server's pinned facts in force, in the order every context takes them."""
    return list(Fact.objects.filter(server=server, pinned=True, retracted_at__isnull=True)
                .select_related("server", "author_user", "superseded_by").order_by(*PINNED_ORDER))


def pinned_facts(server: Server) -> PinnedFacts:
    """Every pinned fact in force with where the caps cut it (staff-only facts are never handed to the bot and
    count nowhere)."""
    ai_settings = ai_settings_for_server(server)
    facts = pinned_in_force(server)
    attach_audiences(facts)
    rows = {fact.pk: PinnedRow(fact=fact, characters=len(fact.content)) for fact in facts}
    places = [(gettext("every channel"), Reader.any_channel())]
    places += [(fact.source_label, Reader(fact.source_channel_id)) for fact in facts
               if fact.audience == Audience.CHANNEL]
    seen: set[str] = set()
    for label, reader in places:
        if label in seen:
            continue
        seen.add(label)
        visible = [fact for fact in facts if visible_to(fact, reader)]
        kept = pinned_that_fit(visible, ai_settings.pinned_max_items, ai_settings.pinned_max_chars)
        for fact in visible[kept:]:
            rows[fact.pk].cut_in.append(label)
    return PinnedFacts(rows=list(rows.values()), max_items=ai_settings.pinned_max_items,
                       max_chars=ai_settings.pinned_max_chars)
