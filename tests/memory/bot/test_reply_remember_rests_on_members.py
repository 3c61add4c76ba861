"""The reply model's `remember` is held to the learning run's rule (issue 23): a fact that rests on what a member
said in the conversation is stored as always; one that does not (the bot's own words, a guess, a made-up date) is
kept with the staff audience for staff to confirm, never handed to the model, and the exchange says so."""

from __future__ import annotations

from memory.bot.actions import NOT_SAID_BY_A_MEMBER
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.bot.reply import HistoryMessage, reply_to_message
from memory.models import Audience, Exchange, Fact
from tests.memory.conftest import PAUL, paul_says
from tests.model_server import answer, tool_call

HISTORY = [HistoryMessage(author_name="Mira", content="Ik speel gitaar in een band, trouwens.", is_bot=False),
           HistoryMessage(author_name="Lorekeeper", content="Fun fact: the server rule is no spoilers!", is_bot=True)]


def remembers(model_server, *facts: dict) -> None:
    model_server.script = [answer("Noted!", [tool_call("remember", call_id=f"c{n}", **fact)
                                             for n, fact in enumerate(facts)])]


def test_what_members_said_is_stored_and_what_they_did_not_is_kept_for_staff(server, model_server):
    remembers(model_server,
              {"key": "paul_instrument", "content": "Paul plays the cello in an orchestra.", "about": "speaker"},
              {"key": "mira_band", "content": "Mira speelt gitaar in een band."},
              {"key": "spoiler_rule", "content": "The server rule is no spoilers."},  # only the bot said it
              {"key": "paul_birthday", "content": "Paul's birthday is 3 May.", "about": "speaker"})  # made up
    outcome = reply_to_message(server=server, message=paul_says("Remember that I play the cello in an orchestra."),
                               history=HISTORY)
    audiences = dict(Fact.objects.filter(server=server).values_list("key", "audience"))
    # (The channel was never reported public: what is said there keeps to the channel.)
    assert audiences == {"paul_instrument": Audience.CHANNEL, "mira_band": Audience.CHANNEL,
                         "spoiler_rule": Audience.STAFF, "paul_birthday": Audience.STAFF}
    details = {Fact.objects.get(number=result["number"]).key: result.get("detail")
               for result in Exchange.objects.get(pk=outcome.exchange.pk).actions}
    assert details["spoiler_rule"] == details["paul_birthday"] == NOT_SAID_BY_A_MEMBER
    assert details["paul_instrument"] is None and details["mira_band"] is None
    # The next reply is handed what members said, never what waits for staff.
    shown = exchange_open(server=server, message=IncomingMessage(channel_id=paul_says("x").channel_id,
                                                                 author_id=PAUL, content="what do you know?")).facts
    assert {fact.key for fact in shown} == {"paul_instrument", "mira_band"}


def test_the_remember_tool_asks_for_the_members_own_words_and_language(server, model_server):
    remembers(model_server)
    reply_to_message(server=server, message=paul_says("hello"), history=[])
    tools = {tool["function"]["name"]: tool for tool in model_server.requests[0]["body"]["tools"]}
    assert "in their words and language" in tools["remember"]["function"]["description"]


def test_a_fact_already_known_is_reinforced_without_the_staff_note(server, model_server):
    from tests.factories import make_fact  # the fact already known, written by staff

    known = make_fact(server, key="spoiler_rule", content="The server rule is no spoilers.")
    remembers(model_server, {"key": "spoiler_rule", "content": "The server rule is no spoilers."})
    outcome = reply_to_message(server=server, message=paul_says("hello"), history=HISTORY)
    result = Exchange.objects.get(pk=outcome.exchange.pk).actions[0]
    assert (result["status"], result["number"]) == ("reinforced", known.number)
    assert NOT_SAID_BY_A_MEMBER not in (result.get("detail") or "")
