"""The memory types page: one section per type, open for the type asked for, the rest closed but all there."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from memory.facts.confidence import CONFIDENCE_INFERRED, SAME_MEMBER_WINDOW, reinforced_confidence
from memory.types import PROFILES
from tests.conftest import logged_in_client

# Every test under the db fixture, the anonymous one too: once the browser tests' live server has started, an
# unmarked test's request reaches the database outside any test transaction and leaves a connection open that
# the test database's teardown then trips over ("being accessed by other users").
pytestmark = pytest.mark.django_db
DOC = reverse("memory:types-doc")


def open_sections(page: str) -> list[str]:
    return re.findall(r'<details id="([\w-]+)" class="card doc-type" open>', page)


def test_anonymous_is_sent_to_log_in(client):
    response = client.get(DOC)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("who", ["member", "owner", "outsider"])
def test_every_logged_in_user_reads_every_type_in_full(request, who):
    """Not tied to a server: a viewer, a configure user and another team's member read the same page."""
    page = html.unescape(logged_in_client(request.getfixturevalue(who)).get(DOC).content.decode())
    for profile in PROFILES:
        section = page[page.index(f'<details id="{profile.value}"'):]
        section = section[:section.index("</details>")]
        assert str(profile.adds) in section and str(profile.changes) in section and str(profile.settings) in section


def test_the_first_type_is_open_when_none_is_asked_for(member):
    assert open_sections(logged_in_client(member).get(DOC).content.decode()) == ["classic"]


@pytest.mark.parametrize("asked, opened", [("ledger", "ledger"), ("ranked", "ranked"), ("nonsense", "classic"),
                                           ("", "classic")])
def test_the_type_asked_for_is_the_one_open(member, asked, opened):
    assert open_sections(logged_in_client(member).get(DOC, {"type": asked}).content.decode()) == [opened]


def test_how_ranked_scores_a_fact_is_inside_the_ranked_section(member):
    """So a link to #ranking opens Ranked's section: browsers open the <details> around a link's target."""
    page = logged_in_client(member).get(DOC).content.decode()
    ranked = page[page.index('<details id="ranked"'):]
    assert 'id="ranking"' in ranked[:ranked.index("</details>")]


def test_read_more_on_the_memory_page_opens_the_type_it_names(member, server):
    page = logged_in_client(member).get(reverse("memory:memory-type", args=[server.guild_id])).content.decode()
    links = re.findall(rf'<a href="{DOC}\?type=(\w+)#(\w+)">Read more about', page)
    assert [asked for asked, _ in links] == [profile.value for profile in PROFILES]
    assert all(asked == anchor for asked, anchor in links)


# Confidence (issue 21) ------------------------------------------------------------------------------------------


def confidence_section(page: str) -> str:
    section = html.unescape(page)[html.unescape(page).index('<details class="card doc-type" id="confidence">'):]
    return " ".join(section[:section.index("</details>")].split())


def test_the_page_says_where_confidence_starts_by_how_a_fact_is_known(member):
    section = confidence_section(logged_in_client(member).get(DOC).content.decode())
    for sentence in ("staff wrote it: 1.0", "the bot, from a member's own statement about themselves: 0.9",
                     "the bot's inference about someone else or the server: 0.7",
                     "imported: 0.6, unless the import file gives one",
                     "The remember tool's <code>confidence</code> can only lower this: a higher one is capped"):
        assert sentence in section, sentence


def test_the_page_says_how_reinforcement_raises_confidence_by_the_codes_own_rule(member):
    section = confidence_section(logged_in_client(member).get(DOC).content.decode())
    assert "<code>1 − (1 − c) × (1 − 0.5 × w)</code>" in section
    steps = [CONFIDENCE_INFERRED]
    for _ in range(3):
        steps.append(reinforced_confidence(steps[-1], CONFIDENCE_INFERRED))
    assert " → ".join(f"{step:.2f}".rstrip("0").rstrip(".") for step in steps) == "0.7 → 0.81 → 0.87 → 0.92"
    assert "A fact the bot inferred, said again by other members: 0.7 → 0.81 → 0.87 → 0.92." in section
    assert SAME_MEMBER_WINDOW == timedelta(days=1)
    assert "The same member saying it again is one voice: it raises confidence at most once a day" in section


def test_the_page_says_duplicates_are_reinforced_contradictions_flagged_and_every_change_kept(member):
    section = confidence_section(logged_in_client(member).get(DOC).content.decode())
    for sentence in ("no row is written: the fact's mention count goes up", "<strong>Contradictions caught at write"
                     "</strong> (Ledger and up)", "the bot is handed only the newer one", "Under Classic both stay",
                     "kept as a version with its time, who made it", "A staff edit can be undone from there"):
        assert sentence in section, sentence


def test_the_confidence_section_is_closed_and_ranked_links_to_it(member):
    page = logged_in_client(member).get(DOC, {"type": "ranked"}).content.decode()
    assert '<details class="card doc-type" id="confidence">' in page  # closed: no ` open`
    ranked = page[page.index('<details id="ranked"'):]
    assert 'href="#confidence"' in ranked[:ranked.index("</details>")]
