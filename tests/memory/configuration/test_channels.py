"""Where memory may be read and written (SPEC section 5): channels in or out of the lists, and threads,
which follow their parent channel only with *Include threads* on. Checked on memory.configuration.channels.channel_access
and on what the context endpoint hands the bot."""

from __future__ import annotations

import re

import pytest

from memory.configuration.channels import channel_access
from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import AISettings, Exchange
from tests.factories import make_fact
from tests.memory.conftest import PAUL, api_post, context_url, set_channel_rules, use_memory_type

LISTED, UNLISTED, THREAD = "1001", "1002", "5005"
EVERY = None  # every channel

# (read list, write list, include threads, channel_id, thread_parent_id) -> (read_allowed, write_allowed)
MATRIX = {
    "every channel, plain channel": (EVERY, EVERY, False, UNLISTED, None, (True, True)),
    "listed channel": ([LISTED], [LISTED], False, LISTED, None, (True, True)),
    "unlisted channel": ([LISTED], [LISTED], False, UNLISTED, None, (False, False)),
    "read only here": ([LISTED], [UNLISTED], False, LISTED, None, (True, False)),
    "write only here": ([UNLISTED], [LISTED], False, LISTED, None, (False, True)),
    "read everywhere, write nowhere listed": (EVERY, [UNLISTED], False, LISTED, None, (True, False)),
    "no channel listed": ([], [], False, LISTED, None, (False, False)),
    "thread, include off, every channel": (EVERY, EVERY, False, THREAD, LISTED, (False, False)),
    "thread, include off, listed parent": ([LISTED], [LISTED], False, THREAD, LISTED, (False, False)),
    "thread, include off, thread itself listed": ([THREAD], [THREAD], False, THREAD, LISTED, (False, False)),
    "thread, include on, every channel": (EVERY, EVERY, True, THREAD, UNLISTED, (True, True)),
    "thread, include on, listed parent": ([LISTED], [LISTED], True, THREAD, LISTED, (True, True)),
    "thread, include on, unlisted parent": ([LISTED], [LISTED], True, THREAD, UNLISTED, (False, False)),
    "thread, include on, only the thread listed": ([THREAD], [THREAD], True, THREAD, UNLISTED, (False, False)),
    "thread, include on, parent read only": ([LISTED], [UNLISTED], True, THREAD, LISTED, (True, False)),
    "thread, include on, parent write only": ([UNLISTED], [LISTED], True, THREAD, LISTED, (False, True)),
    "include on, plain unlisted channel": ([LISTED], [LISTED], True, UNLISTED, None, (False, False)),
}
CASES = pytest.mark.parametrize(("read", "write", "include_threads", "channel_id", "thread_parent_id", "expected"),
                                MATRIX.values(), ids=MATRIX.keys())


def _settings(read, write, include_threads) -> AISettings:
    return AISettings(read_all_channels=read is None, read_channel_ids=list(read or []),
                      write_all_channels=write is None, write_channel_ids=list(write or []),
                      include_threads=include_threads)


@CASES
def test_channel_access_follows_the_channel_settings(read, write, include_threads, channel_id, thread_parent_id,
                                                     expected):
    access = channel_access(_settings(read, write, include_threads), channel_id, thread_parent_id)

    assert (access.read_allowed, access.write_allowed) == expected
    assert access.reason.endswith(".")


def test_the_default_settings_allow_channels_but_not_threads():
    defaults = AISettings()

    assert (defaults.read_all_channels, defaults.write_all_channels, defaults.include_threads) == (True, True, False)
    channel = channel_access(defaults, LISTED, None)
    thread = channel_access(defaults, THREAD, LISTED)
    assert (channel.read_allowed, channel.write_allowed) == (True, True)
    assert (thread.read_allowed, thread.write_allowed) == (False, False)
    assert "thread" in thread.reason.lower()


def test_an_empty_parent_id_is_a_plain_channel():
    access = channel_access(_settings([LISTED], [LISTED], False), LISTED, "")

    assert (access.read_allowed, access.write_allowed) == (True, True)


# The context endpoint --------------------------------------------------------------------------


def context_body(channel_id: str, thread_parent_id: str | None) -> dict:
    body = {"channel_id": channel_id, "author_id": PAUL, "author_name": "Paul", "content": "what are the rules?"}
    if thread_parent_id is not None:
        body["thread_parent_id"] = thread_parent_id
    return body


@CASES
def test_the_context_endpoint_follows_the_channel_settings(client, server, owner, bot_token, read, write,
                                                           include_threads, channel_id, thread_parent_id, expected):
    use_memory_type(server, owner, "archive")
    fact = make_fact(server, key="important_rule", content="No spoilers in #general.")
    summary_set(server=server, content="Retro gaming server.", author=FactAuthor.bot(""))
    set_channel_rules(server, owner, read=read, write=write, include_threads=include_threads)

    response = api_post(client, context_url(server), bot_token, context_body(channel_id, thread_parent_id))

    assert response.status_code == 200, response.content
    body = response.json()
    read_allowed, write_allowed = expected
    assert (body["read_allowed"], body["write_allowed"]) == expected
    assert body["can_search"] is read_allowed
    if read_allowed:
        assert [item["number"] for item in body["facts"]] == [fact.number]
        assert body["summary"] == "Retro gaming server."
        assert re.search(rf"\[#{fact.number}\] \(\d{{4}}-\d{{2}}-\d{{2}}\) important_rule: No spoilers in #general\.",
                         body["prompt"])
    else:
        assert body["facts"] == [] and body["summary"] == ""
        assert "No spoilers" not in body["prompt"] and "Retro gaming" not in body["prompt"]
    exchange = Exchange.objects.get(pk=body["exchange"])
    assert (exchange.read_allowed, exchange.write_allowed) == expected
    assert exchange.shown_numbers == ([fact.number] if read_allowed else [])
    assert exchange.thread_parent_id == (thread_parent_id or "")


@pytest.mark.parametrize(("include_threads", "expected_status"), [(False, "ignored"), (True, "applied")])
def test_in_a_thread_the_bot_may_act_only_with_include_threads_on(client, server, owner, bot_token,
                                                                  include_threads, expected_status):
    use_memory_type(server, owner, "ledger")
    fact = make_fact(server, key="important_rule", content="No spoilers in #general.")
    set_channel_rules(server, owner, read=[LISTED], write=[LISTED], include_threads=include_threads)
    opened = api_post(client, context_url(server), bot_token, context_body(THREAD, LISTED)).json()

    response = api_post(client, f"/api/v1/exchanges/{opened['exchange']}/actions", bot_token, {
        "retract": [{"number": fact.number, "reason": "gone"}],
        "remember": [{"key": "new_rule", "content": "Spoilers go in #spoilers.", "scope": "server",
                      "importance": 0.5}]})

    assert response.status_code == 200
    assert [result["status"] for result in response.json()["results"]] == [expected_status, expected_status]
    fact.refresh_from_db()
    assert (fact.retracted_at is not None) is include_threads


def test_a_search_is_refused_where_the_context_could_not_be_read(client, server, owner, bot_token):
    use_memory_type(server, owner, "archive")
    make_fact(server, key="important_rule", content="No spoilers in #general.")
    set_channel_rules(server, owner, read=[LISTED], include_threads=False)
    opened = api_post(client, context_url(server), bot_token, context_body(THREAD, LISTED)).json()

    response = api_post(client, f"/api/v1/exchanges/{opened['exchange']}/search", bot_token, {"query": "spoilers"})

    assert response.status_code == 409
    assert Exchange.objects.get(pk=opened["exchange"]).found_numbers == []
