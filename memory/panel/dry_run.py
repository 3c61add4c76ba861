"""Dry runs of the memory-type scale: what switching would move, in numbers from the server's data (the Semantic
card's too: what the catch-up would cost, and which facts the vectors already see as the same)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Sum
from django.db.models.functions import Length
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, ngettext_lazy

from memory.clients.embeddings import LocalProvider
from memory.configuration.selectors import ai_settings_for_server
from memory.facts.listing import search_query_for
from memory.indexing.vectors import EMBED_BATCH, facts_needing_embedding, provider_for
from memory.models import AISettings, Fact, FactEmbedding, Kind
from memory.retrieval.audience import Reader
from memory.retrieval.context import context_strategy, message_relevance
from memory.retrieval.ranking import HalfLives, ScoredFact, Weights, microseconds, rank_top, scored_fact
from memory.text.numbers import grouped
from memory.text.people import names_differ
from memory.types import PROFILES, Addition, ContextOrder, TypeProfile, profile_for
from teams.models import Server

from .context_preview import ContextPreview, context_preview

SAMPLE_MESSAGE_MAX_LENGTH = 500
# The cards whose numbers take a moment (a round's pairs, the catch-up's cost) load them from these URLs.
LAZY_DRY_RUNS = {Addition.ROUNDS: "consolidation:dry-run", Addition.MEANING: "memory:semantic-dry-run"}


@dataclass(frozen=True)
class SlotFact:
    """A fact whose context slot would change, with its score under Ranked."""

    fact: Fact
    scored: ScoredFact


@dataclass(frozen=True)
class SlotChanges:
    """For one message: the facts Ranked would give a context slot that the current type does not
    (winners), and those that would lose theirs (losers)."""

    message: str
    slots: int
    current_label: str
    same_strategy: bool  # the current type already fills the context by score: nothing changes
    winners: list[SlotFact] = field(default_factory=list)
    losers: list[SlotFact] = field(default_factory=list)
    kept: int = 0  # facts in the context under both
    cut: float | None = None  # the lowest score that still gets a slot under Ranked
    half_lives: str = ""  # how fast age lowers recency, by kind (half_lives_sentence)

    @property
    def tables(self) -> list[tuple[str, list[SlotFact]]]:
        return [(gettext("Would win a slot"), self.winners), (gettext("Would lose its slot"), self.losers)]


@dataclass(frozen=True)
class TypeCard:
    profile: TypeProfile
    is_current: bool
    dry_run: list[str]  # sentences with this server's numbers
    offer_restore_all: bool = False
    slot_changes: SlotChanges | None = None  # Ranked: winners and losers for a message that matches no fact
    context: ContextPreview | None = None  # the current type: the context of a message that matches no fact
    lazy_url: str = ""  # numbers that take a moment to compute, loaded into the card after the page


def clean_sample_message(raw: str) -> str:
    return raw.replace("\x00", "").strip()[:SAMPLE_MESSAGE_MAX_LENGTH]


def ranked_slot_changes(server: Server, message: str) -> SlotChanges:
    """What Ranked would change in the context of `message` compared with the server's current type,
    computed by the code the bot's context uses (an empty message matches no fact: recency and importance
    decide alone)."""
    ai_settings = ai_settings_for_server(server)
    current = profile_for(ai_settings.memory_type)
    if current.context_order == ContextOrder.BEST_SCORE:
        return SlotChanges(message=message, slots=ai_settings.max_injected_items, current_label=current.label,
                           same_strategy=True, half_lives=half_lives_sentence(ai_settings))
    reader = Reader.any_channel()  # the facts every channel may see: no channel's own, no staff-only ones
    now, weights, half_lives = timezone.now(), Weights.of(ai_settings), HalfLives.of(ai_settings)
    relevance = message_relevance(server, message, reader=reader).by_fact
    ranked = rank_top(server.pk, weights, ai_settings.max_injected_items, relevance, now, reader=reader,
                      half_lives=half_lives)
    ranked_by_id = {fact.id: fact for fact in ranked.facts}
    current_ids = [fact.pk for fact in
                   context_strategy(ai_settings.memory_type)(server, ai_settings, message, reader).facts]
    winner_ids = [pk for pk in ranked_by_id if pk not in set(current_ids)]
    loser_ids = [pk for pk in current_ids if pk not in ranked_by_id]
    facts = Fact.objects.select_related("server").in_bulk(winner_ids + loser_ids)

    def slot(pk: int) -> SlotFact:
        fact = facts[pk]
        scored = ranked_by_id.get(pk) or scored_fact(  # a loser, scored the same way: it ranks below the cut
            pk, microseconds(fact.changed_at), fact.confidence, fact.importance, fact.kind, weights=weights,
            half_lives=half_lives, relevance=relevance, now_us=microseconds(now))
        return SlotFact(fact=fact, scored=scored)

    losers = [slot(pk) for pk in loser_ids if pk in facts]
    return SlotChanges(
        message=message, slots=ai_settings.max_injected_items, current_label=current.label, same_strategy=False,
        winners=[slot(pk) for pk in winner_ids if pk in facts],
        losers=sorted(losers, key=lambda loser: loser.scored.score, reverse=True),
        kept=len(current_ids) - len(loser_ids),
        cut=ranked.facts[-1].score if ranked.facts else None,
        half_lives=half_lives_sentence(ai_settings),
    )


# Each kind's part whole (never; every n days), so a translation can inflect the kind as its language needs.
KIND_HALF_LIVES = {
    Kind.RULE: (gettext_lazy("rules never"),
                ngettext_lazy("rules every %(days)s day", "rules every %(days)s days", "count")),
    Kind.LORE: (gettext_lazy("lore never"),
                ngettext_lazy("lore every %(days)s day", "lore every %(days)s days", "count")),
    Kind.PROFILE: (gettext_lazy("profiles never"),
                   ngettext_lazy("profiles every %(days)s day", "profiles every %(days)s days", "count")),
    Kind.PREFERENCE: (gettext_lazy("preferences never"),
                      ngettext_lazy("preferences every %(days)s day", "preferences every %(days)s days", "count")),
    Kind.EVENT: (gettext_lazy("events never"),
                 ngettext_lazy("events every %(days)s day", "events every %(days)s days", "count")),
}


def half_lives_sentence(ai_settings: AISettings) -> str:
    """How fast age lowers recency for each kind on this server (AI settings), in one sentence."""
    parts = []
    for kind, (never, every) in KIND_HALF_LIVES.items():
        days = getattr(ai_settings, f"half_life_{kind}_days")
        parts.append(str(never) if not days else every % {"count": days, "days": grouped(days)})
    return gettext("Recency halves by kind (AI settings, half-lives): %(parts)s; “never”: age is no reason to "
                   "forget.") % {"parts": ", ".join(parts)}


def _ranked_numbers(server: Server, in_force: int) -> list[str]:
    scored = Fact.objects.filter(server=server, retracted_at__isnull=True, importance__isnull=False).count()
    return [gettext("%(scored)s of %(in_force)s facts in force already have an importance score; the other "
                    "%(others)s count as middling (0.5) until the model or staff rate them.")
            % {"scored": grouped(scored), "in_force": grouped(in_force), "others": grouped(in_force - scored)},
            half_lives_sentence(ai_settings_for_server(server))]


def _archive_numbers(server: Server, facts: int) -> list[str]:
    in_force = Fact.objects.filter(server=server, retracted_at__isnull=True)
    characters = in_force.aggregate(characters=Sum(Length("content") + Length("key")))["characters"] or 0
    sample = in_force.order_by("-changed_at").values_list("key", flat=True).first() or "memory"
    query = search_query_for(sample.replace("_", " ").split()[0])
    started = time.perf_counter()
    found = len(list(in_force.filter(search_vector=query).values_list("pk", flat=True)[:20])) if query else 0
    took_ms = (time.perf_counter() - started) * 1000
    return [
        gettext("%(facts)s facts in force would be searchable, %(characters)s characters of text.")
        % {"facts": grouped(facts), "characters": grouped(characters)},
        gettext("The index already exists: a real search for “%(word)s” just took %(ms)s ms (%(found)s of the first "
                "20 results).") % {"word": sample.split("_")[0], "ms": f"{took_ms:.1f}", "found": found},
    ]


def _retracted_earlier(retracted: int, label: str) -> str:
    """What a type that deletes retracted facts does with those retracted while the server was another type: the
    memory page still shows them (its Retracted tab), so the card must not say only that retracted facts go."""
    return ngettext(
        "%(count)s fact retracted earlier, under another type, stays retracted, not deleted: the bot does not see "
        "it, the memory page lists it in its Retracted tab, and it can be restored. Only what the bot retracts "
        "under %(type)s is deleted.",
        "%(count)s facts retracted earlier, under another type, stay retracted, not deleted: the bot does not see "
        "them, the memory page lists them in its Retracted tab, and they can be restored. Only what the bot "
        "retracts under %(type)s is deleted.", retracted) % {"count": grouped(retracted), "type": label}


def type_cards(server: Server, current: str) -> list[TypeCard]:
    """The six cards, each with what choosing it would move on this server right now."""
    retracted = Fact.objects.filter(server=server, retracted_at__isnull=False).count()
    in_force = Fact.objects.filter(server=server, retracted_at__isnull=True).count()
    current_profile = profile_for(current)
    ranks_now = current_profile.context_order == ContextOrder.BEST_SCORE
    cards = []
    for profile in PROFILES:
        lines: list[str] = []
        offer_restore_all = False
        slot_changes = None
        if profile.value == current:
            lines.append(gettext("This server uses it now."))
            if profile.retract_deletes and retracted:
                lines.append(_retracted_earlier(retracted, profile.label))
        elif not profile.ready:
            lines.append(gettext("Not ready yet: it cannot be chosen until its machinery is built."))
        elif profile.addition == Addition.FLAT_LIST:
            lines.append(gettext("Moves nothing: %(count)s facts stay in force.") % {"count": grouped(in_force)})
            if retracted:
                lines.append(gettext("%(count)s retracted facts stay hidden from the bot (and stay on this page); "
                                     "from now on a retraction by the bot deletes the fact.")
                             % {"count": grouped(retracted)})
                offer_restore_all = True
        elif profile.addition == Addition.RETRACTION:
            lines.append(gettext("Moves nothing: %(count)s facts keep counting as in force, with their creation "
                                 "dates.") % {"count": grouped(in_force)})
            if current_profile.can_search:
                lines.append(gettext("The bot loses its one search per reply."))
        elif profile.addition == Addition.SEARCH:
            lines.extend(_archive_numbers(server, in_force))
        ranks = profile.context_order == ContextOrder.BEST_SCORE
        if profile.ready and profile.value != current and ranks_now and not ranks:
            lines.append(gettext("The most recently changed facts fill the context again, instead of the best-scored "
                                 "ones."))
        if profile.addition == Addition.RANKING and profile.ready:
            lines.extend(_ranked_numbers(server, in_force))
            if profile.value != current:
                slot_changes = ranked_slot_changes(server, "")
        lazy = LAZY_DRY_RUNS.get(profile.addition)
        lazy_url = reverse(lazy, args=[server.guild_id]) if lazy else ""
        cards.append(TypeCard(profile=profile, is_current=profile.value == current, dry_run=lines,
                              offer_restore_all=offer_restore_all, slot_changes=slot_changes, lazy_url=lazy_url,
                              context=context_preview(server) if profile.value == current else None))
    return cards


# The Semantic card ------------------------------------------------------------------------

SAME_MEANING = 0.95  # cosine similarity above which the vectors see two facts as saying the same
SAME_MEANING_SAMPLE = 200
SAME_MEANING_NEIGHBOURS = 3  # of each sampled fact: the nearest may be another member's or another person's
SAME_MEANING_EXAMPLES = 5


@dataclass(frozen=True)
class SemanticDryRun:
    provider_label: str
    fallback_reason: str | None  # why meaning would not be used right after switching
    facts_to_embed: int
    calls: int
    characters: int
    embedded_already: int
    same_pairs: list[tuple[Fact, Fact, float]]
    sampled: int


def semantic_dry_run(server: Server) -> SemanticDryRun:
    """What switching to Semantic would cost in calls and text now, and which facts the vectors already
    see as saying the same (among the most recently changed embedded facts). No money figures."""
    provider, reason = provider_for(server)
    model_name = provider.model_name if provider else ""
    todo = facts_needing_embedding(server, model_name)
    counted = todo.aggregate(characters=Sum(Length("content") + Length("key")))
    facts_to_embed = todo.count()
    same: list[tuple[int, int, float]] = []
    sample = 0
    if provider is not None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            cursor.execute(
                """
                WITH sample AS (
                    SELECT e.fact_id, e.vector, f.scope, f.member_id, f.content FROM memory_factembedding e
                    JOIN memory_fact f ON f.id = e.fact_id
                    WHERE e.server_id = %s AND e.model_name = %s AND f.retracted_at IS NULL
                    ORDER BY f.changed_at DESC LIMIT %s
                )
                SELECT sample.fact_id, nearest.fact_id, 1 - nearest.distance, (SELECT count(*) FROM sample),
                       sample.content, f.content
                FROM sample CROSS JOIN LATERAL (
                    SELECT e.fact_id, e.vector <=> sample.vector AS distance FROM memory_factembedding e
                    WHERE e.server_id = %s AND e.model_name = %s AND e.fact_id <> sample.fact_id
                    ORDER BY e.vector <=> sample.vector LIMIT %s
                ) nearest JOIN memory_fact f ON f.id = nearest.fact_id
                WHERE 1 - nearest.distance >= %s AND f.retracted_at IS NULL AND f.scope = sample.scope
                  AND f.member_id = sample.member_id
                ORDER BY sample.fact_id, nearest.distance
                """,
                [server.pk, model_name, SAME_MEANING_SAMPLE, server.pk, model_name, SAME_MEANING_NEIGHBOURS,
                 SAME_MEANING],
            )
            rows = cursor.fetchall()
        seen: set[tuple[int, int]] = set()
        for left, right, similarity, sampled, left_content, right_content in rows:
            sample = sampled
            pair = (min(left, right), max(left, right))
            # Never two members' facts (the SQL) nor two facts naming different people, however close the vectors:
            # "Mira uses she/her pronouns" / "Priya uses she/her pronouns" are 0.96 apart.
            if pair not in seen and not names_differ(left_content, right_content):
                seen.add(pair)
                same.append((pair[0], pair[1], similarity))
        if not rows:
            sample = FactEmbedding.objects.filter(server=server, model_name=model_name).count()
            sample = min(sample, SAME_MEANING_SAMPLE)
    same.sort(key=lambda item: -item[2])
    facts = Fact.objects.in_bulk([pk for left, right, _ in same[:SAME_MEANING_EXAMPLES] for pk in (left, right)])
    return SemanticDryRun(
        provider_label=(gettext("the built-in local model") if isinstance(provider, LocalProvider)
                        else gettext("the embedding endpoint (%(model)s)") % {"model": model_name} if provider
                        else gettext("no embedding model")),
        fallback_reason=reason or None,
        facts_to_embed=facts_to_embed,
        calls=-(-facts_to_embed // EMBED_BATCH),
        characters=counted["characters"] or 0,
        embedded_already=FactEmbedding.objects.filter(server=server, model_name=model_name).count() if provider else 0,
        same_pairs=[(facts[left], facts[right], similarity) for left, right, similarity in same[:SAME_MEANING_EXAMPLES]
                    if left in facts and right in facts],
        sampled=sample,
    )
