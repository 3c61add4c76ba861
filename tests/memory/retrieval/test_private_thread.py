"""A private thread of a public channel (a ticket, a report to the moderators): what the bot learns there is for that
thread alone. The thread is the fact's source channel, so replies in the thread see it, and neither the public
channel around it nor its other threads do — through the API's context and search, and in the reply model's request
bodies — while a purge of the channel still takes it."""

from __future__ import annotations

import json

import pytest

from memory.bot.reply import reply_to_message
from memory.models import Audience, Fact, MemoryType, ModelPurpose
from tests.memory.bot.api.helpers import Api, configure
from tests.memory.conftest import paul_says
from tests.model_server import answer, played_model

pytestmark = pytest.mark.django_db

GENERAL, TICKET, PLANNING = "111", "556", "555"
SECRET = "tangerine-42"


@pytest.fixture
def learned_in_ticket(client, server, bot_token):
    """#general public, its thread #planning public, its thread #ticket-7 private; a member's secret learned in the
    ticket, with Include threads on."""
    api = Api(client, bot_token)
    configure(server, memory_type=MemoryType.ARCHIVE, include_threads=True)
    api.report_channels(server, [{"id": GENERAL, "name": "general", "public": True},
                                 {"id": PLANNING, "name": "planning", "public": True, "parent_id": GENERAL},
                                 {"id": TICKET, "name": "ticket-7", "public": False, "parent_id": GENERAL}])
    exchange = api.context(server, channel_id=TICKET, thread_parent_id=GENERAL)
    api.actions(exchange["exchange"], remember=[{"key": "locker_code", "content": f"Paul's locker code is {SECRET}."}])
    fact = Fact.objects.get(key="locker_code")
    assert (fact.audience, fact.source_channel_id, fact.source_thread_id) == (Audience.CHANNEL, TICKET, TICKET)
    return api, fact


@pytest.mark.parametrize(("channel", "parent", "sees"), [(TICKET, GENERAL, True), (GENERAL, None, False),
                                                         (PLANNING, GENERAL, False)])
def test_only_the_private_thread_is_handed_what_was_learned_in_it(server, learned_in_ticket, channel, parent, sees):
    api, fact = learned_in_ticket
    context = api.context(server, channel_id=channel, thread_parent_id=parent, content="what is my locker code?")
    assert (SECRET in json.dumps(context)) == sees
    found = api.search(context["exchange"], "locker code")
    assert (SECRET in json.dumps(found)) == sees


def test_the_reply_model_in_the_public_channel_never_gets_it(server, owner, learned_in_ticket):
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-reply", api_key="sk-thread-0123456789") as model:
        model.script[:] = [answer("I cannot say."), answer("Here it is.")]
        reply_to_message(server=server, message=paul_says("what is my locker code?", channel_id=GENERAL), history=[])
        reply_to_message(server=server, message=paul_says("what is my locker code?", channel_id=TICKET,
                                                          thread_parent_id=GENERAL), history=[])
    in_general, in_ticket = (json.dumps(request["body"]) for request in model.requests)
    assert SECRET not in in_general
    assert SECRET in in_ticket


def test_purging_the_channel_takes_its_private_threads_facts_too(server, learned_in_ticket):
    api, fact = learned_in_ticket
    response = api.post(f"/servers/{server.guild_id}/purge", {"channel_id": GENERAL})
    assert response.status_code == 200 and response.json() == {"removed": 1}
    assert not Fact.objects.filter(pk=fact.pk).exists()
