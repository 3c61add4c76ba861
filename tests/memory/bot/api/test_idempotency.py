"""Idempotency-Key on POST actions and reply (API.md, "Sending a write again"): a retried call answers its first
answer again and changes nothing; another request with the key is a 409; a bad key a 400; keys are per server;
two at once apply once (memory.bot.idempotency)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.test import Client
from django.utils import timezone

from memory.bot import idempotency
from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.facts.deletes import member_wipe
from memory.models import Exchange, Fact, FactVersion, IdempotentRequest, MemoryType
from memory.tasks import trim_exchange_logs
from tests.factories import make_server
from tests.model_server import Status, answer, tool_call

from .helpers import Api, assert_error, configure, memory_state, message

KEY = "0b6f1a4e-3c1d-4f7e-9a51-2d8c6e1f0a77"
CAKE = {"remember": [{"key": "paul_likes_cake", "content": "Paul likes cake.", "member_id": "222"}]}
TEA = {"remember": [{"key": "paul_likes_tea", "content": "Paul likes tea.", "member_id": "222"}]}


def everything() -> dict:
    """What a retried call must leave as it was: memory (facts, exchanges, …), versions and kept answers."""
    return {**memory_state(), "versions": list(FactVersion.objects.order_by("pk").values_list("pk", "change")),
            "kept": list(IdempotentRequest.objects.order_by("pk").values_list("pk", "key", "created_at"))}


def post_actions(api: Api, exchange: str, body: dict, key: str | None = KEY):
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return api.post(f"/exchanges/{exchange}/actions", body, **extra)


def open_exchange(server, author_id: str = "222") -> str:
    return str(exchange_open(server=server, message=IncomingMessage(
        channel_id="111", author_id=author_id, author_name="Paul", content="I like cake")).exchange.pk)


@pytest.fixture
def ledger(server):
    configure(server, memory_type=MemoryType.LEDGER)
    return server


def test_a_retried_actions_call_answers_the_first_answer_again_and_writes_nothing(api, ledger):
    exchange = open_exchange(ledger)
    first = post_actions(api, exchange, CAKE)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first
    before = everything()

    again = post_actions(api, exchange, CAKE)

    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    assert everything() == before
    assert Fact.objects.filter(server=ledger, key="paul_likes_cake").count() == 1


def test_the_same_json_written_otherwise_is_the_same_request(api, ledger):
    exchange = open_exchange(ledger)
    first = post_actions(api, exchange, CAKE)
    before = everything()
    rewritten = '{ "remember" : [ {"member_id": "222", "content": "Paul likes cake.", "key": "paul_likes_cake"} ] }'

    again = api.post(f"/exchanges/{exchange}/actions", raw=rewritten, HTTP_IDEMPOTENCY_KEY=KEY)

    assert again.content == first.content and everything() == before


def test_the_same_key_with_another_body_is_a_409_and_changes_nothing(api, ledger):
    exchange = open_exchange(ledger)
    post_actions(api, exchange, CAKE)
    before = everything()

    body = assert_error(post_actions(api, exchange, TEA), 409, "Idempotency-Key")

    assert "used in the last 24 hours for another request" in body["error"]
    assert everything() == before and not Fact.objects.filter(key="paul_likes_tea").exists()


def test_the_same_key_on_another_exchange_of_the_server_is_a_409(api, ledger):
    post_actions(api, open_exchange(ledger), CAKE)
    other_exchange = open_exchange(ledger)
    before = everything()

    assert_error(post_actions(api, other_exchange, CAKE), 409, "Idempotency-Key")
    assert everything() == before


@pytest.mark.parametrize("key", ["", "x" * 201, "has a space", "clé", "tab\there"])
def test_a_bad_key_answers_400_naming_the_header_and_changes_nothing(api, ledger, key):
    exchange = open_exchange(ledger)
    before = everything()

    body = assert_error(post_actions(api, exchange, CAKE, key=key), 400, "Idempotency-Key")

    assert "1 to 200 visible ASCII characters" in body["error"]
    assert everything() == before


def test_a_key_of_200_characters_is_accepted(api, ledger):
    exchange = open_exchange(ledger)
    assert post_actions(api, exchange, CAKE, key="k" * 200).status_code == 200
    assert IdempotentRequest.objects.get().key == "k" * 200


def test_another_servers_same_key_is_another_key(api, ledger, team, other_server, other_bot_token, client):
    post_actions(api, open_exchange(ledger), CAKE)
    sibling = make_server(team, name="Sibling")  # the same token reaches it
    configure(sibling, memory_type=MemoryType.LEDGER)
    configure(other_server, memory_type=MemoryType.LEDGER)

    ours = post_actions(api, open_exchange(sibling), CAKE)
    theirs = post_actions(Api(client, other_bot_token), open_exchange(other_server), CAKE)

    assert ours.status_code == theirs.status_code == 200
    assert "Idempotent-Replayed" not in ours and "Idempotent-Replayed" not in theirs
    assert {server_id for server_id in Fact.objects.filter(key="paul_likes_cake").values_list("server_id",
                                                                                              flat=True)} == {
        ledger.pk, sibling.pk, other_server.pk}


def test_an_error_is_not_kept_so_the_key_may_be_sent_again(api, ledger):
    exchange = open_exchange(ledger)
    assert_error(post_actions(api, exchange, {"remember": [{"key": "x"}]}), 400)
    assert not IdempotentRequest.objects.exists()

    assert post_actions(api, exchange, CAKE).status_code == 200
    assert Fact.objects.filter(key="paul_likes_cake").count() == 1


def test_after_a_day_the_key_is_free_again_and_the_daily_clean_up_forgets_it(api, ledger):
    exchange = open_exchange(ledger)
    post_actions(api, exchange, CAKE)
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))

    again = post_actions(api, exchange, TEA)  # another request: a day later the key names nothing
    assert again.status_code == 200 and "Idempotent-Replayed" not in again
    [kept] = IdempotentRequest.objects.all()
    assert timezone.now() - kept.created_at < timedelta(minutes=1)

    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    trim_exchange_logs()
    trim_exchange_logs()
    assert not IdempotentRequest.objects.exists()


def test_without_a_key_a_call_sent_twice_applies_twice_as_before(api, ledger):
    exchange = open_exchange(ledger)
    post_actions(api, exchange, CAKE, key=None)
    post_actions(api, exchange, CAKE, key=None)
    assert Fact.objects.get(key="paul_likes_cake").mention_count == 2  # said twice: reinforced
    assert not IdempotentRequest.objects.exists()


def test_a_member_wipe_takes_the_answers_about_their_exchanges_with_it(api, ledger):
    post_actions(api, open_exchange(ledger, author_id="222"), CAKE)
    post_actions(api, open_exchange(ledger, author_id="333"), TEA, key="another-key")

    member_wipe(server=ledger, actor=None, member_id="222", actor_label="test")

    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["another-key"]


# reply ------------------------------------------------------------------------------------------------------------


def reply_body() -> dict:
    return {**message(content="I like cake"), "history": []}


def post_reply(api: Api, server, body: dict, key: str = KEY):
    return api.post(f"/servers/{server.guild_id}/reply", body, HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_reply_asks_the_model_once_and_answers_the_same(api, server, model):
    configure(server, memory_type=MemoryType.LEDGER)
    model.script = [answer("Noted!", [tool_call("remember", key="paul_likes_cake", content="Paul likes cake.",
                                                about_member_id="222")])]
    first = post_reply(api, server, reply_body())
    assert first.status_code == 200, first.content
    before = everything()

    again = post_reply(api, server, reply_body())

    assert (again.status_code, again.content, again["Idempotent-Replayed"]) == (200, first.content, "true")
    assert model.chat_calls == 1 and everything() == before
    assert Exchange.objects.filter(server=server).count() == 1


def test_a_reply_that_failed_keeps_nothing_and_the_retry_asks_the_model(api, server, model):
    model.script = [Status(500)]
    assert_error(post_reply(api, server, reply_body()), 503)
    assert not IdempotentRequest.objects.exists()

    assert post_reply(api, server, reply_body()).status_code == 200
    assert model.chat_calls == 2


def test_a_reply_with_another_body_under_a_used_key_is_a_409(api, server, model):
    post_reply(api, server, reply_body())
    before = everything()

    assert_error(post_reply(api, server, {**reply_body(), "content": "something else"}), 409, "Idempotency-Key")
    assert everything() == before and model.chat_calls == 1


# Two at once ------------------------------------------------------------------------------------------------------


def _at_once(count: int, send) -> list:
    """Run `send()` in `count` threads released together, each with its own database connection."""
    start = threading.Barrier(count)
    answers: list = []

    def worker() -> None:
        try:
            start.wait()
            answers.append(send())
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_two_identical_actions_calls_at_once_apply_once_and_answer_alike(ledger, bot_token):
    exchange = open_exchange(ledger)

    answers = _at_once(2, lambda: post_actions(Api(Client(), bot_token), exchange, CAKE))

    assert [response.status_code for response in answers] == [200, 200]
    assert answers[0].content == answers[1].content
    assert sorted(response.get("Idempotent-Replayed", "") for response in answers) == ["", "true"]
    fact = Fact.objects.get(server=ledger, key="paul_likes_cake")
    assert fact.mention_count == 1 and FactVersion.objects.filter(fact=fact).count() == 1
    assert IdempotentRequest.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_request_whose_key_is_still_being_answered_gets_409_with_retry_after(ledger, bot_token, monkeypatch):
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.2)
    exchange = open_exchange(ledger)
    holder = connections.create_connection("default")  # another process answering the key meanwhile
    try:
        with holder.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, hashtext(%s))",
                           [idempotency.LOCK_CLASS, f"{ledger.pk}:{KEY}"])
        before = everything()

        response = post_actions(Api(Client(), bot_token), exchange, CAKE)

        body = assert_error(response, 409, "Idempotency-Key")
        assert "still being answered" in body["error"] and response["Retry-After"] == "5"
        assert everything() == before
    finally:
        holder.close()
    assert post_actions(Api(Client(), bot_token), exchange, CAKE).status_code == 200
