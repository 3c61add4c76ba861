"""The names of a server's Discord channels and threads, as the bot reports them, so the panel can show names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import connection, models, transaction
from django.utils import timezone

from memory.models import Channel
from teams.models import SNOWFLAKE_REGEX, Server

NAME_MAX_LENGTH = 100


@dataclass(frozen=True)
class ReportedChannel:
    """One channel or thread as Discord shows it; `parent_id` is the channel a thread was started in."""

    channel_id: str
    name: str
    parent_id: str = ""
    is_thread: bool = False
    public: bool = False  # @everyone can view it; what is not reported as public counts as private


def _validated(channel: ReportedChannel) -> ReportedChannel:
    if not re.fullmatch(SNOWFLAKE_REGEX, channel.channel_id):
        raise ValidationError({"channel_id": f"A channel id is a number of 1–20 digits; not {channel.channel_id!r}."})
    if channel.parent_id and not re.fullmatch(SNOWFLAKE_REGEX, channel.parent_id):
        raise ValidationError({"parent_id": f"A channel id is a number of 1–20 digits; not {channel.parent_id!r}."})
    if channel.is_thread and not channel.parent_id:
        raise ValidationError({"parent_id": f"Thread {channel.channel_id} was reported without its channel."})
    return ReportedChannel(channel_id=channel.channel_id, name=channel.name.strip()[:NAME_MAX_LENGTH],
                           parent_id=channel.parent_id if channel.is_thread else "", is_thread=channel.is_thread,
                           public=bool(channel.public))


@transaction.atomic
def channels_report(*, server: Server, channels: Iterable[ReportedChannel]) -> int:
    """Insert or update one row per reported channel, all or none; rows not reported are left as they are.
    Returns how many channels were stored."""
    # One row per id: Postgres refuses an upsert that would touch the same row twice.
    latest = {channel.channel_id: _validated(channel) for channel in channels}
    if not latest:
        return 0
    now = timezone.now()
    Channel.objects.bulk_create(
        [Channel(server=server, channel_id=channel.channel_id, name=channel.name, parent_id=channel.parent_id,
                 is_thread=channel.is_thread, public=channel.public, reported_at=now) for channel in latest.values()],
        update_conflicts=True,
        unique_fields=["server", "channel_id"],
        update_fields=["name", "parent_id", "is_thread", "public", "reported_at"],
    )
    return len(latest)


@transaction.atomic
def channels_forget(*, server: Server, channel_ids: Iterable[str]) -> int:
    """Delete the rows of these channels and of the threads started in them (Discord deleted them).
    Returns how many rows went."""
    ids = list(channel_ids)
    deleted, _ = Channel.objects.filter(server=server).filter(
        models.Q(channel_id__in=ids) | models.Q(parent_id__in=ids)
    ).delete()
    return deleted


@dataclass(frozen=True)
class SeenMember:
    """A member as a message shows them: their Discord user id and display name."""

    member_id: str
    display_name: str


def seen_names(members: Iterable[SeenMember]) -> dict[str, str]:
    """Member id → the display name to store, of the members given: ids that are not snowflakes and empty names
    are skipped (a name is a courtesy, never a reason to fail a reply), the last name of an id counts."""
    latest = {member.member_id: member.display_name.replace("\x00", "").strip()[:NAME_MAX_LENGTH]
              for member in members if re.fullmatch(SNOWFLAKE_REGEX, member.member_id or "")}
    return {member_id: name for member_id, name in latest.items() if name}


# The upsert of members_seen, as a WITH clause another statement can run (the context call's exchange INSERT:
# memory.bot.exchanges); positional parameters: the server, the ids, the names (seen_names), the server again.
# A name stored as it is is left out before the INSERT, so it neither writes nor locks the row.
MEMBERS_SEEN_WITH_SQL = """
    WITH members_seen AS (
        INSERT INTO memory_member (server_id, member_id, display_name, seen_at)
        SELECT %s, seen.member_id, seen.display_name, now()
        FROM unnest(%s::text[], %s::text[]) AS seen(member_id, display_name)
        WHERE NOT EXISTS (SELECT 1 FROM memory_member known WHERE known.server_id = %s
                          AND known.member_id = seen.member_id AND known.display_name = seen.display_name)
        ON CONFLICT (server_id, member_id) DO UPDATE
            SET display_name = EXCLUDED.display_name, seen_at = EXCLUDED.seen_at
            WHERE memory_member.display_name IS DISTINCT FROM EXCLUDED.display_name
        RETURNING 1)"""


def members_seen_params(server: Server, names: dict[str, str]) -> list:
    return [server.pk, list(names), list(names.values()), server.pk]


def members_seen(*, server: Server, members: Iterable[SeenMember]) -> int:
    """Remember each member's latest display name (for "about Paul (222)"); a name already stored as it is costs
    no write. Ids that are not snowflakes and empty names are skipped: a name is a courtesy, never a reason to fail
    a reply. Returns how many rows were written."""
    latest = seen_names(members)
    if not latest:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(f"{MEMBERS_SEEN_WITH_SQL} SELECT count(*) FROM members_seen",
                       members_seen_params(server, latest))
        return cursor.fetchone()[0]
