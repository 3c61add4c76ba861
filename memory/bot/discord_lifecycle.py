"""Discord's message lifecycle in the adapter (issue 24): a message deleted in Discord — by its author or by a
moderator, alone or in a bulk delete — withdraws what was learned from it (memory.learning.deletions). An edited
message changes nothing learned from it (the fact's page links the message). The mixin only wires Discord's raw
events, which come for every message, cached or not, to the database side, run in the adapter's database threads."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from memory.learning.deletions import DeletedOutcome, messages_deleted

from .discord_concurrency import in_django
from .discord_servers import guild_server

logger = logging.getLogger(__name__)


def guild_messages_deleted(guild_id: str, team_id: int, message_ids: list[str]) -> DeletedOutcome | None:
    """Withdraw what was learned from these messages of the team's server of the guild; None for another guild."""
    server = guild_server(guild_id, team_id)
    if server is None:
        return None
    return messages_deleted(server=server, message_ids=message_ids, actor_label="Discord")


class MessageLifecycle:
    """Deletes, for LorekeeperBot (which holds `installation`: the team the bot runs for)."""

    installation: object | None

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._messages_deleted(payload.guild_id, [payload.message_id])

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        await self._messages_deleted(payload.guild_id, payload.message_ids)

    async def _messages_deleted(self, guild_id: int | None, message_ids: Iterable[int]) -> None:
        if guild_id is None or self.installation is None:
            return  # a direct message, or before the installation is known: nothing of a server's memory
        ids = sorted(str(message_id) for message_id in message_ids)
        outcome = await in_django(guild_messages_deleted)(str(guild_id), self.installation.team_id, ids)
        if outcome is not None and outcome.withdrawn:
            logger.info("Guild %s: %d deleted message(s) withdrew fact(s) %s", guild_id, len(ids), outcome.withdrawn)
