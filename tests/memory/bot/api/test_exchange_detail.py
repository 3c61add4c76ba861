"""GET /api/v1/exchanges/{exchange} (API.md §5): what was injected, searched, retracted, superseded, learned."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from memory.bot.exchanges import IncomingMessage
from memory.bot.reply import reply_to_message
from memory.facts.services import fact_audience_set, fact_retract
from memory.models import Audience, Fact, MemoryType
from tests.factories import make_fact
from tests.model_server import answer, tool_call

from .helpers import assert_error, configure, memory_state


def test_a_fresh_exchange_shows_what_was_injected_and_nothing_else(api, server):
    configure(server, memory_type=MemoryType.ARCHIVE)
    fact = make_fact(server)
    context = api.context(server, thread_parent_id=None)
    body = api.exchange(context["exchange"])
    assert body["memory"] == {"injected": [fact.number], "pinned": [], "about_speaker": [], "budget_cut": [],
                              "mentioned": [], "searched": None, "retracted": [], "superseded": [],
                              "learned": [], "actions": []}
    assert {key: body[key] for key in ("exchange", "guild_id", "status", "memory_type", "channel_id",
                                       "thread_parent_id", "author_id", "read_allowed", "write_allowed",
                                       "can_search", "model_calls", "reply", "error")} == {
        "exchange": context["exchange"], "guild_id": server.guild_id, "status": "context", "memory_type": "archive",
        "channel_id": "111", "thread_parent_id": None, "author_id": "222", "read_allowed": True,
        "write_allowed": True, "can_search": True, "model_calls": 0, "reply": "", "error": None}


def test_it_shows_the_search_and_every_action_of_the_exchange(api, server):
    configure(server, memory_type=MemoryType.ARCHIVE, max_injected_items=2)
    now = timezone.now()
    support = make_fact(server, key="support_channel", content="Support happens in #general.",
                        created_at=now - timedelta(minutes=30))
    theme = make_fact(server, key="server_theme", content="Retro gaming.", created_at=now - timedelta(minutes=20))
    rules = make_fact(server, key="rules", content="Be kind.", created_at=now - timedelta(minutes=10))
    exchange = api.context(server)["exchange"]
    found = api.search(exchange, "support")
    results = api.actions(
        exchange,
        retract=[{"number": theme.number, "reason": "no longer true"}, {"number": 99, "reason": "never shown"}],
        supersede=[{"number": support.number, "content": "Support happens in #help only.", "reason": "moved"}],
        remember=[{"key": "paul_birthday", "content": "Paul's birthday is 3 May.", "scope": "member",
                   "member_id": "222", "importance": 0.6}],
    )
    replacement = Fact.objects.get(server=server, superseded_by__isnull=True, key="support_channel")
    learned = Fact.objects.get(server=server, key="paul_birthday")

    body = api.exchange(exchange)
    assert body["memory"] == {
        "injected": [theme.number, rules.number], "pinned": [], "about_speaker": [], "budget_cut": [],
        "mentioned": [],
        "searched": {"query": "support", "mode": "words", "fallback_reason": None,
                     "found": [fact["number"] for fact in found["facts"]]},
        "retracted": [theme.number],
        "superseded": [{"number": support.number, "replaced_by": replacement.number}],
        "learned": [learned.number],
        "actions": results,
    }
    assert body["memory"]["searched"]["found"] == [support.number]
    assert body["model_calls"] == 0 and body["status"] == "context"


def test_actions_of_several_calls_are_all_shown(api, server):
    configure(server, memory_type=MemoryType.LEDGER)
    exchange = api.context(server)["exchange"]
    first = api.actions(exchange, remember=[{"key": "a", "content": "First."}])
    second = api.actions(exchange, remember=[{"key": "b", "content": "Second."}])
    body = api.exchange(exchange)
    assert body["memory"]["actions"] == first + second
    assert body["memory"]["learned"] == [first[0]["number"], second[0]["number"]]


def test_reading_an_exchange_changes_nothing(api, exchange):
    before = memory_state()
    api.exchange(str(exchange.pk))
    assert memory_state() == before


def test_an_exchange_id_in_capitals_finds_the_same_exchange(api, exchange):
    assert api.exchange(str(exchange.pk).upper())["exchange"] == str(exchange.pk)


def test_a_missing_exchange_answers_404(api, exchange):
    assert_error(api.get("/exchanges/5f0c3d1e-0000-4000-8000-000000000000"), 404, None)


def test_it_shows_the_model_calls_and_reply_of_a_whole_reply(api, server, model):
    configure(server, memory_type=MemoryType.ARCHIVE, max_injected_items=1)
    birthday = make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope="member",
                         member_id="222")
    make_fact(server, key="server_theme", content="Retro gaming.")
    model.script = [answer("", [tool_call("search_memory", query="birthday")]),
                    answer("Your birthday is 3 May!", [tool_call("forget_memory", number=birthday.number,
                                                                 reason="asked to forget")])]
    outcome = reply_to_message(server=server, history=[], message=IncomingMessage(
        channel_id="111", author_id="222", author_name="Paul", content="when is my birthday?"))
    body = api.exchange(str(outcome.exchange.pk))
    assert (body["status"], body["model_calls"], body["reply"], body["error"]) == (
        "replied", 2, "Your birthday is 3 May!", None)
    assert body["memory"]["searched"] == {"query": "birthday", "mode": "words", "fallback_reason": None,
                                          "found": [birthday.number]}
    assert body["memory"]["retracted"] == [birthday.number]


# The facts of the exchange, as they stand now -------------------------------------------------


def test_it_lists_the_facts_shown_and_found_that_are_still_in_force(api, server, owner):
    configure(server, memory_type=MemoryType.ARCHIVE, max_injected_items=2)
    now = timezone.now()
    support = make_fact(server, key="support_channel", content="Support happens in #help.",
                        created_at=now - timedelta(minutes=30))
    theme = make_fact(server, key="server_theme", content="Retro gaming.", created_at=now - timedelta(minutes=20))
    rules = make_fact(server, key="rules", content="Be kind.", created_at=now - timedelta(minutes=10))
    exchange = api.context(server)["exchange"]
    api.search(exchange, "support")
    assert [fact["number"] for fact in api.exchange(exchange)["facts"]] == [theme.number, rules.number,
                                                                           support.number]
    fact_retract(fact=theme, reason="no longer true")
    facts = api.exchange(exchange)["facts"]
    assert [fact["number"] for fact in facts] == [rules.number, support.number]
    assert facts[0] == {"number": rules.number, "key": "rules", "content": "Be kind.", "scope": "server",
                        "member_id": None, "confidence": 1.0, "audience": "server", "channel_id": None,
                        "kind": "lore", "changed_at": rules.changed_at.isoformat()}


def test_a_fact_narrowed_since_to_another_channel_or_to_staff_is_no_longer_listed(api, server, owner):
    configure(server, memory_type=MemoryType.ARCHIVE)
    to_channel = make_fact(server, key="ban_plan", content="We ban X on Friday.", source_channel_id="444")
    to_staff = make_fact(server, key="rules", content="Be kind.")
    stays = make_fact(server, key="mods_here", content="Mods meet here.", source_channel_id="111")
    exchange = api.context(server, channel_id="111")["exchange"]
    fact_audience_set(fact=to_channel, audience=Audience.CHANNEL, actor=owner)
    fact_audience_set(fact=to_staff, audience=Audience.STAFF, actor=owner)
    fact_audience_set(fact=stays, audience=Audience.CHANNEL, actor=owner)
    facts = api.exchange(exchange)["facts"]
    assert [(fact["number"], fact["audience"], fact["channel_id"]) for fact in facts] == [
        (stays.number, "channel", "111")]


def test_a_thread_exchange_sees_its_channels_facts(api, server, owner):
    configure(server, memory_type=MemoryType.ARCHIVE, include_threads=True)
    mods = make_fact(server, key="ban_plan", content="We ban X on Friday.", audience=Audience.CHANNEL,
                     source_channel_id="444")
    exchange = api.context(server, channel_id="555", thread_parent_id="444")["exchange"]
    assert [fact["number"] for fact in api.exchange(exchange)["facts"]] == [mods.number]


def test_an_exchange_that_showed_nothing_lists_no_facts(api, server):
    configure(server, memory_type=MemoryType.ARCHIVE)
    exchange = api.context(server)["exchange"]
    assert api.exchange(exchange)["facts"] == []
