"""Learning under the background models' monthly budget: over it a run waits for the next month (no model call, no
run, the messages unread), saying so on the memory page and the learning runs page; under it every call records the
usage its endpoint reported, linked to the run."""

from __future__ import annotations

from django.urls import reverse

from memory.configuration.services import ai_settings_update
from memory.learning.runs import learning_run
from memory.learning.selectors import learning_status
from memory.models import Fact, LearningRun, LearningState, ModelCall, UsagePurpose
from tests.conftest import logged_in_client
from tests.factories import record_call

from .conftest import MIRA, PAUL, fact, ingest, learned, msg


def spend(server, tokens: int, purpose: str = UsagePurpose.CONSOLIDATION) -> None:
    record_call(server, purpose, tokens)


def test_over_the_background_budget_learning_waits_and_says_so(learning_server, learning_model, owner, member):
    ai_settings_update(server=learning_server, actor=owner, background_token_budget=5000)
    spend(learning_server, 5000)  # consolidation's tokens: the same budget
    ingest(learning_server, msg(900, PAUL, "I'm Paul, and my favourite game is Tetris."))
    outcome = learning_run(learning_server)
    assert outcome.run is None
    assert "monthly budget of 5,000 tokens is used up" in outcome.said and "Learning waits" in outcome.said
    assert learning_model.chat_calls == 0
    assert not LearningRun.objects.exists() and not Fact.objects.exists()
    assert not LearningState.objects.filter(server=learning_server, read_position__gt=0).exists()
    status = learning_status(learning_server)
    assert "used up" in status.over_budget
    for url in (reverse("memory:page") + f"?server={learning_server.guild_id}",
                reverse("memory:learning-runs", args=[learning_server.guild_id])):
        page = logged_in_client(member).get(url).content.decode()
        assert "Learning waits for the next month" in page, url
    memory_page = logged_in_client(member).get(reverse("memory:page") + f"?server={learning_server.guild_id}")
    assert "Until then consolidation rounds run by rules only and learning waits." in memory_page.content.decode()


def test_under_the_budget_a_run_learns_and_records_each_calls_usage(learning_server, learning_model, owner):
    ai_settings_update(server=learning_server, actor=owner, background_token_budget=5000)
    spend(learning_server, 4000)
    spend(learning_server, 90_000, purpose=UsagePurpose.REPLY)  # the reply model's budget is another
    ingest(learning_server, msg(900, PAUL, "I'm Paul, and my favourite game is Tetris."),
           msg(901, MIRA, "Game night is every Friday."))
    learning_model.script = [learned([fact("paul_favourite_game", "Paul's favourite game is Tetris.", [900],
                                           scope="member", member_id=PAUL)])]
    outcome = learning_run(learning_server)
    assert outcome.run is not None and outcome.run.written == 1
    calls = list(ModelCall.objects.filter(learning_run=outcome.run).values_list(
        "purpose", "model_name", "prompt_tokens", "completion_tokens"))
    assert calls == [("learning", "fake-learner", 900, 120)]
    # Now 4,900 of 5,000: still under, the next run is not held back; 100 more and it is.
    spend(learning_server, 100)
    assert "used up" in learning_status(learning_server).over_budget
