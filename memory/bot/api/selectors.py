"""The bot API's own reads, beside the bot's hot path (memory.bot.selectors): the facts an exchange still shows
and what the purge checks and names. Read-only."""

from __future__ import annotations

import uuid
from django.db import connection

from config.rows import columns
from memory.facts.selectors import PurgeSource
from memory.models import Channel, Exchange, Fact
from memory.retrieval.audience import Reader, visible_sql
from teams.models import BotToken, Server

# What the API shows of a fact (memory.bot.api.serializers.fact_as_json).
SHOWN_FIELDS = ("id", "server_id", "number", "key", "content", "scope", "member_id", "confidence", "audience",
                "source_channel_id")
_SHOWN_COLUMNS = columns(Fact, "f", SHOWN_FIELDS)
_EXCHANGE_FACTS_SQL = f"""
    SELECT {_SHOWN_COLUMNS.sql} FROM memory_fact f
    WHERE f.server_id = %(server_id)s AND f.number = ANY(%(numbers)s) AND f.retracted_at IS NULL
      AND {visible_sql("f")}
"""


def exchange_facts_visible(exchange: Exchange) -> list[Fact]:
    """The facts shown or found in the exchange that are still in force and that a reply in its channel may
    still see (memory.retrieval.audience), in the order they were shown, then found."""
    numbers = list(dict.fromkeys([*exchange.shown_numbers, *exchange.found_numbers]))
    if not numbers:
        return []
    reader = Reader.for_message(exchange.channel_id, exchange.thread_parent_id)
    with connection.cursor() as cursor:
        cursor.execute(_EXCHANGE_FACTS_SQL, {"server_id": exchange.server_id, "numbers": numbers, **reader.params})
        by_number = {fact.number: fact for fact in map(_SHOWN_COLUMNS.instance, cursor.fetchall())}
    return [by_number[number] for number in numbers if number in by_number]


def exchange_is_on_server(server: Server, exchange_id: uuid.UUID) -> bool:
    return Exchange.objects.filter(server=server, pk=exchange_id).exists()


def purge_source_named(server: Server, source: PurgeSource) -> PurgeSource:
    """The source with its channel's name as last reported, for the audit row ("#mod-chat", not an id)."""
    if not source.channel_id:
        return source
    name = Channel.objects.filter(server=server, channel_id=source.channel_id).values_list("name", flat=True).first()
    return PurgeSource(channel_id=source.channel_id, channel_name=name or "")


def bot_token_label(bot_token: BotToken) -> str:
    """Who a bot's change is audited as: its token, by the name staff gave it, and its prefix."""
    name, prefix = BotToken.objects.filter(pk=bot_token.pk).values_list("name", "prefix").get()
    return f"bot token {name or '(no name)'} ({prefix}…)"
