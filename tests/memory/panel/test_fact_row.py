"""The fact row written in Python (memory.templatetags.fact_row): a catalogue entry whose blanks differ from the
English sentence shows English instead of failing the page, as {% blocktranslate %} does; the row links a member the
way {% url %} did."""

from __future__ import annotations

from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from memory.models import Fact
from memory.templatetags.fact_row import checked, fill
from tests.factories import make_fact


def test_a_translation_with_other_blanks_falls_back_to_the_english_sentence():
    def translate() -> str:  # what gettext gives: Dutch with a misspelt blank, English when deactivated
        return "lid %(nummer)s" if translation.get_language() == "nl" else "member %(member_id)s"

    with translation.override("nl"):
        sentence = checked(translate)
    assert sentence == "member %(member_id)s"
    assert fill(sentence, member_id="<42>") == "member &lt;42&gt;"


def test_a_translation_with_a_stray_percent_sign_falls_back_and_a_good_one_is_kept():
    with translation.override("de"):
        assert checked(lambda: "100% %(day)s" if translation.get_language() else "Retracted %(day)s") == \
            "Retracted %(day)s"
        assert checked(lambda: "Zurückgezogen %(day)s" if translation.get_language() else "Retracted %(day)s") == \
            "Zurückgezogen %(day)s"


def test_the_rows_real_sentences_keep_their_blanks_in_every_language():
    with translation.override("ja"):
        assert "%(number)s" in checked(lambda: translation.gettext("contradicts #%(number)s"))
        assert checked(lambda: translation.gettext("contradicts #%(number)s")) != "contradicts #%(number)s"


def test_a_member_id_of_other_digits_is_linked_as_reverse_quotes_it(server, owner):
    fact = make_fact(server, key="pronouns", content="Uses they/them.")
    Fact.objects.filter(pk=fact.pk).update(learned_from_member_id="²")  # not a Discord id: no API stores one
    fact = Fact.objects.select_related("server", "author_user").get(pk=fact.pk)
    html = Template("{% load fact_row %}{% fact_row fact %}").render(Context({"fact": fact}))
    assert f'href="{reverse("memory:member", args=[server.guild_id, "²"])}"' in html
    assert "/members/%C2%B2/" in html
