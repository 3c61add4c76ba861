"""Discord's message lifecycle (issue 24): when a member deletes a message, what was learned from it is withdrawn
from the bot, and the message's words go from what Lorekeeper stored.

"Learned from" a message, exactly: a fact a learning run wrote citing it (LearnedFrom, not a reinforcement), or a
fact the bot remembered in the exchange that answered it (Exchange.message_id). A fact that only became more certain
through the message was already known without it and stays. Withdrawn means: from Ledger up, retracted with the
reason (staff may restore it); under Classic, whose retract deletes, nothing is removed automatically: the fact gets
the staff audience, which no context or search ever hands to the model, and the memory page flags it for staff to
decide. Either way `source_deleted_at` says why, until staff restore it or choose an audience.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.template.defaultfilters import pluralize

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.services import fact_retract
from memory.facts.versions import Actor, changed_fields, snapshot, version_record
from memory.models import Audience, ChannelMessage, Exchange, Fact, LearnedFrom, VersionChange
from memory.types import profile_for
from teams.models import Server
from teams.services import audit_record

WITHDRAWN_REASON = "the member deleted the message it came from"
DELETED_MESSAGES_MAX = 100  # Discord's bulk delete removes at most 100 messages at once


@dataclass(frozen=True)
class DeletedOutcome:
    withdrawn: list[int]  # the numbers of the facts withdrawn from the bot
    messages_removed: int  # stored messages (to learn from) and answered messages' texts removed


# The learning run re-reads its messages under this lock before it applies (memory.learning.applying): a delete and an
# apply never cross, so no fact is written from a message after its delete withdrew what it taught.
_LOCK_STATE_SQL = "SELECT 1 FROM memory_learningstate WHERE server_id = %s FOR UPDATE"

# Runs that read a deleted message keep their counts; the requests and answers quoting its words go (as a wipe does).
_FORGET_IN_RUNS_SQL = """
    UPDATE memory_learningrun SET calls = '[]', results = '[]',
        reason = reason || ' (its messages and answers were removed: a member deleted a message it read)'
    WHERE server_id = %s AND calls <> '[]' AND message_ids && %s::varchar[]"""


def facts_learned_from_messages(server: Server, message_ids: Collection[str]):
    """The facts still handed to the bot that were learned from one of these Discord messages."""
    ids = list(message_ids)
    from_runs = LearnedFrom.objects.filter(fact__server=server, reinforced=False, message_ids__overlap=ids)
    return (Fact.objects.filter(server=server, retracted_at__isnull=True, source_deleted_at__isnull=True)
            .filter(Q(pk__in=from_runs.values("fact_id"))
                    | Q(source_exchange__server=server, source_exchange__message_id__in=ids))
            .order_by("number"))


def _withhold(fact: Fact, actor: Actor, at) -> None:
    """Classic: the staff audience (never shown to the model), kept for staff to decide."""
    old = snapshot(fact, ("audience",))
    fact.audience, fact.source_deleted_at = Audience.STAFF, at
    fact.version += 1
    fact.save(update_fields=["audience", "source_deleted_at", "version"])
    old, new = changed_fields(old, snapshot(fact, ("audience",)))
    version_record(fact, VersionChange.AUDIENCE, actor, before=old, after=new, reason=WITHDRAWN_REASON, at=at)


@transaction.atomic
def messages_deleted(*, server: Server, message_ids: Collection[str], actor_label: str = "Discord") -> DeletedOutcome:
    """Withdraw what was learned from the deleted messages (see the module's note) and remove their words: the stored
    messages to learn from, the text of the exchanges that answered them, the learning runs' requests that quote
    them. One audit row when anything changed. Deleting a message Lorekeeper never saw changes nothing."""
    ids = sorted(set(message_ids))
    if not ids:
        return DeletedOutcome([], 0)
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_STATE_SQL, [server.pk])
        cursor.execute(_FORGET_IN_RUNS_SQL, [server.pk, ids])
    removed, _ = ChannelMessage.objects.filter(server=server, message_id__in=ids).delete()
    profile = profile_for(ai_settings_for_server(server).memory_type)
    actor, now = Actor.system(f"{actor_label} (a member deleted the message)"), timezone.now()
    withdrawn = []
    for fact in facts_learned_from_messages(server, ids).select_for_update(of=("self",)):
        if profile.retract_deletes:
            _withhold(fact, actor, now)
        else:
            retracted = fact_retract(fact=fact, reason=WITHDRAWN_REASON, by=actor, at=now)
            Fact.objects.filter(pk=retracted.pk).update(source_deleted_at=now)
        withdrawn.append(fact.number)
    # An exchange whose message is empty while it names its message was deleted (every answered message has text).
    removed += Exchange.objects.filter(server=server, message_id__in=ids).exclude(message="").update(message="")
    if withdrawn or removed:
        how = "given the staff audience" if profile.retract_deletes else "retracted"
        audit_record(actor=None, server=server, action="memory.message_deleted", target_ids=withdrawn,
                     count=len(withdrawn), actor_label=actor_label,
                     result=f"{len(ids)} deleted Discord message{pluralize(len(ids))}: {len(withdrawn)} "
                            f"fact{pluralize(len(withdrawn))} learned from them {how}")
    return DeletedOutcome(withdrawn, removed)
