"""Keys and searches in any language: the key rule's edges, symbol-only keys found in the panel, words with
combining marks kept whole by the panel's and the bot's searches, consolidation's key subjects, import."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from consolidation.pairs import key_words
from memory.facts.services import FactAuthor, fact_create
from memory.facts.transfer import export_lines, import_lines
from memory.models import Fact
from memory.retrieval.audience import Reader
from memory.retrieval.fusion import search_words
from tests.conftest import logged_in_client
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
PAGE = reverse("memory:page")
LIST_FRAGMENT = {"HX-Request": "true", "HX-Target": "fact-list"}
HINDI = "मित्र का नाम राहुल है।"  # "The friend's name is Rahul": vowel signs and a virama inside the words


@pytest.mark.parametrize("key", [
    "secret\U000e0069\U000e0067\U000e006e",  # tag characters: ASCII text nobody sees, which a model reads
    "a［12］", "key：value", "＃tag",  # full-width forms of the prompt's [#12] key: syntax
])
def test_a_key_with_hidden_text_or_full_width_punctuation_is_refused(server, owner, key):
    with pytest.raises(ValidationError):
        fact_create(server=server, author=FactAuthor.staff(owner), key=key, content="c")
    assert not Fact.objects.exists()


@pytest.mark.parametrize(("written", "stored"), [("\u3164", None), ("\u2800 \u115f", None), ("❤\ufe0f", "❤"),
                                                 ("top\u034fic", "topic"), ("Ｔｏｐ－ｉｃ．１", "ｔｏｐ－ｉｃ．１")])
def test_characters_that_draw_nothing_are_dropped_and_a_key_of_only_them_is_refused(server, owner, written, stored):
    if stored is None:
        with pytest.raises(ValidationError):
            fact_create(server=server, author=FactAuthor.staff(owner), key=written, content="c")
    else:
        assert make_fact(server, key=written).key == stored


def test_the_database_refuses_hidden_tag_characters_too(server):
    fact = make_fact(server, key="plain")
    with pytest.raises(IntegrityError), transaction.atomic():
        Fact.objects.filter(pk=fact.pk).update(key="plain\U000e0041")


def test_a_key_of_symbols_only_is_found_by_searching_for_it_in_the_panel(member, server):
    cake = make_fact(server, key="🎂", content="Birthdays are celebrated in #party.")
    make_fact(server, key="🎮", content="Game night is on Friday.")
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "🎂"}, headers=LIST_FRAGMENT)
    assert response.status_code == 200
    page = response.context["page"]
    assert [fact.pk for fact in page.exact_key_facts] == [cake.pk] and page.facts == []


def test_the_panel_search_keeps_words_with_combining_marks_whole(member, server):
    friend = make_fact(server, key="मित्र_का_नाम", content=HINDI)
    make_fact(server, key="theme", content="Retro gaming.")
    response = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "राहुल"}, headers=LIST_FRAGMENT)
    assert [fact.pk for fact in response.context["page"].facts] == [friend.pk]


def test_the_bot_search_finds_a_hindi_fact_by_a_hindi_word(server):
    friend = make_fact(server, key="मित्र_का_नाम", content=HINDI)
    make_fact(server, key="theme", content="Retro gaming.")
    assert [fact.pk for fact in search_words(server, "मित्र राहुल", reader=Reader.any_channel())] == [friend.pk]


def test_keys_of_symbols_only_are_subjects_of_their_own_for_consolidation():
    """Every key without words used to share the empty subject: 🎂 and 🎮 facts were paired as contradictions."""
    assert key_words("🎂") != key_words("🎮")
    assert key_words("मित्र_का_नाम") == tuple(sorted(["मित्र", "का", "नाम"]))


def test_an_import_refuses_a_key_not_written_as_keys_are_stored(server, other_server):
    make_fact(server, key="apfel", content="Apples.")
    lines = list(export_lines(server))
    rows = [json.loads(line) for line in lines]
    for row in rows:
        if row.get("kind") == "fact":
            row["key"] = "Äpfel"
    with pytest.raises(ValidationError, match="not written as keys are stored"):
        import_lines(other_server, [json.dumps(row) for row in rows])
    assert not Fact.objects.filter(server=other_server).exists()
