"""PUT /api/v1/servers/{guild_id}/channels (API.md §6): a bot that is not the built-in adapter reports its channels
and whether @everyone can view them, which decides the audience of what the bot learns there."""

from __future__ import annotations

import json

import pytest

from memory.models import Audience, Channel, Fact, MemoryType

from .helpers import KIB_64, assert_error, configure, memory_state

GENERAL = {"id": "111", "name": "general", "public": True, "parent_id": None}
MODS = {"id": "444", "name": "mod-chat", "public": False}
THREAD = {"id": "555", "name": "tournament planning", "public": True, "parent_id": "111"}


def rows(server) -> list[tuple]:
    return list(Channel.objects.filter(server=server).order_by("channel_id")
                .values_list("channel_id", "name", "parent_id", "is_thread", "public"))


def test_it_writes_channels_and_threads_with_their_public_flag(api, server):
    assert api.report_channels(server, [GENERAL, MODS, THREAD]) == 3
    assert rows(server) == [("111", "general", "", False, True), ("444", "mod-chat", "", False, False),
                            ("555", "tournament planning", "111", True, True)]


def test_reporting_the_same_channels_again_changes_nothing(api, server):
    api.report_channels(server, [GENERAL, MODS, THREAD])
    first = list(Channel.objects.order_by("pk").values_list("pk", "channel_id", "name", "parent_id", "public"))
    assert api.report_channels(server, [GENERAL, MODS, THREAD]) == 3
    assert list(Channel.objects.order_by("pk").values_list("pk", "channel_id", "name", "parent_id", "public")) == first


def test_a_later_report_updates_names_and_flags_and_leaves_other_channels_alone(api, server):
    api.report_channels(server, [GENERAL, MODS])
    assert api.report_channels(server, [{**GENERAL, "name": "general-chat", "public": False}]) == 1
    assert rows(server) == [("111", "general-chat", "", False, False), ("444", "mod-chat", "", False, False)]


def test_an_id_sent_twice_is_written_once_with_its_last_values(api, server):
    assert api.report_channels(server, [GENERAL, {**GENERAL, "name": "lobby"}]) == 1
    assert rows(server) == [("111", "lobby", "", False, True)]


def test_no_channels_writes_nothing(api, server):
    assert api.report_channels(server, []) == 0
    assert rows(server) == []


def test_a_public_channel_gives_what_the_bot_learns_there_to_the_whole_server(api, server):
    """The contract's point: after the report, a remember in #general (or a public thread of it) is for every
    channel, one in #mod-chat only for #mod-chat, and one in a private thread of #general only for that thread."""
    configure(server, memory_type=MemoryType.ARCHIVE, include_threads=True)
    api.report_channels(server, [GENERAL, MODS, THREAD, {"id": "556", "name": "ticket-7", "public": False, "parent_id": "111"}])
    for channel, key in (("111", "in_general"), ("444", "in_mods"), ("555", "in_thread"), ("556", "in_ticket")):
        exchange = api.context(server, channel_id=channel, thread_parent_id="111" if channel in ("555", "556") else None)
        api.actions(exchange["exchange"], remember=[{"key": key, "content": f"Learned {key}."}])
    learned = {key: (audience, channel) for key, audience, channel in
               Fact.objects.values_list("key", "audience", "source_channel_id")}
    assert learned == {"in_general": (Audience.SERVER, "111"), "in_mods": (Audience.CHANNEL, "444"),
                       "in_thread": (Audience.SERVER, "111"), "in_ticket": (Audience.CHANNEL, "556")}


def test_it_takes_500_channels_in_one_call(api, server):
    channels = [{"id": str(10**17 + index), "name": f"c{index}", "public": index % 2 == 0} for index in range(500)]
    assert len(json.dumps({"channels": channels})) < KIB_64
    assert api.report_channels(server, channels) == 500
    assert Channel.objects.filter(server=server, public=True).count() == 250


BAD_CHANNELS = [
    ({"channels": [GENERAL] * 501}, "channels"),
    ({"channels": {"111": "general"}}, "channels"),
    ({}, "channels"),
    ({"channels": ["111"]}, "channels[0]"),
    ({"channels": [{**GENERAL, "id": "#general"}]}, "channels[0].id"),
    ({"channels": [{**GENERAL, "id": 111}]}, "channels[0].id"),
    ({"channels": [{**GENERAL, "id": "1" * 21}]}, "channels[0].id"),
    ({"channels": [{"name": "general", "public": True}]}, "channels[0].id"),
    ({"channels": [GENERAL, {**THREAD, "parent_id": "general"}]}, "channels[1].parent_id"),
    ({"channels": [{**GENERAL, "name": ""}]}, "channels[0].name"),
    ({"channels": [{**GENERAL, "name": "  "}]}, "channels[0].name"),
    ({"channels": [{**GENERAL, "name": "x" * 101}]}, "channels[0].name"),
    ({"channels": [{**GENERAL, "name": "gen\x00eral"}]}, "channels[0].name"),
    ({"channels": [{"id": "111", "name": "general"}]}, "channels[0].public"),
    ({"channels": [{**GENERAL, "public": "yes"}]}, "channels[0].public"),
    ({"channels": [{**GENERAL, "public": 1}]}, "channels[0].public"),
    ({"channels": [{**GENERAL, "public": None}]}, "channels[0].public"),
]


@pytest.mark.parametrize(("body", "field"), BAD_CHANNELS, ids=[f"{field}-{index}" for index, (_, field)
                                                                in enumerate(BAD_CHANNELS)])
def test_a_bad_report_answers_400_naming_the_field_and_writes_nothing(api, server, body, field):
    api.report_channels(server, [MODS])
    before = memory_state()
    error = assert_error(api.put(f"/servers/{server.guild_id}/channels", body), 400, field)
    assert f"'{field}'" in error["error"]
    assert memory_state() == before


def test_one_bad_channel_refuses_the_whole_call(api, server):
    before = memory_state()
    assert_error(api.put(f"/servers/{server.guild_id}/channels",
                         {"channels": [GENERAL, MODS, {**THREAD, "public": "true"}]}), 400, "channels[2].public")
    assert memory_state() == before and rows(server) == []


def test_another_teams_server_cannot_be_reported_to(api, other_server):
    before = memory_state()
    assert_error(api.put(f"/servers/{other_server.guild_id}/channels", {"channels": [GENERAL]}), 404, None)
    assert memory_state() == before
