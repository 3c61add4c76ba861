"""What a search on one server's memory page shows above the list: the facts the bot's own search finds for the
words typed (Best matches), and the facts about a member whose Discord id or name was typed. Reads only, each
read bounded (a handful of ids, a member's newest facts), so a keystroke costs the same on a million facts."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Case, IntegerField, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from memory.configuration.selectors import ai_settings_for_server
from memory.models import Fact, Member, Scope
from memory.retrieval.audience import Reader
from memory.retrieval.fusion import hybrid_ids, words_ranking
from memory.retrieval.shown_facts import facts_in_order
from memory.text.numbers import grouped
from memory.text.time_expressions import date_span
from memory.text.words import words as text_words
from memory.types import profile_for
from teams.models import Server

BEST_MATCHES = 10
MEMBER_FACTS_SHOWN = 50
# A member's facts are counted up to this many (one past it reads "more than"): a count never walks them all.
MEMBER_COUNT_LIMIT = 1000
MEMBER_BLOCKS = 3
# A name shorter than this matches only as a whole name: two letters would name half the server.
NAME_PREFIX_MIN = 3
DISCORD_ID = re.compile(r"[0-9]{17,20}")
# What a row of the page reads beyond the fact's own columns (the server for its links, the author's name, the
# replacement's number).
ROW_RELATED = ("server", "author_user", "superseded_by")


@dataclass(frozen=True)
class BestMatches:
    facts: list[Fact]
    mode: str  # "hybrid" | "words", as memory.retrieval.fusion.RankedIds says it
    server_embeds: bool  # its search fuses words and meaning (mode says whether it could this time)
    fallback_reason: str | None  # why meaning was not used this time, on a server that embeds


@dataclass(frozen=True)
class MemberFacts:
    member_id: str
    display_name: str  # "" for an id the member directory does not know
    facts: list[Fact]
    total_label: str  # "3", "312", "more than 1,000"

    @property
    def capped(self) -> bool:
        return self.total_label != str(len(self.facts))


def best_matches(server: Server, query: str) -> BestMatches | None:
    """The facts the bot's search finds for `query` on the server, best first, exactly as a reply searches: words
    and meaning fused on a type that embeds, else the words search ranked (BM25, a time expression a date
    preference), for a reader in no channel in particular (server-audience facts only). None when the query has
    no word to search for or nothing was found."""
    if not text_words(query, 1):
        return None  # punctuation only: meaning would still name "nearest" facts, which is noise
    ai_settings = ai_settings_for_server(server)
    reader = Reader.any_channel()
    embeds = profile_for(ai_settings.memory_type).embeds
    if embeds:
        ranked = hybrid_ids(server, ai_settings, query, BEST_MATCHES, reader=reader)
        ids, mode, reason = ranked.ids, ranked.mode, ranked.fallback_reason
    else:
        span = date_span(query, timezone.localdate())
        ids, mode, reason = words_ranking(server.pk, query, BEST_MATCHES, reader=reader, span=span), "words", None
    # The bot's own read first: it keeps only what the reader may see (and still in force), in the search's order.
    shown_ids = [fact.pk for fact in facts_in_order(server.pk, ids, reader)]
    facts = _rows_in_order(server, shown_ids)
    return BestMatches(facts, mode, embeds, reason) if facts else None


def members_typed(server: Server, query: str) -> list[tuple[str, str]]:
    """(member id, display name) of the members the query names: a Discord id (17–20 digits; its name, or "", from
    the member directory), else directory names equal to it or, from NAME_PREFIX_MIN characters, starting with
    it (case-insensitive): whole names first, then by name, at most MEMBER_BLOCKS + 1 (the caller says "more")."""
    typed = query.strip()
    if DISCORD_ID.fullmatch(typed):
        name = Member.objects.filter(server=server, member_id=typed).values_list("display_name", flat=True).first()
        return [(typed, name or "")]
    if not typed or len(typed) > Member._meta.get_field("display_name").max_length:
        return []
    names = Q(display_name__iexact=typed)
    if len(typed) >= NAME_PREFIX_MIN:
        names |= Q(display_name__istartswith=typed)
    whole_name_first = Case(When(display_name__iexact=typed, then=Value(0)), default=Value(1),
                            output_field=IntegerField())
    found = (Member.objects.filter(server=server).filter(names)
             .order_by(whole_name_first, "display_name", "member_id")
             .values_list("member_id", "display_name")[:MEMBER_BLOCKS + 1])
    return list(found)


def member_facts(server: Server, member_id: str, display_name: str) -> MemberFacts | None:
    """The member's facts in force, newest first, at most MEMBER_FACTS_SHOWN: facts about them (member scope) and
    facts the bot learned from them, with how many there are. None for an id nobody knows: not in the member
    directory and without a single fact (17 digits typed may be a message id)."""
    in_force = Fact.objects.filter(server=server, retracted_at__isnull=True)
    newest = ("-changed_at", "-id")
    # Two reads, each along its own index (the member's newest facts; the facts learned from them), each at most
    # one past a page: an OR of the two would read every fact of a member the bot heard about forty thousand times.
    about = list(in_force.filter(scope=Scope.MEMBER, member_id=member_id).order_by(*newest)
                 .values_list("pk", "changed_at")[:MEMBER_FACTS_SHOWN + 1])
    learned = list(in_force.filter(learned_from_member_id=member_id).order_by(*newest)
                   .values_list("pk", "changed_at")[:MEMBER_FACTS_SHOWN + 1])
    merged = sorted(set(about) | set(learned), key=lambda row: (row[1], row[0]), reverse=True)
    if not merged and not display_name:
        return None
    if len(about) <= MEMBER_FACTS_SHOWN and len(learned) <= MEMBER_FACTS_SHOWN:
        total = str(len(merged))  # both reads held every fact
    else:
        counted = (in_force.filter(Q(member_id=member_id) | Q(learned_from_member_id=member_id))
                   .order_by()[:MEMBER_COUNT_LIMIT + 1].count())
        total = (gettext("more than %(count)s") % {"count": grouped(MEMBER_COUNT_LIMIT)} if counted > MEMBER_COUNT_LIMIT
                 else grouped(counted))
    facts = _rows_in_order(server, [pk for pk, _ in merged[:MEMBER_FACTS_SHOWN]])
    return MemberFacts(member_id, display_name, facts, total)


def _rows_in_order(server: Server, ids: list[int]) -> list[Fact]:
    """The facts of `ids` in that order, with what a row of the page reads (a few dozen at most)."""
    by_pk = Fact.objects.filter(server=server, retracted_at__isnull=True).select_related(*ROW_RELATED).in_bulk(ids)
    return [by_pk[pk] for pk in ids if pk in by_pk]
