"""Which language the panel speaks: the browser's, unless the user chose one in the header; the choice stays
with the account; the bot API answers in English whatever the bot's HTTP library sends."""

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import timezone, translation

from memory.bot.exchanges import IncomingMessage, exchange_open

from teams.models import PanelLanguage

from ..conftest import logged_in_client
from ..factories import make_fact

pytestmark = pytest.mark.django_db


def _page_language(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def test_the_panel_follows_the_browsers_language(owner):
    client = logged_in_client(owner)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9,en;q=0.5")
    assert _page_language(response) == "nl"
    assert response["Content-Language"] == "nl"
    assert _page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="ja")) == "ja"
    # A language the panel does not speak falls back to English.
    assert _page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR")) == "en"


def test_a_language_chosen_in_the_header_wins_over_the_browser_and_is_kept_on_the_account(owner):
    client = logged_in_client(owner)
    response = client.post("/language/", {"language": "de", "next": "/memory/"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 302 and response["Location"] == "/memory/"
    assert PanelLanguage.objects.get(user=owner).language == "de"
    assert _page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="nl")) == "de"
    # Another browser: a new session, its own Accept-Language, no cookie; the account's choice follows.
    elsewhere = logged_in_client(owner)
    assert _page_language(elsewhere.get("/", HTTP_ACCEPT_LANGUAGE="ja")) == "de"
    # Choosing again replaces the choice.
    elsewhere.post("/language/", {"language": "ja", "next": "/"})
    assert list(PanelLanguage.objects.filter(user=owner).values_list("language", flat=True)) == ["ja"]


def test_the_choice_is_the_users_own(owner, member):
    logged_in_client(owner).post("/language/", {"language": "nl", "next": "/"})
    assert _page_language(logged_in_client(member).get("/", HTTP_ACCEPT_LANGUAGE="en")) == "en"


def test_logged_out_the_choice_lives_in_a_cookie_and_the_log_in_page_speaks_it(db):
    client = Client()
    response = client.post("/language/", {"language": "ja", "next": "/login/"})
    assert response["Location"] == "/login/"
    cookie = response.cookies["django_language"]
    assert cookie.value == "ja" and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 24 * 3600
    assert _page_language(client.get("/login/", HTTP_ACCEPT_LANGUAGE="en")) == "ja"
    assert not PanelLanguage.objects.exists()


def test_a_language_the_panel_does_not_speak_is_refused_with_a_sentence_and_changes_nothing(owner):
    client = logged_in_client(owner)
    client.post("/language/", {"language": "nl", "next": "/"})
    response = client.post("/language/", {"language": "xx", "next": "/"})
    assert "django_language" not in response.cookies
    page = client.get(response["Location"])
    assert _page_language(page) == "nl"
    assert page.content.decode().count('class="message message-error"') == 1
    assert PanelLanguage.objects.get(user=owner).language == "nl"


def test_the_selector_never_sends_anyone_to_another_site(owner):
    response = logged_in_client(owner).post("/language/", {"language": "en", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_the_selector_only_takes_a_post(owner):
    assert logged_in_client(owner).get("/language/").status_code == 405


def test_every_page_has_the_selector_with_the_current_language_chosen(owner):
    body = logged_in_client(owner).get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'action="/language/"' in body
    assert '<option value="de" lang="de" selected>Deutsch</option>' in body
    assert '<option value="ja" lang="ja">日本語</option>' in body


def test_the_bot_api_answers_in_english_whatever_the_client_sends(bot_token, server):
    """The confidence sentence is the services' own, shared with the panel, and the Dutch catalogue translates it:
    the API still answers it in English to a bot whose HTTP library sends Accept-Language: nl."""
    sentence = "The confidence must be a number from 0 to 1."
    with translation.override("nl"):
        assert translation.gettext(sentence) != sentence
    exchange = exchange_open(server=server, message=IncomingMessage(
        channel_id="111", author_id="222", author_name="Paul", content="hello")).exchange
    response = Client().post(f"/api/v1/exchanges/{exchange.id}/actions",
                             {"remember": [{"key": "k", "content": "c", "confidence": None}]},
                             content_type="application/json", HTTP_ACCEPT_LANGUAGE="nl",
                             HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert response.status_code == 400
    assert response["Content-Language"] == "en"
    assert response.json()["error"] == f"remember[0].confidence: {sentence}"


def test_dates_on_a_page_follow_its_language(owner, server):
    make_fact(server, key="raid_night", content="Raids are on Wednesday.")
    client = logged_in_client(owner)
    today = timezone.localdate()
    url = f"/servers/{server.guild_id}/facts/1/"
    assert today.strftime("%Y-%m-%d") in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert today.strftime("%d.%m.%Y") in client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert today.strftime("%Y/%m/%d") in client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"{today.day}-{today.month}-{today.year}" in client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()


def test_a_sentence_that_holds_a_captured_include_still_escapes_what_a_member_wrote():
    rendered = Template('{% load i18n capture %}{% capture as who %}<b>{{ name }}</b>{% endcapture %}'
                        '{% blocktranslate with who=who %}by {{ who }}{% endblocktranslate %}').render(
        Context({"name": "<script>alert(1)</script>"}))
    assert rendered == "by <b>&lt;script&gt;alert(1)&lt;/script&gt;</b>"


def test_a_page_that_answered_a_post_sends_the_language_choice_back_to_the_servers(owner, server):
    make_fact(server, key="raid_night", content="Raids are on Wednesday.")
    response = logged_in_client(owner).post(f"/servers/{server.guild_id}/facts/1/pin", {"pinned": "true"})
    assert response.status_code == 200, "a full page answers a pin sent without script"
    assert re.search(r'<input type="hidden" name="next" value="([^"]*)">', response.content.decode()).group(1) == "/"
