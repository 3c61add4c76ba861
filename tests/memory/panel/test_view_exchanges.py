"""The exchange log and the playground, as staff use them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from memory.bot.actions import Remember, exchange_apply_actions
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.bot.retention import exchange_logs_trim
from memory.configuration.services import ai_settings_update
from memory.models import Exchange, Fact, ModelPurpose
from tests.conftest import logged_in_client
from tests.factories import make_fact
from tests.model_server import answer, played_model, tool_call

PAUL = "200000000000000011"


@pytest.fixture
def exchange(server):
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday.")
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id=PAUL,
                                                                  author_name="Paul", content="When do we play?"))
    exchange_apply_actions(exchange=opened.exchange, ops=[Remember(key="paul_game", content="Paul plays Tetris.")])
    return opened.exchange


@pytest.fixture
def fake_model(server, owner):
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake",
                      api_key="sk-test-0123456789abcdef") as model:
        yield model


def test_the_log_shows_message_injected_numbers_and_actions_to_a_viewer(member, server, exchange):
    page = logged_in_client(member).get(reverse("memory:exchanges", args=[server.guild_id])).content.decode()
    assert "When do we play?" in page and "Paul" in page
    assert f"#{exchange.shown_numbers[0]}" in page
    learned = Fact.objects.get(server=server, key="paul_game")
    assert f"remember</code> #{learned.number}: applied" in page


def test_a_bot_written_fact_links_to_the_exchange_it_came_from(member, server, exchange):
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert reverse("memory:exchange", args=[server.guild_id, exchange.pk]) in page


def test_the_exchange_page_shows_the_exact_memory_block(member, server, exchange):
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk]))
    assert "tournament_day: Tournaments are every Saturday." in page.content.decode()  # [#1] (date) key: …


def test_another_servers_exchange_is_not_found_under_our_server(owner, server, other_server):
    theirs = exchange_open(server=other_server, message=IncomingMessage(channel_id="1", author_id="2", content="hi"))
    response = logged_in_client(owner).get(reverse("memory:exchange", args=[server.guild_id, theirs.exchange.pk]))
    assert response.status_code == 404


def test_older_exchanges_load_in_pages(member, server):
    for index in range(30):
        exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id=PAUL,
                                                             content=f"message {index}"))
    client = logged_in_client(member)
    first = client.get(reverse("memory:exchanges", args=[server.guild_id]))
    assert len(first.context["exchanges"]) == 25 and first.context["next_before"]
    rest = client.get(reverse("memory:exchanges", args=[server.guild_id]), {"before": first.context["next_before"]},
                      headers={"HX-Request": "true"})
    assert len(rest.context["exchanges"]) == 5
    assert "<html" not in rest.content.decode()


PLAYGROUND = {"member_id": PAUL, "member_name": "Paul", "channel_id": "111", "thread_parent_id": "",
              "history": "Mira: hi all\nbot: hello Mira", "message": "When is the tournament?"}


def test_without_a_reply_model_the_playground_shows_the_memory_block_and_says_why(owner, server):
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday.")
    response = logged_in_client(owner).post(reverse("memory:playground", args=[server.guild_id]), PLAYGROUND,
                                            headers={"HX-Request": "true"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Replies need a model endpoint" in page
    assert "tournament_day: Tournaments are every Saturday." in page  # [#1] (date) key: …
    assert Exchange.objects.get(server=server).source == "playground"


def test_the_playground_talks_to_the_real_pipeline_and_shows_actions(owner, server, fake_model):
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday.")
    fake_model.script.append(answer("Saturday, as always!", [tool_call(
        "remember", key="paul_question", content="Paul asked about the tournament.", importance=0.2)]))
    response = logged_in_client(owner).post(reverse("memory:playground", args=[server.guild_id]), PLAYGROUND,
                                            headers={"HX-Request": "true"})
    page = response.content.decode()
    assert "Saturday, as always!" in page
    assert "remember</code>" in page and "applied" in page
    sent = fake_model.requests[0]["body"]["messages"]
    assert [message["content"] for message in sent[1:]] == [
        "Mira: hi all", "bot: hello Mira", "Paul: When is the tournament?"]
    assert Fact.objects.get(server=server, key="paul_question").learned_from_member_id == PAUL


def test_a_bad_playground_form_is_refused_with_the_reason(owner, server):
    response = logged_in_client(owner).post(reverse("memory:playground", args=[server.guild_id]),
                                            {**PLAYGROUND, "channel_id": "general"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "A channel id is a number" in response.content.decode()
    assert not Exchange.objects.exists()


def test_a_trimmed_log_says_when_its_words_were_removed_and_how_long_they_were_kept(member, server, owner, exchange):
    ai_settings_update(server=server, actor=owner, exchange_log_days=30)
    Exchange.objects.filter(pk=exchange.pk).update(created_at=exchange.created_at - timedelta(days=31))
    exchange_logs_trim(now=exchange.created_at)
    trimmed = Exchange.objects.get(pk=exchange.pk)
    client = logged_in_client(member)

    page = client.get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content.decode()
    assert (f"The words of this log were removed on {trimmed.trimmed_at:%Y-%m-%d} (kept 31 days): the message, the "
            "memory block and the reply.") in re.sub(r"<[^>]+>", "", page)
    assert "Memory block sent to the model" not in page and "When do we play?" not in page
    assert f"#{exchange.shown_numbers[0]}" in page  # what provenance needs stays
    log = client.get(reverse("memory:exchanges", args=[server.guild_id])).content.decode()
    assert f"Words removed on <time datetime=\"{trimmed.trimmed_at:%Y-%m-%d}" in log


def test_a_log_not_trimmed_says_nothing_of_it(member, server, exchange):
    page = logged_in_client(member).get(reverse("memory:exchange", args=[server.guild_id, exchange.pk])).content
    assert b"were removed on" not in page and b"When do we play?" in page


def test_the_log_filters_by_member_channel_status_and_use_of_memory_and_pages_with_its_filters(member, server):
    from memory.bot.exchanges import IncomingMessage, exchange_open  # the exchanges the filters choose among
    from tests.factories import make_fact

    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.")
    for n in range(30):
        exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id="222", author_name="Paul",
                                                             content=f"Paul's message {n}"))
    exchange_open(server=server, message=IncomingMessage(channel_id="555", author_id="333", author_name="Mira",
                                                         content="Mira's only message"))
    client = logged_in_client(member)
    url = reverse("memory:exchanges", args=[server.guild_id])
    mira = client.get(url, {"member": "333"}).content.decode()
    assert "Mira&#x27;s only message" in mira and "Paul&#x27;s message" not in mira
    assert "Mira&#x27;s only message" in client.get(url, {"channel": "555"}).content.decode()
    assert "No exchange matches these filters." in client.get(url, {"status": "failed"}).content.decode()
    assert "No exchange matches these filters." in client.get(url, {"used": "no"}).content.decode()
    pauls = client.get(url, {"member": "222", "used": "yes"}).content.decode()
    assert pauls.count("Paul&#x27;s message") == 25 and "?member=222&amp;used=yes&amp;before=" in pauls
    assert "#1 <code class=\"fact-key\">paul_birthday</code>" in pauls  # injected facts with their keys
    # A filter that is not one filters nothing.
    everything = client.get(url, {"member": "paul", "status": "lost"}).content.decode()
    assert everything.count("exchange-message") == 25 and "Mira&#x27;s only message" in everything
