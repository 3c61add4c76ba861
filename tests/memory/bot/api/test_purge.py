"""POST /api/v1/servers/{guild_id}/purge (API.md §7): every fact learned in one channel (its threads included) or
in one exchange goes, audited as the bot token; naming neither or both is refused and changes nothing."""

from __future__ import annotations

import uuid

import pytest

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.models import Fact, MemoryType
from teams.models import AuditEntry
from tests.factories import make_fact, make_server
from tests.memory.conftest import GENERAL, MODS

from .helpers import assert_error, configure, memory_state


def keys_left(server) -> set[str]:
    return set(Fact.objects.filter(server=server).values_list("key", flat=True))


def test_purging_a_channel_removes_what_was_learned_there_and_in_its_threads(api, server, learned):
    assert api.purge(server, channel_id=MODS) == 2
    assert keys_left(server) == {"theme", "rules"}


def test_the_purge_is_audited_as_the_bot_token_with_the_channel_name(api, server, learned):
    api.report_channels(server, [{"id": MODS, "name": "mod-chat", "public": False}])
    api.purge(server, channel_id=MODS)
    entry = AuditEntry.objects.get(action="memory.purge")
    assert entry.actor is None and entry.actor_label.startswith("bot token tests (lk_")
    assert (entry.count, entry.result) == (2, "2 facts learned in #mod-chat deleted")


def test_purging_an_exchange_removes_only_what_was_learned_in_it(api, server, learned):
    configure(server, memory_type=MemoryType.LEDGER)
    first = api.context(server, channel_id=GENERAL)["exchange"]
    api.actions(first, remember=[{"key": "a", "content": "First."}, {"key": "b", "content": "Second."}])
    second = api.context(server, channel_id=GENERAL)["exchange"]
    api.actions(second, remember=[{"key": "c", "content": "Third."}])
    assert api.purge(server, exchange=first) == 2
    assert keys_left(server) == {"ban_plan", "ban_reason", "theme", "rules", "c"}


def test_an_exchange_id_in_capitals_is_the_same_exchange(api, server):
    configure(server, memory_type=MemoryType.LEDGER)
    exchange = api.context(server)["exchange"]
    api.actions(exchange, remember=[{"key": "a", "content": "First."}])
    assert api.purge(server, exchange=exchange.upper()) == 1


def test_a_purge_that_matches_nothing_answers_0_and_is_still_audited(api, server, learned):
    before = memory_state()["facts"]
    assert api.purge(server, channel_id="999") == 0
    assert memory_state()["facts"] == before
    assert AuditEntry.objects.get(action="memory.purge").result == "0 facts learned in channel 999 deleted"


def test_an_exchange_that_taught_nothing_answers_0(api, server, exchange, learned):
    assert api.purge(server, exchange=str(exchange.pk)) == 0
    assert len(keys_left(server)) == 5  # the four above and the exchange fixture's


@pytest.mark.parametrize("whose", ["another team's", "our team's"])
def test_an_exchange_of_another_server_is_no_exchange_of_this_one(api, server, other_server, learned, whose):
    """The address names the server and the body the exchange: they must agree, even for two servers of the
    token's own team."""
    if whose == "our team's":
        other_server = make_server(server.team, name="Second arcade", guild_id="100000000000000003")
    elsewhere = exchange_open(server=other_server, message=IncomingMessage(
        channel_id=GENERAL, author_id="222", content="hello")).exchange
    make_fact(other_server, key="theirs", content="Theirs.", source_exchange=elsewhere)
    before = memory_state()
    ours = assert_error(api.post(f"/servers/{server.guild_id}/purge", {"exchange": str(elsewhere.pk)}), 404, None)
    missing = uuid.uuid4()
    gone = assert_error(api.post(f"/servers/{server.guild_id}/purge", {"exchange": str(missing)}), 404, None)
    assert ours["error"].replace(str(elsewhere.pk), "<id>") == gone["error"].replace(str(missing), "<id>")
    assert "on this server" in ours["error"]
    assert memory_state() == before and Fact.objects.filter(key="theirs").exists()
    assert not AuditEntry.objects.filter(action="memory.purge").exists()


BAD_PURGES = [
    ({}, "channel_id", "Name what to purge"),
    ({"channel_id": GENERAL, "exchange": str(uuid.uuid4())}, "exchange", "not both"),
    ({"channel_id": "#general"}, "channel_id", "Discord id"),
    ({"channel_id": 111}, "channel_id", "Discord id"),
    ({"channel_id": None}, "channel_id", "Discord id"),
    ({"channel_id": ""}, "channel_id", "Discord id"),
    ({"exchange": "5f0c"}, "exchange", "UUID"),
    ({"exchange": "{5f0c3d1e-0000-4000-8000-000000000000}"}, "exchange", "UUID"),
    ({"exchange": None}, "exchange", "UUID"),
]


@pytest.mark.parametrize(("body", "field", "says"), BAD_PURGES, ids=[f"{field}-{index}" for index, (_, field, _)
                                                                    in enumerate(BAD_PURGES)])
def test_a_bad_purge_answers_400_naming_the_field_and_removes_nothing(api, server, learned, body, field, says):
    before = memory_state()
    error = assert_error(api.post(f"/servers/{server.guild_id}/purge", body), 400, field)
    assert says in error["error"]
    assert memory_state() == before
    assert not AuditEntry.objects.filter(action="memory.purge").exists()
