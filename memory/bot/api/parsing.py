"""Turn API request bodies into validated values, or raise ApiError(400) naming the field and its range."""

from __future__ import annotations

import re
import uuid
from datetime import timezone as dt_timezone
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memory.bot.actions import MemoryOp, Retract, Supersede, build_remember, validate_number, validate_reason
from memory.bot.exchanges import MENTIONS_MAX, MESSAGE_MAX_LENGTH, IncomingMessage
from memory.configuration.directory import NAME_MAX_LENGTH as CHANNEL_NAME_MAX_LENGTH
from memory.configuration.directory import ReportedChannel, SeenMember
from memory.facts.selectors import PurgeSource
from memory.learning.deletions import DELETED_MESSAGES_MAX
from memory.learning.ingest import INGEST_MAX_MESSAGES, IngestedMessage
from memory.text.limits import validate_content, validate_unit_interval
from teams.models import SNOWFLAKE_REGEX

from ..reply import HISTORY_LIMIT, HistoryMessage
from .http import ApiError

MAX_OPS_PER_KIND = 50
NAME_MAX_LENGTH = 100
QUERY_MAX_LENGTH = 500


def _only_fields(body: dict, allowed: set[str], prefix: str = "") -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ApiError(400, f"Unknown field '{prefix}{unknown[0]}'; allowed: {', '.join(sorted(allowed))}.",
                       f"{prefix}{unknown[0]}")


def _snowflake(body: dict, name: str, *, required: bool = True, field: str | None = None) -> str:
    value = body.get(name)
    if value is None and not required:
        return ""
    field = field or name
    if not isinstance(value, str) or not re.fullmatch(SNOWFLAKE_REGEX, value):
        raise ApiError(400, f"'{field}' must be a Discord id: a string of 1–20 digits.", field)
    return value


def _text(body: dict, name: str, max_length: int, *, required: bool = True, field: str | None = None) -> str:
    value = body.get(name, None if required else "")
    field = field or name
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > max_length:
        low = 1 if required else 0
        raise ApiError(400, f"'{field}' must be text of {low}–{max_length} characters.", field)
    if "\x00" in value:
        raise ApiError(400, f"'{field}' must not contain NUL characters (\\u0000).", field)
    return value


CONTEXT_FIELDS = {"channel_id", "thread_parent_id", "author_id", "author_name", "content", "mentions",
                  "message_id"}


def parse_mentions(body: dict[str, Any]) -> tuple[SeenMember, ...]:
    """The members the message mentions, [{"id": "333", "name": "Mira"}], at most MENTIONS_MAX; the author and an
    id given twice count once."""
    raw = body.get("mentions", [])
    if not isinstance(raw, list) or len(raw) > MENTIONS_MAX:
        raise ApiError(400, f"'mentions' must be a list of at most {MENTIONS_MAX} members, each "
                            "{\"id\": \"<Discord id>\", \"name\": \"<display name>\"}.", "mentions")
    mentions: dict[str, SeenMember] = {}
    for index, item in enumerate(raw):
        prefix = f"mentions[{index}]."
        if not isinstance(item, dict):
            raise ApiError(400, f"'mentions[{index}]' must be an object with id and name.", f"mentions[{index}]")
        _only_fields(item, {"id", "name"}, prefix)
        member_id = _snowflake(item, "id", field=f"{prefix}id")
        name = _text(item, "name", NAME_MAX_LENGTH, required=False, field=f"{prefix}name")
        mentions.setdefault(member_id, SeenMember(member_id, name))
    return tuple(mentions.values())


def parse_message(body: dict[str, Any], *, extra_fields: set[str] = frozenset()) -> IncomingMessage:
    _only_fields(body, CONTEXT_FIELDS | set(extra_fields))
    author_id = _snowflake(body, "author_id")
    return IncomingMessage(
        channel_id=_snowflake(body, "channel_id"),
        thread_parent_id=_snowflake(body, "thread_parent_id", required=False),
        author_id=author_id,
        author_name=_text(body, "author_name", NAME_MAX_LENGTH, required=False),
        content=_text(body, "content", MESSAGE_MAX_LENGTH),
        mentions=tuple(member for member in parse_mentions(body) if member.member_id != author_id),
        message_id=_snowflake(body, "message_id", required=False),
    )


def parse_history(body: dict[str, Any]) -> list[HistoryMessage]:
    raw = body.get("history", [])
    if not isinstance(raw, list) or len(raw) > HISTORY_LIMIT:
        raise ApiError(400, f"'history' must be a list of at most {HISTORY_LIMIT} messages, oldest first.", "history")
    history = []
    for index, item in enumerate(raw):
        prefix = f"history[{index}]."
        if not isinstance(item, dict):
            raise ApiError(400, f"'history[{index}]' must be an object with author_name, content and is_bot.",
                           f"history[{index}]")
        _only_fields(item, {"author_name", "content", "is_bot"}, prefix)
        is_bot = item.get("is_bot", False)
        if not isinstance(is_bot, bool):
            raise ApiError(400, f"'{prefix}is_bot' must be true or false.", f"{prefix}is_bot")
        if "content" not in item:
            raise ApiError(400, f"'{prefix}content' must be text of 0–{MESSAGE_MAX_LENGTH} characters.",
                           f"{prefix}content")
        author_name = _text(item, "author_name", NAME_MAX_LENGTH, required=False, field=f"{prefix}author_name")
        content = _text(item, "content", MESSAGE_MAX_LENGTH, required=False, field=f"{prefix}content")
        if content.strip():  # a message of only an attachment or a sticker has no text: nothing to pass on
            history.append(HistoryMessage(author_name=author_name, content=content, is_bot=is_bot))
    return history


def parse_search(body: dict[str, Any]) -> str:
    _only_fields(body, {"query"})
    return _text(body, "query", QUERY_MAX_LENGTH).strip()


def _field_error(error: ValidationError, prefix: str) -> ApiError:
    name, messages = next(iter(error.message_dict.items())) if hasattr(error, "error_dict") else ("", error.messages)
    return ApiError(400, f"{prefix}{name}: {' '.join(messages)}", f"{prefix}{name}")


def parse_actions(body: dict[str, Any]) -> list[MemoryOp]:
    """All ops of one call, validated together: one bad op refuses the whole call (nothing half-applied)."""
    _only_fields(body, {"retract", "supersede", "remember"})
    ops: list[MemoryOp] = []
    for kind in ("retract", "supersede", "remember"):
        items = body.get(kind, [])
        if not isinstance(items, list) or len(items) > MAX_OPS_PER_KIND:
            raise ApiError(400, f"'{kind}' must be a list of at most {MAX_OPS_PER_KIND} items.", kind)
        for index, item in enumerate(items):
            prefix = f"{kind}[{index}]."
            if not isinstance(item, dict):
                raise ApiError(400, f"'{kind}[{index}]' must be an object.", f"{kind}[{index}]")
            try:
                if kind == "retract":
                    _only_fields(item, {"number", "reason"}, prefix)
                    ops.append(Retract(number=validate_number(item.get("number")),
                                       reason=validate_reason(item.get("reason", ""))))
                elif kind == "supersede":
                    _only_fields(item, {"number", "content", "reason"}, prefix)
                    content = item.get("content")
                    ops.append(Supersede(number=validate_number(item.get("number")),
                                         content=validate_content(content if isinstance(content, str) else ""),
                                         reason=validate_reason(item.get("reason", ""))))
                else:
                    _only_fields(item, {"key", "content", "scope", "member_id", "importance", "confidence",
                                        "audience", "kind"}, prefix)
                    ops.append(build_remember(
                        key=item.get("key"), content=item.get("content"),
                        # A member_id without a scope says whom the fact is about, as the reply tool's does.
                        scope=item.get("scope", "server" if item.get("member_id") in (None, "") else "member"),
                        member_id=item.get("member_id"), importance=item.get("importance"),
                        # Left out: what the source allows; given, it must be a number (null is not one).
                        confidence=validate_unit_interval(item["confidence"], "confidence")
                        if "confidence" in item else None,
                        audience=item.get("audience"), kind=item.get("kind")))
            except ValidationError as invalid:
                raise _field_error(invalid, prefix) from None
    return ops


# Channels, purge and members ------------------------------------------------------

CHANNELS_MAX = 500
CHANNEL_FIELDS = {"id", "name", "public", "parent_id"}
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def parse_channels(body: dict[str, Any]) -> list[ReportedChannel]:
    """The channels and threads a bot reports (a thread names its channel in parent_id), all checked first."""
    _only_fields(body, {"channels"})
    raw = body.get("channels")
    if not isinstance(raw, list) or len(raw) > CHANNELS_MAX:
        raise ApiError(400, f"'channels' must be a list of at most {CHANNELS_MAX} channels.", "channels")
    channels = []
    for index, item in enumerate(raw):
        prefix = f"channels[{index}]."
        if not isinstance(item, dict):
            raise ApiError(400, f"'channels[{index}]' must be an object with id, name, public and parent_id.",
                           f"channels[{index}]")
        _only_fields(item, CHANNEL_FIELDS, prefix)
        channel_id = _snowflake(item, "id", field=f"{prefix}id")
        name = _text(item, "name", CHANNEL_NAME_MAX_LENGTH, field=f"{prefix}name")
        public = item.get("public")
        if not isinstance(public, bool):
            raise ApiError(400, f"'{prefix}public' must be true or false: whether @everyone can view the channel.",
                           f"{prefix}public")
        parent_id = _snowflake(item, "parent_id", required=False, field=f"{prefix}parent_id")
        channels.append(ReportedChannel(channel_id=channel_id, name=name, parent_id=parent_id,
                                        is_thread=bool(parent_id), public=public))
    return channels


def parse_purge(body: dict[str, Any]) -> PurgeSource:
    """One source of facts to purge: a channel (its threads included) or an exchange, never both."""
    _only_fields(body, {"channel_id", "exchange"})
    if "channel_id" in body and "exchange" in body:
        raise ApiError(400, "Name one source to purge, 'channel_id' or 'exchange', not both.", "exchange")
    if "exchange" in body:
        value = body["exchange"]
        if not isinstance(value, str) or not _UUID.fullmatch(value):
            raise ApiError(400, "'exchange' must be an exchange id (a UUID, as the context call answered it).",
                           "exchange")
        return PurgeSource(exchange_id=uuid.UUID(value))
    if "channel_id" not in body:
        raise ApiError(400, "Name what to purge: 'channel_id' (a channel and its threads) or 'exchange' (an "
                            "exchange id).", "channel_id")
    return PurgeSource(channel_id=_snowflake(body, "channel_id"))


def parse_member_id(member_id: str) -> str:
    """The member of the address; a Discord id or a 400 (the address matched, so it is not a 404)."""
    return _snowflake({"member_id": member_id}, "member_id")


def parse_forget(body: dict[str, Any]) -> str:
    """The member's name for the request staff will see (optional)."""
    _only_fields(body, {"member_name"})
    return _text(body, "member_name", NAME_MAX_LENGTH, required=False).strip()


# Messages to learn from -----------------------------------------------------------

INGEST_FIELDS = {"id", "channel_id", "thread_parent_id", "author_id", "author_name", "is_bot", "content", "sent_at"}


def _sent_at(item: dict, field: str):
    value = item.get("sent_at")
    try:
        sent_at = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # the right shape with an impossible value ("2026-02-30T10:00:00Z")
        sent_at = None
    try:
        # Without an offset it is taken as UTC, as Discord's own timestamps are; stored as UTC (PostgreSQL takes
        # offsets up to 15:59 only, ISO 8601 up to 23:59).
        if sent_at is not None:
            sent_at = (sent_at if timezone.is_aware(sent_at) else sent_at.replace(tzinfo=dt_timezone.utc)
                       ).astimezone(dt_timezone.utc)
    except OverflowError:  # 0001-01-01T00:00:00+01:00 is before the first day a date can hold
        sent_at = None
    if sent_at is None:
        raise ApiError(400, f"'{field}' must be a date and time in ISO 8601, e.g. 2026-05-03T18:30:00Z.", field)
    return sent_at


def parse_ingest(body: dict[str, Any]) -> list[IngestedMessage]:
    """Up to INGEST_MAX_MESSAGES messages, oldest first, all checked before any is stored."""
    _only_fields(body, {"messages"})
    raw = body.get("messages")
    if not isinstance(raw, list) or not 1 <= len(raw) <= INGEST_MAX_MESSAGES:
        raise ApiError(400, f"'messages' must be a list of 1–{INGEST_MAX_MESSAGES} messages, oldest first.",
                       "messages")
    messages = []
    for index, item in enumerate(raw):
        prefix = f"messages[{index}]."
        if not isinstance(item, dict):
            raise ApiError(400, f"'messages[{index}]' must be an object with id, channel_id, author_id, content "
                                "and sent_at.", f"messages[{index}]")
        _only_fields(item, INGEST_FIELDS, prefix)
        is_bot = item.get("is_bot", False)
        if not isinstance(is_bot, bool):
            raise ApiError(400, f"'{prefix}is_bot' must be true or false.", f"{prefix}is_bot")
        messages.append(IngestedMessage(
            message_id=_snowflake(item, "id", field=f"{prefix}id"),
            channel_id=_snowflake(item, "channel_id", field=f"{prefix}channel_id"),
            thread_parent_id=_snowflake(item, "thread_parent_id", required=False, field=f"{prefix}thread_parent_id"),
            author_id=_snowflake(item, "author_id", field=f"{prefix}author_id"),
            author_name=_text(item, "author_name", NAME_MAX_LENGTH, required=False, field=f"{prefix}author_name"),
            is_bot=is_bot,
            content=_text(item, "content", MESSAGE_MAX_LENGTH, field=f"{prefix}content"),
            sent_at=_sent_at(item, f"{prefix}sent_at"),
        ))
    return messages


def parse_deleted(body: dict[str, Any]) -> list[str]:
    """The Discord ids of deleted messages: 1–DELETED_MESSAGES_MAX (Discord's bulk delete), each a snowflake."""
    _only_fields(body, {"message_ids"})
    raw = body.get("message_ids")
    if not isinstance(raw, list) or not 1 <= len(raw) <= DELETED_MESSAGES_MAX:
        raise ApiError(400, f"'message_ids' must be a list of 1–{DELETED_MESSAGES_MAX} Discord message ids.",
                       "message_ids")
    return [_snowflake({"id": item}, "id", field=f"message_ids[{index}]") for index, item in enumerate(raw)]
