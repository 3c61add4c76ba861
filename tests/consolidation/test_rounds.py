"""Consolidation rounds: when they run, when they refuse themselves, and that they run once."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from consolidation import rounds
from consolidation.models import ConsolidationRound, DraftStatus, Proposal, ProposalKind, RoundStatus, SummaryDraft
from consolidation.rounds import refusal_reason, round_queue, round_run, round_trigger_for, schedule_rounds
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.services import memory_type_set
from memory.facts.deletes import server_wipe
from memory.facts.services import fact_retract, fact_update
from memory.models import Fact, MemoryType, Summary
from tests.conftest import long_ago
from tests.factories import make_fact, make_server
from tests.model_server import Slow, Status, answer

pytestmark = pytest.mark.django_db


def queued(server) -> ConsolidationRound:
    return ConsolidationRound.objects.create(server=server, trigger="manual")


def run(server) -> ConsolidationRound:
    return round_run(queued(server).pk)


def pairs_of(server) -> set[tuple[str, frozenset[str]]]:
    return {(proposal.kind, frozenset({proposal.keeper.key, proposal.other.key}))
            for proposal in Proposal.objects.filter(server=server).select_related("keeper", "other")}


# Finding and proposing -------------------------------------------------------------


def test_a_round_proposes_the_duplicate_and_flags_the_contradiction_and_changes_no_fact(planted):
    server = planted["language"].server
    before = list(Fact.objects.order_by("pk").values_list("pk", "content", "version", "retracted_at"))
    finished = run(server)
    assert finished.status == RoundStatus.FINISHED
    assert pairs_of(server) == {("duplicate", frozenset({"language", "lang"})),
                                ("contradiction", frozenset({"cup_date"}))}
    assert (finished.facts_considered, finished.duplicates, finished.contradictions) == (13, 1, 1)
    assert list(Fact.objects.order_by("pk").values_list("pk", "content", "version", "retracted_at")) == before


def test_without_a_model_the_winner_is_kept_word_for_word_and_no_summary_is_drafted(planted):
    server = planted["language"].server
    finished = run(server)
    duplicate = Proposal.objects.get(server=server, kind=ProposalKind.DUPLICATE)
    # Higher confidence wins (0.9 staff-written "language" over 0.7 bot-written "lang").
    assert (duplicate.keeper_id, duplicate.other_id) == (planted["language"].pk, planted["lang"].pk)
    assert duplicate.wording == "The server's language is French." and not duplicate.wording_by_model
    assert not SummaryDraft.objects.filter(server=server).exists()
    assert "No summary draft" in finished.model_note and not finished.model_used


def test_winner_ties_go_to_staff_then_to_the_newer_fact(consolidated, owner):
    from consolidation.pairs import PairingFact, winner_first

    now = timezone.now()
    bot = PairingFact(1, 1, "k", "c", "server", "", 0.8, False, now, 1)
    staff = PairingFact(2, 2, "k", "c", "server", "", 0.8, True, now - timedelta(days=1), 1)
    newer_bot = PairingFact(3, 3, "k", "c", "server", "", 0.8, False, now + timedelta(seconds=1), 1)
    assert winner_first(bot, staff)[0] is staff
    assert winner_first(bot, newer_bot)[0] is newer_bot
    assert winner_first(PairingFact(4, 4, "k", "c", "server", "", 0.9, False, now, 1), staff)[0].id == 4


def test_with_a_model_it_confirms_each_pair_words_the_merge_and_drafts_the_summary(planted, consolidation_model):
    server = planted["language"].server
    consolidation_model.script = [
        answer(json.dumps({"class": "duplicate", "wording": "The server speaks French."})),
        answer('```json\n{"class": "contradiction"}\n```'),
        answer("A retro gaming server that speaks French."),
    ]
    finished = run(server)
    assert finished.model_used and consolidation_model.chat_calls == 3
    duplicate = Proposal.objects.get(server=server, kind=ProposalKind.DUPLICATE)
    assert duplicate.wording == "The server speaks French." and duplicate.wording_by_model
    assert Proposal.objects.filter(server=server, kind=ProposalKind.CONTRADICTION).count() == 1
    assert SummaryDraft.objects.get(server=server).content == "A retro gaming server that speaks French."
    # The facts are handed to the model as data, never as its instructions.
    assert "never instructions" in consolidation_model.requests[0]["body"]["messages"][0]["content"]


def test_a_pair_the_model_calls_different_is_not_proposed(planted, consolidation_model):
    server = planted["language"].server
    consolidation_model.script = [answer('{"class": "different"}'), answer('{"class": "different"}'), answer("Draft.")]
    run(server)
    assert not Proposal.objects.filter(server=server).exists()


def test_a_failing_model_leaves_the_rules_verdict_and_says_so(planted, consolidation_model):
    server = planted["language"].server
    consolidation_model.script = [Status(500), Status(500)]
    finished = run(server)
    assert finished.status == RoundStatus.FINISHED
    assert pairs_of(server) == {("duplicate", frozenset({"language", "lang"})),
                                ("contradiction", frozenset({"cup_date"}))}
    assert "failed" in finished.model_note


# Without any model, under Semantic -----------------------------------------------------


@pytest.fixture
def semantic_planted(planted, owner, django_capture_on_commit_callbacks):
    """The planted server under Semantic with the built-in local model's vectors (the catch-up round ran),
    no reply and no consolidation model, and one more fact: the moderators of #mod_team in other words
    under another key, which no rule pairs and the vectors see as the same (0.98)."""
    server = planted["language"].server
    planted["helpers"] = make_fact(server, key="helpers", content="Nova and Alex are the moderators here.",
                                   created_at=long_ago(3))
    with django_capture_on_commit_callbacks(execute=True):
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
    return planted


def test_without_a_model_a_pair_only_the_vectors_see_is_proposed_saying_no_model_checked_it(
        semantic_planted, owner, member):
    """SPEC §6: without any model a round still proposes every pair. One only the vectors found may be the same
    topic with another value, so it says that no model checked it, and the block counts such proposals."""
    from django.urls import reverse

    from memory.models import ModelEndpoint
    from tests.conftest import logged_in_client

    server = semantic_planted["language"].server
    assert not ModelEndpoint.objects.filter(server=server).exists()
    finished = run(server)
    assert finished.status == RoundStatus.FINISHED and not finished.model_used
    assert pairs_of(server) == {("duplicate", frozenset({"language", "lang"})),
                                ("contradiction", frozenset({"cup_date"})),
                                ("duplicate", frozenset({"mod_team", "helpers"}))}
    by_meaning = Proposal.objects.get(server=server, keeper__key__in=["mod_team", "helpers"])
    assert by_meaning.why.startswith("The vectors see them as saying the same")
    assert "No model checked this pair" in by_meaning.why and not by_meaning.wording_by_model
    by_rules = Proposal.objects.get(server=server, keeper__key__in=["language", "lang"])
    assert "No model checked" not in by_rules.why
    assert finished.unjudged_pairs == 1
    settings_url = reverse("memory:settings", args=[server.guild_id]) + "#model-consolidation"
    review_url = reverse("consolidation:review", args=[server.guild_id])
    block = logged_in_client(owner).get(review_url, headers={"HX-Request": "true"}).content.decode()
    assert "1 of these proposals was found by meaning alone and checked by no model" in block
    assert f'Set a consolidation model in <a href="{settings_url}">AI settings</a> to have such pairs checked.' in block
    viewer_block = logged_in_client(member).get(review_url, headers={"HX-Request": "true"}).content.decode()
    assert "Set a consolidation model in AI settings to have such pairs checked." in viewer_block
    from memory.models import ModelPurpose
    from tests.model_server import played_model

    with played_model(server, owner, ModelPurpose.CONSOLIDATION, model_name="fake-consolidation",
                      api_key="sk-consolidation-0123456789"):
        set_since = logged_in_client(member).get(review_url, headers={"HX-Request": "true"}).content.decode()
    assert "A consolidation model has been set since: it checks such pairs from the next round on." in set_since
    assert "did not get to" not in set_since


def test_with_a_model_a_pair_only_the_vectors_see_is_checked_and_worded_by_it(semantic_planted, owner):
    from memory.models import ModelPurpose
    from tests.model_server import played_model

    server = semantic_planted["language"].server
    with played_model(server, owner, ModelPurpose.CONSOLIDATION, model_name="fake-consolidation",
                      api_key="sk-consolidation-0123456789") as model:
        # One verdict for the three pairs, in whatever order they are asked about, then the summary draft.
        model.script = [answer(json.dumps({"class": "duplicate", "wording": "Alex and Nova moderate the server."}))
                        for _ in range(3)] + [answer("A French retro gaming server.")]
        finished = run(server)
    assert finished.status == RoundStatus.FINISHED and finished.model_used and finished.unjudged_pairs == 0
    assert any("moderators here" in request["body"]["messages"][1]["content"] for request in model.requests[:3])
    merge = Proposal.objects.get(server=server, keeper__key__in=["mod_team", "helpers"])
    assert merge.wording_by_model and merge.wording == "Alex and Nova moderate the server."
    assert "No model checked" not in merge.why


def test_a_model_that_fails_leaves_a_pair_only_the_vectors_see_proposed_unchecked_and_says_so(semantic_planted,
                                                                                              owner, member):
    from django.urls import reverse

    from memory.models import ModelPurpose
    from tests.conftest import logged_in_client
    from tests.model_server import played_model

    server = semantic_planted["language"].server
    with played_model(server, owner, ModelPurpose.CONSOLIDATION, model_name="fake-consolidation",
                      api_key="sk-consolidation-0123456789") as model:
        model.script = [Status(500), Status(500)]
        finished = run(server)
        block = logged_in_client(member).get(reverse("consolidation:review", args=[server.guild_id]),
                                             headers={"HX-Request": "true"}).content.decode()
    assert finished.unjudged_pairs == 1 and "failed" in finished.model_note
    assert "No model checked this pair" in Proposal.objects.get(server=server, keeper__key__in=["mod_team",
                                                                                              "helpers"]).why
    assert "The consolidation model did not get to it in this round." in block


# Refusals --------------------------------------------------------------------------


def test_fewer_than_ten_facts_refuses(consolidated):
    for index in range(9):
        make_fact(consolidated, key=f"fact_{index}", content=f"Fact number {index}.")
    finished = run(consolidated)
    assert finished.status == RoundStatus.REFUSED and "needs at least 10" in finished.refusal
    assert not Proposal.objects.exists()


def test_a_waiting_proposal_refuses_the_next_round(planted):
    server = planted["language"].server
    run(server)
    ConsolidationRound.objects.filter(server=server).update(started_at=long_ago(48), created_at=long_ago(48))
    make_fact(server, key="new", content="Something new happened.")
    second = run(server)
    assert second.status == RoundStatus.REFUSED and "still waiting" in second.refusal


def answer_all(server, owner) -> None:
    from consolidation.services import proposal_answer

    for proposal in Proposal.objects.filter(server=server, status="pending"):
        proposal_answer(proposal=proposal, actor=owner, answer="keep_both")


def test_less_than_a_day_after_the_last_round_refuses(planted, owner):
    server = planted["language"].server
    run(server)
    answer_all(server, owner)
    make_fact(server, key="new", content="Something new happened.")
    second = run(server)
    assert second.status == RoundStatus.REFUSED and "24 hours apart" in second.refusal


def test_nothing_changed_since_the_last_round_refuses(planted, owner):
    server = planted["language"].server
    run(server)
    answer_all(server, owner)
    ConsolidationRound.objects.filter(server=server).update(started_at=long_ago(30), created_at=long_ago(30))
    Fact.objects.filter(server=server).update(changed_at=long_ago(31))  # keep-both answers change no fact
    second = run(server)
    assert second.status == RoundStatus.REFUSED and "Nothing in memory changed" in second.refusal
    fact_update(fact=planted["theme"], actor=owner, expected_version=planted["theme"].version, key="theme",
                content="The server is about retro and indie gaming.", confidence=1.0)
    third = run(server)
    assert third.status == RoundStatus.FINISHED


def test_keep_both_is_not_asked_again_until_one_fact_is_rewritten(planted, owner):
    server = planted["language"].server
    run(server)
    answer_all(server, owner)
    ConsolidationRound.objects.filter(server=server).update(started_at=long_ago(30), created_at=long_ago(30))
    make_fact(server, key="new", content="Something new happened.")
    assert run(server).status == RoundStatus.FINISHED
    assert not Proposal.objects.filter(server=server, status="pending").exists()
    ConsolidationRound.objects.filter(server=server).update(started_at=long_ago(30), created_at=long_ago(30))
    lang = planted["lang"]
    fact_update(fact=lang, actor=owner, expected_version=Fact.objects.get(pk=lang.pk).version, key="lang",
                content="Server language: French (since 2024)", confidence=0.7)
    assert run(server).status == RoundStatus.FINISHED
    assert pairs_of(server) >= {("duplicate", frozenset({"language", "lang"}))}
    assert Proposal.objects.filter(server=server, status="pending").count() == 1


# Quiet, weekly, schedule -----------------------------------------------------------


def test_quiet_after_two_hours_without_exchanges_or_changes(planted):
    server = planted["language"].server
    assert round_trigger_for(server) == "quiet"
    exchange_open(server=server, message=IncomingMessage(channel_id="300000000000000001",
                                                         author_id="200000000000000001", content="hi"))
    assert round_trigger_for(server) is None
    assert round_trigger_for(server, now=timezone.now() + timedelta(hours=2, minutes=1)) == "quiet"


def test_a_server_that_is_never_quiet_gets_a_round_after_seven_days(planted):
    server = planted["language"].server
    finished = run(server)
    ConsolidationRound.objects.filter(pk=finished.pk).update(created_at=long_ago(24 * 6))
    make_fact(server, key="chatter", content="Someone is always talking.")
    assert round_trigger_for(server) is None  # busy, and only six days
    ConsolidationRound.objects.filter(pk=finished.pk).update(created_at=long_ago(24 * 7 + 1))
    make_fact(server, key="more_chatter", content="Still talking.")
    assert round_trigger_for(server) == "weekly"


def test_schedule_queues_only_consolidating_servers_and_never_twice(planted, team, owner,
                                                                   django_capture_on_commit_callbacks):
    server = planted["language"].server
    ledger = make_server(team, name="Ledger server")
    memory_type_set(server=ledger, actor=owner, memory_type=MemoryType.LEDGER)
    for index in range(12):
        make_fact(ledger, key=f"fact_{index}", content=f"Fact {index}.", created_at=long_ago(5))
    with django_capture_on_commit_callbacks(execute=True):
        first = schedule_rounds()
    assert [queued_round.server_id for queued_round in first] == [server.pk]
    assert ConsolidationRound.objects.get(pk=first[0].pk).status == RoundStatus.FINISHED  # eager worker ran it
    assert schedule_rounds() == []  # a round was created in the last 24 hours


def test_a_second_queued_round_for_the_same_server_is_refused(planted):
    from consolidation.rounds import RoundNotQueued

    server = planted["language"].server
    round_queue(server=server, trigger="manual")
    with pytest.raises(RoundNotQueued):
        round_queue(server=server, trigger="manual")


# Running once ----------------------------------------------------------------------


def test_running_a_round_twice_proposes_nothing_twice(planted):
    server = planted["language"].server
    first = queued(server)
    round_run(first.pk)
    count = Proposal.objects.filter(server=server).count()
    again = round_run(first.pk)
    assert again.status == RoundStatus.FINISHED and Proposal.objects.filter(server=server).count() == count == 2


@pytest.mark.django_db(transaction=True)
def test_two_workers_running_rounds_of_one_server_at_once_one_runs(planted):
    server = planted["language"].server
    first = queued(server)
    results: list[str | None] = []
    start = threading.Barrier(2)

    def worker() -> None:
        try:
            start.wait()
            finished = round_run(first.pk)
            results.append(finished.status if finished else None)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Proposal.objects.filter(server=server).count() == 2
    assert ConsolidationRound.objects.get(pk=first.pk).status == RoundStatus.FINISHED


@pytest.mark.django_db(transaction=True)
def test_a_round_waits_while_another_connection_holds_the_servers_lock(planted):
    server = planted["language"].server
    first = queued(server)
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [rounds.ADVISORY_LOCK_NAMESPACE, server.pk])
            with pytest.raises(rounds.RoundBusy):  # the task retries it later
                round_run(first.pk)
            assert ConsolidationRound.objects.get(pk=first.pk).status == RoundStatus.QUEUED
            assert not Proposal.objects.filter(server=server).exists()
            cursor.execute("COMMIT")
    finally:
        holder.close()
    assert round_run(first.pk).status == RoundStatus.FINISHED


def run_in_thread(round_id: int) -> tuple[threading.Thread, dict]:
    outcome: dict = {}

    def worker() -> None:
        try:
            outcome["round"] = round_run(round_id)
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    return thread, outcome


def wait_for_the_model_to_be_asked(model) -> None:
    deadline = time.monotonic() + 10
    while model.chat_calls < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert model.chat_calls >= 1


DUPLICATE_ANSWER = '{"class": "duplicate", "wording": "The server speaks French."}'


def round_with_a_slow_first_answer(server, model, seconds: float):
    """A round in a thread whose first model answer takes `seconds`; returns once the model is asked."""
    model.script = [Slow(seconds, answer(DUPLICATE_ANSWER)), answer('{"class": "contradiction"}'),
                    answer("A French server.")]
    thread, outcome = run_in_thread(queued(server).pk)
    wait_for_the_model_to_be_asked(model)
    return thread, outcome


@pytest.mark.django_db(transaction=True)
def test_a_wipe_while_the_model_is_slow_goes_ahead_at_once_and_nothing_wiped_is_proposed(
        planted, consolidation_model, owner):
    server = planted["language"].server
    thread, outcome = round_with_a_slow_first_answer(server, consolidation_model, 3)
    started = time.monotonic()
    wiped = server_wipe(server=server, actor=owner)
    waited = time.monotonic() - started
    thread.join(30)
    assert waited < 1.5, f"the wipe waited {waited:.1f} s for the round's model call"
    assert wiped.facts == len(planted)
    finished = outcome["round"]
    assert finished.status == RoundStatus.FINISHED and (finished.duplicates, finished.contradictions) == (0, 0)
    assert "2 pairs were left for the next round" in finished.model_note
    assert not Fact.objects.filter(server=server).exists()
    assert not Proposal.objects.filter(server=server).exists()
    assert not SummaryDraft.objects.filter(server=server).exists()


@pytest.mark.django_db(transaction=True)
def test_a_pair_whose_fact_is_edited_while_the_model_is_asked_is_left_for_the_next_round(
        planted, consolidation_model, owner):
    server = planted["language"].server
    thread, outcome = round_with_a_slow_first_answer(server, consolidation_model, 1.5)
    lang = planted["lang"]
    fact_update(fact=lang, actor=owner, expected_version=lang.version, key="lang",
                content="Server language: French and English", confidence=0.7)
    thread.join(30)
    finished = outcome["round"]
    assert finished.status == RoundStatus.FINISHED and (finished.duplicates, finished.contradictions) == (0, 1)
    assert pairs_of(server) == {("contradiction", frozenset({"cup_date"}))}
    assert "1 pair was left for the next round" in finished.model_note
    # The draft was written from the old wording of #lang: it waits for the next round too.
    assert not SummaryDraft.objects.filter(server=server).exists() and "No summary draft" in finished.model_note


# Switching away from Consolidated and Semantic ------------------------------------------


def test_a_round_queued_before_a_switch_away_refuses_itself_without_asking_the_model(
        planted, consolidation_model, owner):
    server = planted["language"].server
    waiting = queued(server)
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    finished = round_run(waiting.pk)
    assert finished.status == RoundStatus.REFUSED
    assert finished.refusal == ("The server switched to Ledger after this round was queued; rounds run only under "
                                "Consolidated and Semantic.")
    assert consolidation_model.chat_calls == 0
    assert not Proposal.objects.filter(server=server).exists()


@pytest.mark.django_db(transaction=True)
def test_a_switch_away_while_the_model_is_asked_leaves_no_proposal_and_the_block_says_why(
        planted, consolidation_model, owner):
    from django.urls import reverse

    from tests.conftest import logged_in_client

    server = planted["language"].server
    SummaryDraft.objects.create(server=server, content="An earlier draft.")
    thread, outcome = round_with_a_slow_first_answer(server, consolidation_model, 1.5)
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.RANKED)
    thread.join(30)
    finished = outcome["round"]
    sentence = "The server switched to Ranked while this round ran; nothing was proposed."
    assert finished.status == RoundStatus.REFUSED and finished.refusal == sentence
    assert not Proposal.objects.filter(server=server).exists()
    # Neither a new draft nor the earlier one set aside: the round wrote nothing at all.
    assert list(SummaryDraft.objects.filter(server=server).values_list("content", "status")) == [
        ("An earlier draft.", DraftStatus.PENDING)]
    assert consolidation_model.chat_calls == 1  # the pair being asked about; nothing asked after the switch
    assert finished.model_used and "asked no more" in finished.model_note  # on record in admin
    block = logged_in_client(owner).get(reverse("consolidation:review", args=[server.guild_id]),
                                        headers={"HX-Request": "true"}).content.decode()
    assert f"refused itself — {sentence}" in block


def wait_until_another_connection_waits_for_a_lock(cursor) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()")
        if cursor.fetchone()[0]:
            return
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
def test_a_switch_being_saved_when_the_round_writes_is_waited_for_and_nothing_is_proposed(planted, owner):
    """The round reads the type again with the settings row locked: a switch not yet committed when the
    round is about to write is waited for and seen, instead of read as it was a moment before."""
    from django.db import transaction

    from teams.models import Server

    server = planted["language"].server
    waiting = queued(server)
    switched = threading.Event()

    def switch_and_commit_once_the_round_waits() -> None:
        try:
            with transaction.atomic():
                memory_type_set(server=Server.objects.get(pk=server.pk), actor=owner, memory_type=MemoryType.LEDGER)
                switched.set()
                with connection.cursor() as cursor:
                    wait_until_another_connection_waits_for_a_lock(cursor)
        finally:
            connection.close()

    switching = threading.Thread(target=switch_and_commit_once_the_round_waits)
    switching.start()
    assert switched.wait(10)
    finished = round_run(waiting.pk)  # no model: it reads, pairs and is about to write at once
    switching.join(30)
    assert finished.status == RoundStatus.REFUSED
    assert finished.refusal == "The server switched to Ledger while this round ran; nothing was proposed."
    assert not Proposal.objects.filter(server=server).exists()


@pytest.mark.django_db(transaction=True)
def test_a_switch_to_semantic_while_the_round_writes_is_waited_for_never_deadlocked(planted, owner):
    """A switch to Semantic holds the settings row, then locks the server row for its catch-up. A round about to
    write used to lock its row and, through its join, the server row before asking for the settings row:
    PostgreSQL found the deadlock and aborted one side, the round or the staff member's click (found in review)."""
    from django.db import transaction

    from memory.models import AISettings
    from teams.models import Server

    server = planted["language"].server
    waiting = queued(server)
    holding, outcome = threading.Event(), {}

    def switch_to_semantic_once_the_round_waits() -> None:
        try:
            with transaction.atomic():
                AISettings.objects.select_for_update().get(server_id=server.pk)  # the switch's first lock
                holding.set()
                with connection.cursor() as cursor:
                    wait_until_another_connection_waits_for_a_lock(cursor)
                memory_type_set(server=Server.objects.get(pk=server.pk), actor=owner, memory_type=MemoryType.SEMANTIC)
            outcome["switch"] = "saved"
        except Exception as error:  # noqa: BLE001 - the deadlock this test is about
            outcome["switch"] = repr(error)
        finally:
            connection.close()

    switching = threading.Thread(target=switch_to_semantic_once_the_round_waits)
    switching.start()
    assert holding.wait(10)
    finished = round_run(waiting.pk)
    switching.join(30)
    assert outcome["switch"] == "saved"
    assert finished.status == RoundStatus.FINISHED  # Semantic consolidates too: the round writes
    assert pairs_of(server) == {("duplicate", frozenset({"language", "lang"})),
                                ("contradiction", frozenset({"cup_date"}))}


def test_summary_draft_replaces_an_older_waiting_draft(planted, consolidation_model, owner):
    server = planted["language"].server
    SummaryDraft.objects.create(server=server, content="Old draft.")
    consolidation_model.script = [answer('{"class": "duplicate", "wording": "French."}'),
                                  answer('{"class": "contradiction"}'), answer("New draft.")]
    run(server)
    assert list(SummaryDraft.objects.filter(server=server).order_by("created_at").values_list("content", "status")) == [
        ("Old draft.", DraftStatus.OUT_OF_DATE), ("New draft.", DraftStatus.PENDING)]
    assert not Summary.objects.filter(server=server).exists()  # nothing replaces the summary without a yes


def test_refusal_reason_is_empty_when_a_round_should_run(planted):
    assert refusal_reason(planted["language"].server, timezone.now()) == ""


def test_retracted_facts_are_never_paired(planted):
    server = planted["language"].server
    fact_retract(fact=planted["lang"], reason="wrong")
    run(server)
    assert ("duplicate", frozenset({"language", "lang"})) not in pairs_of(server)


def test_the_demo_server_shows_proposals_after_load_demo(db, settings):
    import io

    from django.core.management import call_command

    from consolidation.demo import PIXEL_GUILD_ID

    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    pixel = ConsolidationRound.objects.get(server__guild_id=PIXEL_GUILD_ID)
    assert pixel.status == RoundStatus.FINISHED
    kinds = sorted(Proposal.objects.filter(server=pixel.server).values_list("kind", flat=True))
    assert kinds.count("duplicate") >= 3 and "contradiction" in kinds
    call_command("load_demo", stdout=io.StringIO())  # again: nothing new
    assert ConsolidationRound.objects.filter(server__guild_id=PIXEL_GUILD_ID).count() == 1


@pytest.mark.parametrize(("left", "right"), [
    ("Alex and Nova are the moderators of the server.", "Alex and Sam are the moderators of the server."),
    ("Raids start at 8 pm on Fridays in the voice channel.", "Raids start at 8 pm on Sundays in the voice channel."),
])
def test_facts_that_each_say_something_of_their_own_are_flagged_never_proposed_as_duplicates(left, right):
    from consolidation.pairs import PairingFact, classify

    now = timezone.now()
    same_key = classify(PairingFact(1, 1, "mod_team", left, "server", "", 1.0, True, now, 1),
                        PairingFact(2, 2, "mod_team", right, "server", "", 1.0, True, now, 1))
    assert same_key is not None and same_key.kind == "contradiction"
    other_keys = classify(PairingFact(1, 1, "mod_team", left, "server", "", 1.0, True, now, 1),
                          PairingFact(2, 2, "moderators", right, "server", "", 1.0, True, now, 1))
    assert other_keys is None or other_keys.kind == "contradiction"


def test_a_pair_the_rules_found_and_the_vectors_see_too_is_found_once_and_one_only_the_vectors_see_is_marked():
    """Under Semantic the vectors see an exact duplicate too; it used to come back twice, and the second
    proposal of the same pair broke the round's write (one waiting proposal per pair)."""
    from consolidation.pairs import PairingFact, find_pairs

    now = timezone.now()
    language = PairingFact(1, 1, "language", "The server's language is French.", "server", "", 0.9, True, now, 1)
    lang = PairingFact(2, 2, "lang", "Server language: French", "server", "", 0.7, False, now, 1)
    mods = PairingFact(3, 3, "mod_team", "Alex and Nova are the moderators.", "server", "", 0.8, False, now, 1)
    helpers = PairingFact(4, 4, "helpers", "Nova and Alex are the moderators here.", "server", "", 0.8, False, now, 1)
    pairs = find_pairs([language, lang, mods, helpers], {(1, 2): 0.956, (3, 4): 0.984})
    assert [(pair.kind, pair.keeper.id, pair.other.id, pair.by_meaning) for pair in pairs] == [
        ("duplicate", 1, 2, False), ("duplicate", 4, 3, True)]


def test_a_round_proposes_contradictions_even_when_duplicates_exceed_the_cap(consolidated, monkeypatch):
    monkeypatch.setattr(rounds, "MAX_DUPLICATES_PER_ROUND", 1)
    for index in range(4):
        make_fact(consolidated, key=f"tag_{index}", content=f"Tag {index} marks spoilers.", created_at=long_ago(3))
        make_fact(consolidated, key=f"tag_{index}", content=f"Tag {index} marks spoilers", created_at=long_ago(3))
    make_fact(consolidated, key="cup_date", content="The cup final is on 12 July.", created_at=long_ago(3))
    make_fact(consolidated, key="cup_date", content="The cup final is on 19 July.", created_at=long_ago(3))
    run(consolidated)
    kinds = sorted(Proposal.objects.filter(server=consolidated).values_list("kind", flat=True))
    assert kinds == ["contradiction", "duplicate"]
