"""Consolidation under the background models' monthly budget (consolidation and learning together): over it a round
runs without the model — rules only, saying so on the round — and every call a round makes records its usage."""

from __future__ import annotations

import json

import pytest

from consolidation.models import ConsolidationRound, Proposal, ProposalKind, RoundStatus
from consolidation.rounds import round_run
from memory.configuration.services import ai_settings_update
from memory.models import ModelCall, UsagePurpose
from tests.factories import record_call
from tests.model_server import answer

pytestmark = pytest.mark.django_db


def run(server) -> ConsolidationRound:
    return round_run(ConsolidationRound.objects.create(server=server, trigger="manual").pk)


def test_over_the_background_budget_a_round_runs_by_rules_and_says_so(planted, consolidation_model, owner):
    server = planted["language"].server
    ai_settings_update(server=server, actor=owner, background_token_budget=1000)
    # The learning model's tokens count against the same budget.
    record_call(server, UsagePurpose.LEARNING, 1000)
    finished = run(server)
    assert finished.status == RoundStatus.FINISHED
    assert consolidation_model.chat_calls == 0  # the model was not asked
    assert not finished.model_used
    assert "monthly budget of 1,000 tokens is used up" in finished.model_note
    assert "ran without the model" in finished.model_note
    # Every pair is still proposed, the merge keeping the winner word for word (SPEC §6, without a model).
    duplicate = Proposal.objects.get(server=server, kind=ProposalKind.DUPLICATE)
    assert not duplicate.wording_by_model
    assert Proposal.objects.filter(server=server, kind=ProposalKind.CONTRADICTION).count() == 1
    assert not ModelCall.objects.filter(consolidation_round=finished).exists()


def test_the_reply_models_tokens_do_not_count_against_the_background_budget(planted, consolidation_model, owner):
    server = planted["language"].server
    ai_settings_update(server=server, actor=owner, background_token_budget=1000)
    record_call(server, UsagePurpose.REPLY, 50_000)
    run(server)
    assert consolidation_model.chat_calls >= 1  # asked (its unscripted answers are no verdicts: it stops early)


def test_each_call_of_a_round_records_what_its_endpoint_reported(planted, consolidation_model):
    server = planted["language"].server
    consolidation_model.script = [
        {**answer(json.dumps({"class": "duplicate", "wording": "The server speaks French."})),
         "usage": {"prompt_tokens": 120, "completion_tokens": 14}},
        answer('{"class": "contradiction"}'),  # reports no usage
        {**answer("A retro gaming server that speaks French."), "usage": {"prompt_tokens": 300,
                                                                          "completion_tokens": 40}},
    ]
    finished = run(server)
    calls = list(ModelCall.objects.filter(consolidation_round=finished).order_by("id").values_list(
        "purpose", "model_name", "prompt_tokens", "completion_tokens"))
    assert calls == [("consolidation", "fake-consolidation", 120, 14),
                     ("consolidation", "fake-consolidation", None, None),
                     ("consolidation", "fake-consolidation", 300, 40)]
