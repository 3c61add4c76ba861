"""The Discord adapter reports whether @everyone can view each channel (threads: their channel's), from discord.py's
own Guild, channel, thread and role objects built from gateway payloads, without a network; and re-reports when a
channel, a category or @everyone's permissions change."""

from __future__ import annotations

import discord
import pytest
from discord.state import ConnectionState

from memory.bot.discord import (
    LorekeeperBot,
    bot_intents,
    channels_changed_with,
    everyone_can_view,
    guild_channels_report,
    reported_channels,
)
from memory.models import Channel
from teams.services import discord_bot_register
from tests.discord_world import on_a_loop_of_its_own

GUILD_ID = 100000000000000001  # the guild of the `server` fixture
GENERAL, MODS, LOBBY, ANNOUNCEMENTS, CATEGORY, STAFF_CATEGORY, IN_STAFF = (
    111000000000000001, 111000000000000002, 111000000000000003, 111000000000000004, 111000000000000005,
    111000000000000006, 111000000000000007)
THREAD_IN_GENERAL, THREAD_IN_MODS, PRIVATE_IN_GENERAL = 222000000000000001, 222000000000000002, 222000000000000003
VIEW = discord.Permissions(view_channel=True, send_messages=True).value
NO_VIEW = discord.Permissions(send_messages=True).value
VIEW_BIT = discord.Permissions(view_channel=True).value
OWNER = 444000000000000001
TIMESTAMP = "2025-01-01T12:00:00+00:00"


def everyone_role(permissions: int) -> dict:
    return {"id": str(GUILD_ID), "name": "@everyone", "permissions": str(permissions), "position": 0, "color": 0,
            "hoist": False, "managed": False, "mentionable": False}


def hides_from_everyone(deny: bool = True) -> list[dict]:
    allow, refuse = ("0", str(VIEW_BIT)) if deny else (str(VIEW_BIT), "0")
    return [{"id": str(GUILD_ID), "type": 0, "allow": allow, "deny": refuse}]


def text_channel(channel_id: int, name: str, *, overwrites: list | None = None, parent_id: int | None = None) -> dict:
    return {"id": str(channel_id), "type": 0, "name": name, "position": 0, "guild_id": str(GUILD_ID),
            "permission_overwrites": overwrites or [], "parent_id": str(parent_id) if parent_id else None}


def thread(thread_id: int, name: str, parent_id: int, *, private: bool = False) -> dict:
    return {"id": str(thread_id), "type": 12 if private else 11, "name": name, "parent_id": str(parent_id),
            "owner_id": str(OWNER), "guild_id": str(GUILD_ID), "message_count": 0, "member_count": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": TIMESTAMP,
                                "locked": False}}


def make_guild(everyone_permissions: int = VIEW, *, with_everyone_role: bool = True) -> discord.Guild:
    state = ConnectionState(dispatch=lambda *args, **kwargs: None, handlers={}, hooks={}, http=None,
                            intents=bot_intents())
    guild = discord.Guild(state=state, data={
        "id": str(GUILD_ID), "name": "Retro Arcade", "owner_id": str(OWNER), "members": [],
        "roles": [everyone_role(everyone_permissions)] if with_everyone_role else [],
        "channels": [
            text_channel(GENERAL, "general"),
            text_channel(MODS, "mod-chat", overwrites=hides_from_everyone()),
            text_channel(ANNOUNCEMENTS, "announcements", overwrites=hides_from_everyone(deny=False)),
            {"id": str(CATEGORY), "type": 4, "name": "Chat", "position": 0, "permission_overwrites": []},
            {"id": str(STAFF_CATEGORY), "type": 4, "name": "Staff", "position": 1,
             "permission_overwrites": hides_from_everyone()},
            text_channel(IN_STAFF, "reports", overwrites=hides_from_everyone(), parent_id=STAFF_CATEGORY),
            {"id": str(LOBBY), "type": 2, "name": "Lounge", "position": 1, "bitrate": 64000, "user_limit": 0,
             "permission_overwrites": []},
        ],
        "threads": [thread(THREAD_IN_GENERAL, "tournament planning", GENERAL),
                    thread(THREAD_IN_MODS, "ban talk", MODS),
                    thread(PRIVATE_IN_GENERAL, "a private word", GENERAL, private=True)],
    })
    state._add_guild(guild)
    return guild


def item(guild: discord.Guild, channel_id: int):
    return guild.get_channel(channel_id) or guild.get_thread(channel_id)


def public_flags(guild: discord.Guild) -> dict[int, bool]:
    return {int(channel.channel_id): channel.public for channel in reported_channels(guild)}


def test_a_channel_is_public_when_everyone_can_view_it_and_private_when_an_overwrite_hides_it():
    flags = public_flags(make_guild())
    assert flags[GENERAL] is True and flags[LOBBY] is True
    assert flags[MODS] is False and flags[IN_STAFF] is False


def test_a_thread_reports_its_channels_flag_and_a_private_thread_is_never_public():
    flags = public_flags(make_guild())
    assert (flags[THREAD_IN_GENERAL], flags[THREAD_IN_MODS], flags[PRIVATE_IN_GENERAL]) == (True, False, False)


def test_when_everyone_cannot_view_by_default_only_a_channel_that_allows_it_is_public():
    flags = public_flags(make_guild(NO_VIEW))
    assert {channel_id for channel_id, public in flags.items() if public} == {ANNOUNCEMENTS}


def test_an_administrator_everyone_role_sees_every_channel():
    flags = public_flags(make_guild(discord.Permissions(administrator=True).value))
    assert flags[MODS] is True and flags[PRIVATE_IN_GENERAL] is False  # a private thread is still invitation only


def test_what_cannot_be_told_counts_as_private():
    guild = make_guild(with_everyone_role=False)
    assert not any(public_flags(guild).values())
    assert everyone_can_view(object()) is False


def test_a_category_change_reaches_its_channels_and_a_channel_change_its_threads():
    guild = make_guild()
    assert {channel.id for channel in channels_changed_with(item(guild, STAFF_CATEGORY))} == {STAFF_CATEGORY, IN_STAFF}
    assert {channel.id for channel in channels_changed_with(item(guild, GENERAL))} == {
        GENERAL, THREAD_IN_GENERAL, PRIVATE_IN_GENERAL}


def test_the_report_stores_the_flags(server):
    guild_channels_report(str(GUILD_ID), server.team_id, reported_channels(make_guild()))
    public = set(Channel.objects.filter(server=server, public=True).values_list("channel_id", flat=True))
    assert public == {str(GENERAL), str(LOBBY), str(ANNOUNCEMENTS), str(THREAD_IN_GENERAL)}


# The client's events --------------------------------------------------------------------------


@pytest.fixture
def bot(server):
    """The client without a connection, run for the server's team. Its handlers' database work runs in the adapter's
    own threads: the tests using it commit what they set up (transaction=True), so those threads see it."""
    client = LorekeeperBot()
    client.installation = discord_bot_register(team=server.team, application_id="900000000000000002")
    return client


IN_DATABASE_THREADS = pytest.mark.django_db(transaction=True)


def _role_update(guild: discord.Guild, permissions: int, role_id: int = GUILD_ID) -> tuple[discord.Role, discord.Role]:
    before = guild.get_role(role_id)
    after = discord.Role(guild=guild, state=guild._state, data={**everyone_role(permissions), "id": str(role_id),
                                                                "name": before.name})
    guild._add_role(after)
    return before, after


@IN_DATABASE_THREADS
def test_when_everyone_loses_view_channel_every_channel_is_reported_again_as_private(server, bot):
    guild = make_guild()
    guild_channels_report(str(GUILD_ID), server.team_id, reported_channels(guild))
    on_a_loop_of_its_own(bot.on_guild_role_update, *_role_update(guild, NO_VIEW))
    public = set(Channel.objects.filter(server=server, public=True).values_list("channel_id", flat=True))
    assert public == {str(ANNOUNCEMENTS)}


@IN_DATABASE_THREADS
def test_another_roles_change_reports_nothing(server, bot):
    guild = make_guild()
    moderators = 333000000000000001
    guild._add_role(discord.Role(guild=guild, state=guild._state, data={**everyone_role(VIEW), "id": str(moderators),
                                                                        "name": "Moderators"}))
    on_a_loop_of_its_own(bot.on_guild_role_update, *_role_update(guild, NO_VIEW, role_id=moderators))
    assert not Channel.objects.exists()


@IN_DATABASE_THREADS
def test_a_category_update_reports_its_channels(server, bot):
    guild = make_guild()
    on_a_loop_of_its_own(bot.on_guild_channel_update, item(guild, STAFF_CATEGORY), item(guild, STAFF_CATEGORY))
    assert list(Channel.objects.values_list("channel_id", "public")) == [(str(IN_STAFF), False)]


@IN_DATABASE_THREADS
def test_a_channel_made_public_is_reported_with_its_threads(server, bot):
    guild = make_guild()
    guild_channels_report(str(GUILD_ID), server.team_id, reported_channels(guild))
    mods = item(guild, MODS)
    opened = discord.TextChannel(state=guild._state, guild=guild, data=text_channel(MODS, "mod-chat"))
    guild._add_channel(opened)
    on_a_loop_of_its_own(bot.on_guild_channel_update, mods, opened)
    rows = dict(Channel.objects.filter(channel_id__in=[str(MODS), str(THREAD_IN_MODS)])
                .values_list("channel_id", "public"))
    assert rows == {str(MODS): True, str(THREAD_IN_MODS): True}
