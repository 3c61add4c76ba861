"""The Discord bot for many servers, with simulated gateway events (no network): messages of different channels
answered at once while one channel's wait their turn, within the process's bound; servers that appear by themselves
for the bot's team on connect and on guild join, marked as left on guild remove and back on a rejoin; another team's
server left alone; `runbot --team` and the installation found by the application id.

The handlers run as discord.py runs them (one task per gateway event, on one event loop) against the real reply
pipeline, the database and the local HTTP server that plays the model. Their database work runs in the adapter's
own threads, so these tests commit what they set up (transaction=True).
"""

from __future__ import annotations

import asyncio
import io
import logging

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from memory.bot.discord import LorekeeperBot, answer_message, message_in_turn
from memory.bot.discord_concurrency import ChannelLanes, discord_concurrency
from memory.bot.discord_servers import InstallationRefused, installation_resolve
from memory.configuration.services import ChannelRule, ai_settings_update
from memory.models import AISettings, Channel, Exchange, Fact, MemoryType, ModelPurpose
from teams.models import AuditEntry, DiscordBot, Server
from teams.permissions import servers_visible_to
from teams.services import discord_bot_register
from tests.discord_world import (
    APPLICATION_ID,
    BOT_ID,
    LOREKEEPER,
    build_guild,
    discord_state,
    message_in,
    on_a_loop_of_its_own,
)
from tests.factories import make_fact
from tests.model_server import Slow, played_model

pytestmark = pytest.mark.django_db(transaction=True)

GUILD_ID = 100000000000000001  # the `server` fixture's
OTHER_TEAMS_GUILD_ID = 100000000000000002  # the `other_server` fixture's
NEW_GUILD_ID = 100000000000000077
GENERAL, CHATTER, LOBBY = 111000000000000001, 111000000000000002, 111000000000000003
MODEL_SECONDS = 1.0  # long beside a reply's own work, even on a busy machine


@pytest.fixture
def installation(team):
    return discord_bot_register(team=team, application_id=str(APPLICATION_ID))


@pytest.fixture
def model(server, owner):
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-model", api_key="sk-test-0123456789") \
            as fake:
        ai_settings_update(server=server, actor=owner, read=ChannelRule(True), write=ChannelRule(True),
                           reply_channel_ids=(str(GENERAL), str(CHATTER)))
        yield fake


def _arcade(state):
    return build_guild(state, GUILD_ID, "Retro Arcade", text_channels=[(GENERAL, "general"), (CHATTER, "chatter")])


def _gateway(lanes: ChannelLanes, messages, team_id: int) -> list[list[str]]:
    """The messages as discord.py dispatches them: one task per event, started in the order they arrived."""
    async def dispatch():
        tasks = [asyncio.create_task(message_in_turn(lanes, message, bot_user_id=BOT_ID, team_id=team_id))
                 for message in messages]
        return await asyncio.gather(*tasks)

    return on_a_loop_of_its_own(dispatch)


def _overlap(first: tuple[float, float], second: tuple[float, float]) -> bool:
    return first[0] < second[1] and second[0] < first[1]


# Concurrency ------------------------------------------------------------------------------------------------


def test_two_channels_are_answered_at_once_while_a_third_message_waits_its_turn(server, model):
    state = discord_state()
    guild = _arcade(state)
    general, chatter = guild.get_channel(GENERAL), guild.get_channel(CHATTER)
    model.script = [Slow(MODEL_SECONDS), Slow(MODEL_SECONDS), Slow(MODEL_SECONDS)]
    first = message_in(state, general, "who won the cup?")
    elsewhere = message_in(state, chatter, "any raid tonight?")
    second = message_in(state, general, "and who came second?")

    posted = _gateway(ChannelLanes(8), [first, elsewhere, second], server.team_id)

    assert posted == [["OK."], ["OK."], ["OK."]]
    # The model worked on #general's first message and #chatter's at the same time (typing… shown in both) …
    (general_first, general_second), (chatter_only,) = general.typing_spans, chatter.typing_spans
    assert _overlap(general_first, chatter_only)
    # … while #general's second waited until its first reply was posted, and was answered after it.
    assert general_second[0] >= general.sent[0]["at"]
    assert [sent["reference"].message_id for sent in general.sent] == [first.id, second.id]
    asked = [request["body"]["messages"][-1]["content"] for request in model.requests]
    assert asked.index("Annie: and who came second?") == 2  # the model was asked it last
    assert Exchange.objects.filter(server=server).count() == 3


def test_the_bound_holds_messages_of_other_channels_until_a_slot_is_free(server, model):
    state = discord_state()
    guild = _arcade(state)
    general, chatter = guild.get_channel(GENERAL), guild.get_channel(CHATTER)
    model.script = [Slow(0.3), Slow(0.3)]
    messages = [message_in(state, general, "who won the cup?"), message_in(state, chatter, "any raid tonight?")]
    assert _gateway(ChannelLanes(1), messages, server.team_id) == [["OK."], ["OK."]]
    assert not _overlap(general.typing_spans[0], chatter.typing_spans[0])


def test_the_bound_is_a_setting_of_eight_by_default(settings):
    assert discord_concurrency() == 8
    settings.LOREKEEPER_DISCORD_CONCURRENCY = 3
    assert discord_concurrency() == 3 and LorekeeperBot().lanes.concurrency == 3
    settings.LOREKEEPER_DISCORD_CONCURRENCY = 0
    assert discord_concurrency() == 1  # at least one message at a time


def test_a_channel_lane_no_message_uses_is_dropped(server, model):
    state = discord_state()
    lanes = ChannelLanes(8)
    _gateway(lanes, [message_in(state, _arcade(state).get_channel(GENERAL), "hello")], server.team_id)
    assert lanes.channels == 0


# Servers that appear by themselves ------------------------------------------------------------------------------


def _bot(installation: DiscordBot) -> LorekeeperBot:
    bot = LorekeeperBot()
    bot.installation = installation
    return bot


def _defaults(settings_row: AISettings) -> dict:
    kept_apart = ("id", "server", "changed_at")  # which row, and when it was written
    fields = [field.name for field in AISettings._meta.concrete_fields if field.name not in kept_apart]
    return {name: getattr(settings_row, name) for name in fields}


def test_a_guild_join_creates_the_server_for_the_bots_team_with_the_defaults_and_an_audit_row(team, member,
                                                                                              installation):
    bot = _bot(installation)
    guild = build_guild(bot._connection, NEW_GUILD_ID, "Pixel Pals", text_channels=[(LOBBY, "lobby")])
    on_a_loop_of_its_own(bot.on_guild_join, guild)

    server = Server.objects.get(guild_id=str(NEW_GUILD_ID))
    assert (server.name, server.team, server.left_at) == ("Pixel Pals", team, None)
    row = AISettings.objects.get(server=server)
    assert _defaults(row) == _defaults(AISettings())  # exactly the defaults, which are the safe ones:
    assert (row.memory_type, row.read_all_channels, row.write_all_channels, row.reply_channel_ids) == (
        MemoryType.CLASSIC, True, True, [])
    entry = AuditEntry.objects.get(action="server.join")
    assert (entry.server_id, entry.actor_id, entry.actor_label) == (server.pk, None, f"Discord bot {APPLICATION_ID}")
    assert "team Arcade staff" in entry.result
    assert list(Channel.objects.filter(server=server).values_list("channel_id", "name")) == [(str(LOBBY), "lobby")]
    assert server in servers_visible_to(member)  # the team sees it at once


def test_on_connect_every_guild_without_a_server_becomes_one_and_a_known_one_is_left_as_it_is(server, installation):
    bot = _bot(installation)
    _arcade(bot._connection)
    build_guild(bot._connection, NEW_GUILD_ID, "Pixel Pals", text_channels=[(LOBBY, "lobby")])
    on_a_loop_of_its_own(bot.on_ready)
    on_a_loop_of_its_own(bot.on_ready)  # a reconnect: nothing twice
    assert sorted(Server.objects.values_list("name", flat=True)) == ["Pixel Pals", "Retro Arcade"]
    assert AuditEntry.objects.filter(action="server.join").count() == 1
    assert Channel.objects.filter(server=server).count() == 2  # the known server's channels reported too


def test_another_teams_server_is_left_alone(server, other_server, installation, model, caplog):
    bot = _bot(installation)
    guild = build_guild(bot._connection, OTHER_TEAMS_GUILD_ID, "Synth Lab", text_channels=[(LOBBY, "lobby")])
    with caplog.at_level(logging.WARNING):
        on_a_loop_of_its_own(bot.on_guild_join, guild)
    assert "another team" in caplog.text
    other_server.refresh_from_db()
    assert (other_server.name, other_server.team.name) == ("Synth Lab", "Synth staff")
    assert not Channel.objects.exists() and not AuditEntry.objects.filter(action__startswith="server.").exists()
    # … and the bot does not answer there with that team's memory.
    mention = message_in(bot._connection, guild.get_channel(LOBBY), f"<@{BOT_ID}> hi", mentions=(LOREKEEPER,))
    assert on_a_loop_of_its_own(answer_message, mention, bot_user_id=BOT_ID, team_id=installation.team_id) == []
    assert model.chat_calls == 0


def test_a_guild_remove_marks_the_server_as_left_keeping_its_memory_and_a_rejoin_clears_it(server, owner,
                                                                                          installation):
    make_fact(server, key="raid_time", content="Raids start at 8 pm.")
    bot = _bot(installation)
    guild = _arcade(bot._connection)
    on_a_loop_of_its_own(bot.on_guild_remove, guild)

    server.refresh_from_db()
    assert server.left_at is not None
    assert Fact.objects.filter(server=server).count() == 1
    assert AuditEntry.objects.get(action="server.leave").actor_label == f"Discord bot {APPLICATION_ID}"
    client = Client()
    client.force_login(owner)
    page = client.get("/").content.decode()
    assert f"left {server.left_at:%Y-%m-%d}" in page

    on_a_loop_of_its_own(bot.on_guild_remove, guild)  # told twice: one audit row
    assert AuditEntry.objects.filter(action="server.leave").count() == 1

    on_a_loop_of_its_own(bot.on_guild_join, guild)
    server.refresh_from_db()
    assert server.left_at is None and Server.objects.count() == 1
    assert AuditEntry.objects.filter(action="server.rejoin").count() == 1
    assert "left " not in client.get("/").content.decode()


# The installation ------------------------------------------------------------------------------------------------


def test_runbot_with_an_unknown_team_says_so_before_connecting(team, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    with pytest.raises(CommandError, match="No team is named “Nobody” \\(the teams: Arcade staff\\)"):
        call_command("runbot", "--team", "Nobody", stdout=io.StringIO())


def test_with_a_team_the_application_is_registered_for_it_once(team):
    first = installation_resolve(application_id=str(APPLICATION_ID), team=team)
    assert installation_resolve(application_id=str(APPLICATION_ID), team=team) == first
    assert (first.team, DiscordBot.objects.count()) == (team, 1)
    assert AuditEntry.objects.filter(action="discord_bot.register").count() == 1


def test_without_a_team_the_registered_installation_is_found_or_the_bot_is_told_what_to_do(team, other_team):
    with pytest.raises(InstallationRefused, match=f"No Discord bot with application id {APPLICATION_ID} is "
                                                  "registered: add it in admin"):
        installation_resolve(application_id=str(APPLICATION_ID), team=None)
    registered = discord_bot_register(team=team, application_id=str(APPLICATION_ID))
    assert installation_resolve(application_id=str(APPLICATION_ID), team=None) == registered
    with pytest.raises(InstallationRefused, match="registered for team Arcade staff; run the bot with --team"):
        installation_resolve(application_id=str(APPLICATION_ID), team=other_team)
    assert DiscordBot.objects.get().team == team
