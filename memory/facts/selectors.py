"""Reads of facts and the summary, for the panel, the bot and consolidation."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import Q, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone

from consolidation.models import DraftStatus, Proposal, ProposalKind, ProposalStatus, SummaryDraft
from memory.models import AuthorKind, Channel, Exchange, Fact, FactVersion, Summary, VersionChange
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


def server_has_memory(server: Server) -> bool:
    """Whether the server holds any fact or summary wording: an import fills only a server that holds none."""
    return Fact.objects.filter(server=server).exists() or Summary.objects.filter(server=server).exists()


def member_wipe_counts(server: Server, member_id: str, *, memory: MemberMemory | None = None) -> WipeCounts:
    """The facts about the member or learned from them and the member's own exchanges: what member_wipe deletes.
    With the member's page's `memory` (member_memory) its two counts are the facts, counted once, not again."""
    facts = (memory.about_count + memory.learned_from_count if memory is not None
             else facts_concerning_member(server, member_id).count())
    return WipeCounts(facts=facts, exchanges=Exchange.objects.filter(server=server, author_id=member_id).count())


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


# The changes that close a fact's validity window, as its history keeps them.
RETRACTING_CHANGES = (VersionChange.RETRACT, VersionChange.SUPERSEDE, VersionChange.MERGE)
# The merge version of the fact a merge keeps in force closes nothing: consolidation.services words it "#N merged
# into it" (the facts it retires say what they were merged into).
KEPT_BY_A_MERGE = Q(change=VersionChange.MERGE, reason__endswith="merged into it")


def fact_versions(fact: Fact, *, before_id: int | None = None, limit: int) -> tuple[list[FactVersion], bool]:
    """A page of the fact's history, newest first (along fact_version_timeline), with who made each change and
    the exchange it came from; and whether older versions remain. `before_id`: the last version of the page
    before (its time and id are the cursor)."""
    versions = (FactVersion.objects.filter(fact=fact).select_related("actor_user", "exchange")
                .only("id", "fact_id", "version", "change", "at", "actor_kind", "actor_user__username",
                      "actor_label", "exchange__id", "exchange__server_id", "exchange__author_id",
                      "exchange__author_name", "member_id", "round_id", "related_number", "before", "after",
                      "reason", "undoes_id")
                .order_by("-at", "-id"))
    if before_id is not None:
        cursor = FactVersion.objects.filter(fact=fact, pk=before_id).values("at", "id").first()
        if cursor is None:
            return [], False
        versions = versions.filter(Q(at__lt=cursor["at"]) | Q(at=cursor["at"], id__lt=cursor["id"]))
    rows = list(versions[:limit + 1])
    return rows[:limit], len(rows) > limit


def fact_retractions(fact: Fact) -> list[FactVersion]:
    """Every time the fact was retracted (replaced, merged) or restored, oldest first, with who did it: what its
    page keeps saying once it is back in force. Reinforcements are not read (a fact may have thousands)."""
    return list(FactVersion.objects.filter(fact=fact, change__in=(*RETRACTING_CHANGES, VersionChange.RESTORE))
                .exclude(KEPT_BY_A_MERGE).select_related("actor_user", "exchange").order_by("at", "id"))


def fact_last_retraction(fact: Fact) -> FactVersion | None:
    """The version that retracted the fact as it is now (None when its history does not say: an older fact)."""
    return (FactVersion.objects.filter(fact=fact, change__in=RETRACTING_CHANGES).exclude(KEPT_BY_A_MERGE)
            .select_related("actor_user", "exchange").order_by("-at", "-id").first())


def fact_edit_version(fact: Fact, version: int) -> FactVersion | None:
    """The staff edit that left the fact at `version` (an edit raises the version, so there is at most one)."""
    return FactVersion.objects.filter(fact=fact, version=version, change=VersionChange.EDIT).first()


@dataclass(frozen=True)
class ContradictionFlag:
    """An open contradiction proposal seen from one of its two facts: the other fact's number."""

    proposal_id: int
    other_number: int


def contradiction_flags(facts: list[Fact]) -> dict[int, list[ContradictionFlag]]:
    """The open contradiction proposals (a round's, or a flag caught at write) of these facts, by fact id, in one
    query whatever their servers; for the rows of one page only."""
    ids = [fact.pk for fact in facts]
    if not ids:
        return {}
    rows = (Proposal.objects.filter(server_id__in={fact.server_id for fact in facts}, status=ProposalStatus.PENDING,
                                    kind=ProposalKind.CONTRADICTION)
            .filter(Q(keeper_id__in=ids) | Q(other_id__in=ids))
            .values_list("id", "keeper_id", "keeper__number", "other_id", "other__number").order_by("id"))
    flags: dict[int, list[ContradictionFlag]] = {}
    for proposal_id, keeper_id, keeper_number, other_id, other_number in rows:
        flags.setdefault(keeper_id, []).append(ContradictionFlag(proposal_id, other_number))
        flags.setdefault(other_id, []).append(ContradictionFlag(proposal_id, keeper_number))
    return flags


REMEMBER_WINDOW = timedelta(hours=1)  # the remember limit counts the member's facts of this window


def remembered_last_hour(server_id: int, member_id: str) -> int:
    """Facts the bot wrote from this member's messages in the last hour, by its remember or by a learning run (a
    poisoning brake: one member cannot flood the server's memory through the bot)."""
    return Fact.objects.filter(server_id=server_id, author_kind=AuthorKind.BOT, learned_from_member_id=member_id,
                               created_at__gte=timezone.now() - REMEMBER_WINDOW).count()


MEMBER_PAGE_FACTS = 20  # each list on a member's page, a page at a time, newest first; both lists are counted whole
# (a wipe deletes them all). 200 rows a list took a third of a second to render for a member with 10,000 facts.
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class MemberMemory:
    """What a member's page shows: a page of the facts about them and of the facts learned from their messages (in
    force or not), each newest first, its full count, and the position after its last row when older ones follow
    ("" at the end), which member_memory takes back as `about_after` / `learned_after`."""

    about: list[Fact]
    about_count: int
    learned_from: list[Fact]
    learned_from_count: int
    about_next: str = ""
    learned_from_next: str = ""


def _member_list_page(facts: QuerySet[Fact], after: str) -> tuple[list[Fact], str]:
    """A page of `facts` newest first after the position `after` ("<microseconds since 1970>.<id>" of the row it
    follows; anything else starts at the newest), and the position after its last row when there are more. The row
    comparison walks the (server, member or learned from, changed_at, id) index from there (migration 0035)."""
    position = after.split(".")
    changed_at = None
    if len(position) == 2 and all(part.isdigit() and len(part) <= 20 for part in position):
        try:
            changed_at = _EPOCH + timedelta(microseconds=int(position[0]))
        except OverflowError:  # a hand-edited position past the year 9999: start at the newest
            changed_at = None
    if changed_at is not None:
        facts = facts.extra(where=["(memory_fact.changed_at, memory_fact.id) < (%s, %s)"],
                            params=[changed_at, int(position[1])])
    rows = list(facts[: MEMBER_PAGE_FACTS + 1])
    if len(rows) <= MEMBER_PAGE_FACTS:
        return rows, ""
    last = rows[MEMBER_PAGE_FACTS - 1]
    return rows[:MEMBER_PAGE_FACTS], f"{(last.changed_at - _EPOCH) // timedelta(microseconds=1)}.{last.pk}"


def member_memory(server: Server, member_id: str, *, about_after: str = "", learned_after: str = "") -> MemberMemory:
    # The search vector is the largest column and no list shows it.
    every = Fact.objects.filter(server=server).select_related("server", "author_user", "superseded_by").defer(
        "search_vector").order_by("-changed_at", "-id")
    about = every.filter(member_id=member_id)
    learned = every.filter(learned_from_member_id=member_id).exclude(member_id=member_id)
    about_rows, about_next = _member_list_page(about, about_after)
    learned_rows, learned_next = _member_list_page(learned, learned_after)
    return MemberMemory(about=about_rows, about_count=about.count(), learned_from=learned_rows,
                        learned_from_count=learned.count(), about_next=about_next, learned_from_next=learned_next)
