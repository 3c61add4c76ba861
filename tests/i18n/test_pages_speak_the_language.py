"""A page in Dutch, German or Japanese has no English left from our templates or our Python: every piece of
text on it (text and what a user reads in attributes) that is also on the English page is user data, a word the
catalogue keeps the same on purpose, or the same in every language (numbers, dates, the product's name)."""

from __future__ import annotations

import gettext
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

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


def _kept_the_same(language: str) -> set[str]:
    with open(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    return {" ".join(str(source).split()) for source, translated in catalogue.items()
            if isinstance(source, str) and source == translated}


def _user_data() -> set[str]:
    data = {text for fact in Fact.objects.all() for text in (fact.key, fact.content)}
    data |= set(Server.objects.values_list("name", flat=True)) | set(Team.objects.values_list("name", flat=True))
    data |= {"owner", "editor", "Mia", "When is the tournament?", "moved to Saturday", "English", "Nederlands",
             "Deutsch", "日本語"}
    return data


def english_left(english_html: str, translated_html: str, language: str) -> list[str]:
    allowed = _user_data() | _kept_the_same(language)
    left = []
    for piece in pieces_of(translated_html) & pieces_of(english_html):
        words = [word for word in _WORD.findall(piece) if word not in SAME_IN_EVERY_LANGUAGE]
        if words and piece not in allowed and not any(data in piece for data in allowed if len(data) > 12):
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


def test_the_check_sees_english_that_was_left():
    english = "<p>Facts in force</p><p>Retro Arcade</p>"
    assert english_left(english, "<p>Facts in force</p><p>Retro Arcade</p>", "nl") == ["Facts in force"]
