"""Ranking by kind: each kind of fact ages at the server's half-life of that kind (0: never), so a rule the server
has lived by for a year keeps its slot, while events make way for newer ones; the speaker's share ranks only the
facts about some members, the rest of the slots leave out the facts already chosen. Whatever the server holds, the
fast path gives what scoring every fact gives (a property over random servers)."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memory.configuration.selectors import ai_settings_for_server
from memory.models import Audience, Fact, Kind, MemoryType, Scope
from memory.retrieval.audience import Reader
from memory.retrieval.context import context_choice
from memory.retrieval.ranking import HalfLives, Weights, microseconds, rank_top, relevance_by_position, top
from teams.models import Server
from tests.factories import make_fact, make_server, make_team
from tests.memory.bot.api.helpers import configure

from .ranking_reference import rank_every_fact

ANYWHERE = Reader.any_channel()
PAUL, ANNA, OMAR = "222000000000000001", "222000000000000002", "222000000000000003"
MODS, LOUNGE = "333000000000000001", "333000000000000002"


@pytest.fixture(autouse=True)
def no_hints(monkeypatch):
    monkeypatch.setattr(top, "_HINTS", {})


@pytest.fixture
def small_walks(monkeypatch):
    """Walks and caps a few facts long, so that a few dozen facts take every branch."""
    for name, value in {"WALK_PER_SLOT": 1, "MIN_WALK": 3, "CAP_PER_SLOT": 1, "MIN_CAP": 2,
                        "HEAVY_PER_SLOT": 1, "MIN_HEAVY": 2}.items():
        monkeypatch.setattr(top, name, value)


@pytest.fixture
def short_walks(monkeypatch):
    """Walks a few facts long, with room in the weight index read: a few dozen facts seldom take the walk to
    their end."""
    for name, value in {"WALK_PER_SLOT": 1, "MIN_WALK": 4, "CAP_PER_SLOT": 2, "MIN_CAP": 8,
                        "HEAVY_PER_SLOT": 1, "MIN_HEAVY": 4}.items():
        monkeypatch.setattr(top, name, value)


def aged(server, key: str, kind: str, days: float, importance: float | None = 0.7, **fields) -> Fact:
    fact = make_fact(server, key=key, content=f"The {key.replace('_', ' ')}.", kind=kind, importance=importance,
                     **fields)
    Fact.objects.filter(pk=fact.pk).update(changed_at=timezone.now() - timedelta(days=days))
    return fact


def ranked_keys(server, limit: int = 1, **options) -> list[str]:
    options.setdefault("half_lives", HalfLives())
    now = timezone.now()
    fast = rank_top(server.pk, Weights(1, 1, 1), limit, {}, now, reader=ANYWHERE, **options)
    assert [fact.id for fact in fast.facts] == [fact.id for fact in rank_every_fact(
        server, Weights(1, 1, 1), limit, {}, now, ANYWHERE, **options)]
    keys = dict(Fact.objects.filter(server=server).values_list("pk", "key"))
    return [keys[fact.id] for fact in fast.facts]


def ranked_context_keys(server, message: str = "hello everyone") -> list[str]:
    return [fact.key for fact in context_choice(server, ai_settings_for_server(server), message, ANYWHERE).facts]


def test_a_year_old_rule_keeps_its_slot_against_a_day_old_event_of_equal_importance(server):
    aged(server, "no_support_in_public", Kind.RULE, 365)
    aged(server, "yesterdays_raid", Kind.EVENT, 1)
    assert ranked_keys(server) == ["no_support_in_public"]

    configure(server, memory_type=MemoryType.RANKED, max_injected_items=1)
    assert ranked_context_keys(server) == ["no_support_in_public"]


def test_a_week_old_event_beats_a_year_old_one(server):
    aged(server, "last_years_cup", Kind.EVENT, 365)
    aged(server, "last_weeks_cup", Kind.EVENT, 7)
    assert ranked_keys(server) == ["last_weeks_cup"]

    configure(server, memory_type=MemoryType.RANKED, max_injected_items=1)
    assert ranked_context_keys(server) == ["last_weeks_cup"]


def test_lore_and_profiles_never_age_and_preferences_age_slowly(server):
    aged(server, "speaks_french", Kind.LORE, 730)
    aged(server, "paul_pronouns", Kind.PROFILE, 700, scope=Scope.MEMBER, member_id=PAUL)
    aged(server, "likes_jazz", Kind.PREFERENCE, 10)  # 0.96 as recent after 10 days
    aged(server, "party_tonight", Kind.EVENT, 2)  # 0.95 after 2
    # Lore and profile tie at full recency, whatever their age: the newer change goes first.
    assert ranked_keys(server, 4) == ["paul_pronouns", "speaks_french", "likes_jazz", "party_tonight"]


def test_the_half_lives_are_the_servers_own(server):
    aged(server, "no_support_in_public", Kind.RULE, 365)
    aged(server, "yesterdays_raid", Kind.EVENT, 1)
    configure(server, memory_type=MemoryType.RANKED, max_injected_items=1, half_life_rule_days=30)
    assert ranked_context_keys(server) == ["yesterdays_raid"]
    configure(server, half_life_rule_days=0, half_life_event_days=0)  # events that never age: the newer wins a tie
    assert ranked_context_keys(server) == ["yesterdays_raid"]
    assert ranked_keys(server, half_lives=HalfLives(event=0)) == ["yesterdays_raid"]


def test_only_the_facts_about_the_members_asked_for_rank(server):
    about_paul = aged(server, "paul_birthday", Kind.PROFILE, 300, 0.2, scope=Scope.MEMBER, member_id=PAUL)
    aged(server, "paul_old_plan", Kind.EVENT, 400, 0.1, scope=Scope.MEMBER, member_id=PAUL)
    aged(server, "anna_main", Kind.PROFILE, 1, 0.9, scope=Scope.MEMBER, member_id=ANNA)
    aged(server, "omar_likes", Kind.PREFERENCE, 3, scope=Scope.MEMBER, member_id=OMAR)
    aged(server, "server_rule", Kind.RULE, 1, 1.0)
    assert ranked_keys(server, 1, only_members=(PAUL,)) == [about_paul.key]
    assert ranked_keys(server, 5, only_members=(PAUL,)) == ["paul_birthday", "paul_old_plan"]
    assert ranked_keys(server, 5, only_members=(PAUL, OMAR)) == ["omar_likes", "paul_birthday", "paul_old_plan"]
    assert ranked_keys(server, 5, only_members=()) == []
    assert ranked_keys(server, 5, only_members=("222000000000000009",)) == []


def test_facts_already_chosen_never_rank_again(server):
    rule = aged(server, "server_rule", Kind.RULE, 1, 1.0)
    second = aged(server, "speaks_french", Kind.LORE, 10, 0.9)
    aged(server, "old_cup", Kind.EVENT, 200)
    assert ranked_keys(server, 2) == ["server_rule", "speaks_french"]
    assert ranked_keys(server, 2, exclude_ids=[rule.pk]) == ["speaks_french", "old_cup"]
    assert ranked_keys(server, 2, exclude_ids={rule.pk, second.pk}) == ["old_cup"]


def test_a_ranking_of_some_members_facts_leaves_no_hint_and_one_leaving_facts_out_counts_them(server):
    notes = [aged(server, f"note_{index}", Kind.EVENT, index, scope=Scope.MEMBER,
                  member_id=PAUL if index % 2 else ANNA) for index in range(30)]
    weights, key = Weights(1, 1, 1), (server.pk, ANYWHERE, Weights(1, 1, 1), HalfLives())
    rank_top(server.pk, weights, 3, {}, timezone.now(), reader=ANYWHERE, half_lives=HalfLives(), only_members=(PAUL,))
    assert top._HINTS == {}
    rank_top(server.pk, weights, 3, {}, timezone.now(), reader=ANYWHERE, half_lives=HalfLives())
    assert len(top._HINTS[key][0]) == 3  # the three best unmatched scores
    # Two facts left out: the 3 best of the rest are at least the 5 best of all, which the hint does not hold.
    left_out = rank_top(server.pk, weights, 3, {}, timezone.now(), reader=ANYWHERE, half_lives=HalfLives(),
                        exclude_ids=[notes[0].pk, notes[1].pk])
    assert "hinted" not in left_out.steps
    assert len(top._HINTS[key][0]) == 5
    again = rank_top(server.pk, weights, 3, {}, timezone.now(), reader=ANYWHERE, half_lives=HalfLives(),
                     exclude_ids=[notes[2].pk, notes[3].pk])
    assert "hinted" in again.steps
    assert [fact.id for fact in again.facts] == [fact.id for fact in rank_every_fact(
        server, weights, 3, {}, timezone.now(), ANYWHERE, exclude_ids=[notes[2].pk, notes[3].pk])]


def newer_events(server, count: int) -> None:
    """`count` events of no importance, changed in the last hours: the walk's first steps take them."""
    for index in range(count):
        aged(server, f"chat_{index}", Kind.EVENT, index / 24, 0.0)


def test_facts_that_never_age_and_tie_go_newest_first_from_one_read(server, small_walks):
    lore = [aged(server, f"lore_{index}", Kind.LORE, 10 + index, None) for index in range(60)]
    newer_events(server, 20)
    fast = rank_top(server.pk, Weights(1, 1, 1), 5, {}, timezone.now(), reader=ANYWHERE, half_lives=HalfLives())
    assert [fact.id for fact in fast.facts] == [fact.pk for fact in lore[:5]]
    assert "ageless again" not in fast.steps and fast.rated <= 6


def test_importances_a_hair_apart_that_score_the_same_still_go_newest_first(server, small_walks):
    """0.3 and the next float above it give the same score: the rating index holds the older one first, so the
    read of its group proves nothing and goes deeper."""
    older = aged(server, "older", Kind.LORE, 20, 0.3)
    Fact.objects.filter(pk=older.pk).update(importance=math.nextafter(0.3, 1.0))  # the services round to 2 places
    newer = aged(server, "newer", Kind.LORE, 10, 0.3)
    newer_events(server, 20)
    fast = rank_top(server.pk, Weights(1, 1, 1), 1, {}, timezone.now(), reader=ANYWHERE, half_lives=HalfLives())
    assert fast.facts[0].score == rank_every_fact(server, Weights(1, 1, 1), 2, {}, timezone.now())[1].score
    assert [fact.id for fact in fast.facts] == [newer.pk] and older.pk != newer.pk
    assert "ageless again" in fast.steps


def test_a_hint_too_high_for_the_kinds_that_never_age_costs_a_read_never_a_fact(server, small_walks):
    lore = [aged(server, f"lore_{index}", Kind.LORE, 10 + index, 0.1 * (index % 10)) for index in range(40)]
    newer_events(server, 20)
    now = timezone.now()
    top._HINTS[(server.pk, ANYWHERE, Weights(1, 1, 1), HalfLives())] = ((0.9,) * 5, microseconds(now))
    fast = rank_top(server.pk, Weights(1, 1, 1), 5, {}, now, reader=ANYWHERE, half_lives=HalfLives())
    assert "hinted" in fast.steps and "ageless again" in fast.steps
    expected = rank_every_fact(server, Weights(1, 1, 1), 5, {}, now)
    assert [fact.id for fact in fast.facts] == [fact.id for fact in expected]
    assert {fact.id for fact in fast.facts} <= {fact.pk for fact in lore}


# A random server: facts of every kind whose values collide often (shared moments, confidences, importances),
# some in the future, some retracted, some limited to a channel or to staff, a third about one of three members.
MOMENTS = [0.0, 0.5, 1.0, 7.0, 30.0, 180.0, 365.0, 1000.0]
fact = st.fixed_dictionaries({
    "kind": st.sampled_from(Kind.values),
    "days": st.one_of(st.sampled_from(MOMENTS), st.floats(min_value=-0.2, max_value=1500)),
    # 1e-300 times an old fact's recency would underflow float8 arithmetic in the database (statements.RECENCY)
    "confidence": st.one_of(st.sampled_from([1.0, 1.0, 0.5, 0.0, 1e-300]), st.floats(min_value=1e-9, max_value=1)),
    "importance": st.one_of(st.sampled_from([None, None, 0.5, 1.0, 0.0]), st.floats(min_value=1e-9, max_value=1)),
    "audience": st.sampled_from([Audience.SERVER] * 4 + [Audience.CHANNEL, Audience.STAFF]),
    "channel": st.sampled_from([MODS, LOUNGE]),
    "member": st.sampled_from([None, None, None, PAUL, ANNA, OMAR]),
    "retracted": st.sampled_from([False] * 9 + [True]),
    "matched": st.sampled_from([False] * 4 + [True]),
})
HALF_LIFE_DAYS = st.sampled_from([0, 0, 1, 7, 30, 180, 3650])
scenario = st.fixed_dictionaries({
    "facts": st.lists(fact, min_size=25, max_size=80),
    "half_lives": st.builds(HalfLives, HALF_LIFE_DAYS, HALF_LIFE_DAYS, HALF_LIFE_DAYS, HALF_LIFE_DAYS,
                            HALF_LIFE_DAYS),
    "weights": st.sampled_from([Weights(1, 1, 1), Weights(0, 1, 1), Weights(1, 0, 1), Weights(1, 1, 0),
                                Weights(10, 0.5, 3), Weights(0.1, 10, 0), Weights(1, 0, 0), Weights(0, 0, 1)]),
    "limit": st.sampled_from([1, 1, 2, 3, 5, 8, 20]),
    "reader": st.sampled_from([ANYWHERE, Reader.for_message(MODS), Reader.for_message(LOUNGE)]),
    "only_members": st.sampled_from([None] * 6 + [(), (PAUL,), (ANNA, OMAR)]),
    "exclude_every": st.sampled_from([0, 0, 0, 2, 3, 7]),  # leave out every n-th fact (0: none)
})


def _random_server(case) -> tuple[Server, list[Fact], dict[int, float]]:
    server = make_server(make_team())
    now = timezone.now()
    facts = Fact.objects.bulk_create([Fact(
        server=server, number=index + 1, key=f"note_{index}", content=f"Note {index}.", kind=drawn["kind"],
        scope=Scope.MEMBER if drawn["member"] else Scope.SERVER, member_id=drawn["member"] or "",
        confidence=drawn["confidence"], importance=drawn["importance"], changed_at=now - timedelta(days=drawn["days"]),
        audience=drawn["audience"], source_channel_id=drawn["channel"] if drawn["audience"] == Audience.CHANNEL else "",
        retracted_at=now if drawn["retracted"] else None,
    ) for index, drawn in enumerate(case["facts"])])
    matched = [made.pk for made, drawn in zip(facts, case["facts"], strict=True) if drawn["matched"]]
    return server, facts, relevance_by_position(matched)


@pytest.mark.django_db
@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=scenario)
def test_on_any_server_the_fast_path_ranks_exactly_like_scoring_every_fact(short_walks, case):
    with transaction.atomic():  # every example in a savepoint, rolled back at the end
        server, facts, relevance = _random_server(case)
        every = case["exclude_every"]
        options = {"half_lives": case["half_lives"], "only_members": case["only_members"],
                   "exclude_ids": [made.pk for made in facts[::every]] if every else []}
        now = timezone.now()
        for _ in range(2):  # the second ranking may take the first one's hint
            fast = rank_top(server.pk, case["weights"], case["limit"], relevance, now, reader=case["reader"],
                            **options)
            expected = rank_every_fact(server, case["weights"], case["limit"], relevance, now, case["reader"],
                                       **options)
            assert [(fact.id, fact.score) for fact in fast.facts] == [(fact.id, fact.score) for fact in expected]
            event(f"settled by {fast.steps[-1] if fast.steps else 'nothing'}")
            if "ageless again" in fast.steps:
                event("the kinds that never age read again")
        transaction.set_rollback(True)


def test_a_vanishing_confidence_on_a_very_old_fact_scores_without_underflow(server):
    tiny = aged(server, "tiny_confidence", Kind.EVENT, 3650, 0.5)
    Fact.objects.filter(pk=tiny.pk).update(confidence=1e-300)  # the services round a confidence to two places
    aged(server, "other", Kind.EVENT, 3649, 0.0, confidence=0.0)
    assert ranked_keys(server, 2, half_lives=HalfLives(event=1)) == [tiny.key, "other"]
