"""The bot API's own reads, beside the bot's hot path (memory.bot.selectors): whether an exchange is the
server's, and what the purge checks and names. Read-only."""

from __future__ import annotations

import uuid

from memory.facts.selectors import PurgeSource
from memory.models import Channel, Exchange
from teams.models import BotToken, Server


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
