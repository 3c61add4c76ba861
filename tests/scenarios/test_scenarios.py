"""The scenario suite (issue 20): 65 hand-written conversations, each run through the bot API's context and through
reply_to_message with the local model server under each of the six memory types (tests/scenarios/harness.py), and
scored by whether every fact it needs is in the block handed to the model (the model's request body). The pinned
and speaker categories must hit in every type; every type's share per category is printed at the end of the run
(conftest.py), with at most NOISE_CAP noise facts per scenario and Semantic only where it is asserted
(types_of); `make bench` scores every scenario under every type with all its noise (bench/scenarios.py)."""

from __future__ import annotations

import pytest
from django.db import transaction

from memory.types import profile_for
from teams.services import team_create
from tests.model_server import FakeModelServer

from .harness import TYPES, Report, run_all
from .scenario_data import CATEGORIES, SCENARIOS, check

pytestmark = pytest.mark.django_db  # so that the test database is set up for the module's fixture too
ALWAYS = ("pinned", "speaker")  # the categories the context guarantees in every type
# Noise facts per scenario here (bench/scenarios.py runs them all, up to 5,000): the pinned and the speaker's
# facts come in by their own part of the context, whatever the noise; 1,000 and 10,000 facts are tested on their
# own (tests/memory/bot/api/test_context_issue_checks.py).
NOISE_CAP = 200


def types_of(scenario) -> tuple[str, ...]:
    """Every type for the categories asserted here; the others without Semantic, whose vectors (the local model
    embeds about 0.3 s per long fact on this machine's two cores) would make this module take minutes: bench/
    scenarios.py scores every scenario under Semantic."""
    return TYPES if scenario.category in ALWAYS else tuple(t for t in TYPES if not profile_for(t).embeds)
REPORTS: list[Report] = []  # for the terminal summary (conftest.py)


@pytest.fixture(scope="module")
def report(django_db_setup, django_db_blocker) -> Report:
    """Every scenario under every type, once for the module; nothing stays in the test database."""
    model = FakeModelServer().start()
    try:
        with django_db_blocker.unblock(), transaction.atomic():
            ran = run_all(team_create(name="Scenario team"), model, types=types_of, noise_cap=NOISE_CAP)
            transaction.set_rollback(True)
    finally:
        model.stop()
    REPORTS.append(ran)
    return ran


def test_the_scenarios_are_well_formed():
    checked = check()
    assert checked["ok"], checked["problems"]
    assert checked["scenarios"] >= 40 and set(checked["per_category"]) == set(CATEGORIES)
    assert len(checked["per_language"]) > 1


@pytest.mark.parametrize("memory_type", TYPES)
@pytest.mark.parametrize("category", ALWAYS)
def test_the_pinned_and_speaker_scenarios_hit_in_every_type(report, memory_type, category):
    missed = [outcome.scenario.name for outcome in report.outcomes
              if outcome.memory_type == memory_type and outcome.scenario.category == category and not outcome.hit]
    assert missed == [] and report.share(memory_type, category) == 1.0


def test_every_scenario_ran_under_its_types(report):
    assert {(outcome.scenario.name, outcome.memory_type) for outcome in report.outcomes} == {
        (scenario.name, memory_type) for scenario in SCENARIOS for memory_type in types_of(scenario)}


def test_the_api_and_the_model_request_hold_the_same_facts(report):
    assert [(o.scenario.name, o.memory_type) for o in report.outcomes if o.hit != o.api_hit] == []


def test_semantic_judges_relevance_by_words_and_meaning(report):
    """The harness gives every fact its vector: Semantic's context uses meaning (messages of 12 characters or more)."""
    modes = {outcome.relevance_mode for outcome in report.outcomes
             if outcome.memory_type == "semantic" and len(outcome.scenario.message) >= 12}
    assert modes == {"hybrid"}
