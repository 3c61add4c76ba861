"""Which facts a message's context shows, in three parts, each read only among the facts the message's reader may
see (memory/retrieval/audience.py), so a limit or a ranking never counts a fact it may not hand over:

1. the pinned facts, oldest change first (PINNED_ORDER), up to the pinned caps (`pinned_that_fit`), outside
   Maximum injected memory items;
2. the speaker's share: facts about the speaker and the members the message mentions, up to
   `speaker_slots` = ceil(speaker share × Maximum injected memory items), fewer when they have fewer, chosen by the
   memory type's own order and taken in turns (`in_turns`): each member's first (their newest, or for the types
   that rank their best-scored), the members mentioned first in the order mentioned, then the speaker (a message
   that names someone is most often about them), then each one's second, and so on;
3. the rest of the slots by the type's context order: the newest changes (Classic, Ledger, Searchable archive), or
   the best scores for the message (Ranked and after, memory/retrieval/ranking/), whose relevance is the fact's
   place in the words search or, for a type that embeds, in words and meaning fused.

A fact is in one part only. A pinned fact past the caps counts as any other fact (it may still come in by the
type's order). What the block keeps of them under its character budget is the bot's business (memory.bot.prompt).

For the types that show the newest changes all three parts are one statement (CONTEXT_SQL), which the context call
runs inside the query that finds the bot's token and server (memory.bot.selectors): one round trip. For the others
the same statement reads the pinned facts and the speaker's candidates, and ranking reads the rest. The statement
reads each part a little deeper than it shows (the pinned facts the caps may cut, and those chosen before, are left
out in Python), so that it stays a plain set of index walks: prepared once per connection (config/settings/base.py),
it keeps its generic plan. (unnest of the members instead of generate_series made PostgreSQL, which cannot tell how
many members a generic plan is for, plan it again on every call: 0.8 ms more.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from django.db import connection
from django.utils import timezone

from config.rows import Columns, columns, loaded_instance
from memory.models import AISettings, Fact, Member
from memory.text.time_expressions import date_span
from memory.types import NEWEST_FIRST_TYPES, ContextOrder, RelevanceKind, profile_for
from teams.models import Server

from .audience import Reader, visible_sql
from .fusion import hybrid_ids, words_ranking
from .ranking import RELEVANCE_DEPTH, HalfLives, Weights, rank_top, relevance_by_position
from .shown_facts import CONTEXT_COLUMNS, newest_facts_from_json

# The pinned facts' order, here and on the memory page: the oldest change first (the rule the server has lived by
# longest); past the caps, the later ones are left out.
PINNED_ORDER = ("changed_at", "id")


def speaker_slots(max_items: int, share: float) -> int:
    """The slots reserved for facts about the speaker and the members mentioned: ceil(share × max_items), a share
    that is a whole number of slots but for floating point counting as that number (0.1 × 30 is 3, not 4).
    CONTEXT_SQL computes the same in SQL (_SPEAKER_SLOTS_SQL)."""
    return max(0, math.ceil(share * max_items - 1e-9))


_SPEAKER_SLOTS_SQL = "GREATEST(0, ceil({share} * {max_items} - 1e-9))::int"


def pinned_that_fit(pinned: Sequence[Fact], max_items: int, max_chars: int) -> int:
    """How many of `pinned` (in PINNED_ORDER) go into every context: at most `max_items`, and stopping at the first
    whose content no longer fits in `max_chars` characters with those before it."""
    kept, chars = 0, 0
    for fact in pinned[:max_items]:
        chars += len(fact.content)
        if chars > max_chars:
            break
        kept += 1
    return kept


def speaking_members(author_id: str, mentioned_ids: Iterable[str] = ()) -> tuple[str, ...]:
    """The members a message is about: its author, then those it mentions, each once."""
    return tuple(dict.fromkeys(member for member in (author_id, *mentioned_ids) if member))


@dataclass(frozen=True)
class ContextFor:
    """Whom a context is for: the reader (the message's channel) and the members it is about (speaking_members)."""

    reader: Reader
    members: tuple[str, ...] = ()


def _context_for(whom: ContextFor | Reader) -> ContextFor:
    """A context for a reader alone (the panel's dry runs) is about no member."""
    return whom if isinstance(whom, ContextFor) else ContextFor(whom)


@dataclass(frozen=True)
class ContextRead:
    """What CONTEXT_SQL read, before the caps and the shares: up to pinned_max_items pinned facts (PINNED_ORDER); each
    member's newest facts (in the order of ContextFor.members); for the types that show the newest changes the newest
    facts (enough for the slots once those chosen before are left out; none for the others); and the display names
    of the members the facts and the message are about."""

    pinned: list[Fact]
    speaker: list[Fact]
    general: list[Fact]
    names: dict[str, str]


def context_read_from_json(value: list) -> ContextRead:
    *facts, members_named = value
    names: dict[str, str] = dict(members_named or {})  # the message's members the directory knows
    parts = []
    for arrays in facts:  # each item is the fact's CONTEXT_COLUMNS, then the display name of its member
        parts.append(newest_facts_from_json([array[:-1] for array in arrays]))
        names.update((array[_MEMBER_AT], array[-1]) for array in arrays if array[-1])
    return ContextRead(*parts, names)


_MEMBER_AT = CONTEXT_COLUMNS.attnames.index("member_id")
_ITEM = (f"json_build_array({CONTEXT_COLUMNS.sql}, CASE WHEN f.scope = 'member' THEN (SELECT known.display_name "
         "FROM memory_member known WHERE known.server_id = f.server_id AND known.member_id = f.member_id) END)")
_PINNED_READ = "(SELECT count(*) FROM pinned)"
MEMBERS_MAX = 21  # a message's author and the members it mentions, at most
# The reader's channel and thread as sub-selects, which the planner does not look into: the statement's estimates
# are then the same whichever channel asks, so the plan PostgreSQL makes once for every reader (prepared, generic)
# costs what the plans made for each would, and it keeps it. Compared by its statistics, the reader's channel made
# the generic plan look 0.3 % dearer, and the statement was planned anew on every message (1.2 ms of planning for
# 0.4 ms of work, the Classic context call's largest cost).
_READER = ("(SELECT %(reader_channel)s::varchar)", "(SELECT %(reader_thread)s::varchar)")
# The three parts in one statement, for {server} and the settings' expressions. The speaker's and the rest are read
# deep enough for what Python leaves out of them (ContextRead.chosen): the pinned facts kept, the facts chosen before;
# {speaker_limit} is the speaker's slots (one more for the types that rank, to learn whether ranking must choose),
# {general_limit} Maximum injected memory items for the types that show the newest changes, 0 for the others.
_CONTEXT_SQL = f"""
    WITH pinned AS (
        SELECT f.id, f.changed_at, {_ITEM} AS item FROM memory_fact f
        WHERE f.server_id = {{server}} AND f.pinned AND f.retracted_at IS NULL AND {visible_sql("f", _READER)}
        ORDER BY f.changed_at, f.id LIMIT {{pinned_items}})
    SELECT json_build_array(
        (SELECT COALESCE(json_agg(item ORDER BY changed_at, id), '[]') FROM pinned),
        (SELECT COALESCE(json_agg(c.item ORDER BY m.pos, c.changed_at DESC, c.id DESC), '[]')
         FROM generate_series(1, {MEMBERS_MAX}) AS m(pos) CROSS JOIN LATERAL (
             SELECT f.id, f.changed_at, {_ITEM} AS item FROM memory_fact f
             WHERE f.server_id = {{server}} AND f.scope = 'member' AND f.member_id = (%(members)s::text[])[m.pos]
               AND f.retracted_at IS NULL AND {visible_sql("f", _READER)}
             ORDER BY f.changed_at DESC, f.id DESC LIMIT {{speaker_limit}} + {_PINNED_READ}) c
         WHERE m.pos <= cardinality(%(members)s::text[])),
        (SELECT COALESCE(json_agg(item ORDER BY changed_at DESC, id DESC), '[]') FROM (
             SELECT f.id, f.changed_at, {_ITEM} AS item FROM memory_fact f
             WHERE f.server_id = {{server}} AND f.retracted_at IS NULL AND {visible_sql("f", _READER)}
             ORDER BY f.changed_at DESC, f.id DESC LIMIT {{general_limit}}) g),
        (SELECT json_object_agg(known.member_id, known.display_name) FROM memory_member known
         WHERE known.server_id = {{server}} AND known.member_id = ANY(%(members)s::text[])))
"""
_NEWEST_TYPES_SQL = ", ".join(f"'{memory_type}'" for memory_type in NEWEST_FIRST_TYPES)
_SLOTS_OF_A = _SPEAKER_SLOTS_SQL.format(share="a.speaker_share", max_items="a.max_injected_items")
# CONTEXT_SQL for the query that finds the bot's token and server (memory.bot.selectors), for the table aliases s
# (the server) and a (its AI settings): the same statement, so the same snapshot and settings, one round trip fewer
# on the bot's busiest call. NULL for a server without AI settings (created on first use). Its named parameters are
# the reader's (Reader.params) and `members` (ContextFor.members).
CONTEXT_SQL = "CASE WHEN a.server_id IS NOT NULL THEN ({}) END".format(_CONTEXT_SQL.format(
    server="s.id", pinned_items="a.pinned_max_items",
    speaker_limit=f"{_SLOTS_OF_A} + CASE WHEN a.memory_type IN ({_NEWEST_TYPES_SQL}) THEN 0 ELSE 1 END",
    general_limit=f"CASE WHEN a.memory_type IN ({_NEWEST_TYPES_SQL}) "
                  f"THEN a.max_injected_items + {_PINNED_READ} ELSE 0 END"))
# The same statement on its own, when the server came without it (the reply endpoint, the playground, the adapter).
_CONTEXT_ALONE_SQL = _CONTEXT_SQL.format(
    server="%(server)s", pinned_items="%(pinned_items)s", speaker_limit="%(speaker_limit)s",
    general_limit=f"CASE WHEN %(max_items)s > 0 THEN %(max_items)s + {_PINNED_READ} ELSE 0 END")


def context_read(server: Server, ai_settings: AISettings, context_for: ContextFor | Reader) -> ContextRead:
    """The pinned facts, the speaker's candidates, the newest of the rest when the type shows the newest changes,
    and the names: taken from the server when the context call read them with it for this reader and these
    members (CONTEXT_SQL), read now otherwise. Hand-written SQL: this runs for every message (config/rows.py)."""
    context_for = _context_for(context_for)
    ahead = server.__dict__.get("context_read")
    if ahead is not None and ahead[0] == context_for:
        return ahead[1]
    newest = profile_for(ai_settings.memory_type).context_order == ContextOrder.NEWEST
    slots = speaker_slots(ai_settings.max_injected_items, ai_settings.speaker_share)
    params = {"server": server.pk, "pinned_items": ai_settings.pinned_max_items,
              "speaker_limit": slots + (0 if newest else 1),
              "max_items": ai_settings.max_injected_items if newest else 0, "members": list(context_for.members),
              **context_for.reader.params}
    with connection.cursor() as cursor:
        cursor.execute(_CONTEXT_ALONE_SQL, params)
        return context_read_from_json(cursor.fetchone()[0])


def _pinned_and_candidates(read: ContextRead, ai_settings: AISettings) -> tuple[list[Fact], list[Fact]]:
    """The pinned facts that fit the caps, and the speaker's candidates without them."""
    pinned = read.pinned[:pinned_that_fit(read.pinned, ai_settings.pinned_max_items, ai_settings.pinned_max_chars)]
    kept = {fact.id for fact in pinned}
    return pinned, [fact for fact in read.speaker if fact.id not in kept]


def _turn_order(members: tuple[str, ...]) -> tuple[str, ...]:
    """The members mentioned first, in the order mentioned, then the speaker (members[0])."""
    return (*members[1:], *members[:1])


@dataclass(frozen=True)
class ContextChoice:
    """The facts a message's context shows, by why they came in (each in the order its part chose them), the
    display names of the members they are about, and how relevance was judged ("" when the type does not rank)."""

    pinned: list[Fact] = field(default_factory=list)
    speaker: list[Fact] = field(default_factory=list)
    general: list[Fact] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    relevance_mode: str = ""
    relevance_fallback_reason: str = ""

    @property
    def facts(self) -> list[Fact]:
        """Every fact chosen, in the order the type chose them: pinned, the speaker's share, the rest."""
        return [*self.pinned, *self.speaker, *self.general]


def _most_recently_changed(server: Server, ai_settings: AISettings, message: str,
                           context_for: ContextFor | Reader) -> ContextChoice:
    """Classic, Ledger and Searchable archive: after the pinned facts, the newest changes about the members
    mentioned and the speaker take their share in turns, and the newest of the rest fill the slots (index walks)."""
    context_for = _context_for(context_for)
    read = context_read(server, ai_settings, context_for)
    pinned, candidates = _pinned_and_candidates(read, ai_settings)
    slots = speaker_slots(ai_settings.max_injected_items, ai_settings.speaker_share)
    speaker = in_turns(candidates, _turn_order(context_for.members), slots)
    chosen = {fact.id for fact in (*pinned, *speaker)}
    general = [fact for fact in read.general if fact.id not in chosen][:ai_settings.max_injected_items - len(speaker)]
    return ContextChoice(pinned, speaker, general, read.names)


@dataclass(frozen=True)
class Relevance:
    """Relevance to the message of the facts it matches, and how it was judged."""

    by_fact: dict[int, float]
    mode: str  # "words" | "hybrid"
    fallback_reason: str = ""  # under Semantic: why meaning was not used


def message_relevance(server: Server, message: str, ai_settings: AISettings | None = None, *,
                      reader: Reader) -> Relevance:
    """Relevance to the message of the facts it matches that the reader may see: their place in the words
    search for it, or under Semantic in words and meaning fused (words alone, with the reason, whenever
    meaning cannot be used)."""
    if ai_settings is not None and profile_for(ai_settings.memory_type).relevance == RelevanceKind.WORDS_AND_MEANING:
        fused = hybrid_ids(server, ai_settings, message, RELEVANCE_DEPTH, embed_short_text=False, reader=reader)
        return Relevance(relevance_by_position(fused.ids), fused.mode, fused.fallback_reason or "")
    span = date_span(message, timezone.localdate())
    return Relevance(relevance_by_position(words_ranking(server.pk, message, RELEVANCE_DEPTH, reader=reader,
                                                         span=span)), "words")


# What the context needs of a ranked fact beyond what ranking reads anyway, and the display name of the member a
# member fact is about; ranking reads them in the same round trip for the few facts it sends back
# (memory/retrieval/ranking/top.py).
_RANKED_FACT_COLUMNS = columns(Fact, "ranked_fact", ("server_id", "number", "key", "content", "scope", "member_id",
                                                       "author_kind", "audience", "source_channel_id", "kind"))
_RANKED_COLUMNS = Columns(
    Fact, (*_RANKED_FACT_COLUMNS.fields, Member._meta.get_field("display_name")),
    f"{_RANKED_FACT_COLUMNS.sql}, CASE WHEN ranked_fact.scope = 'member' THEN (SELECT m.display_name FROM "
    "memory_member m WHERE m.server_id = ranked_fact.server_id AND m.member_id = ranked_fact.member_id) END",
    "ranked_fact")
_RANKED_ATTNAMES = ["id", *_RANKED_FACT_COLUMNS.attnames, "confidence", "changed_at"]


def _ranked(server: Server, ai_settings: AISettings, limit: int, relevance: Relevance, reader: Reader, *,
            only_members: tuple[str, ...] | None = None, exclude_ids: Sequence[int] = (),
            names: dict[str, str]) -> list[Fact]:
    """The `limit` facts with the best score for the message (of those about `only_members` when given), none of
    `exclude_ids`, best first; the names of the members they are about go into `names`."""
    if limit <= 0:
        return []
    ranked = rank_top(server.pk, Weights.of(ai_settings), limit, relevance.by_fact, timezone.now(),
                      columns=_RANKED_COLUMNS, reader=reader, half_lives=HalfLives.of(ai_settings),
                      only_members=only_members, exclude_ids=exclude_ids)
    facts = []
    for fact in ranked.facts:
        *values, name = ranked.columns[fact.id]
        facts.append(loaded_instance(Fact, _RANKED_ATTNAMES, [fact.id, *values, fact.confidence, fact.changed_at]))
        if name:
            names.setdefault(facts[-1].member_id, name)
    return facts


def in_turns(facts: Sequence[Fact], members: Sequence[str], limit: int) -> list[Fact]:
    """At most `limit` of `facts` (each member's in their order), taken in turns: each of `members`' first fact in
    the order of `members`, then each one's second, and so on."""
    queues = {member: [fact for fact in facts if fact.member_id == member] for member in members}
    taken: list[Fact] = []
    for turn in range(max((len(queue) for queue in queues.values()), default=0)):
        taken += [queue[turn] for queue in queues.values() if turn < len(queue)]
    return taken[:limit]


def best_scored(server: Server, ai_settings: AISettings, message: str,
                context_for: ContextFor | Reader) -> ContextChoice:
    """Ranked, and every type after it: after the pinned facts, the facts about the members mentioned and the speaker
    take their share (all of them when they have no more; otherwise each member's best-scored in turns, the members
    mentioned first, from one ranking of their facts), and the best-scored of the rest fill the slots, best first
    (memory/retrieval/ranking/)."""
    context_for = _context_for(context_for)
    read = context_read(server, ai_settings, context_for)
    reader = context_for.reader
    relevance = message_relevance(server, message, ai_settings, reader=reader)
    names = dict(read.names)
    slots = speaker_slots(ai_settings.max_injected_items, ai_settings.speaker_share)
    pinned, speaker = _pinned_and_candidates(read, ai_settings)
    pinned_ids = [fact.id for fact in pinned]
    if len(speaker) > slots:  # more than their share: ranking chooses among them, each member in turn
        members = context_for.members
        ranked = _ranked(server, ai_settings, slots * len(members), relevance, reader, only_members=members,
                         exclude_ids=pinned_ids, names=names)
        speaker = in_turns(ranked, _turn_order(members), slots)
    general = _ranked(server, ai_settings, ai_settings.max_injected_items - len(speaker), relevance, reader,
                      exclude_ids=[*pinned_ids, *(fact.id for fact in speaker)], names=names)
    return ContextChoice(pinned, speaker, general, names, relevance.mode, relevance.fallback_reason)


# How each context order of the type profiles (memory.types.ContextOrder) chooses the facts.
CONTEXT_BY_ORDER: dict[str, Callable[[Server, AISettings, str, ContextFor | Reader], ContextChoice]] = {
    ContextOrder.NEWEST: _most_recently_changed,
    ContextOrder.BEST_SCORE: best_scored,
}


def context_strategy(memory_type: str) -> Callable[[Server, AISettings, str, ContextFor | Reader], ContextChoice]:
    """How the context of this memory type is chosen."""
    return CONTEXT_BY_ORDER[profile_for(memory_type).context_order]


def context_choice(server: Server, ai_settings: AISettings, message: str,
                   context_for: ContextFor | Reader) -> ContextChoice:
    """The facts the context of a message shows, for its reader and the members it is about (a reader alone: about
    no member), by the server's memory type."""
    return context_strategy(ai_settings.memory_type)(server, ai_settings, message, context_for)
