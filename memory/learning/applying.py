"""A learning run's answers applied: every proposed write through the same services as the bot's remember
(validation, the audience the source channel gives, reinforcement, contradictions caught at write, the remember
limit), each resting on a member's message, with the new read position and the run's end in one transaction."""

from __future__ import annotations

import time
import uuid

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from memory.configuration.channels import channel_access
from memory.configuration.selectors import learned_where
from memory.facts.confidence import source_confidence
from memory.facts.remembering import Remembered, fact_reinforce, fact_remember
from memory.facts.selectors import remembered_last_hour
from memory.facts.services import FactGone
from memory.facts.versions import Actor
from memory.models import (AISettings, AuthorKind, ChannelMessage, Fact, LearnedFrom, LearningRun, LearningRunStatus,
                           Scope)
from memory.types import profile_for
from teams.models import Server

from .claims import UNCLAIMED_SQL
from .notes import channel_note_write
from .prompt import MAX_FACTS_PER_CALL, Proposal, learning_answer


class Refusal(Exception):
    """A proposal that is not applied, and why."""


class _Applying:
    """One run's writes: the rules as they are now, and what the remember limit has counted so far."""

    def __init__(self, server: Server, run: LearningRun, messages: dict[str, ChannelMessage]):
        self.server, self.run, self.messages = server, run, messages
        self.ai_settings = AISettings.objects.filter(server=server).first() or AISettings(server=server)
        self.profile = profile_for(self.ai_settings.memory_type)
        self.written_by: dict[str, int] = {}

    def _remembered_last_hour(self, member_id: str) -> int:
        if member_id not in self.written_by:
            self.written_by[member_id] = remembered_last_hour(self.server.pk, member_id)
        return self.written_by[member_id]

    def _known(self, call: dict, number: int) -> Fact:
        if number not in call.get("known_numbers", []):
            raise Refusal(f"#{number} was not among the facts the model was shown")
        fact = Fact.objects.filter(server=self.server, number=number, retracted_at__isnull=True).first()
        if fact is None:
            raise Refusal(f"#{number} is no longer in force")
        return fact

    def apply(self, call: dict, proposal: Proposal) -> tuple[Remembered, str]:
        """The write a proposal asks for; Refusal saying why not."""
        members_said = [self.messages[message_id] for message_id in proposal.message_ids
                        if message_id in self.messages and not self.messages[message_id].is_bot]
        if not members_said and any(message_id not in self.messages for message_id in proposal.message_ids):
            raise Refusal("the member deleted the message it rests on")
        if not members_said:
            raise Refusal("it rests only on a bot's or a notice's words, never memory on their own")
        author = members_said[0].author_id
        access = channel_access(self.ai_settings, call["channel_id"], call["thread_parent_id"] or None)
        if not access.write_allowed:
            raise Refusal(access.reason)
        limit = self.ai_settings.remember_limit_per_hour
        if self._remembered_last_hour(author) >= limit:
            raise Refusal(f"member {author} reached this server's limit of {limit} remembered facts per hour")
        where = learned_where(self.server, call["channel_id"], call["thread_parent_id"])
        if proposal.op == "reinforce":
            fact = self._known(call, proposal.number)
            cap = source_confidence(author_kind=AuthorKind.BOT, learned_from_member_id=author, scope=fact.scope,
                                    member_id=fact.member_id)
            return Remembered(fact=fact_reinforce(fact=fact, by=Actor.bot(None, author), source_weight=cap),
                              reinforced=True, same_by="the learning model"), ""
        key, scope, member_id, note = proposal.key, proposal.scope, proposal.member_id, ""
        if proposal.op == "contradicts":  # said of the same subject under the same key, so that it is caught
            target = self._known(call, proposal.number)
            key, scope, member_id = proposal.key or target.key, target.scope, target.member_id
            note = f"contradicts #{target.number}"
        if scope == Scope.MEMBER and not member_id:
            member_id = author  # "I …": about the member who said it
        remembered = fact_remember(
            server=self.server, exchange=None, member_id_of_author=author, key=key, content=proposal.content,
            scope=scope, member_id=member_id, importance=proposal.importance, confidence=proposal.confidence,
            kind=proposal.kind, audience=where.audience, source_channel_id=where.source_channel_id,
            source_thread_id=where.source_thread_id, flag_contradictions=self.profile.flags_contradictions,
            by_meaning=self.profile.embeds)
        if not remembered.reinforced:
            self.written_by[author] = self._remembered_last_hour(author) + 1
        return remembered, note


def _result(proposal: Proposal, status: str, number: int | None = None, detail: str = "") -> dict:
    return {"op": proposal.op, "key": proposal.key, "content": proposal.content, "member_id": proposal.member_id,
            "message_ids": list(proposal.message_ids), "status": status, "number": number, "detail": detail,
            "item": ""}


def _apply_call(applying: _Applying, call: dict) -> list[dict]:
    answer = learning_answer(call["answer"], set(call["message_ids"]), MAX_FACTS_PER_CALL)
    # Every result has the same fields (the run's page reads them all): an item that was no proposal keeps its text.
    results = [{"op": "?", "key": "", "content": "", "member_id": "", "message_ids": [], "status": "refused",
                "number": None, "detail": refused.reason, "item": str(refused.item)[:300]}
               for refused in answer.refused]
    for proposal in answer.proposals:
        try:
            with transaction.atomic():  # a savepoint: a refused write leaves the others standing
                remembered, note = applying.apply(call, proposal)
                LearnedFrom.objects.create(fact=remembered.fact, run=applying.run,
                                           message_ids=list(proposal.message_ids), reinforced=remembered.reinforced)
        except Refusal as refusal:
            results.append(_result(proposal, "refused", detail=str(refusal)))
            continue
        except (ValidationError, FactGone, DatabaseError) as invalid:
            reason = " ".join(getattr(invalid, "messages", [str(invalid)]))
            results.append(_result(proposal, "refused", detail=reason[:300]))
            continue
        notes = [note] if note else []
        notes += [f"flagged against #{', #'.join(map(str, remembered.contradicts))}"] if remembered.contradicts else []
        if remembered.reinforced:
            notes.append(f"already known as #{remembered.fact.number}: mentioned {remembered.fact.mention_count} "
                         "times")
        results.append(_result(proposal, "reinforced" if remembered.reinforced else "written",
                               remembered.fact.number, "; ".join(notes)))
    if answer.note is not None and channel_note_write(applying.server, call["channel_id"], answer.note,
                                                      applying.run):
        applying.run.notes_written += 1
    return results


_LOCK_STATE_SQL = "SELECT read_position, claim_token FROM memory_learningstate WHERE server_id = %s FOR UPDATE"
_MOVE_SQL = f"UPDATE memory_learningstate SET read_position = %s, {UNCLAIMED_SQL} WHERE server_id = %s"


@transaction.atomic
def run_apply(server: Server, run: LearningRun, token: uuid.UUID, messages: dict[str, ChannelMessage]) -> str:
    """Apply every call's answer, move the read position past the run's messages and end the run: one transaction,
    and only when the read position is still where the run began (otherwise its messages were applied already)."""
    started = time.monotonic()
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_STATE_SQL, [server.pk])
        position, holder = cursor.fetchone()
    if holder != token:
        return "The claim ran out before the run could apply: the next run resumes it."
    if position != run.after_position:
        run.status, run.reason, run.ended_at = LearningRunStatus.SUPERSEDED, "Its messages were applied by " \
                                                                            "another run.", timezone.now()
        run.save(update_fields=["status", "reason", "ended_at"])
        return run.reason
    # Read again under the lock messages_deleted also takes: a message deleted while the model was asked is no longer
    # evidence, and no fact is written from it after its delete withdrew what it taught.
    still_there = set(ChannelMessage.objects.filter(server=server, message_id__in=list(messages))
                      .values_list("message_id", flat=True))
    applying = _Applying(server, run, {message_id: message for message_id, message in messages.items()
                                       if message_id in still_there})
    results = [result for call in run.calls for result in _apply_call(applying, call)]
    run.results = results
    run.written = sum(result["status"] == "written" for result in results)
    run.reinforced = sum(result["status"] == "reinforced" for result in results)
    run.refused = sum(result["status"] == "refused" for result in results)
    run.status, run.ended_at = LearningRunStatus.DONE, timezone.now()
    run.database_ms = round((time.monotonic() - started) * 1000)
    run.reason = (f"{len(run.message_ids)} messages read: {run.written} written, {run.reinforced} reinforced, "
                  f"{run.refused} refused.")
    if len(still_there) < len(messages):  # as messages_deleted does for a run that had ended
        run.calls = []
        run.reason += " (its requests were removed: a member deleted a message it read)"
    run.save()
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_SQL, [run.upto_position, server.pk])
    return run.reason
