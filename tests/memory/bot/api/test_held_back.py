"""A fact held back never reaches the bot (memory.retrieval.audience.visible_sql): from Ledger up, a remember with the
key of a fact in force that says something else is flagged, and until staff answer, the context, the search and an
exchange's facts hand over the newer only; under Classic both stay. Staff keeping both hand the older back."""

from __future__ import annotations

import pytest

from consolidation.models import Proposal, ProposalKind
from consolidation.services import proposal_answer
from memory.models import Fact, MemoryType
from memory.retrieval.audience import Reader, visible_to

from .helpers import Api, configure

SATURDAY = {"key": "raid_day", "content": "Raids are on Saturday."}
FRIDAY = {"key": "raid_day", "content": "Raids are on Friday."}
HOLDING_BACK = [MemoryType.LEDGER, MemoryType.ARCHIVE, MemoryType.RANKED, MemoryType.CONSOLIDATED]


def remember(api: Api, server, author: str, fields: dict) -> int:
    exchange = api.context(server, author_id=author)["exchange"]
    [result] = api.actions(exchange, remember=[fields])
    assert result["status"] == "applied", result
    return result["number"]


def numbers_in_context(api: Api, server) -> list[int]:
    return [fact["number"] for fact in api.context(server, content="when are raids?")["facts"]]


@pytest.fixture
def contradicted(api, server):
    """Friday (remembered first) and Saturday (then, by another member): (older, newer) numbers."""
    def write(memory_type):
        configure(server, memory_type=memory_type)
        return remember(api, server, "222", FRIDAY), remember(api, server, "333", SATURDAY)
    return write


@pytest.mark.parametrize("memory_type", HOLDING_BACK)
def test_from_ledger_up_the_context_shows_the_newer_of_two_contradicting_facts_only(api, server, contradicted,
                                                                                   memory_type):
    older, newer = contradicted(memory_type)

    shown = numbers_in_context(api, server)

    assert newer in shown and older not in shown
    assert Fact.objects.get(server=server, number=older).held_back


@pytest.mark.parametrize("memory_type", [MemoryType.ARCHIVE, MemoryType.RANKED])
def test_the_search_does_not_find_the_fact_held_back(api, server, contradicted, memory_type):
    older, newer = contradicted(memory_type)
    exchange = api.context(server, content="raids")["exchange"]

    found = [fact["number"] for fact in api.search(exchange, "raids")["facts"]]

    assert found == [newer]


def test_an_exchange_that_showed_the_older_fact_no_longer_lists_it_once_held_back(api, server):
    configure(server, memory_type=MemoryType.LEDGER)
    older = remember(api, server, "222", FRIDAY)
    exchange = api.context(server)["exchange"]
    assert older in [fact["number"] for fact in api.exchange(exchange)["facts"]]

    remember(api, server, "333", SATURDAY)

    assert older not in [fact["number"] for fact in api.exchange(exchange)["facts"]]


def test_the_bot_cannot_retract_a_fact_held_back_since_it_was_not_shown(api, server, contradicted):
    older, _ = contradicted(MemoryType.LEDGER)
    exchange = api.context(server)["exchange"]

    [result] = api.actions(exchange, retract=[{"number": older, "reason": "old"}])

    assert result["status"] == "ignored"
    assert Fact.objects.get(server=server, number=older).retracted_at is None


def test_under_classic_both_facts_stay_in_the_context(api, server, contradicted):
    older, newer = contradicted(MemoryType.CLASSIC)

    shown = numbers_in_context(api, server)

    assert older in shown and newer in shown


def test_staff_keeping_both_hands_the_older_fact_back_to_the_bot(api, server, contradicted, owner):
    older, newer = contradicted(MemoryType.LEDGER)
    flag = Proposal.objects.get(server=server, kind=ProposalKind.CONTRADICTION)

    proposal_answer(proposal=flag, actor=owner, answer="keep_both")

    shown = numbers_in_context(api, server)
    assert older in shown and newer in shown
    assert not Fact.objects.get(server=server, number=older).held_back


def test_the_rule_in_python_agrees_that_no_reader_sees_a_fact_held_back(server, api, contradicted):
    older, newer = contradicted(MemoryType.LEDGER)
    held, handed = (Fact.objects.get(server=server, number=number) for number in (older, newer))

    for reader in (Reader.for_message("111"), Reader.any_channel(), Reader.for_message("999", "111")):
        assert not visible_to(held, reader)
    assert visible_to(handed, Reader.for_message("111"))
