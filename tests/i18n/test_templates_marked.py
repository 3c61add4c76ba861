"""Every piece of text a user reads in our templates is marked for translation, so that the Dutch,
German and Japanese panels have no English left in them."""

import pytest

from .template_text import ROOT, our_templates, unmarked_text


def test_the_checker_finds_unmarked_text_and_passes_marked_text():
    assert unmarked_text("<p>Save the fact</p>") == ["Save the fact"]
    assert unmarked_text('<input placeholder="Search facts">') == ['input placeholder="Search facts"']
    assert unmarked_text('<input type="submit" value="Go now">') == ['input value="Go now"']
    assert unmarked_text('<button type="submit" name="answer" value="keep_both">{% translate "Keep both" %}</button>') == []
    assert unmarked_text('<button type="submit" name="pinned" value="true">{% translate "Pin" %}</button>') == []
    assert unmarked_text('{{ x|default:"never" }}')
    assert unmarked_text('{% include "a.html" with label="Delete all" %}')
    assert unmarked_text('{% load i18n %}<p>{% translate "Save the fact" %}</p>') == []
    assert unmarked_text('<p>{% blocktranslate count n=c %}{{ n }} fact{% plural %}{{ n }} facts'
                         '{% endblocktranslate %}</p>') == []
    assert unmarked_text('<a href="/x" class="button primary" hx-get="/y">{{ fact.key }} · #{{ fact.number }}</a>') == []
    assert unmarked_text("<script>var a = 'not read';</script>{# a comment #}<b>Lorekeeper</b>") == []
    assert unmarked_text('{% include "a.html" with label=_("Delete all") %}') == []


@pytest.mark.parametrize("template", our_templates(), ids=lambda path: str(path.relative_to(ROOT)))
def test_template_has_no_unmarked_text(template):
    assert unmarked_text(template.read_text(encoding="utf-8")) == []
