"""POST /api/v1/servers/{guild_id}/messages (API.md §9): members' messages stored to learn from, where memory may be
written, each Discord message once; a bad body is a 400 naming the field and stores nothing."""

from __future__ import annotations

import json

import pytest

from memory.models import ChannelMessage, Member
from tests.memory.conftest import GENERAL, MODS

from .helpers import assert_error, configure, memory_state


def said(message_id: str, content: str = "I love Tetris.", **fields) -> dict:
    return {"id": message_id, "channel_id": GENERAL, "thread_parent_id": None, "author_id": "222",
            "author_name": "Paul", "is_bot": False, "content": content, "sent_at": "2026-05-03T18:30:00Z", **fields}


def test_messages_are_stored_in_order_with_their_authors_and_the_author_names_kept(api, server):
    answer = api.send_messages(server, [said("9001", "I'm Paul and I love Tetris."),
                                        said("9002", "Welcome, Paul!", author_id="999", author_name="Lorekeeper",
                                             is_bot=True),
                                        said("9003", "Ich wohne in Köln.", author_id="333", author_name="Mira",
                                             sent_at="2026-05-03T20:31:00+02:00")])
    assert answer == {"accepted": 3, "ignored": []}
    stored = list(ChannelMessage.objects.filter(server=server).order_by("id"))
    assert [(m.message_id, m.author_id, m.is_bot) for m in stored] == [("9001", "222", False), ("9002", "999", True),
                                                                       ("9003", "333", False)]
    assert stored[2].content == "Ich wohne in Köln." and stored[2].sent_at.isoformat() == "2026-05-03T18:31:00+00:00"
    # The members' names go to the member directory (a bot's does not: it is no member).
    assert dict(Member.objects.filter(server=server).values_list("member_id", "display_name")) == {
        "222": "Paul", "333": "Mira"}


def test_the_same_message_twice_is_stored_once_and_said_so(api, server):
    api.send_messages(server, [said("9001")])
    answer = api.send_messages(server, [said("9001"), said("9002")])
    assert answer == {"accepted": 1, "ignored": [{"id": "9001", "reason": "already received: stored once"}]}
    again = api.send_messages(server, [said("9003"), said("9003")])
    assert again["accepted"] == 1 and again["ignored"] == [{"id": "9003",
                                                            "reason": "given twice in this request: stored once"}]
    assert ChannelMessage.objects.filter(server=server).count() == 3


def test_a_channel_where_memory_may_not_be_written_is_ignored_with_the_reason(api, server):
    configure(server, write_all_channels=False, write_channel_ids=[GENERAL])
    answer = api.send_messages(server, [said("9001"), said("9002", channel_id=MODS),
                                        said("9003", channel_id="444", thread_parent_id=GENERAL)])
    assert answer["accepted"] == 1
    assert answer["ignored"] == [
        {"id": "9002", "reason": "Memory may be read here but not written (write channels)."},
        {"id": "9003", "reason": "Memory is off in threads (Include threads is off)."}]
    assert list(ChannelMessage.objects.values_list("message_id", flat=True)) == ["9001"]


@pytest.mark.parametrize(("body", "field"), [
    ({"messages": []}, "messages"),
    ({"messages": [said(str(9000 + n)) for n in range(101)]}, "messages"),
    ({"messages": "hello"}, "messages"),
    ({}, "messages"),
    ({"messages": [said("9001"), said("9002", sent_at="last tuesday")]}, "messages[1].sent_at"),
    ({"messages": [said("9001", sent_at="2026-02-30T10:00:00Z")]}, "messages[0].sent_at"),
    ({"messages": [said("9001", content="")]}, "messages[0].content"),
    ({"messages": [said("9001", content="   ")]}, "messages[0].content"),
    ({"messages": [said("msg-1")]}, "messages[0].id"),
    ({"messages": [said("9001", author_id=222)]}, "messages[0].author_id"),
    ({"messages": [said("9001", channel_id="general")]}, "messages[0].channel_id"),
    ({"messages": [said("9001", is_bot="no")]}, "messages[0].is_bot"),
    ({"messages": [said("9001", reactions=3)]}, "messages[0].reactions"),
    ({"messages": [said("9001", content="a\u0000b")]}, "messages[0].content"),
    ({"messages": ["I love Tetris"]}, "messages[0]"),
    ({"messages": [said("9001")], "channel": GENERAL}, "channel"),
])
def test_a_bad_body_is_a_400_naming_the_field_and_stores_nothing(api, server, body, field):
    before = memory_state()
    assert_error(api.post(f"/servers/{server.guild_id}/messages", body), 400, field)
    assert memory_state() == before


def test_no_token_another_teams_token_and_another_teams_server_are_refused(api, server, other_server,
                                                                          other_bot_token):
    before = memory_state()
    body = {"messages": [said("9001")]}
    assert_error(api.as_token(None).post(f"/servers/{server.guild_id}/messages", body), 401)
    assert_error(api.as_token(other_bot_token).post(f"/servers/{server.guild_id}/messages", body), 404)
    assert_error(api.post(f"/servers/{other_server.guild_id}/messages", body), 404)
    assert memory_state() == before


def test_a_hundred_long_messages_fit_and_more_than_three_mebibytes_is_a_413(api, server):
    long = "日本語のメッセージ。" * 400  # 4,000 characters, 24,000 bytes each as JSON escapes them
    answer = api.send_messages(server, [said(str(9000 + n), long) for n in range(100)])
    assert answer["accepted"] == 100
    huge = json.dumps({"messages": [said("9999", "x" * 4000)]}) + " " * (3 * 1024 * 1024)
    assert_error(api.post(f"/servers/{server.guild_id}/messages", raw=huge), 413)
    assert ChannelMessage.objects.count() == 100
