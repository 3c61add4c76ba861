"""What the reply model really receives over HTTP: the memory block in the system prompt, every speaker's
name, only the tools this exchange allows, and the decrypted key in the Authorization header."""

from __future__ import annotations

import pytest

from memory.bot.reply import HistoryMessage, reply_to_message
from memory.facts.services import FactAuthor
from memory.facts.summary import summary_set
from memory.models import ModelEndpoint
from tests.factories import make_fact
from tests.memory.conftest import (
    CHANNEL,
    MODEL_API_KEY,
    MODEL_NAME,
    api_post,
    paul_says,
    reply_body,
    reply_url,
    set_channel_rules,
    use_memory_type,
)


def offered_tools(request: dict) -> dict[str, dict]:
    return {tool["function"]["name"]: tool["function"] for tool in request["body"].get("tools", [])}


def test_the_system_prompt_holds_the_memory_block_with_numbered_facts(server, model_server):
    fact = make_fact(server, key="server_theme", content="This server is about retro gaming.")
    summary_set(server=server, content="Retro gaming server; replies are short.", author=FactAuthor.bot(""))

    outcome = reply_to_message(server=server, message=paul_says(), history=[])

    [request] = model_server.requests
    system = request["body"]["messages"][0]
    assert system["role"] == "system"
    assert outcome.exchange.memory_block in system["content"]
    assert (f"[#{fact.number}] ({fact.changed_at.date().isoformat()}) server_theme: This server is about retro "
            "gaming.") in system["content"]
    assert "Summary: Retro gaming server; replies are short." in system["content"]
    assert request["body"]["model"] == MODEL_NAME
    assert request["path"] == "/v1/chat/completions"


def test_where_memory_may_not_be_read_the_prompt_holds_no_fact(server, owner, model_server):
    make_fact(server, key="secret_plan", content="The raid starts at nine.")
    set_channel_rules(server, owner, read=["999"])

    reply_to_message(server=server, message=paul_says(), history=[])

    system = model_server.requests[0]["body"]["messages"][0]["content"]
    assert "The raid starts at nine." not in system
    assert "Memory may not be read in this channel" in system


def test_every_history_message_and_the_new_message_carry_the_speakers_name(server, model_server):
    history = [HistoryMessage("Anna", "Anyone up for Tetris?"),
               HistoryMessage("Lorekeeper", "Always!", is_bot=True),
               HistoryMessage("Paul", "Me too")]

    reply_to_message(server=server, message=paul_says("When is my birthday?"), history=history)

    conversation = model_server.requests[0]["body"]["messages"][1:]
    assert [(message["role"], message["content"]) for message in conversation] == [
        ("user", "Anna: Anyone up for Tetris?"),
        ("assistant", "Lorekeeper: Always!"),
        ("user", "Paul: Me too"),
        ("user", "Paul: When is my birthday?"),
    ]


def test_the_reply_endpoint_passes_the_history_with_names_oldest_first(client, server, bot_token, model_server):
    history = [{"author_name": "Anna", "content": "first", "is_bot": False},
               {"author_name": "Lorekeeper", "content": "second", "is_bot": True}]

    response = api_post(client, reply_url(server), bot_token, reply_body("third", history=history))

    assert response.status_code == 200
    contents = [message["content"] for message in model_server.requests[0]["body"]["messages"][1:]]
    assert contents == ["Anna: first", "Lorekeeper: second", "Paul: third"]


def test_the_authorization_header_carries_the_decrypted_key(server, model_server):
    stored = ModelEndpoint.objects.get(server=server)
    assert MODEL_API_KEY not in stored.api_key_encrypted

    reply_to_message(server=server, message=paul_says(), history=[])

    assert model_server.requests[0]["authorization"] == f"Bearer {MODEL_API_KEY}"


# Which tools are offered ------------------------------------------------------------------------

EVERY_CHANNEL, NO_CHANNEL = None, ["999"]


@pytest.mark.parametrize(("memory_type", "read", "write", "expected"), [
    ("classic", EVERY_CHANNEL, EVERY_CHANNEL, {"forget_memory", "remember"}),
    ("ledger", EVERY_CHANNEL, EVERY_CHANNEL, {"forget_memory", "replace_memory", "remember"}),
    ("archive", EVERY_CHANNEL, EVERY_CHANNEL, {"search_memory", "forget_memory", "replace_memory", "remember"}),
    ("archive", NO_CHANNEL, EVERY_CHANNEL, {"forget_memory", "replace_memory", "remember"}),
    ("archive", EVERY_CHANNEL, NO_CHANNEL, {"search_memory"}),
    ("ledger", EVERY_CHANNEL, NO_CHANNEL, set()),
    ("archive", NO_CHANNEL, NO_CHANNEL, set()),
    ("classic", NO_CHANNEL, NO_CHANNEL, set()),
])
def test_only_the_tools_this_exchange_allows_are_offered(server, owner, model_server, memory_type, read, write,
                                                         expected):
    use_memory_type(server, owner, memory_type)
    set_channel_rules(server, owner, read=read, write=write)

    reply_to_message(server=server, message=paul_says(), history=[])

    assert set(offered_tools(model_server.requests[0])) == expected


def test_tools_in_a_thread_follow_the_threads_rules_not_the_parents(server, owner, model_server):
    use_memory_type(server, owner, "archive")
    set_channel_rules(server, owner, read=[CHANNEL], write=[CHANNEL], include_threads=False)

    reply_to_message(server=server, message=paul_says(channel_id="444", thread_parent_id=CHANNEL), history=[])

    assert offered_tools(model_server.requests[0]) == {}


def test_replace_says_the_old_wording_is_kept(server, owner, model_server):
    use_memory_type(server, owner, "ledger")

    reply_to_message(server=server, message=paul_says(), history=[])

    replace = offered_tools(model_server.requests[0])["replace_memory"]
    assert "old wording is kept" in replace["description"]
    assert set(replace["parameters"]["required"]) == {"number", "new_content", "reason"}


def test_remember_asks_for_an_importance_and_says_what_0_to_1_means(server, owner, model_server):
    use_memory_type(server, owner, "ranked")

    reply_to_message(server=server, message=paul_says(), history=[])

    remember = offered_tools(model_server.requests[0])["remember"]["parameters"]
    assert "importance" in remember["required"]
    importance = remember["properties"]["importance"]
    assert (importance["minimum"], importance["maximum"]) == (0, 1)
    assert "0 trivia" in importance["description"] and "1 essential" in importance["description"]


@pytest.mark.parametrize(("memory_type", "says"), [("classic", "It is deleted."),
                                                    ("ledger", "It is retracted: kept, but no longer shown.")])
def test_forget_says_what_happens_to_the_fact(server, owner, model_server, memory_type, says):
    use_memory_type(server, owner, memory_type)

    reply_to_message(server=server, message=paul_says(), history=[])

    assert says in offered_tools(model_server.requests[0])["forget_memory"]["description"]


def test_the_system_prompt_mentions_search_only_where_it_is_offered(server, owner, model_server):
    use_memory_type(server, owner, "archive")
    reply_to_message(server=server, message=paul_says(), history=[])
    set_channel_rules(server, owner, read=["999"])
    reply_to_message(server=server, message=paul_says(), history=[])

    readable, unreadable = (request["body"]["messages"][0]["content"] for request in model_server.requests)
    assert "search_memory" in readable
    assert "search_memory" not in unreadable
