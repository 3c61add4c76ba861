"""The order proposals wait in for review: pairs a model checked or the rules found before pairs only the
vectors found that no model checked, whose cosine similarity would otherwise put them first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from consolidation.model_review import UNCHECKED_CAUTION
from consolidation.models import Proposal
from consolidation.selectors import pending_proposals
from tests.conftest import logged_in_client
from tests.factories import make_fact

pytestmark = pytest.mark.django_db


def proposal(server, key: str, *, kind: str = "duplicate", similarity: float, why: str) -> Proposal:
    keeper = make_fact(server, key=key, content=f"{key} one.")
    other = make_fact(server, key=key, content=f"{key} two.")
    low, high = sorted((keeper.pk, other.pk))
    return Proposal.objects.create(server=server, kind=kind, keeper=keeper, other=other,
                                   keeper_version=keeper.version, other_version=other.version, pair_low=low,
                                   pair_high=high, wording=keeper.content, similarity=similarity, why=why)


@pytest.fixture
def waiting(server):
    vectors = "The vectors see them as saying the same (similarity {:.2f})."
    return {
        "unchecked_close": proposal(server, "raid_time", similarity=0.98,
                                    why=vectors.format(0.98) + UNCHECKED_CAUTION),
        "unchecked_far": proposal(server, "cup_day", similarity=0.93, why=vectors.format(0.93) + UNCHECKED_CAUTION),
        "rules_duplicate": proposal(server, "language", similarity=0.71,
                                    why="Same subject (language) and the same content."),
        "model_duplicate": proposal(server, "welcome", similarity=0.88,
                                    why=vectors.format(0.88).replace("vectors", "model")),
        "contradiction": proposal(server, "cup_date", kind="contradiction", similarity=0.8,
                                  why="Same subject (cup date), other values."),
    }


def test_checked_proposals_come_before_unchecked_ones_each_group_in_its_usual_order(server, waiting):
    assert list(pending_proposals(server)) == [
        waiting["model_duplicate"], waiting["rules_duplicate"], waiting["contradiction"],
        waiting["unchecked_close"], waiting["unchecked_far"],
    ]


def test_the_review_block_shows_a_checked_proposal_first_though_an_unchecked_one_is_more_similar(
        server, moderator, waiting):
    page = logged_in_client(moderator).get(reverse("consolidation:review", args=[server.guild_id]),
                                        headers={"HX-Request": "true"}).content.decode()
    assert f'aria-label="Proposal {waiting["model_duplicate"].pk}"' in page
    assert "No model checked this pair" not in page


def test_unchecked_proposals_alone_are_listed_most_similar_first(server):
    close = proposal(server, "raid_time", similarity=0.98, why="Close." + UNCHECKED_CAUTION)
    far = proposal(server, "cup_day", similarity=0.93, why="Far." + UNCHECKED_CAUTION)
    assert list(pending_proposals(server)) == [close, far]
