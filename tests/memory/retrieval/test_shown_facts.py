"""The search results' read (memory.retrieval.shown_facts.facts_in_order) hands over only facts of the server, in
force, that the reader may see, whatever ids it is given."""

from __future__ import annotations

import pytest

from memory.facts.services import fact_retract
from memory.models import Audience
from memory.retrieval.audience import Reader
from memory.retrieval.shown_facts import facts_in_order
from tests.factories import make_fact

pytestmark = pytest.mark.django_db
MODS, LOUNGE = "333000000000000001", "333000000000000002"


def test_an_id_that_slipped_in_is_left_out_by_the_statement(server, other_server):
    everywhere = make_fact(server, key="everywhere", content="For every channel.")
    mods = make_fact(server, key="mods", content="Learned in the mods' channel.", audience=Audience.CHANNEL,
                     source_channel_id=MODS)
    staff = make_fact(server, key="staff", content="For staff.", audience=Audience.STAFF)
    gone = make_fact(server, key="gone", content="No longer true.")
    fact_retract(fact=gone, reason="outdated")
    theirs = make_fact(other_server, key="theirs", content="Another server's.")
    ids = [staff.pk, theirs.pk, mods.pk, gone.pk, everywhere.pk, 10**9]

    assert [fact.pk for fact in facts_in_order(server.pk, ids, Reader.for_message(LOUNGE))] == [everywhere.pk]
    in_mods = facts_in_order(server.pk, ids, Reader.for_message(MODS))
    assert [fact.pk for fact in in_mods] == [mods.pk, everywhere.pk]  # in the order given
    assert (in_mods[0].audience, in_mods[0].source_channel_id) == (Audience.CHANNEL, MODS)
    assert facts_in_order(server.pk, [], Reader.for_message(MODS)) == []
