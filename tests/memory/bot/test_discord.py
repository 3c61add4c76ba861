"""The Discord adapter, without a network: discord.py's own Guild, TextChannel, Thread, Member and Message
objects built from gateway-shaped payloads on a ConnectionState that has no HTTP client.

Channels that must post or read history are real TextChannel / Thread subclasses whose network methods are
replaced: send() records what would have been posted, history() replays messages set by the test. The
end-to-end tests drive the bot's message handler against the real reply pipeline and the fake model HTTP server.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

import discord
import pytest
from discord.state import ConnectionState
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from memory.bot.discord import (
    answer_message,
    guild_channels_report,
    handle_message,
    history_entries,
    message_to_request,
    reply_target_for_guild,
    reported_channels,
    should_answer,
    split_reply,
)
from memory.configuration.directory import ReportedChannel, SeenMember, channels_forget, channels_report
from memory.configuration.services import ChannelRule, ai_settings_update, model_endpoint_set
from memory.models import Channel, ChannelMessage, Exchange, ExchangeStatus, ModelPurpose
from tests.discord_world import (
    on_a_loop_of_its_own,
    ANN,
    BOB,
    BOT_ID,
    DICE_BOT,
    LOREKEEPER,
    Person,
    build_guild,
    discord_state,
    message_in,
)
from teams.models import Team
from tests.model_server import FakeModelServer, Status, answer

GUILD_ID = 100000000000000001  # the guild of the `server` fixture
UNKNOWN_GUILD_ID = 100000000000000099  # no team has added it
GENERAL = 111000000000000001  # the reply channel
CHATTER = 111000000000000002
CATEGORY = 111000000000000003
VOICE = 111000000000000004
THREAD_IN_GENERAL = 222000000000000001
THREAD_IN_CHATTER = 222000000000000002
# The handler's database work runs in the adapter's own threads, each with its connection: the tests that drive it
# commit what they set up, so those threads see it.
IN_DATABASE_THREADS = pytest.mark.django_db(transaction=True)


@dataclass
class World:
    state: ConnectionState
    guild: discord.Guild
    unknown_guild: discord.Guild

    def channel(self, channel_id: int, guild: discord.Guild | None = None):
        guild = guild or self.guild
        return guild.get_channel(channel_id) or guild.get_thread(channel_id)


def _guild(state: ConnectionState, guild_id: int, name: str) -> discord.Guild:
    return build_guild(
        state, guild_id, name, text_channels=[(GENERAL, "general"), (CHATTER, "chatter")],
        threads=[(THREAD_IN_GENERAL, "tournament planning", GENERAL), (THREAD_IN_CHATTER, "off topic", CHATTER)],
        other_channels=[{"id": str(CATEGORY), "type": 4, "name": "Text channels", "position": 0},
                        {"id": str(VOICE), "type": 2, "name": "Lounge", "position": 1, "bitrate": 64000,
                         "user_limit": 0}])


@pytest.fixture
def world() -> World:
    state = discord_state()
    return World(state=state, guild=_guild(state, GUILD_ID, "Retro Arcade"),
                 unknown_guild=_guild(state, UNKNOWN_GUILD_ID, "Somebody else's server"))


def make_message(world: World, channel, content: str, **options) -> discord.Message:
    return message_in(world.state, channel, content, **options)


REPLY_CHANNELS = frozenset({str(GENERAL)})


def _answers(message: discord.Message, reply_channel_ids=REPLY_CHANNELS) -> bool:
    return should_answer(message, bot_user_id=BOT_ID, reply_channel_ids=reply_channel_ids)


# Whether the bot answers ----------------------------------------------------------------


def test_it_answers_a_mention_in_any_channel(world):
    message = make_message(world, world.channel(CHATTER), f"<@{BOT_ID}> who won yesterday?", mentions=(LOREKEEPER,))
    assert _answers(message, reply_channel_ids=frozenset())


def test_it_answers_every_message_in_a_reply_channel(world):
    assert _answers(make_message(world, world.channel(GENERAL), "who won yesterday?"))


def test_it_answers_in_a_thread_started_in_a_reply_channel(world):
    assert _answers(make_message(world, world.channel(THREAD_IN_GENERAL), "who won yesterday?"))


def test_it_stays_quiet_in_other_channels_and_their_threads_unless_mentioned(world):
    assert not _answers(make_message(world, world.channel(CHATTER), "who won yesterday?"))
    assert not _answers(make_message(world, world.channel(THREAD_IN_CHATTER), "who won yesterday?"))
    assert _answers(make_message(world, world.channel(THREAD_IN_CHATTER), f"<@!{BOT_ID}> who won?",
                                 mentions=(LOREKEEPER,)))


def test_it_never_answers_bots_including_itself(world):
    assert not _answers(make_message(world, world.channel(GENERAL), f"<@{BOT_ID}> roll 2d6", author=DICE_BOT,
                                     mentions=(LOREKEEPER,)))
    assert not _answers(make_message(world, world.channel(GENERAL), "Hello!", author=LOREKEEPER))


def test_it_ignores_a_guild_no_team_has_added(world, db):
    message = make_message(world, world.channel(GENERAL, world.unknown_guild), f"<@{BOT_ID}> hi",
                           mentions=(LOREKEEPER,))
    assert reply_target_for_guild(str(UNKNOWN_GUILD_ID), 1) is None
    assert not should_answer(message, bot_user_id=BOT_ID, reply_channel_ids=None)


def test_a_known_guild_gives_its_reply_channels(server, owner):
    _set_reply_channels(server, owner, [str(GENERAL)])
    target = reply_target_for_guild(str(GUILD_ID), server.team_id)
    assert (target.server, target.reply_channel_ids) == (server, frozenset({str(GENERAL)}))


def test_it_ignores_direct_messages(world):
    dm = discord.DMChannel(me=world.state.user, state=world.state,
                           data={"id": "666000000000000001", "type": 1, "recipients": [ANN.user_payload()]})
    message = make_message(world, dm, f"<@{BOT_ID}> hi", mentions=(LOREKEEPER,))
    assert message.guild is None
    assert not _answers(message)


def test_everyone_pings_system_notices_and_a_bare_mention_get_no_answer(world):
    chatter = world.channel(CHATTER)
    assert not _answers(make_message(world, chatter, "@everyone tournament tonight!", mention_everyone=True))
    assert not _answers(make_message(world, world.channel(GENERAL), "", message_type=6))  # "pinned a message"
    assert not _answers(make_message(world, chatter, f"<@{BOT_ID}>", mentions=(LOREKEEPER,)))


def test_a_reply_to_the_bots_own_message_counts_as_a_mention(world):
    chatter = world.channel(CHATTER)
    bots_message = make_message(world, chatter, "The tournament is on Friday.", author=LOREKEEPER)
    assert _answers(make_message(world, chatter, "at what time?", replying_to=bots_message),
                    reply_channel_ids=frozenset())


# What the pipeline gets -------------------------------------------------------------------


def test_the_request_has_the_mention_stripped_the_thread_parent_and_the_display_name(world):
    message = make_message(world, world.channel(THREAD_IN_GENERAL), f"<@{BOT_ID}>, when is the next tournament?",
                           mentions=(LOREKEEPER,))
    request = message_to_request(message, bot_user_id=BOT_ID)
    assert request.channel_id == str(THREAD_IN_GENERAL)
    assert request.thread_parent_id == str(GENERAL)
    assert (request.author_id, request.author_name) == (str(ANN.id), "Annie")
    assert request.content == "when is the next tournament?"


def test_a_channel_message_has_no_thread_parent_and_keeps_other_mentions(world):
    message = make_message(world, world.channel(CHATTER), f"ask <@{BOB.id}> and <@!{BOT_ID}> about it",
                           author=BOB, mentions=(BOB, LOREKEEPER))
    request = message_to_request(message, bot_user_id=BOT_ID)
    assert (request.channel_id, request.thread_parent_id) == (str(CHATTER), "")
    assert request.author_name == "bob"  # no nickname: the user name
    assert request.content == f"ask <@{BOB.id}> and about it"


def test_the_request_names_the_members_mentioned_but_not_the_bot_the_author_or_other_bots(world):
    message = make_message(world, world.channel(CHATTER), f"<@{BOT_ID}> when is <@{BOB.id}>'s birthday?",
                           mentions=(LOREKEEPER, BOB, ANN, DICE_BOT, BOB))
    request = message_to_request(message, bot_user_id=BOT_ID)
    assert request.mentions == (SeenMember(str(BOB.id), "bob"),)  # Ann wrote it; the bots are not members here
    assert request.members == (str(ANN.id), str(BOB.id))


def test_nul_characters_which_postgres_refuses_are_dropped(world):
    zoe = Person(444000000000000003, "zoe", nick="Z\x00oe")
    message = make_message(world, world.channel(GENERAL), "hel\x00lo", author=zoe)
    request = message_to_request(message, bot_user_id=BOT_ID)
    assert (request.author_name, request.content) == ("Zoe", "hello")


def test_history_is_oldest_first_with_names_and_the_bots_own_turns_marked(world):
    general = world.channel(GENERAL)
    first = make_message(world, general, "who organises the tournament?", author=BOB)
    second = make_message(world, general, "Annie does.", author=LOREKEEPER)
    third = make_message(world, general, "rolled a 7", author=DICE_BOT)
    entries = history_entries([third, second, first], bot_user_id=BOT_ID)
    assert [(entry.author_name, entry.content, entry.is_bot) for entry in entries] == [
        ("bob", "who organises the tournament?", False),
        ("lorekeeper", "Annie does.", True),
        ("dicebot", "rolled a 7", False),
    ]


# Cutting a long reply ---------------------------------------------------------------------


def test_a_reply_of_exactly_2000_characters_is_one_message():
    assert split_reply("x" * 2000) == ["x" * 2000]


def test_a_long_reply_is_cut_between_words_into_messages_of_at_most_2000_characters():
    text = " ".join(f"word{index}" for index in range(900))  # about 7,000 characters
    chunks = split_reply(text)
    assert len(chunks) == 4
    assert all(0 < len(chunk) <= 2000 for chunk in chunks)
    assert " ".join(chunks) == text  # nothing lost, no word cut


def test_a_line_break_is_preferred_and_a_word_longer_than_the_limit_is_cut():
    text = "a" * 1500 + "\n" + "b " * 300 + "c" * 4100
    chunks = split_reply(text)
    assert chunks[0] == "a" * 1500
    assert all(len(chunk) <= 2000 for chunk in chunks)
    assert "".join(chunks).replace(" ", "") == text.replace("\n", "").replace(" ", "")


def test_an_empty_reply_posts_nothing():
    assert split_reply("") == [] and split_reply("  \n ") == []


# Reporting channels ------------------------------------------------------------------------


def _rows(server) -> list[tuple]:
    return list(Channel.objects.filter(server=server).order_by("channel_id")
                .values_list("pk", "channel_id", "name", "parent_id", "is_thread"))


def test_the_report_lists_message_channels_and_threads_but_not_categories(world):
    reported = {(channel.channel_id, channel.name, channel.parent_id, channel.is_thread)
                for channel in reported_channels(world.guild)}
    assert reported == {
        (str(GENERAL), "general", "", False),
        (str(CHATTER), "chatter", "", False),
        (str(VOICE), "Lounge", "", False),
        (str(THREAD_IN_GENERAL), "tournament planning", str(GENERAL), True),
        (str(THREAD_IN_CHATTER), "off topic", str(CHATTER), True),
    }


def test_channels_report_upserts_names_marks_threads_and_is_idempotent(world, server):
    channels = reported_channels(world.guild)
    assert channels_report(server=server, channels=channels) == 5
    first = _rows(server)
    assert channels_report(server=server, channels=channels) == 5
    assert _rows(server) == first  # same rows, same primary keys
    assert {row[1:] for row in first if row[4]} == {
        (str(THREAD_IN_GENERAL), "tournament planning", str(GENERAL), True),
        (str(THREAD_IN_CHATTER), "off topic", str(CHATTER), True),
    }

    channels_report(server=server, channels=[ReportedChannel(channel_id=str(GENERAL), name="general-chat")])
    assert Channel.objects.get(server=server, channel_id=str(GENERAL)).name == "general-chat"
    assert Channel.objects.filter(server=server).count() == 5


def test_a_report_with_an_invalid_id_stores_nothing(server):
    with pytest.raises(ValidationError):
        channels_report(server=server, channels=[ReportedChannel(channel_id=str(GENERAL), name="general"),
                                                 ReportedChannel(channel_id="#general", name="bad")])
    assert not Channel.objects.filter(server=server).exists()


def test_a_deleted_channel_takes_its_threads_with_it(world, server):
    channels_report(server=server, channels=reported_channels(world.guild))
    channels_forget(server=server, channel_ids=[str(GENERAL)])
    assert {row[1] for row in _rows(server)} == {str(CHATTER), str(VOICE), str(THREAD_IN_CHATTER)}


def test_channels_of_a_guild_without_a_server_are_not_stored(world, server):
    assert guild_channels_report(str(UNKNOWN_GUILD_ID), server.team_id, reported_channels(world.unknown_guild)) is None
    assert not Channel.objects.exists()


# The message handler, end to end ----------------------------------------------------------


@pytest.fixture
def model_server():
    fake = FakeModelServer().start()
    yield fake
    fake.stop()


def _set_reply_channels(server, owner, channel_ids: list[str]) -> None:
    ai_settings_update(server=server, actor=owner, max_injected_items=20, weight_recency=1.0,
                       weight_importance=1.0, weight_relevance=1.0, read=ChannelRule(True), write=ChannelRule(True),
                       include_threads=True, reply_channel_ids=tuple(channel_ids))


@pytest.fixture
def bot_server(server, owner, model_server):
    """Our server with the fake model as its reply model and #general as its reply channel."""
    model_endpoint_set(server=server, actor=owner, purpose=ModelPurpose.REPLY, base_url=model_server.base_url,
                       model_name="fake-model", api_key=None)
    _set_reply_channels(server, owner, [str(GENERAL)])
    return server


def _handle(message: discord.Message) -> list[str]:
    return on_a_loop_of_its_own(answer_message, message, bot_user_id=BOT_ID, team_id=_our_team_id())


def _our_team_id() -> int:
    """The team of the `server` fixture, which the bot runs for."""
    return Team.objects.get(name="Arcade staff").pk


@IN_DATABASE_THREADS
def test_the_handler_answers_in_a_thread_through_the_pipeline_and_posts_in_2000_character_parts(
        world, bot_server, model_server):
    thread = world.channel(THREAD_IN_GENERAL)
    thread.earlier = [make_message(world, thread, "who organises the tournament?", author=BOB),
                      make_message(world, thread, "Annie does.", author=LOREKEEPER)]
    long_reply = " ".join(f"word{index}" for index in range(450))  # about 3,500 characters
    model_server.script = [answer(long_reply)]

    message = make_message(world, thread, f"<@{BOT_ID}> when is the next one?", mentions=(LOREKEEPER,))
    posted = _handle(message)

    assert [sent["content"] for sent in thread.sent] == posted
    assert len(posted) == 2 and all(len(part) <= 2000 for part in posted)
    assert " ".join(posted) == long_reply
    assert thread.sent[0]["reference"].message_id == message.id and "reference" not in thread.sent[1]

    conversation = model_server.requests[0]["body"]["messages"]
    assert conversation[-3:] == [
        {"role": "user", "content": "bob: who organises the tournament?"},
        {"role": "assistant", "content": "lorekeeper: Annie does."},
        {"role": "user", "content": "Annie: when is the next one?"},
    ]
    exchange = Exchange.objects.get(server=bot_server)
    assert (exchange.source, exchange.status, exchange.reply) == ("discord", ExchangeStatus.REPLIED, long_reply)
    assert (exchange.channel_id, exchange.thread_parent_id) == (str(THREAD_IN_GENERAL), str(GENERAL))
    assert (exchange.author_id, exchange.author_name, exchange.message) == (str(ANN.id), "Annie",
                                                                           "when is the next one?")


@IN_DATABASE_THREADS
def test_the_handler_answers_every_message_in_the_reply_channel(world, bot_server, model_server):
    general = world.channel(GENERAL)
    assert _handle(make_message(world, general, "hello all")) == ["OK."]
    assert [sent["content"] for sent in general.sent] == ["OK."]


@IN_DATABASE_THREADS
def test_when_the_model_fails_nothing_is_posted_and_a_warning_is_logged(world, bot_server, model_server, caplog):
    general = world.channel(GENERAL)
    model_server.script = [Status(500)]
    with caplog.at_level(logging.WARNING, logger="memory.bot.discord"):
        assert _handle(make_message(world, general, "hello all")) == []
    assert general.sent == []
    assert "No reply in server" in caplog.text and "HTTP 500" in caplog.text
    assert Exchange.objects.get(server=bot_server).status == ExchangeStatus.FAILED


@IN_DATABASE_THREADS
def test_without_a_reply_model_nothing_is_posted(world, server, owner, model_server):
    _set_reply_channels(server, owner, [str(GENERAL)])
    general = world.channel(GENERAL)
    assert _handle(make_message(world, general, "hello all")) == []
    assert general.sent == [] and model_server.chat_calls == 0


@IN_DATABASE_THREADS
def test_an_empty_model_reply_posts_nothing(world, bot_server, model_server):
    model_server.script = [answer("")]
    general = world.channel(GENERAL)
    assert _handle(make_message(world, general, "hello all")) == []
    assert general.sent == [] and model_server.chat_calls == 1


@IN_DATABASE_THREADS
def test_the_handler_leaves_other_channels_bots_and_unknown_guilds_alone(world, bot_server, model_server):
    unknown_general = world.channel(GENERAL, world.unknown_guild)
    messages = [
        make_message(world, world.channel(CHATTER), "hello all"),
        make_message(world, world.channel(GENERAL), f"<@{BOT_ID}> roll", author=DICE_BOT, mentions=(LOREKEEPER,)),
        make_message(world, world.channel(GENERAL), "my own words", author=LOREKEEPER),
        make_message(world, unknown_general, f"<@{BOT_ID}> hi", mentions=(LOREKEEPER,)),
    ]
    assert [_handle(message) for message in messages] == [[], [], [], []]
    assert model_server.chat_calls == 0 and not Exchange.objects.exists()
    assert world.channel(CHATTER).sent == [] and unknown_general.sent == []


# manage.py runbot ---------------------------------------------------------------------------


def test_runbot_refuses_without_a_token(monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    with pytest.raises(CommandError, match="DISCORD_TOKEN is not set"):
        call_command("runbot", stdout=io.StringIO())


# Learning from conversations ---------------------------------------------------------------


def _handle_all(message: discord.Message) -> list[str]:
    return on_a_loop_of_its_own(handle_message, message, bot_user_id=BOT_ID, team_id=_our_team_id())


@IN_DATABASE_THREADS
def test_every_message_of_a_channel_the_server_learns_from_is_kept_the_bots_as_context(world, server, owner):
    ai_settings_update(server=server, actor=owner, learn_channel_ids=(str(CHATTER),))
    chatter = world.channel(CHATTER)
    messages = [make_message(world, chatter, "I main Samus in every tournament."),
                make_message(world, chatter, "Noted!", author=LOREKEEPER),
                make_message(world, chatter, "pinned a message", message_type=6),
                make_message(world, world.channel(GENERAL), "not a channel we learn from")]
    assert [_handle_all(message) for message in messages] == [[], [], [], []]  # no reply channel: no answers
    kept = list(ChannelMessage.objects.filter(server=server).order_by("id"))
    assert [(m.message_id, m.author_id, m.is_bot, m.content) for m in kept] == [
        (str(messages[0].id), str(ANN.id), False, "I main Samus in every tournament."),
        (str(messages[1].id), str(BOT_ID), True, "Noted!"),
        (str(messages[2].id), str(ANN.id), True, "pinned a message")]  # Discord's notice: context only


@IN_DATABASE_THREADS
def test_by_default_no_channel_is_learned_from(world, server):
    assert _handle_all(make_message(world, world.channel(CHATTER), "I main Samus.")) == []
    assert not ChannelMessage.objects.exists()
