"""The two fact cards of a proposal say who may see each fact and where it was learned, beside the proposal's
sentence about the merged fact's audience."""

from __future__ import annotations

import pytest
from django.urls import reverse

from consolidation.models import ConsolidationRound, Proposal, ProposalStatus
from consolidation.rounds import round_run
from memory.configuration.directory import ReportedChannel, channels_report
from memory.facts.services import FactAuthor
from memory.models import Audience
from tests.conftest import FILLER, logged_in_client, long_ago
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
GENERAL, MODS = "111", "222"
HTMX = {"HX-Request": "true"}


@pytest.fixture
def quiet(consolidated):
    channels_report(server=consolidated, channels=[ReportedChannel(channel_id=GENERAL, name="general", public=True),
                                                   ReportedChannel(channel_id=MODS, name="mod-chat")])
    for key, content in FILLER:
        if key != "mod_team":
            make_fact(consolidated, key=key, content=content, created_at=long_ago(3))
    return consolidated


def cards(user, server) -> list[str]:
    round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)
    assert Proposal.objects.filter(server=server, status=ProposalStatus.PENDING).count() == 1
    page = logged_in_client(user).get(reverse("consolidation:review", args=[server.guild_id]),
                                      headers=HTMX).content.decode()
    return [part[:part.index("</div>")] for part in page.split('<div class="pair-fact">')[1:]]


def test_each_card_shows_its_facts_audience_and_source_channel(owner, quiet):
    make_fact(quiet, key="ban_list", content="Zed the spammer is banned.", audience=Audience.SERVER,
              source_channel_id=GENERAL, confidence=0.9, created_at=long_ago(3))
    make_fact(quiet, key="ban_list", content="Zed the spammer is banned", audience=Audience.CHANNEL,
              source_channel_id=MODS, confidence=0.7, created_at=long_ago(3))
    keeper, other = cards(owner, quiet)
    assert 'audience-server"' in keeper and ">Server</span>" in keeper and "learned in #general" in keeper
    assert 'audience-channel"' in other and ">#mod-chat</span>" in other and "learned in #mod-chat" in other


def test_a_staff_note_for_no_channel_says_staff_only_and_no_channel(owner, quiet):
    make_fact(quiet, key="ban_list", content="Zed the spammer is banned.", confidence=0.9, created_at=long_ago(3))
    make_fact(quiet, key="ban_list", content="Zed the spammer is banned", audience=Audience.STAFF,
              author=FactAuthor.staff(owner), confidence=0.7, created_at=long_ago(3))
    shown = cards(owner, quiet)
    staff = next(card for card in shown if "Staff only</span>" in card)
    meta = staff[staff.index('<p class="fact-meta">'):]
    assert meta.startswith('<p class="fact-meta">confidence 0.70 · by staff · changed ')
