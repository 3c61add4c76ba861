"""Discord's message lifecycle, the reply deadline and the budget through the adapter (issue 24), with simulated
gateway events: the bot answers a member and remembers what they said; when the member deletes that message (alone,
or in a bulk delete), the fact is retracted under Ledger and withheld (staff audience) under Classic, and the next
context no longer shows it. A model that never answers ends at the deadline (timed out, the fallback text posted,
memory untouched); over the reply budget the fallback is posted and no model asked. The adapter's database work runs
in its own threads, so these tests commit what they set up (transaction=True)."""

from __future__ import annotations

import time

import discord
import pytest

from memory.bot.discord import message_in_turn
from memory.bot.discord_concurrency import ChannelLanes
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.services import ChannelRule, ai_settings_update
from memory.models import Audience, Exchange, ExchangeStatus, Fact, MemoryType, ModelPurpose, UsagePurpose
from teams.services import discord_bot_register
from tests.discord_world import APPLICATION_ID, BOT_ID, build_guild, discord_state, message_in, on_a_loop_of_its_own
from tests.memory.bot.api.helpers import configure
from tests.factories import record_call
from tests.model_server import Slow, answer, played_model, tool_call

pytestmark = pytest.mark.django_db(transaction=True)
GUILD_ID, GENERAL = 100000000000000001, 111000000000000001  # the `server` fixture's guild


@pytest.fixture
def answered(server, owner, team):
    """A factory: under the memory type given, Ann tells the bot she plays the cello; the bot remembers it."""
    def answer_ann(memory_type: str):
        installation = discord_bot_register(team=team, application_id=str(APPLICATION_ID))
        with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-model", api_key="sk-test-0123456789"
                          ) as fake:
            ai_settings_update(server=server, actor=owner, read=ChannelRule(True), write=ChannelRule(True),
                               reply_channel_ids=(str(GENERAL),))
            configure(server, memory_type=memory_type)
            fake.script = [answer("Noted!", [tool_call("remember", key="ann_instrument",
                                                       content="Annie plays the cello.", about="speaker")])]
            state = discord_state()
            guild = build_guild(state, GUILD_ID, "Retro Arcade", text_channels=[(GENERAL, "general")])
            said = message_in(state, guild.get_channel(GENERAL), "Remember that I play the cello, please.")
            on_a_loop_of_its_own(message_in_turn, ChannelLanes(2), said, bot_user_id=BOT_ID, team_id=team.pk)
        from memory.bot.discord import LorekeeperBot  # the client under test, built once the world is set up

        bot = LorekeeperBot()
        bot.installation = installation
        return bot, said
    return answer_ann


def shown_keys(server) -> set[str]:
    message = IncomingMessage(channel_id=str(GENERAL), author_id="444000000000000002", content="what do you know?")
    return {fact.key for fact in exchange_open(server=server, message=message).facts}


def delete_event(said: discord.Message) -> discord.RawMessageDeleteEvent:
    return discord.RawMessageDeleteEvent({"id": str(said.id), "channel_id": str(GENERAL), "guild_id": str(GUILD_ID)})


def test_under_ledger_deleting_the_answered_message_retracts_what_was_learned_from_it(server, answered):
    bot, said = answered(MemoryType.LEDGER)
    exchange = Exchange.objects.get(server=server, source="discord")
    assert exchange.message_id == str(said.id)
    assert "ann_instrument" in shown_keys(server)
    on_a_loop_of_its_own(bot.on_raw_message_delete, delete_event(said))
    fact = Fact.objects.get(server=server, key="ann_instrument")
    assert fact.retracted_at is not None and fact.retraction_reason == "the member deleted the message it came from"
    assert "ann_instrument" not in shown_keys(server)
    assert Exchange.objects.get(pk=exchange.pk).message == ""


def test_under_classic_a_bulk_delete_withholds_it_for_staff_and_removes_nothing(server, answered):
    bot, said = answered(MemoryType.CLASSIC)
    event = discord.RawBulkMessageDeleteEvent({"ids": [str(said.id), "333000000000099999"],
                                               "channel_id": str(GENERAL), "guild_id": str(GUILD_ID)})
    on_a_loop_of_its_own(bot.on_raw_bulk_message_delete, event)
    fact = Fact.objects.get(server=server, key="ann_instrument")
    assert (fact.audience, fact.retracted_at, fact.source_deleted_at is not None) == (Audience.STAFF, None, True)
    assert "ann_instrument" not in shown_keys(server)


def test_a_delete_in_another_teams_guild_changes_nothing(server, other_server, answered):
    bot, said = answered(MemoryType.LEDGER)
    event = discord.RawMessageDeleteEvent({"id": str(said.id), "channel_id": "1", "guild_id": other_server.guild_id})
    on_a_loop_of_its_own(bot.on_raw_message_delete, event)
    assert Fact.objects.get(server=server, key="ann_instrument").retracted_at is None


# The deadline and the budget, through the gateway's message event ---------------------------------------------

FALLBACK = "I can't answer right now; ask a moderator."


def _gateway_message(server, owner, team, fake, content: str, **settings):
    ai_settings_update(server=server, actor=owner, read=ChannelRule(True), write=ChannelRule(True),
                       reply_channel_ids=(str(GENERAL),), fallback_text=FALLBACK, **settings)
    state = discord_state()
    guild = build_guild(state, GUILD_ID, "Retro Arcade", text_channels=[(GENERAL, "general")])
    general = guild.get_channel(GENERAL)
    said = message_in(state, general, content)
    posted = on_a_loop_of_its_own(message_in_turn, ChannelLanes(2), said, bot_user_id=BOT_ID, team_id=team.pk)
    return posted, general


def test_a_model_that_never_answers_ends_at_the_deadline_timed_out_with_the_fallback_and_nothing_changed(
        server, owner, team):
    configure(server, memory_type=MemoryType.LEDGER)
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-model", api_key="sk-test-0123456789"
                      ) as fake:
        fake.script = [Slow(60, answer("Too late.", [tool_call("remember", key="late", content="Annie is late.")]))]
        started = time.monotonic()
        posted, general = _gateway_message(server, owner, team, fake, "are you there?", reply_deadline_seconds=5)
    assert time.monotonic() - started < 8
    assert posted == [FALLBACK] and [sent["content"] for sent in general.sent] == [FALLBACK]
    assert Exchange.objects.get(server=server).status == ExchangeStatus.TIMED_OUT
    assert not Fact.objects.filter(server=server).exists()


def test_over_the_reply_budget_it_posts_the_fallback_and_asks_no_model(server, owner, team):
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-model", api_key="sk-test-0123456789"
                      ) as fake:
        record_call(server, UsagePurpose.REPLY, 900, 100)
        posted, _ = _gateway_message(server, owner, team, fake, "are you there?", reply_token_budget=1000)
        assert fake.chat_calls == 0
    assert posted == [FALLBACK]
