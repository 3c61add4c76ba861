"""Every way a fact leaves the database: a staff delete (and Classic's retract, which is one), the two wipes, and
the purge by source. The one module that may delete facts: the database refuses any other delete (migration
0004), and tests/memory/facts/test_no_other_fact_deletes.py refuses a new path here."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, models, transaction
from django.template.defaultfilters import pluralize

from consolidation.holds import discard_results_quoting, discard_server_results, hold_rounds_off
from memory.models import (ChannelMessage, ChannelNote, Exchange, Fact, FactVersion, LearningRun, LearningState, Member,
                           Summary)
from teams.models import Server
from teams.services import audit_record

from .held_back import facts_held_back_by, held_back_refresh
from .selectors import PurgeSource, facts_concerning_member, facts_learned_in
from .services import validate_member_id


@contextmanager
def _permit_fact_deletes(reason: str) -> Iterator[None]:
    """Tell the database guard (migration 0004) why facts are deleted, for the block only: a later
    delete in the same outer transaction is refused again."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lorekeeper.fact_delete', %s, true)", [reason])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lorekeeper.fact_delete', '', true)")



@transaction.atomic
def fact_delete(
    *, fact: Fact, actor: AbstractBaseUser | None, reason: str = "deleted by staff", actor_label: str = ""
) -> bool:
    """Delete one fact for good (retracted or not). Facts it replaced keep their history, unlinked.
    Returns False when the fact was already gone."""
    number, server = fact.number, fact.server
    freed = facts_held_back_by([fact])  # its contradiction flags go with it
    with _permit_fact_deletes(reason):
        # The fact's row first, then its vector: the ORM deletes the vector before the fact, the reverse of the
        # order in which a catch-up batch holds them (memory.indexing.vectors.embed_facts_now), which could deadlock.
        list(Fact.objects.select_for_update().filter(pk=fact.pk).values_list("pk", flat=True))
        deleted, _ = Fact.objects.filter(pk=fact.pk).delete()
    held_back_refresh(freed)
    if deleted:
        audit_record(actor=actor, server=server, action="fact.delete", target_ids=[number], count=1, result=reason,
                     actor_label=actor_label)
    return bool(deleted)



@dataclass(frozen=True)
class WipeResult:
    facts: int
    summaries: int = 0
    exchanges: int = 0


def _delete_exchanges(exchanges: models.QuerySet[Exchange]) -> int:
    """Delete stored exchanges; facts they taught stay, with the link to the exchange cleared."""
    Fact.objects.filter(source_exchange__in=exchanges).update(source_exchange=None)
    deleted, _ = exchanges.delete()
    return deleted


@transaction.atomic
def server_wipe(*, server: Server, actor: AbstractBaseUser) -> WipeResult:
    """Delete everything remembered about the server, now and irreversibly; one audit row.

    A consolidation round writing its results now is waited for (a moment of database work: its model calls
    hold no lock), and its proposals and summary draft go with the rest (they quote the facts); a round
    asking its model meanwhile drops what the wipe removed when it writes."""
    hold_rounds_off(server)
    proposals_and_drafts = discard_server_results(server)
    # Plain SQL: the ORM's delete() would first load every fact (a million rows) to emulate SET NULL.
    with _permit_fact_deletes("server wipe"), connection.cursor() as cursor:
        cursor.execute("DELETE FROM memory_fact WHERE server_id = %s", [server.pk])
        facts = cursor.rowcount
    summaries, _ = Summary.objects.filter(server=server).delete()
    exchanges = _delete_exchanges(Exchange.objects.filter(server=server))
    _forget_learning(server)
    audit_record(actor=actor, server=server, action="memory.wipe_server", count=facts + summaries + exchanges,
                 result=f"{facts} fact{pluralize(facts)}, {summaries} summar{pluralize(summaries, 'y,ies')} and "
                        f"{exchanges} exchange{pluralize(exchanges)} deleted"
                        + (f", with {proposals_and_drafts} consolidation proposals and drafts" if proposals_and_drafts
                           else ""))
    return WipeResult(facts=facts, summaries=summaries, exchanges=exchanges)


def _redact_wiped_facts_in_exchanges(server: Server, numbers: list[int], note: str = "deleted by a member wipe"
                                     ) -> int:
    """Other members' exchanges keep, as text, the memory block they were shown: the lines of facts a member
    wipe deleted are replaced by a note, so the wiped facts' words remain nowhere. Every fact is one line that
    starts with its number (memory.bot.prompt); 'n' makes ^ and . work line by line. Returns how many changed."""
    if not numbers:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            r"""
            UPDATE memory_exchange
            SET memory_block = regexp_replace(
                memory_block,
                '^\[#(' || array_to_string(ARRAY(SELECT unnest(shown_numbers) INTERSECT SELECT unnest(%s::int[])),
                                            '|') || ')\] .*',
                '[#\1] (' || %s || ')', 'gn')
            WHERE server_id = %s AND shown_numbers && %s::int[]
            """,
            [numbers, note, server.pk, numbers],
        )
        return cursor.rowcount


@transaction.atomic
def member_wipe(*, server: Server, actor: AbstractBaseUser | None, member_id: str, actor_label: str = ""
                ) -> WipeResult:
    """Delete facts about the member, facts learned from their messages and their exchanges; other members'
    facts are untouched, and their exchanges keep what they were shown without the wiped facts' words.

    Consolidation proposals that quote a wiped fact go too, and so do a summary draft not yet answered and the
    summary's earlier wordings (drafted from facts that may include theirs); rounds are held off as for a server
    wipe."""
    member_id = validate_member_id(member_id)
    hold_rounds_off(server)
    about_member = facts_concerning_member(server, member_id)
    # Facts of other members that these replaced stay, with the link to the deleted replacement cleared.
    Fact.objects.filter(superseded_by__in=about_member).exclude(pk__in=about_member).update(superseded_by=None)
    freed = facts_held_back_by(about_member)  # other members' facts their contradiction flags held back
    proposals_and_drafts = discard_results_quoting(server, about_member)
    with _permit_fact_deletes("member wipe"), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM memory_fact WHERE server_id = %s AND (member_id = %s OR learned_from_member_id = %s)"
            " RETURNING number",
            [server.pk, member_id, member_id],
        )
        numbers = [row[0] for row in cursor.fetchall()]
    held_back_refresh(freed)
    exchanges = _delete_exchanges(Exchange.objects.filter(server=server, author_id=member_id))
    # What they said again of other facts is in those facts' histories under their id: it goes too (the mention
    # counts stay, numbers about no one).
    FactVersion.objects.filter(server=server, member_id=member_id).delete()
    name = Member.objects.filter(server=server, member_id=member_id).values_list("display_name", flat=True).first()
    _forget_member_in_learning(server, member_id, name or "", numbers)
    _forget_member_in_exchanges(server, member_id)
    redacted = _redact_wiped_facts_in_exchanges(server, numbers)
    # The summary's earlier wordings (its history page) may name the member: drafts were written from their
    # facts too, which is why a waiting draft goes. They are free text, so they go whole. The current wording
    # stays for staff to edit (the wipe page says so): deleting it would leave the bot without any summary.
    earlier_summaries, _ = Summary.objects.filter(server=server, retracted_at__isnull=False).delete()
    facts = len(numbers)
    extra = [f"{count} {what}" for count, what in (
        (redacted, f"other exchange{pluralize(redacted)} redacted"),
        (proposals_and_drafts, "consolidation proposals and drafts deleted"),
        (earlier_summaries, f"earlier summary wording{pluralize(earlier_summaries)} deleted")) if count]
    # target_ids holds the member's id; the audit page writes it as a member (memory_extras.audit_targets).
    audit_record(actor=actor, server=server, action="memory.wipe_member", target_ids=[int(member_id)],
                 actor_label=actor_label, count=facts + exchanges,
                 result=f"{facts} fact{pluralize(facts)} about or from member {member_id} and {exchanges} "
                        f"exchange{pluralize(exchanges)} of theirs deleted" + "".join(f", {part}" for part in extra))
    return WipeResult(facts=facts, exchanges=exchanges)


# Another member's exchange that mentioned them: its memory block named them ("Their message mentions Quinn (member
# 222)"), and its mentioned_ids held their id. Both go, with the member directory's name for them.
_FORGET_MEMBER_SQL = """
    WITH named AS (
        DELETE FROM memory_member WHERE server_id = %(server)s AND member_id = %(member)s RETURNING display_name)
    UPDATE memory_exchange SET
        mentioned_ids = array_remove(mentioned_ids, %(member)s::varchar),
        memory_block = regexp_replace(
            CASE WHEN _gone.name IS NULL THEN memory_block
                 ELSE replace(memory_block, _gone.name || ' (member ' || %(member)s || ')', _gone.words) END,
            'member ' || %(member)s || '\\M', _gone.words, 'g')
    FROM (SELECT 'a member whose memory was wiped'::text AS words, (SELECT display_name FROM named) AS name) _gone
    WHERE server_id = %(server)s
      AND (mentioned_ids @> ARRAY[%(member)s::varchar] OR memory_block LIKE '%%member ' || %(member)s || '%%')"""
# (\M: the end of a word, so that member 123's wipe leaves member 1234's mentions as they were.)


def _forget_learning(server: Server) -> None:
    """A server wipe: the messages sent in to learn from, the learning runs (their requests quote them) and the
    channels' notes go; the read position starts again at nothing."""
    ChannelMessage.objects.filter(server=server).delete()
    ChannelNote.objects.filter(server=server).delete()
    LearningRun.objects.filter(server=server).delete()
    LearningState.objects.filter(server=server).update(read_position=0)


# A run that read their messages, or showed its model one of the wiped facts, keeps its counts and times; its
# requests, answers and results, which quote their words, go. A note quotes them when a run that read their
# messages wrote it, or when it names them: every such wording goes (no note is rewritten: the next run writes a new
# one from what is left). Each WITH runs whether or not the statement reads it.
_FORGET_MEMBER_LEARNING_SQL = r"""
    WITH runs AS (
        UPDATE memory_learningrun SET calls = '[]', results = '[]',
            reason = reason || ' (its messages and answers were removed by a member wipe)'
        WHERE server_id = %(server)s AND calls <> '[]' AND (author_ids @> ARRAY[%(member)s::varchar] OR EXISTS (
            SELECT 1 FROM jsonb_array_elements(calls) c, jsonb_array_elements_text(c -> 'known_numbers') n
            WHERE n::int = ANY(%(numbers)s::int[])))
        RETURNING id),
    notes AS (
        DELETE FROM memory_channelnote n WHERE n.server_id = %(server)s
            AND (n.run_id IN (SELECT id FROM memory_learningrun WHERE server_id = %(server)s
                              AND author_ids @> ARRAY[%(member)s::varchar]) OR n.content ~ ('\m' || %(member)s || '\M')
                 OR (%(name)s <> '' AND strpos(lower(n.content), lower(%(name)s)) > 0)))
    DELETE FROM memory_channelmessage WHERE server_id = %(server)s AND author_id = %(member)s"""


def _forget_member_in_learning(server: Server, member_id: str, name: str, numbers: list[int]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_FORGET_MEMBER_LEARNING_SQL, {"server": server.pk, "member": member_id, "name": name,
                                                     "numbers": numbers})


def _forget_member_in_exchanges(server: Server, member_id: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_FORGET_MEMBER_SQL, {"server": server.pk, "member": member_id})


def facts_delete_many(server: Server, doomed: models.QuerySet[Fact], *, reason: str, note: str
                      ) -> tuple[list[int], int]:
    """Delete these facts of the server for good (in the caller's transaction; it audits): the facts they replaced
    stay, unlinked, their contradiction flags and the proposals quoting them go, and exchanges that showed them are
    redacted. Returns the numbers deleted and how many exchanges were redacted."""
    hold_rounds_off(server)
    Fact.objects.filter(superseded_by__in=doomed).exclude(pk__in=doomed).update(superseded_by=None)
    freed = facts_held_back_by(doomed)
    discard_results_quoting(server, doomed)
    ids = list(doomed.values_list("pk", flat=True))
    with _permit_fact_deletes(reason), connection.cursor() as cursor:
        cursor.execute("DELETE FROM memory_fact WHERE server_id = %s AND id = ANY(%s) RETURNING number",
                       [server.pk, ids])
        numbers = [row[0] for row in cursor.fetchall()]
    held_back_refresh(freed)
    return numbers, _redact_wiped_facts_in_exchanges(server, numbers, note=note)


@transaction.atomic
def facts_purge(*, server: Server, source: PurgeSource, actor: AbstractBaseUser | None = None,
                actor_label: str = "") -> int:
    """Delete every fact learned in one channel (its threads included) or in one exchange, in force or not,
    with their vectors and the proposals that quote them; one audit row, also when nothing matched. Facts
    they replaced stay, unlinked. Returns how many facts went."""
    numbers, redacted = facts_delete_many(server, facts_learned_in(server, source), reason=f"purge of "
                                          f"{source.describe()}", note="deleted by a purge")
    removed = len(numbers)
    audit_record(actor=actor, server=server, action="memory.purge", count=removed, actor_label=actor_label,
                 result=f"{removed} fact{pluralize(removed)} learned in {source.describe()} deleted"
                        + (f", {redacted} exchange{pluralize(redacted)} redacted" if redacted else ""))
    return removed
