"""A page in Dutch, German or Japanese has no English left from our templates or our Python: every piece of
text on it (text and what a user reads in attributes) that is also on the English page is user data, a word the
catalogue keeps the same on purpose, or the same in every language (numbers, dates, the product's name)."""

from __future__ import annotations

import functools
import gettext
import re
from datetime import date
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import dateformat, translation

from memory.models import Fact
from teams.models import Server, Team
from tests.conftest import logged_in_client
from tests.memory.panel.test_view_permissions import GUILD, MATRIX, our_memory, send  # noqa: F401 (a fixture)

from .template_text import ROOT, SAME_IN_EVERY_LANGUAGE, VISIBLE_ATTRIBUTES

pytestmark = pytest.mark.django_db

LANGUAGES = ("nl", "de", "ja")
PAGES = [route for route in MATRIX if route.method == "GET"]
OTHER_PAGES = {"home": ("home", {}), "review": ("consolidation:review", {"guild_id": GUILD}),
               "moderators": ("consolidation:moderators", {"guild_id": GUILD})}
_WORD = re.compile(r"[A-Za-z]{2,}")
# Code, placeholders, tags and field names inside a translation are not words of its language.
_NOT_PROSE = re.compile(r"<code.*?</code>|%\(\w+\)s|<[^>]+>|\S*[_/.:=]\S*|\{\w+\}", re.S)
_COMMAND = re.compile(r"/memory [a-z-]+")  # a Discord slash command's name is the same in every language
_ID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")  # an exchange's or run's id


class _Pieces(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pieces: set[str] = set()
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "code", "pre", "textarea"):
            self._skipping += 1
        for name, value in attrs:
            if value and (name in VISIBLE_ATTRIBUTES or name.startswith("data-message")):
                self.pieces.add(" ".join(value.split()))

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code", "pre", "textarea") and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping and data.strip():
            self.pieces.add(" ".join(data.split()))


def pieces_of(html: str) -> set[str]:
    parser = _Pieces()
    parser.feed(html)
    return parser.pieces


def _catalogue(language: str) -> dict:
    with open(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        return gettext.GNUTranslations(compiled)._catalog


@functools.cache  # the same catalogue for every page of a language: read it once
def _words_the_translation_uses(language: str) -> frozenset[str]:
    """Words the catalogue's own translations write ("server", "staff", "tokens" are Dutch too): a piece made only of
    them is in the language, even where it reads like English."""
    words = set()
    for translated in _catalogue(language).values():
        prose = _NOT_PROSE.sub(" ", str(translated))
        words |= {word.lower() for word in _WORD.findall(prose)}
    with translation.override(language):  # month names, as Django writes them in this language ("Sep" in German)
        months = [date(2026, month, 1) for month in range(1, 13)]
        words |= {word.lower() for day in months for code in "bMNF"
                  for word in _WORD.findall(dateformat.format(day, code))}
    return frozenset(words)


def _user_data() -> set[str]:
    data = {text for fact in Fact.objects.all() for text in (fact.key, fact.content)}
    data |= set(Server.objects.values_list("name", flat=True)) | set(Team.objects.values_list("name", flat=True))
    data |= {"owner", "editor", "Mia", "When is the tournament?", "moved to Saturday", "English", "Nederlands",
             "Deutsch", "日本語"}
    return data


def english_left(english_html: str, translated_html: str, language: str) -> list[str]:
    data = _user_data()
    data_words = {word.lower() for text in data for word in _WORD.findall(text)}
    language_words = _words_the_translation_uses(language)
    left = []
    for piece in pieces_of(translated_html) & pieces_of(english_html):
        if piece in data or any(text in piece for text in data if len(text) > 12):
            continue
        words = [word for word in _WORD.findall(_COMMAND.sub(" ", _ID.sub(" ", piece)))
                 if word not in SAME_IN_EVERY_LANGUAGE]
        if any(word.lower() not in language_words | data_words for word in words):
            left.append(piece)
    return sorted(left)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("route", PAGES, ids=lambda route: route.name)
def test_a_memory_page_has_no_english_left(owner, route, language):
    client = logged_in_client(owner)
    english = send(client, route, headers={"Accept-Language": "en"})
    translated = send(client, route, headers={"Accept-Language": language})
    assert translated.status_code == english.status_code
    assert english_left(english.content.decode(), translated.content.decode(), language) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", OTHER_PAGES)
def test_the_home_and_review_pages_have_no_english_left(owner, name, language):
    client = logged_in_client(owner)
    url = reverse(OTHER_PAGES[name][0], kwargs=OTHER_PAGES[name][1])
    english = client.get(url, headers={"Accept-Language": "en"})
    translated = client.get(url, headers={"Accept-Language": language})
    assert english_left(english.content.decode(), translated.content.decode(), language) == []


def test_the_check_sees_english_that_was_left(server):
    english = "<p>Facts in force</p><p>Retro Arcade</p><p>Servers · Lorekeeper</p>"
    assert english_left(english, english, "nl") == ["Facts in force"]
    assert english_left(english, english, "ja") == ["Facts in force", "Servers · Lorekeeper"]
