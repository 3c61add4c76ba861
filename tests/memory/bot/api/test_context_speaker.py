"""POST /api/v1/servers/{guild_id}/context (API.md §1): the block names the speaker and the members mentioned,
facts about them get a reserved share of the slots in every type, and `mentions` is validated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.configuration.directory import SeenMember, members_seen
from memory.models import Exchange, Member, MemoryType, Scope
from tests.factories import make_fact, make_facts_in_bulk

from .helpers import assert_error, configure, memory_state, message

PAUL, MIRA, LEON = "222", "333", "444"


def about(server, member_id: str, key: str, content: str, days: int, **fields):
    return make_fact(server, key=key, content=content, scope=Scope.MEMBER, member_id=member_id,
                     created_at=timezone.now() - timedelta(days=days), **fields)


def test_the_block_names_the_speaker_and_the_members_mentioned(api, server):
    body = api.context(server, mentions=[{"id": MIRA, "name": "Mira"}, {"id": LEON}])
    assert "You are talking to Paul (member 222)." in body["prompt"]
    assert "Their message mentions Mira (member 333) and member 444." in body["prompt"]


def test_a_speaker_without_a_name_is_named_from_the_directory_or_by_id(api, server):
    assert "You are talking to member 222." in api.context(server, author_name="")["prompt"]
    members_seen(server=server, members=[SeenMember(PAUL, "Paul R.")])
    assert "You are talking to Paul R. (member 222)." in api.context(server, author_name="")["prompt"]


def test_member_facts_read_with_the_members_display_name_or_the_id_alone(api, server):
    members_seen(server=server, members=[SeenMember(MIRA, "Mira")])
    mira = about(server, MIRA, "mira_cat", "Mira has two cats.", 3)
    stranger = about(server, "555", "stranger_dog", "Someone has a dog.", 2)
    prompt = api.context(server)["prompt"]
    assert f"[#{mira.number}] ({mira.changed_at.date()}) mira_cat (about Mira (333)): Mira has two cats." in prompt
    assert f"stranger_dog (about member 555): Someone has a dog." in prompt


@pytest.mark.parametrize("memory_type", [MemoryType.CLASSIC, MemoryType.LEDGER, MemoryType.ARCHIVE,
                                         MemoryType.RANKED, MemoryType.CONSOLIDATED])
def test_facts_about_the_speaker_and_the_members_mentioned_get_their_share_in_every_type(api, server, memory_type):
    """Eight slots, a quarter for them: ceil(0.25 × 8) = 2; of their three facts (older than all the chatter) two
    come in; the other six slots go to the newest chatter."""
    configure(server, memory_type=memory_type, max_injected_items=8)
    own = [about(server, PAUL, "paul_birthday", "Paul's birthday is 2 August.", 100),
           about(server, PAUL, "paul_city", "Paul lives in Ghent.", 120)]
    mira = about(server, MIRA, "mira_birthday", "Mira's birthday is 19 February.", 110)
    make_facts_in_bulk(server, 50)
    body = api.context(server, content="when are our birthdays?", mentions=[{"id": MIRA, "name": "Mira"}])
    assert len(body["about_speaker"]) == 2 and set(body["about_speaker"]) <= {fact.number for fact in [*own, mira]}
    assert len(body["facts"]) == 8 and body["pinned"] == []
    # In turns, Mira first: her one fact, then Paul's newest (under the ranking types, his best for the message)
    assert body["about_speaker"] == [mira.number, own[0].number]
    exchange = Exchange.objects.get(pk=body["exchange"])
    assert (exchange.speaker_numbers, exchange.mentioned_ids) == (body["about_speaker"], [MIRA])
    assert api.exchange(body["exchange"])["memory"]["about_speaker"] == body["about_speaker"]


def test_under_the_newest_types_the_members_mentioned_and_the_speaker_take_the_share_in_turns(api, server):
    """Six slots for them (0.5 × 12): Mira's newest, Leon's, Paul's, then their second newest; Mira's third and
    Paul's third wait."""
    configure(server, memory_type=MemoryType.CLASSIC, max_injected_items=12, speaker_share=0.5)
    paul = [about(server, PAUL, f"paul_{n}", f"Paul fact {n}.", n) for n in (1, 2, 3)]
    mira = [about(server, MIRA, f"mira_{n}", f"Mira fact {n}.", n) for n in (10, 20, 30)]
    leon = [about(server, LEON, f"leon_{n}", f"Leon fact {n}.", n) for n in (5, 6)]
    body = api.context(server, mentions=[{"id": MIRA}, {"id": LEON}])
    assert body["about_speaker"] == [fact.number for fact in (mira[0], leon[0], paul[0], mira[1], leon[1], paul[1])]


def test_under_ranked_the_members_mentioned_and_the_speaker_take_the_share_in_turns_best_first(api, server):
    configure(server, memory_type=MemoryType.RANKED, max_injected_items=4)  # one slot for them
    own = about(server, PAUL, "paul_dog", "Paul has a dog called Rex.", 1, kind="profile")
    mira = about(server, MIRA, "mira_dog", "Mira has a dog called Bikkel.", 200, kind="profile")
    about(server, MIRA, "mira_city", "Mira lives in Porto.", 100, kind="profile")
    body = api.context(server, content="what is her dog called?", mentions=[{"id": MIRA, "name": "Mira"}])
    assert body["about_speaker"] == [mira.number] and own.number in [fact["number"] for fact in body["facts"]]


def test_with_fewer_facts_than_their_share_the_rest_go_to_the_types_order(api, server):
    configure(server, memory_type=MemoryType.CLASSIC, max_injected_items=8, speaker_share=0.5)
    own = about(server, PAUL, "paul_birthday", "Paul's birthday is 2 August.", 100)
    make_facts_in_bulk(server, 50)
    body = api.context(server)
    assert body["about_speaker"] == [own.number] and len(body["facts"]) == 8


def test_a_share_of_zero_leaves_the_speaker_to_the_types_order(api, server):
    configure(server, memory_type=MemoryType.CLASSIC, max_injected_items=3, speaker_share=0.0)
    own = about(server, PAUL, "paul_birthday", "Paul's birthday is 2 August.", 100)
    make_facts_in_bulk(server, 5)
    body = api.context(server)
    assert body["about_speaker"] == [] and own.number not in [fact["number"] for fact in body["facts"]]


def test_a_fact_about_the_speaker_that_is_also_among_the_newest_is_shown_once(api, server):
    configure(server, memory_type=MemoryType.CLASSIC, max_injected_items=4)
    own = about(server, PAUL, "paul_birthday", "Paul's birthday is 2 August.", 0)
    body = api.context(server)
    assert [fact["number"] for fact in body["facts"]] == [own.number] and body["about_speaker"] == [own.number]


def test_a_fact_about_the_speaker_the_channel_may_not_see_stays_out(api, server):
    from memory.models import Audience

    hidden = about(server, PAUL, "paul_secret", "Paul's secret plan.", 1, audience=Audience.CHANNEL,
                   source_channel_id="999")
    staff_only = about(server, PAUL, "paul_note", "A staff note on Paul.", 1, audience=Audience.STAFF)
    body = api.context(server)
    assert {hidden.number, staff_only.number}.isdisjoint(fact["number"] for fact in body["facts"])


def test_under_ranked_the_speakers_share_is_chosen_by_score(api, server):
    """Five facts about Paul, one share slot: the one the message is about wins it, though it is the oldest."""
    configure(server, memory_type=MemoryType.RANKED, max_injected_items=4)
    birthday = about(server, PAUL, "paul_birthday", "Paul's birthday is 2 August.", 300, kind="event")
    for days in range(1, 5):
        about(server, PAUL, f"paul_game_{days}", f"Paul played a new game {days} days ago.", days, kind="event")
    body = api.context(server, content="when is my birthday?")
    assert body["about_speaker"] == [birthday.number]


def test_the_names_of_the_author_and_the_members_mentioned_are_kept_and_an_unchanged_one_is_not_written(api, server):
    api.context(server, mentions=[{"id": MIRA, "name": "Mira"}, {"id": LEON, "name": ""}])
    assert dict(Member.objects.filter(server=server).values_list("member_id", "display_name")) == {
        PAUL: "Paul", MIRA: "Mira"}
    seen = dict(Member.objects.filter(server=server).values_list("member_id", "seen_at"))
    api.context(server, mentions=[{"id": MIRA, "name": "Mira"}])
    assert dict(Member.objects.filter(server=server).values_list("member_id", "seen_at")) == seen
    api.context(server, author_name="Paul R.")
    assert Member.objects.get(server=server, member_id=PAUL).display_name == "Paul R."


def test_the_author_mentioned_and_a_member_mentioned_twice_count_once(api, server):
    body = api.context(server, mentions=[{"id": PAUL, "name": "Paul"}, {"id": MIRA, "name": "Mira"},
                                         {"id": MIRA, "name": "Mira again"}])
    assert Exchange.objects.get(pk=body["exchange"]).mentioned_ids == [MIRA]
    assert "Their message mentions Mira (member 333)." in body["prompt"]


BAD_MENTIONS = [
    ("mentions", "Mira", "a list of at most 20"),
    ("mentions", [{"id": str(300 + n)} for n in range(21)], "a list of at most 20"),
    ("mentions[0]", ["333"], "an object with id and name"),
    ("mentions[0].id", [{"name": "Mira"}], "1–20 digits"),
    ("mentions[0].id", [{"id": 333}], "1–20 digits"),
    ("mentions[1].id", [{"id": "333"}, {"id": "mira"}], "1–20 digits"),
    ("mentions[0].name", [{"id": "333", "name": "M" * 101}], "0–100"),
    ("mentions[0].name", [{"id": "333", "name": None}], "0–100"),
    ("mentions[0].name", [{"id": "333", "name": "Mi\x00ra"}], "NUL"),
    ("mentions[0].nick", [{"id": "333", "nick": "Mira"}], "Unknown field"),
]


@pytest.mark.parametrize(("field", "mentions", "said"), BAD_MENTIONS,
                         ids=[f"{field}-{index}" for index, (field, _, _) in enumerate(BAD_MENTIONS)])
@pytest.mark.parametrize("call", ["context", "reply"])
def test_bad_mentions_answer_400_naming_the_field_and_change_nothing(api, server, call, field, mentions, said):
    make_fact(server)
    before = memory_state()
    body = assert_error(api.post(f"/servers/{server.guild_id}/{call}", message(mentions=mentions)), 400, field)
    assert said in body["error"]
    assert memory_state() == before
