"""The names of a server's Discord channels and threads, as the bot reports them, so the panel can show names."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import models, transaction
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
