"""Reads of facts and the summary, for the panel, the bot and consolidation."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from consolidation.models import DraftStatus, SummaryDraft
from memory.models import Channel, Exchange, Fact, Summary
from teams.models import Server


def facts_in_force(server: Server) -> QuerySet[Fact]:
    return Fact.objects.filter(server=server, retracted_at__isnull=True)


def servers_with_retracted_facts(server_ids: tuple[int, ...]) -> bool:
    return Fact.objects.filter(server_id__in=server_ids, retracted_at__isnull=False).exists()


@dataclass(frozen=True)
class PurgeSource:
    """Where the facts a purge removes were learned: one channel (its threads included) or one exchange."""

    channel_id: str = ""
    exchange_id: uuid.UUID | None = None
    channel_name: str = ""

    def describe(self) -> str:
        if self.exchange_id is not None:
            return f"exchange {self.exchange_id}"
        return f"#{self.channel_name}" if self.channel_name else f"channel {self.channel_id}"


def facts_learned_in(server: Server, source: PurgeSource) -> QuerySet[Fact]:
    """Every fact of the server learned in that channel or its threads, or in that exchange, in force or not. A
    private thread's facts have the thread as their source channel (learned_where): the channel's threads, as the
    directory knows them, count too."""
    facts = Fact.objects.filter(server=server)
    if source.exchange_id is not None:
        return facts.filter(source_exchange_id=source.exchange_id)
    threads = Channel.objects.filter(server=server, parent_id=source.channel_id).values("channel_id")
    return facts.filter(Q(source_channel_id=source.channel_id) | Q(source_thread_id=source.channel_id)
                        | Q(source_channel_id__in=threads))


def member_facts(server: Server, member_id: str) -> tuple[list[Fact], list[Fact]]:
    """What the bot knows about one member, in force and whoever may see it: facts about them, and facts
    learned from their messages (about the server or about others), newest first."""
    in_force = facts_in_force(server).order_by("-changed_at", "-id")
    about = list(in_force.filter(member_id=member_id))
    learned_from = list(in_force.filter(learned_from_member_id=member_id).exclude(member_id=member_id))
    return about, learned_from


def facts_concerning_member(server: Server, member_id: str) -> QuerySet[Fact]:
    """Facts about the member or learned from their messages: the facts a member wipe deletes."""
    return Fact.objects.filter(server=server).filter(Q(member_id=member_id) | Q(learned_from_member_id=member_id))


@dataclass(frozen=True)
class WipeCounts:
    """What a wipe would delete, counted before anyone confirms it."""

    facts: int
    exchanges: int

    @property
    def nothing_stored(self) -> bool:
        return not (self.facts or self.exchanges)


def server_wipe_counts(server: Server) -> WipeCounts:
    """Every fact of the server (retracted ones too) and every exchange: what server_wipe deletes besides the
    summary's wordings."""
    return WipeCounts(facts=Fact.objects.filter(server=server).count(),
                      exchanges=Exchange.objects.filter(server=server).count())


def member_wipe_counts(server: Server, member_id: str) -> WipeCounts:
    """The facts about the member or learned from them and the member's own exchanges: what member_wipe deletes."""
    return WipeCounts(facts=facts_concerning_member(server, member_id).count(),
                      exchanges=Exchange.objects.filter(server=server, author_id=member_id).count())


def fact_by_number(server: Server, number: int) -> Fact:
    return Fact.objects.select_related("server", "author_user", "superseded_by").get(server=server, number=number)


def summary_current(server: Server) -> Summary | None:
    return Summary.objects.filter(server=server, retracted_at__isnull=True).first()


def summary_earlier_count(server: Server) -> int:
    """How many wordings the summary had before the current one (kept, retracted)."""
    return Summary.objects.filter(server=server, retracted_at__isnull=False).count()


def summary_versions(server: Server, *, before_id: int | None = None, limit: int) -> list[Summary]:
    """Every wording the summary has had, newest first, with its author and `accepted_draft`: the consolidation
    draft it was taken from (with its round and who said yes), or None. Ordered by id: summary_set writes one
    server's summaries one at a time, so ids follow the order in which they were written."""
    versions = Summary.objects.filter(server=server).select_related("author_user").order_by("-id")
    if before_id is not None:
        versions = versions.filter(id__lt=before_id)
    rows = list(versions[:limit])
    _attach_accepted_drafts(server, rows)
    return rows


def _attach_accepted_drafts(server: Server, versions: list[Summary]) -> None:
    """Set each version's `accepted_draft`: the used consolidation draft that names it as the wording it became
    (consolidation.services.summary_draft_answer stores the link)."""
    for version in versions:
        version.accepted_draft = None
    if not versions:
        return
    by_id = {version.pk: version for version in versions}
    drafts = (SummaryDraft.objects.filter(server=server, status=DraftStatus.USED, summary_id__in=list(by_id))
              .select_related("round", "answered_by"))
    for draft in drafts:
        by_id[draft.summary_id].accepted_draft = draft


def summary_text(server: Server) -> str:
    """The current summary's wording ('' when none); read from the server when bot_token_and_server loaded it."""
    if hasattr(server, "current_summary"):
        return server.current_summary or ""
    current = summary_current(server)
    return current.content if current else ""


def servers_with_memory_overview(servers: QuerySet[Server], *, matching: str = "") -> QuerySet[Server]:
    """The servers the home page lists, by name, with their team and memory type; `matching` keeps those whose
    name or team name holds it, or whose guild id starts with it. Their facts are counted apart
    (memory.facts.listing.facts_in_force_counts): a count joined here reads every fact of a million-fact server."""
    if matching:
        servers = servers.filter(Q(name__icontains=matching) | Q(team__name__icontains=matching)
                                 | Q(guild_id__startswith=matching))
    return servers.select_related("team", "ai_settings").order_by(Lower("name"), "name", "pk")
