"""The Discord bot's installation and its servers (synchronous; memory.bot.discord calls these in its database
threads). An installation (teams.models.DiscordBot) is one Discord application run for one team; every guild it is
in becomes a server of that team by itself, with the AI settings' defaults (Classic; memory read and written in every
channel, what is learned in a channel @everyone cannot view staying there; no reply channels, so the bot answers only
when mentioned); a guild it leaves is marked as left, its memory kept. A guild that is another team's server is left
alone: the bot neither answers nor reports there.
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction

from memory.configuration.services import ai_settings_ensure
from teams.models import DiscordBot, Server, Team
from teams.services import GuildJoin, discord_bot_register, server_join_by_bot, server_leave_by_bot

logger = logging.getLogger(__name__)


class InstallationRefused(Exception):
    """The bot cannot run as asked; the message says why and what to do, in a sentence."""


def team_named(name: str) -> Team:
    """The team of `runbot --team NAME`; refused with the teams there are when no team has the name."""
    team = Team.objects.filter(name=name.strip()).first()
    if team is None:
        names = ", ".join(Team.objects.order_by("name").values_list("name", flat=True)[:20]) or "none yet"
        raise InstallationRefused(f"No team is named “{name.strip()}” (the teams: {names}); add it in admin "
                                  "(Teams) or check the spelling.")
    return team


def installation_resolve(*, application_id: str, team: Team | None) -> DiscordBot:
    """The installation of the application Discord reported on login: with a team, that team's (registered now
    when new); without one, the installation registered in admin for the application id."""
    if team is not None:
        try:
            return discord_bot_register(team=team, application_id=application_id)
        except ValidationError as refused:
            raise InstallationRefused(" ".join(refused.messages)) from None
    bot = DiscordBot.objects.select_related("team").filter(application_id=application_id).first()
    if bot is None:
        raise InstallationRefused(
            f"No Discord bot with application id {application_id} is registered: add it in admin (Discord bots) "
            "with the team it runs for, or run `manage.py runbot --team NAME` once.")
    return bot


def guild_server(guild_id: str, team_id: int) -> Server | None:
    """The team's server of the guild (None for a guild without one, or another team's), with its AI settings: every
    message asks for them, in the same query."""
    return Server.objects.select_related("ai_settings").filter(guild_id=guild_id, team_id=team_id).first()


@transaction.atomic
def guild_join(*, bot: DiscordBot, guild_id: str, name: str) -> Server | None:
    """The bot is in the guild (connected, or just added): the team's server of it, created with the defaults'
    AI settings row when there was none; None when the guild is another team's server."""
    joined = server_join_by_bot(bot=bot, guild_id=guild_id, name=name)
    if joined.outcome == GuildJoin.CREATED:
        ai_settings_ensure(server=joined.server)
        logger.info("Guild %s (%s) joined: a server of team %s now.", guild_id, joined.server.name, bot.team)
    return joined.server


def guild_leave(*, bot: DiscordBot, guild_id: str) -> Server | None:
    """The bot was removed from the guild: its server is marked as left, nothing deleted."""
    server = server_leave_by_bot(bot=bot, guild_id=guild_id)
    if server is not None:
        logger.info("Guild %s (%s) left; its memory is kept.", guild_id, server.name)
    return server
