"""The bot's remember keeps memory clean (memory.facts.remembering), tried through the API as a bot uses it: a
statement already known is reinforced instead of stored twice, a new fact's confidence comes from how it is known,
and from Ledger up a same-key fact that says something else is flagged for staff and holds the older one back."""

from __future__ import annotations

from functools import partial

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from consolidation.models import Proposal, ProposalKind, ProposalStatus
from memory.configuration.directory import ReportedChannel, channels_report
from memory.facts.services import FactAuthor, fact_create, fact_pin_set
from memory.models import Audience, Fact, FactVersion, MemoryType, VersionChange
from tests.factories import make_fact
from tests.memory.bot.api.helpers import Api, configure, remember_in_new_exchange

pytestmark = pytest.mark.django_db

GENERAL, MODS = "111", "222"  # a public channel and a private one
PAUL, MIRA = "200000000000000021", "200000000000000022"
LEDGER_UP = [MemoryType.LEDGER, MemoryType.ARCHIVE, MemoryType.RANKED, MemoryType.CONSOLIDATED,
             MemoryType.SEMANTIC]
RAIDS = {"key": "raid_day", "content": "Raids are on Friday."}


@pytest.fixture
def api(client: Client, bot_token, server) -> Api:
    configure(server, memory_type=MemoryType.LEDGER)
    channels_report(server=server, channels=[ReportedChannel(channel_id=GENERAL, name="general", public=True),
                                             ReportedChannel(channel_id=MODS, name="mod-chat", public=False)])
    return Api(client, bot_token)


remember = partial(remember_in_new_exchange, member=PAUL, channel=GENERAL)  # Paul in #general unless told


def facts_of(server, key: str = "raid_day") -> list[Fact]:
    return list(Fact.objects.filter(server=server, key=key).order_by("number"))


def heard_a_day_ago(fact: Fact) -> None:
    """What was said of the fact so far was said more than a day ago."""
    FactVersion.objects.filter(fact_id=fact.pk).update(at=timezone.now() - timedelta(hours=25))


# Reinforce, don't duplicate -------------------------------------------------------------------------------------


def test_a_statement_said_again_by_another_member_is_reinforced_instead_of_stored_twice(api, server):
    first = remember(api, server, member=PAUL, **RAIDS)
    again = remember(api, server, member=MIRA, **RAIDS)

    [fact] = facts_of(server)
    assert first == {"op": "remember", "status": "applied", "number": fact.number}
    assert again == {"op": "remember", "status": "reinforced", "number": fact.number,
                     "detail": f"already known as #{fact.number}: mentioned 2 times"}
    # The bot's inference starts at 0.7, and another voice closes half of what its weight (0.7) would close:
    # 1 − (1 − 0.7)(1 − 0.5 × 0.7) = 0.805.
    assert (fact.mention_count, fact.confidence, fact.version) == (2, 0.805, 1)
    reinforced = FactVersion.objects.get(fact_id=fact.pk, change=VersionChange.REINFORCE)
    assert (reinforced.member_id, reinforced.before, reinforced.after) == (
        MIRA, {"mention_count": 1, "confidence": 0.7}, {"mention_count": 2, "confidence": 0.805})


def test_a_reinforcement_refreshes_when_the_fact_last_changed(api, server):
    remember(api, server, **RAIDS)
    Fact.objects.filter(server=server).update(changed_at=timezone.now() - timedelta(days=3))

    remember(api, server, member=MIRA, **RAIDS)

    assert timezone.now() - facts_of(server)[0].changed_at < timedelta(minutes=1)


def test_the_same_member_repeating_a_statement_counts_once_a_day_towards_its_confidence(api, server):
    remember(api, server, member=PAUL, **RAIDS)
    remember(api, server, member=PAUL, **RAIDS)
    [fact] = facts_of(server)
    assert (fact.mention_count, fact.confidence) == (2, 0.7)

    heard_a_day_ago(fact)
    remember(api, server, member=PAUL, **RAIDS)

    fact = facts_of(server)[0]
    assert (fact.mention_count, fact.confidence) == (3, 0.805)


def test_ten_remembers_of_one_statement_leave_one_fact_mentioned_ten_times(api, server):
    members = [f"2000000000000001{index:02}" for index in range(10)]
    results = [remember(api, server, member=member, **RAIDS) for member in members]

    [fact] = facts_of(server)
    assert [result["status"] for result in results] == ["applied"] + ["reinforced"] * 9
    expected = 0.7
    for _ in range(9):
        expected = 1 - (1 - expected) * (1 - 0.5 * 0.7)
    assert fact.mention_count == 10 and fact.confidence == pytest.approx(expected, abs=1e-5)
    assert 0.98 < fact.confidence < 1.0


def test_one_member_saying_it_ten_times_in_a_day_raises_only_the_mention_count(api, server):
    for _ in range(10):
        remember(api, server, member=PAUL, **RAIDS)

    [fact] = facts_of(server)
    assert (fact.mention_count, fact.confidence) == (10, 0.7)


def test_case_punctuation_and_spacing_do_not_make_another_statement(api, server):
    remember(api, server, **RAIDS)
    again = remember(api, server, member=MIRA, key="raid_day", content="  raids ARE on friday ")

    assert again["status"] == "reinforced" and len(facts_of(server)) == 1
    assert facts_of(server)[0].content == "Raids are on Friday.", "the first wording is kept"


@pytest.mark.parametrize("other", [
    {"key": "raid_night", "content": "Raids are on Friday."},  # another key
    {"key": "raid_day", "content": "Raids are on Friday.", "member_id": MIRA},  # about a member, not the server
])
def test_the_same_words_under_another_key_or_about_someone_else_are_a_new_fact(api, server, other):
    remember(api, server, **RAIDS)

    assert remember(api, server, member=MIRA, **other)["status"] == "applied"
    assert Fact.objects.filter(server=server).count() == 2


def test_a_statement_known_only_in_a_private_channel_is_written_again_where_it_is_said_publicly(api, server):
    """Reinforcing the private channel's fact would leave the public channel's replies without it."""
    private = remember(api, server, channel=MODS, **RAIDS)
    public = remember(api, server, member=MIRA, channel=GENERAL, **RAIDS)

    assert public["status"] == "applied" and public["number"] != private["number"]
    audiences = sorted(fact.audience for fact in facts_of(server))
    assert audiences == [Audience.CHANNEL, Audience.SERVER]


def test_a_statement_known_server_wide_is_reinforced_when_said_again_in_a_private_channel(api, server):
    remember(api, server, channel=GENERAL, **RAIDS)

    assert remember(api, server, member=MIRA, channel=MODS, **RAIDS)["status"] == "reinforced"
    assert [fact.mention_count for fact in facts_of(server)] == [2]


def test_a_retracted_statement_said_again_is_a_new_fact(api, server):
    number = remember(api, server, **RAIDS)["number"]
    exchange = api.context(server, author_id=PAUL)["exchange"]
    api.actions(exchange, retract=[{"number": number, "reason": "wrong"}])

    assert remember(api, server, member=MIRA, **RAIDS)["status"] == "applied"


# Confidence from how it is known ----------------------------------------------------------------------------------


def test_a_members_statement_about_themselves_starts_at_0_9(api, server):
    result = remember(api, server, member=PAUL, key="pronouns", content="Paul uses he/him.", member_id=PAUL)

    assert Fact.objects.get(server=server, number=result["number"]).confidence == 0.9


@pytest.mark.parametrize("fields", [{"member_id": MIRA}, {}], ids=["about another member", "about the server"])
def test_what_the_bot_infers_about_someone_else_or_the_server_starts_at_0_7(api, server, fields):
    result = remember(api, server, member=PAUL, key="pronouns", content="Mira uses she/her.", **fields)

    assert Fact.objects.get(server=server, number=result["number"]).confidence == 0.7


def test_a_staff_note_starts_at_full_confidence(server, owner):
    fact = fact_create(server=server, author=FactAuthor.staff(owner), key="rules", content="Be kind.")

    assert fact.confidence == 1.0


def test_a_lower_confidence_the_bot_asks_for_is_kept(api, server):
    result = remember(api, server, confidence=0.4, **RAIDS)

    assert "detail" not in result and facts_of(server)[0].confidence == 0.4


@pytest.mark.parametrize(("fields", "cap"), [({}, 0.7), ({"member_id": PAUL}, 0.9)])
def test_a_higher_confidence_than_the_source_allows_is_capped_and_the_result_says_so(api, server, fields, cap):
    result = remember(api, server, member=PAUL, confidence=0.95, **RAIDS, **fields)

    assert result["status"] == "applied"
    assert result["detail"] == f"confidence capped at {cap:g}, what this source allows"
    assert facts_of(server)[0].confidence == cap


def test_a_member_statement_about_themselves_said_again_by_another_member_rises_towards_1(api, server):
    remember(api, server, member=PAUL, key="pronouns", content="Paul uses he/him.", member_id=PAUL)
    remember(api, server, member=MIRA, key="pronouns", content="Paul uses he/him.", member_id=PAUL)

    # Mira's word about Paul weighs 0.7: 1 − (1 − 0.9)(1 − 0.35) = 0.935.
    assert facts_of(server, "pronouns")[0].confidence == 0.935


# Contradictions caught at write -----------------------------------------------------------------------------------


def contradiction_flags(server) -> list[Proposal]:
    return list(Proposal.objects.filter(server=server, kind=ProposalKind.CONTRADICTION))


@pytest.mark.parametrize("memory_type", LEDGER_UP)
def test_from_ledger_up_a_same_key_fact_saying_something_else_is_flagged_and_holds_the_older_back(
        api, server, memory_type):
    configure(server, memory_type=memory_type)
    older = remember(api, server, member=PAUL, **RAIDS)
    newer = remember(api, server, member=MIRA, key="raid_day", content="Raids are on Saturday.")

    old, new = facts_of(server)
    assert (old.number, new.number) == (older["number"], newer["number"])
    assert newer["status"] == "applied"
    assert newer["detail"] == (f"it contradicts #{old.number} (same key); staff will settle it, and until then "
                               "only the newer is handed over")
    [flag] = contradiction_flags(server)
    assert (flag.keeper_id, flag.other_id, flag.status, flag.round_id) == (new.pk, old.pk, ProposalStatus.PENDING,
                                                                           None)
    assert flag.why == (f"#{new.number} was remembered with the key of #{old.number} and says something else; until "
                        f"someone answers, the bot is handed only the newer, #{new.number}.")
    assert (flag.pair_low, flag.pair_high, flag.keeper_version, flag.other_version) == (old.pk, new.pk, 1, 1)
    assert (old.held_back, new.held_back) == (True, False)
    assert old.retracted_at is None, "the older fact stays in force for staff"


def test_each_same_key_fact_saying_something_else_gets_a_flag_of_its_own(api, server, owner):
    """The flags of one remember are written with the fact; a pinned one among them is flagged, not held back."""
    friday = remember(api, server, **RAIDS)
    sunday = remember(api, server, member=MIRA, key="raid_day", content="Raids are on Sunday.")
    pinned = make_fact(server, key="raid_day", content="Raids are on Monday.", author=FactAuthor.staff(owner))
    fact_pin_set(fact=pinned, pinned=True, actor=owner)

    newest = remember(api, server, member=PAUL, key="raid_day", content="Raids are on Saturday.")

    new = Fact.objects.get(server=server, number=newest["number"])
    flags = {flag.other.number: flag for flag in contradiction_flags(server) if flag.keeper_id == new.pk}
    assert sorted(flags) == sorted([friday["number"], sunday["number"], pinned.number])
    assert flags[pinned.number].why.endswith("says something else; both are handed over until someone answers.")
    assert all(flag.pair_low < flag.pair_high == new.pk for flag in flags.values())
    assert {fact.number: fact.held_back for fact in facts_of(server)} == {
        friday["number"]: True, sunday["number"]: True, pinned.number: False, new.number: False}
    assert newest["detail"].startswith("it contradicts ")


def test_under_classic_both_facts_stay_and_nothing_is_flagged(api, server):
    configure(server, memory_type=MemoryType.CLASSIC)
    remember(api, server, **RAIDS)
    newer = remember(api, server, member=MIRA, key="raid_day", content="Raids are on Saturday.")

    assert "detail" not in newer
    assert not contradiction_flags(server)
    assert [fact.held_back for fact in facts_of(server)] == [False, False]


def test_a_pinned_fact_is_flagged_but_never_held_back_by_the_bots_newer_one(api, server, owner):
    pinned = make_fact(server, **RAIDS, author=FactAuthor.staff(owner))
    fact_pin_set(fact=pinned, pinned=True, actor=owner)

    newer = remember(api, server, key="raid_day", content="Raids are on Saturday.")

    assert newer["detail"].endswith("until then both are handed over")
    assert len(contradiction_flags(server)) == 1 and not Fact.objects.get(pk=pinned.pk).held_back


def test_a_newer_fact_seen_only_in_one_channel_does_not_hold_back_a_fact_for_the_whole_server(api, server):
    """Holding the older back would leave every other channel with neither."""
    remember(api, server, channel=GENERAL, **RAIDS)
    remember(api, server, member=MIRA, channel=MODS, key="raid_day", content="Raids are on Saturday.")

    assert len(contradiction_flags(server)) == 1
    assert [fact.held_back for fact in facts_of(server)] == [False, False]


def test_facts_for_two_different_channels_contradict_nobody(api, server):
    """Channels nobody reported count as private: each fact is for its own channel."""
    remember(api, server, channel="333", **RAIDS)
    newer = remember(api, server, member=MIRA, channel="444", key="raid_day", content="Raids are on Saturday.")

    assert "detail" not in newer and not contradiction_flags(server)


def test_retracting_the_newer_fact_hands_the_older_one_over_again(api, server):
    remember(api, server, **RAIDS)
    newer = remember(api, server, member=MIRA, key="raid_day", content="Raids are on Saturday.")
    exchange = api.context(server, author_id=MIRA)["exchange"]

    api.actions(exchange, retract=[{"number": newer["number"], "reason": "it was a joke"}])

    assert [fact.held_back for fact in facts_of(server)] == [False, False]


def test_a_reinforced_statement_flags_nothing_new(api, server):
    remember(api, server, **RAIDS)
    remember(api, server, member=MIRA, key="raid_day", content="Raids are on Saturday.")

    again = remember(api, server, member=PAUL, key="raid_day", content="Raids are on Saturday.")

    assert again["status"] == "reinforced" and len(contradiction_flags(server)) == 1


def test_staff_pinning_a_held_back_fact_hands_it_over_again_and_unpinning_holds_it_back(api, server, owner):
    older = remember(api, server, **RAIDS)
    remember(api, server, member=MIRA, key="raid_day", content="Raids are on Saturday.")
    fact = Fact.objects.get(server=server, number=older["number"])

    fact_pin_set(fact=fact, pinned=True, actor=owner)
    assert not Fact.objects.get(pk=fact.pk).held_back

    fact_pin_set(fact=Fact.objects.get(pk=fact.pk), pinned=False, actor=owner)
    assert Fact.objects.get(pk=fact.pk).held_back, "the flag still waits for an answer"
