"""The playground shows the exact system prompt the reply model got: the bot's persona and the memory block with the
pinned facts, character for character what the model's request body holds."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from memory.configuration.services import ai_settings_update
from memory.facts.services import FactAuthor, fact_pin_set
from memory.models import ModelPurpose
from tests.conftest import logged_in_client
from tests.factories import make_fact
from tests.model_server import Status, answer, played_model

PAUL = "200000000000000011"
PLAYGROUND = {"member_id": PAUL, "member_name": "Paul", "channel_id": "111", "thread_parent_id": "", "history": "",
              "message": "Can I ask for help here?"}
HTMX = {"HX-Request": "true"}


@pytest.fixture
def fake_model(server, owner):
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake",
                      api_key="sk-test-0123456789abcdef") as model:
        yield model


def shown_prompt(page: str) -> str:
    return html.unescape(re.search(r'<pre class="memory-block system-prompt">(.*?)</pre>', page, re.S).group(1))


def talk(owner, server) -> str:
    response = logged_in_client(owner).post(reverse("memory:playground", args=[server.guild_id]), PLAYGROUND,
                                            headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_the_prompt_shown_is_the_one_the_model_got(owner, server, fake_model):
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday.")
    fake_model.script.append(answer("Sure!"))
    page = talk(owner, server)
    sent = fake_model.requests[0]["body"]["messages"][0]
    assert sent["role"] == "system"
    assert shown_prompt(page) == sent["content"]
    assert "tournament_day" in shown_prompt(page)


def test_the_persona_and_a_pinned_fact_are_in_the_prompt_shown_and_sent(owner, server, fake_model):
    rule = make_fact(server, key="no_public_support", content="Do not give support in public channels.",
                     kind="rule", author=FactAuthor.staff(owner))
    fact_pin_set(fact=rule, pinned=True, actor=owner)
    ai_settings_update(server=server, actor=owner, bot_name="Pixel",
                       bot_description="A cheerful arcade cabinet who loves high scores.",
                       style_sample="Woo! Another quarter in the machine!")
    fake_model.script.append(answer("Please open a ticket!"))
    prompt = shown_prompt(talk(owner, server))
    assert prompt == fake_model.requests[0]["body"]["messages"][0]["content"]
    for text in ("Pixel", "A cheerful arcade cabinet who loves high scores.", "Woo! Another quarter in the machine!",
                 "no_public_support", "Do not give support in public channels."):
        assert text in prompt, text


def test_a_failed_model_call_still_shows_the_prompt_it_was_sent(owner, server, fake_model):
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday.")
    fake_model.script.append(Status(500))
    page = talk(owner, server)
    assert shown_prompt(page) == fake_model.requests[0]["body"]["messages"][0]["content"]


def test_without_a_reply_model_the_prompt_a_reply_would_get_is_shown(owner, server):
    make_fact(server, key="tournament_day", content="Tournaments are every Saturday.")
    ai_settings_update(server=server, actor=owner, bot_name="Pixel")
    page = talk(owner, server)
    assert "System prompt a reply would give the model" in page
    prompt = shown_prompt(page)
    assert "tournament_day" in prompt and "Pixel" in prompt
