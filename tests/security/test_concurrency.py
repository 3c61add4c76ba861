"""Races, with real threads against PostgreSQL: exactly one outcome wins, the other is told."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from memory.bot.actions import Retract, Supersede, exchange_apply_actions
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.services import memory_type_set
from memory.facts.deletes import server_wipe
from memory.facts.services import FactConflict, fact_update
from memory.models import Exchange, Fact, MemoryType
from tests.factories import make_fact
from tests.model_server import Slow, answer

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls) -> list[object]:
    """Run the calls at the same moment on their own connections; their results (or exceptions)."""
    start = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call) -> None:
        try:
            start.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the loser's exception is the outcome under test
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def shown(server, fact) -> Exchange:
    opened = exchange_open(server=server, message=IncomingMessage(channel_id="1", author_id="2", content="hello"))
    assert fact.number in opened.exchange.shown_numbers
    return opened.exchange


@pytest.mark.parametrize("op", ["retract", "supersede"])
def test_two_exchanges_changing_the_same_fact_at_once_one_applies_the_other_is_ignored(server, owner, op):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    fact = make_fact(server, key="raid_day", content="Raids are on Friday.")
    first, second = shown(server, fact), shown(server, fact)

    def change(exchange, wording):
        ops = [Retract(number=fact.number, reason="moved")] if op == "retract" else \
            [Supersede(number=fact.number, content=wording, reason="moved")]
        return exchange_apply_actions(exchange=Exchange.objects.select_related("server").get(pk=exchange.pk), ops=ops)

    results = race(lambda: change(first, "Raids are on Saturday."), lambda: change(second, "Raids are on Sunday."))
    statuses = sorted(result[0].status for result in results)
    assert statuses == ["applied", "ignored"]
    ignored = next(result[0] for result in results if result[0].status == "ignored")
    assert "already retracted" in ignored.detail
    assert Fact.objects.filter(server=server, retracted_at__isnull=True).count() == (0 if op == "retract" else 1)


def one_then_other(first, second) -> tuple[object, object]:
    """`first` runs in a transaction that stays open until `second` has started on its own connection and
    is seen waiting on a lock (pg_stat_activity) first holds: truly at the same time, in a known order."""
    first_done, second_started = threading.Event(), threading.Event()
    results: list[object] = [None, None]

    def run_first() -> None:
        try:
            with transaction.atomic():
                results[0] = first()
                first_done.set()
                second_started.wait(10)
                waiting_for_a_lock = False
                for _ in range(250):  # until second waits on a lock this transaction holds (at most 5 s)
                    with connection.cursor() as cursor:
                        # Inside a transaction pg_stat_activity is read once and kept: drop that snapshot first.
                        cursor.execute("SELECT pg_stat_clear_snapshot()")
                        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                       "AND datname = current_database()")
                        waiting_for_a_lock = cursor.fetchone()[0] > 0
                    if waiting_for_a_lock:
                        break
                    threading.Event().wait(0.02)
                results.append(waiting_for_a_lock)
        except Exception as error:  # noqa: BLE001 - the outcome under test
            results[0] = error
            first_done.set()
        finally:
            connection.close()

    def run_second() -> None:
        first_done.wait(10)
        second_started.set()
        try:
            results[1] = second()
        except Exception as error:  # noqa: BLE001 - the outcome under test
            results[1] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results[2:] == [True], "the second never waited on the first's lock: they did not overlap"
    return results[0], results[1]


@pytest.mark.parametrize("first", ["staff", "bot"])
def test_a_staff_edit_racing_a_bot_supersede_one_wins_the_other_is_told(server, owner, first):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    fact = make_fact(server, key="raid_day", content="Raids are on Friday.")
    exchange = shown(server, fact)

    def staff_edit():
        return fact_update(fact=fact, actor=owner, expected_version=fact.version, key="raid_day",
                           content="Raids are on Friday at nine.", confidence=1.0)

    def bot_supersede():
        return exchange_apply_actions(exchange=Exchange.objects.select_related("server").get(pk=exchange.pk),
                                      ops=[Supersede(number=fact.number, content="Raids are on Sunday.",
                                                     reason="moved")])

    if first == "bot":
        bot, staff = one_then_other(bot_supersede, staff_edit)
        # The editor saved from the wording before the bot's: told, with nothing saved over the bot's change.
        assert isinstance(staff, FactConflict), staff
        assert bot[0].status == "applied"
    else:
        staff, bot = one_then_other(staff_edit, bot_supersede)
        # The bot was shown this fact by number and supersedes it as it now stands: the edit stays in its history.
        assert isinstance(staff, Fact) and staff.content == "Raids are on Friday at nine."
        assert bot[0].status == "applied", bot
    fact.refresh_from_db()
    assert fact.retracted_at is not None and fact.superseded_by.content == "Raids are on Sunday."
    assert fact.content == ("Raids are on Friday at nine." if first == "staff" else "Raids are on Friday.")
    in_force = list(Fact.objects.filter(server=server, retracted_at__isnull=True).values_list("content", flat=True))
    assert in_force == ["Raids are on Sunday."]


def test_a_wipe_during_a_catch_up_round_never_brings_wiped_facts_back(server, owner):
    """The round's first batch is out at the embedding endpoint (slow) when the wipe commits; the round, about
    to store the vectors of facts that are gone, stores none and finishes (it used to fail on the foreign
    key, its task retried); run again, it has nothing to do."""
    from memory.indexing.catchup import catchup_run
    from memory.models import EmbeddingRound, EmbeddingRoundStatus, FactEmbedding, ModelPurpose
    from tests.memory.conftest import use_endpoint_embeddings
    from tests.model_server import Slow, played_model

    for index in range(40):
        make_fact(server, key=f"fact_{index}", content=f"Fact number {index} about the server.")
    with played_model(server, owner, ModelPurpose.EMBEDDING, model_name="fake-e5", api_key="sk-embed-0123456789") \
            as embedding_server:
        use_endpoint_embeddings(server, owner)
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
        # Celery is eager in tests, so the switch's commit already ran the round: put it back as a worker
        # would find it, queued with nothing embedded, so that the run below is the one the wipe meets.
        catchup = EmbeddingRound.objects.get(server=server)
        FactEmbedding.objects.filter(server=server).delete()
        EmbeddingRound.objects.filter(pk=catchup.pk).update(status=EmbeddingRoundStatus.QUEUED, done=0,
                                                            started_at=None, finished_at=None)
        embedding_server.embedding_script = [Slow(1.0)]
        outcome: dict = {}
        calls_before = embedding_server.embedding_calls  # saving the endpoint asked it once already

        def run_round() -> None:
            try:
                outcome["round"] = catchup_run(catchup.pk)
            except Exception as error:  # noqa: BLE001 - the outcome under test
                outcome["error"] = error
            finally:
                connection.close()

        running = threading.Thread(target=run_round)
        running.start()
        for _ in range(500):  # until the first batch is at the endpoint (at most 10 s)
            if embedding_server.embedding_calls > calls_before or not running.is_alive():
                break
            threading.Event().wait(0.02)
        assert embedding_server.embedding_calls > calls_before, outcome
        wiped = server_wipe(server=server, actor=owner)
        running.join(30)
        assert wiped.facts == 40
        assert not FactEmbedding.objects.filter(server=server).exists()
        assert outcome["round"].status == EmbeddingRoundStatus.FINISHED, outcome  # its facts are gone: done
        catchup_run(catchup.pk)  # the task as redelivered after the wipe
    assert not Fact.objects.filter(server=server).exists()
    assert not FactEmbedding.objects.filter(server=server).exists()
    assert EmbeddingRound.objects.get(pk=catchup.pk).status in (EmbeddingRoundStatus.FINISHED,
                                                                EmbeddingRoundStatus.REPLACED)


def test_a_wipe_during_a_consolidation_round_leaves_nothing_of_it(planted, consolidation_model, owner):
    """The round asks the (slow) model without holding the server's round lock; the wipe goes ahead, and
    the round, about to write, waits for it and finds the facts gone: nothing of the wiped memory is
    left to approve. The round is told nothing is wrong: it finishes with nothing to propose."""
    from consolidation.models import ConsolidationRound, Proposal, RoundStatus, SummaryDraft
    from consolidation.rounds import round_run

    server = planted["language"].server
    consolidation_model.script = [Slow(1.5, answer('{"class": "duplicate", "wording": "French."}')),
                                  answer('{"class": "contradiction"}'), answer("A French server.")]
    waiting = ConsolidationRound.objects.create(server=server, trigger="manual")
    outcome: dict = {}

    def run_round() -> None:
        outcome["round"] = round_run(waiting.pk)
        connection.close()

    running = threading.Thread(target=run_round)
    running.start()
    while consolidation_model.chat_calls < 1:  # the round has read the facts and waits for the model
        threading.Event().wait(0.02)
    wiped = server_wipe(server=server, actor=owner)
    running.join(30)
    assert outcome["round"].status == RoundStatus.FINISHED  # with nothing to propose: its facts are gone
    assert wiped.facts == len(planted)
    assert not Fact.objects.filter(server=server).exists()
    assert not Proposal.objects.filter(server=server).exists()
    assert not SummaryDraft.objects.filter(server=server).exists()


def test_a_round_that_starts_during_a_wipe_waits_and_then_has_nothing_to_consolidate(planted, owner):
    from django.db import transaction

    from consolidation.models import ConsolidationRound, Proposal, RoundStatus
    from consolidation.rounds import RoundBusy, round_run

    server = planted["language"].server
    waiting = ConsolidationRound.objects.create(server=server, trigger="manual")
    wipe_started, round_tried = threading.Event(), threading.Event()
    outcome: dict = {}

    def slow_wipe() -> None:
        with transaction.atomic():
            server_wipe(server=server, actor=owner)
            wipe_started.set()
            round_tried.wait(10)  # the wipe's transaction is still open while the round tries
        connection.close()

    wiping = threading.Thread(target=slow_wipe)
    wiping.start()
    wipe_started.wait(10)
    try:
        round_run(waiting.pk)
    except RoundBusy as busy:
        outcome["busy"] = busy  # told: its task retries later
    round_tried.set()
    wiping.join(30)
    assert "busy" in outcome
    retried = round_run(waiting.pk)  # the task's retry, after the wipe
    assert retried.status == RoundStatus.REFUSED and not Proposal.objects.filter(server=server).exists()
    assert ConsolidationRound.objects.get(pk=waiting.pk).status == RoundStatus.REFUSED


def test_a_fact_reworded_while_its_old_wording_is_being_embedded_keeps_the_new_wording_s_vector(server, owner):
    """The batch with the old wording comes back from the (slow) endpoint after the edit's own batch stored the
    new wording's vector: it must not overwrite it (the old vector would then stay, as its hash names a wording
    the sweeper does not look for)."""
    from memory.indexing import vectors
    from memory.models import FactEmbedding, ModelPurpose
    from tests.memory.conftest import use_endpoint_embeddings
    from tests.model_server import Slow, played_model

    fact = make_fact(server, key="raid_day", content="Raids are on Friday.")
    with played_model(server, owner, ModelPurpose.EMBEDDING, model_name="fake-e5", api_key="sk-embed-0123456789") \
            as embedding_server:
        use_endpoint_embeddings(server, owner)
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)  # eager: embeds it now
        FactEmbedding.objects.filter(fact=fact).delete()
        provider, _ = vectors.provider_for(server)
        embedding_server.embedding_script = [Slow(1.0)]
        calls_before = embedding_server.embedding_calls
        outcome: dict = {}

        def embed_old_wording() -> None:
            try:
                outcome["embedded"] = vectors.embed_facts_now(server, [fact.pk], provider)
            finally:
                connection.close()

        running = threading.Thread(target=embed_old_wording)
        running.start()
        for _ in range(500):
            if embedding_server.embedding_calls > calls_before:
                break
            threading.Event().wait(0.02)
        fact_update(fact=fact, actor=owner, expected_version=fact.version, key="raid_day",
                    content="Raids are on Saturday now.", confidence=1.0)  # its own batch runs on commit (eager)
        running.join(30)
    stored = FactEmbedding.objects.get(fact=fact)
    assert stored.text_hash == vectors.text_hash("raid_day", "Raids are on Saturday now.", provider.model_name)
    assert outcome["embedded"].embedded == 0  # the old wording's vector was not stored
