"""Members' messages as a bot sends them in (POST /api/v1/servers/{guild}/messages): stored where memory may be
written, once per Discord message, and the server's learning run queued to read them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction

from config.queue import enqueue_on_commit
from memory.configuration.channels import channel_access
from memory.configuration.directory import MEMBERS_SEEN_WITH_SQL, SeenMember, members_seen_params, seen_names
from memory.configuration.selectors import ai_settings_for_server
from teams.models import Server

INGEST_MAX_MESSAGES = 100


@dataclass(frozen=True)
class IngestedMessage:
    message_id: str
    channel_id: str
    thread_parent_id: str
    author_id: str
    author_name: str
    is_bot: bool
    content: str
    sent_at: datetime


@dataclass
class IngestOutcome:
    accepted: int = 0
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (message id, why)


# One statement: the messages not stored yet (ON CONFLICT: the same Discord id twice is stored once) and the
# authors' display names (the member directory: a data-modifying WITH runs whether or not it is read), the stored
# ids returned.
_INSERT_SQL = MEMBERS_SEEN_WITH_SQL + """
    INSERT INTO memory_channelmessage (server_id, message_id, channel_id, thread_parent_id, author_id, author_name,
                                       is_bot, content, sent_at, received_at)
    SELECT %s, m.message_id, m.channel_id, m.thread_parent_id, m.author_id, m.author_name, m.is_bot, m.content,
           m.sent_at, now()
    FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::bool[], %s::text[],
                %s::timestamptz[]) WITH ORDINALITY AS m(message_id, channel_id, thread_parent_id, author_id,
                                                        author_name, is_bot, content, sent_at, position)
    ORDER BY m.position
    ON CONFLICT (server_id, message_id) DO NOTHING
    RETURNING message_id
"""


def _insert(server: Server, messages: Sequence[IngestedMessage]) -> set[str]:
    names = seen_names(SeenMember(message.author_id, message.author_name) for message in messages
                       if not message.is_bot)
    columns = [[getattr(message, name) for message in messages] for name in (
        "message_id", "channel_id", "thread_parent_id", "author_id", "author_name", "is_bot", "content", "sent_at")]
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_SQL, [*members_seen_params(server, names), server.pk, *columns])
        return {row[0] for row in cursor.fetchall()}


@transaction.atomic
def messages_ingest(*, server: Server, messages: Sequence[IngestedMessage]) -> IngestOutcome:
    """Store the messages of channels where memory may be written (oldest first, as given), each Discord message
    once; a message of a channel where writing is not allowed is ignored with the reason, and so is one already
    stored. A bot's or a system message is kept as context for the learning run, never learned from."""
    ai_settings = ai_settings_for_server(server)  # the API's server comes with them (memory.bot.selectors)
    outcome = IngestOutcome()
    allowed: list[IngestedMessage] = []
    seen: set[str] = set()
    for message in messages:
        access = channel_access(ai_settings, message.channel_id, message.thread_parent_id or None)
        if message.message_id in seen:
            outcome.ignored.append((message.message_id, "given twice in this request: stored once"))
        elif not access.write_allowed:
            outcome.ignored.append((message.message_id, access.reason))
        else:
            allowed.append(message)
        seen.add(message.message_id)
    stored = _insert(server, allowed) if allowed else set()
    outcome.accepted = len(stored)
    outcome.ignored += [(message.message_id, "already received: stored once") for message in allowed
                        if message.message_id not in stored]
    if any(not message.is_bot for message in allowed if message.message_id in stored):
        enqueue_on_commit("memory.tasks.learn_from_messages", server.pk)
    return outcome
