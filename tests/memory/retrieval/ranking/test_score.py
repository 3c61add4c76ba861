"""The ranking score: recency with a 30-day half-life, importance (unscored = middling), relevance by search
position, per-server weights, and confidence that only ever lowers a score."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from memory.models import AISettings
from memory.retrieval.ranking import (
    HALF_LIFE,
    RELEVANCE_DEPTH,
    Weights,
    microseconds,
    recency,
    relevance_by_position,
    score,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DEFAULT = Weights(1, 1, 1)


def age(**delta) -> float:
    return recency(microseconds(NOW - timedelta(**delta)), microseconds(NOW))


def test_the_half_life_is_30_days():
    assert HALF_LIFE == timedelta(days=30)


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
