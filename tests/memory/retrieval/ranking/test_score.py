"""The ranking score: recency with the half-life of the fact's kind (the server's; 0 = never ages), importance
(unscored = middling), relevance by search position, per-server weights, and confidence that only ever lowers a
score."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from memory.models import AISettings, Kind
from memory.retrieval.ranking import (
    RELEVANCE_DEPTH,
    HalfLives,
    Weights,
    microseconds,
    recency,
    relevance_by_position,
    score,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DEFAULT = Weights(1, 1, 1)


MONTH = 30 * 86_400.0


def age(half_life_seconds: float = MONTH, **delta) -> float:
    return recency(microseconds(NOW - timedelta(**delta)), microseconds(NOW), half_life_seconds)


def test_rules_lore_and_profiles_never_age_preferences_age_slowly_and_events_fast_by_default():
    half_lives = HalfLives.of(AISettings())
    assert half_lives == HalfLives()
    assert half_lives.by_kind == {Kind.RULE: 0, Kind.LORE: 0, Kind.PROFILE: 0, Kind.PREFERENCE: 180 * 86_400.0,
                                  Kind.EVENT: MONTH}
    assert half_lives.ageless == (Kind.RULE, Kind.LORE, Kind.PROFILE)
    assert half_lives.aging == (Kind.PREFERENCE, Kind.EVENT)
    assert (half_lives.slowest_seconds, half_lives.fastest_seconds) == (180 * 86_400.0, MONTH)


def test_the_half_lives_come_from_the_servers_ai_settings():
    settings = AISettings(half_life_rule_days=0, half_life_lore_days=400, half_life_profile_days=1,
                          half_life_preference_days=0, half_life_event_days=7)
    half_lives = HalfLives.of(settings)
    assert half_lives == HalfLives(rule=0, lore=400, profile=1, preference=0, event=7)
    assert half_lives.seconds(Kind.LORE) == 400 * 86_400.0
    assert half_lives.ageless == (Kind.RULE, Kind.PREFERENCE)
    assert HalfLives(0, 0, 0, 0, 0).slowest_seconds == 0 and HalfLives(0, 0, 0, 0, 0).aging == ()


def test_a_half_life_of_zero_never_ages():
    assert [age(0, days=days) for days in (0, 1, 365, 3650, -2)] == [1.0] * 5


def test_the_half_life_of_each_kind_sets_its_decay():
    half_lives = HalfLives(rule=0, lore=0, profile=0, preference=180, event=30)
    year_ago = age(half_lives.seconds(Kind.EVENT), days=365)
    assert year_ago == pytest.approx(0.5 ** (365 / 30), rel=1e-12)
    assert age(half_lives.seconds(Kind.PREFERENCE), days=180) == pytest.approx(0.5, rel=1e-12)
    assert age(half_lives.seconds(Kind.RULE), days=365) == 1.0


@pytest.mark.parametrize(("delta", "expected"), [
    ({"seconds": 0}, 1.0), ({"days": 30}, 0.5), ({"days": 60}, 0.25), ({"days": 90}, 0.125),
])
def test_recency_halves_every_half_life(delta, expected):
    assert age(**delta) == pytest.approx(expected, rel=1e-12)


def test_recency_falls_steadily_with_age_and_a_change_dated_in_the_future_counts_as_now():
    ages = [age(days=days) for days in (0, 1, 7, 29, 31, 365, 3650)]
    assert ages == sorted(ages, reverse=True) and len(set(ages)) == len(ages)
    assert age(days=-2) == 1.0


def test_an_unscored_fact_counts_as_middling_importance():
    for weights in (DEFAULT, Weights(0, 1, 0), Weights(3, 7, 1)):
        unscored = score(confidence=0.8, importance=None, recency=0.3, relevance=0.0, weights=weights)
        middling = score(confidence=0.8, importance=0.5, recency=0.3, relevance=0.0, weights=weights)
        assert unscored == middling
        assert (score(confidence=0.8, importance=0.4, recency=0.3, relevance=0.0, weights=weights) < unscored
                < score(confidence=0.8, importance=0.6, recency=0.3, relevance=0.0, weights=weights))


def test_the_score_is_the_weighted_mean_of_the_three_signals_times_confidence():
    assert score(confidence=1.0, importance=1.0, recency=1.0, relevance=1.0, weights=DEFAULT) == 1.0
    assert score(confidence=1.0, importance=0.5, recency=1.0, relevance=0.0, weights=DEFAULT) == pytest.approx(0.5)
    assert score(confidence=0.5, importance=0.2, recency=0.6, relevance=1.0,
                 weights=Weights(2, 1, 1)) == pytest.approx(0.5 * (2 * 0.6 + 0.2 + 1.0) / 4)


def test_confidence_only_ever_lowers_a_score():
    rng = random.Random(4)
    for _ in range(2000):
        weights = Weights(rng.choice([0, rng.uniform(0, 10)]), rng.uniform(0.01, 10),
                          rng.choice([0, rng.uniform(0, 10)]))
        signals = {"importance": rng.choice([None, rng.random()]), "recency": rng.random(), "relevance": rng.random()}
        confidence = rng.random()
        full = score(confidence=1.0, weights=weights, **signals)
        lowered = score(confidence=confidence, weights=weights, **signals)
        assert 0.0 <= lowered <= full <= 1.0
        assert lowered == pytest.approx(confidence * full, rel=1e-12, abs=1e-15)


def test_a_zero_weight_takes_its_signal_out_of_the_score():
    signals = {"confidence": 0.9, "recency": 0.7}
    no_importance = Weights(1, 0, 1)
    assert (score(importance=0.0, relevance=0.3, weights=no_importance, **signals)
            == score(importance=1.0, relevance=0.3, weights=no_importance, **signals))
    no_relevance = Weights(1, 1, 0)
    assert (score(importance=0.4, relevance=0.0, weights=no_relevance, **signals)
            == score(importance=0.4, relevance=1.0, weights=no_relevance, **signals))
    no_recency = Weights(0, 1, 1)
    assert (score(importance=0.4, relevance=0.3, confidence=0.9, recency=1.0, weights=no_recency)
            == score(importance=0.4, relevance=0.3, confidence=0.9, recency=0.0, weights=no_recency))


def test_only_the_proportions_of_the_weights_count():
    signals = {"confidence": 0.9, "importance": 0.3, "recency": 0.7, "relevance": 0.5}
    assert score(weights=Weights(1, 2, 3), **signals) == pytest.approx(score(weights=Weights(3, 6, 9), **signals))


def test_a_heavier_weight_makes_its_signal_decide():
    recent_but_minor = {"confidence": 1.0, "importance": 0.1, "recency": 0.9, "relevance": 0.0}
    old_but_essential = {"confidence": 1.0, "importance": 0.9, "recency": 0.1, "relevance": 0.0}
    assert score(weights=Weights(10, 1, 1), **recent_but_minor) > score(weights=Weights(10, 1, 1), **old_but_essential)
    assert score(weights=Weights(1, 10, 1), **recent_but_minor) < score(weights=Weights(1, 10, 1), **old_but_essential)


def test_relevance_falls_with_the_position_in_the_search_results():
    relevance = relevance_by_position([11, 22, 33])
    assert relevance == {11: 1.0, 22: 1 - 1 / RELEVANCE_DEPTH, 33: 1 - 2 / RELEVANCE_DEPTH}


def test_results_beyond_the_relevance_depth_count_as_not_matched():
    relevance = relevance_by_position(list(range(1, RELEVANCE_DEPTH + 20)))
    assert len(relevance) == RELEVANCE_DEPTH
    assert min(relevance.values()) == pytest.approx(1 / RELEVANCE_DEPTH)


def test_the_weights_come_from_the_servers_ai_settings():
    settings = AISettings(weight_recency=2.0, weight_importance=0.0, weight_relevance=5.5)
    assert Weights.of(settings) == Weights(2.0, 0.0, 5.5)
    assert Weights.of(settings).total == 7.5
