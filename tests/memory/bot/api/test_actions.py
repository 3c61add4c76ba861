"""POST /api/v1/exchanges/{exchange}/actions (API.md §3): retract, supersede and remember.

Only numbers shown in the exchange (in its context or found by its search) can be touched; anything
else is 'ignored' with a sentence and changes nothing. One invalid op refuses the whole call.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from memory.facts.services import FactAuthor, fact_retract
from memory.models import AuthorKind, Exchange, Fact, MemoryType
from tests.factories import UserFactory, make_fact

from .helpers import Api, assert_error, configure, memory_state

LEDGER_UP = [MemoryType.LEDGER, MemoryType.ARCHIVE]


def minutes_ago(minutes: int):
    return timezone.now() - timedelta(minutes=minutes)


def facts_state() -> list:
    return memory_state()["facts"]


def fresh(fact: Fact) -> Fact:
    return Fact.objects.get(pk=fact.pk)


@pytest.fixture
def two_facts(server):
    """#1 (older) and #2 (newer); with one injected slot the context shows only #2."""
    older = make_fact(server, key="support_channel", content="Support happens in #general.",
                      created_at=minutes_ago(20))
    newer = make_fact(server, key="server_theme", content="This server is about retro gaming.",
                      created_at=minutes_ago(10))
    return older, newer


def open_exchange(api, server, memory_type=MemoryType.LEDGER, **settings) -> str:
    configure(server, memory_type=memory_type, **settings)
    return api.context(server)["exchange"]


# Retract ----------------------------------------------------------------------------


def test_under_classic_a_retract_deletes_the_fact(api, server, two_facts):
    older, newer = two_facts
    exchange = open_exchange(api, server, MemoryType.CLASSIC)
    results = api.actions(exchange, retract=[{"number": newer.number, "reason": "the rule changed"}])
    assert results == [{"op": "retract", "number": newer.number, "status": "applied"}]
    assert not Fact.objects.filter(pk=newer.pk).exists()
    assert fresh(older).retracted_at is None


@pytest.mark.parametrize("memory_type", LEDGER_UP)
def test_from_ledger_up_a_retract_closes_the_facts_window_with_the_reason(api, server, two_facts, memory_type):
    _, newer = two_facts
    exchange = open_exchange(api, server, memory_type)
    results = api.actions(exchange, retract=[{"number": newer.number, "reason": "the rule changed"}])
    assert results == [{"op": "retract", "number": newer.number, "status": "applied"}]
    retracted = fresh(newer)
    assert retracted.retracted_at is not None and retracted.retraction_reason == "the rule changed"
    assert retracted.superseded_by is None and retracted.version == newer.version + 1
    assert newer.number not in [fact["number"] for fact in api.context(server)["facts"]]


@pytest.mark.parametrize("memory_type", [MemoryType.CLASSIC, *LEDGER_UP])
def test_a_number_not_shown_in_this_exchange_is_ignored_and_changes_nothing(api, server, two_facts, memory_type):
    older, _ = two_facts
    exchange = open_exchange(api, server, memory_type, max_injected_items=1)
    before = facts_state()
    results = api.actions(exchange, retract=[{"number": older.number, "reason": "gone"}],
                          supersede=[{"number": older.number, "content": "Support is in #help.", "reason": "moved"}])
    assert results[0] == {"op": "retract", "number": older.number, "status": "ignored",
                          "detail": f"fact #{older.number} was not shown in this exchange"}
    assert results[1]["status"] == "ignored" and results[1]["detail"].endswith(("exchange", "Classic"))
    assert facts_state() == before


def test_a_number_shown_in_another_exchange_is_ignored(api, server, two_facts):
    older, _ = two_facts
    open_exchange(api, server, MemoryType.LEDGER)  # shows both facts
    later = open_exchange(api, server, MemoryType.LEDGER, max_injected_items=1)  # shows only the newer
    before = facts_state()
    results = api.actions(later, retract=[{"number": older.number, "reason": "gone"}])
    assert results[0]["status"] == "ignored" and "not shown" in results[0]["detail"]
    assert facts_state() == before


def test_a_number_that_does_not_exist_is_ignored(api, server, two_facts):
    exchange = open_exchange(api, server)
    before = facts_state()
    results = api.actions(exchange, retract=[{"number": 2147483647, "reason": "gone"}])
    assert results == [{"op": "retract", "number": 2147483647, "status": "ignored",
                        "detail": "fact #2147483647 was not shown in this exchange"}]
    assert facts_state() == before


def test_another_servers_number_is_ignored_and_its_facts_are_untouched(api, server, other_server):
    theirs = [make_fact(other_server, key=f"synth_{index}", content=f"Synth fact {index}.") for index in range(3)]
    ours = make_fact(server, key="server_theme", content="This server is about retro gaming.")
    assert ours.number == theirs[0].number == 1
    exchange = open_exchange(api, server)
    results = api.actions(exchange, retract=[{"number": theirs[2].number, "reason": "not ours"},
                                             {"number": ours.number, "reason": "ours"}])
    assert results[0] == {"op": "retract", "number": theirs[2].number, "status": "ignored",
                          "detail": f"fact #{theirs[2].number} was not shown in this exchange"}
    assert results[1]["status"] == "applied"
    assert fresh(ours).retracted_at is not None
    assert all(fresh(fact).retracted_at is None and fresh(fact).version == 1 for fact in theirs)


@pytest.mark.parametrize("memory_type", LEDGER_UP)
def test_a_retracted_facts_number_is_ignored_and_changes_nothing(api, server, two_facts, memory_type):
    _, newer = two_facts
    exchange = open_exchange(api, server, memory_type)
    fact_retract(fact=newer, reason="staff retracted it meanwhile")
    before = facts_state()
    results = api.actions(exchange, retract=[{"number": newer.number, "reason": "again"}],
                          supersede=[{"number": newer.number, "content": "Retro and modern games.", "reason": "x"}])
    assert [(result["op"], result["status"], result["detail"]) for result in results] == [
        ("retract", "ignored", f"fact #{newer.number} is already retracted"),
        ("supersede", "ignored", f"fact #{newer.number} is already retracted"),
    ]
    assert facts_state() == before
    assert fresh(newer).retraction_reason == "staff retracted it meanwhile"


@pytest.mark.parametrize(("memory_type", "detail"), [(MemoryType.CLASSIC, "no longer exists"),
                                                     (MemoryType.LEDGER, "is already retracted")])
def test_retracting_the_same_number_twice_in_one_call_applies_once(api, server, two_facts, memory_type, detail):
    _, newer = two_facts
    exchange = open_exchange(api, server, memory_type)
    results = api.actions(exchange, retract=[{"number": newer.number, "reason": "one"},
                                             {"number": newer.number, "reason": "two"}])
    assert [result["status"] for result in results] == ["applied", "ignored"]
    assert results[1]["detail"] == f"fact #{newer.number} {detail}"


def test_a_number_found_by_the_exchanges_search_can_be_retracted(api, server, two_facts):
    older, _ = two_facts
    exchange = open_exchange(api, server, MemoryType.ARCHIVE, max_injected_items=1)
    found = api.search(exchange, "support")
    assert [fact["number"] for fact in found["facts"]] == [older.number]
    results = api.actions(exchange, retract=[{"number": older.number, "reason": "support moved"}])
    assert results == [{"op": "retract", "number": older.number, "status": "applied"}]
    assert fresh(older).retraction_reason == "support moved"


def test_a_retract_without_a_reason_is_applied_with_an_empty_reason(api, server, two_facts):
    _, newer = two_facts
    exchange = open_exchange(api, server)
    assert api.actions(exchange, retract=[{"number": newer.number}])[0]["status"] == "applied"
    assert fresh(newer).retraction_reason == ""


def test_a_number_written_as_a_whole_float_is_that_number(api, server, two_facts):
    """JSON has one number type (the schema's integer allows 2.0): a bot's serializer may write 2.0."""
    _, newer = two_facts
    exchange = open_exchange(api, server)
    results = api.actions(exchange, retract=[{"number": float(newer.number)}])
    assert results == [{"op": "retract", "number": newer.number, "status": "applied"}]
    assert fresh(newer).retracted_at is not None


# Supersede --------------------------------------------------------------------------


def test_supersede_under_classic_is_ignored_and_changes_nothing(api, server, two_facts):
    _, newer = two_facts
    exchange = open_exchange(api, server, MemoryType.CLASSIC)
    before = facts_state()
    results = api.actions(exchange, supersede=[{"number": newer.number, "content": "New.", "reason": "moved"}])
    assert results[0]["op"] == "supersede" and results[0]["status"] == "ignored"
    assert "Ledger" in results[0]["detail"] and "new_number" not in results[0]
    assert facts_state() == before


@pytest.mark.parametrize("memory_type", LEDGER_UP)
def test_from_ledger_up_supersede_closes_the_old_fact_pointing_at_the_new_one(api, server, memory_type):
    staff = UserFactory()
    old = make_fact(server, key="anna_birthday", content="Anna's birthday is 12 June.", scope="member",
                    member_id="333", confidence=0.8, importance=0.4, author=FactAuthor.staff(staff))
    exchange = open_exchange(api, server, memory_type)
    results = api.actions(exchange, supersede=[{"number": old.number, "content": "Anna's birthday is 13 June.",
                                                "reason": "she corrected it"}])
    new = Fact.objects.get(server=server, number=results[0]["new_number"])
    assert results == [{"op": "supersede", "number": old.number, "status": "applied", "new_number": new.number}]
    closed = fresh(old)
    assert closed.retracted_at is not None and closed.retraction_reason == "she corrected it"
    assert closed.superseded_by == new and closed.content == "Anna's birthday is 12 June."
    assert (new.key, new.scope, new.member_id, new.content) == ("anna_birthday", "member", "333",
                                                                 "Anna's birthday is 13 June.")
    assert new.retracted_at is None and new.number != old.number
    assert (new.author_kind, new.author_user, new.learned_from_member_id) == (AuthorKind.BOT, None, "222")
    assert new.source_exchange_id == Exchange.objects.get(pk=exchange).pk
    shown = [fact["number"] for fact in api.context(server)["facts"]]
    assert new.number in shown and old.number not in shown


# Remember ---------------------------------------------------------------------------


def test_remember_creates_a_bot_written_fact_linked_to_the_exchange_and_member(api, server):
    exchange = open_exchange(api, server)
    results = api.actions(exchange, remember=[{"key": "Paul Birthday", "content": " Paul's birthday is 3 May. ",
                                               "scope": "member", "member_id": "222", "importance": 0.6,
                                               "confidence": 0.9}])
    fact = Fact.objects.get(server=server, number=results[0]["number"])
    assert results == [{"op": "remember", "number": fact.number, "status": "applied"}]
    assert (fact.key, fact.content, fact.scope, fact.member_id) == ("paul_birthday", "Paul's birthday is 3 May.",
                                                                    "member", "222")
    assert (fact.importance, fact.confidence) == (0.6, 0.9)
    assert (fact.author_kind, fact.author_user, fact.learned_from_member_id) == (AuthorKind.BOT, None, "222")
    assert str(fact.source_exchange_id) == exchange and fact.retracted_at is None


def test_remember_takes_a_key_in_the_server_s_language_and_the_context_shows_it(api, server):
    """A model asked in Portuguese names its keys in Portuguese; refusing them lost what it meant to keep."""
    exchange = open_exchange(api, server)
    results = api.actions(exchange, remember=[{"key": "Aniversário do Paulo", "content": "3 de maio."},
                                              {"key": "誕生日", "content": "5月3日"}])
    assert [result["status"] for result in results] == ["applied", "applied"]
    keys = {fact["number"]: fact["key"] for fact in api.context(server)["facts"]}
    assert [keys[result["number"]] for result in results] == ["aniversário_do_paulo", "誕生日"]


def test_remember_defaults_to_a_server_fact_with_the_confidence_of_an_inference_and_no_importance(api, server):
    """The bot's own inference about the server starts at 0.7 (memory.facts.confidence), not 1.0 as before."""
    exchange = open_exchange(api, server)
    results = api.actions(exchange, remember=[{"key": "server_theme", "content": "Retro gaming."}])
    fact = Fact.objects.get(server=server, number=results[0]["number"])
    assert (fact.scope, fact.member_id, fact.confidence, fact.importance) == ("server", "", 0.7, None)


def test_a_vanishingly_small_confidence_and_importance_are_kept_to_six_places_and_ranking_still_works(api, server):
    """PostgreSQL answers a float product that underflows with an error: before six places were kept,
    1e-300 × 1e-300 in the ranking index made the remember a 500 (found by schemathesis)."""
    exchange = open_exchange(api, server, MemoryType.RANKED)
    results = api.actions(exchange, remember=[
        {"key": "tiny", "content": "Barely believed.", "confidence": 1e-300, "importance": 1e-300},
        {"key": "precise", "content": "Quite believed.", "confidence": 0.65432109}])
    assert [result["status"] for result in results] == ["applied", "applied"]
    tiny, precise = (Fact.objects.get(server=server, number=result["number"]) for result in results)
    assert (tiny.confidence, tiny.importance, precise.confidence) == (0.0, 0.0, 0.654321)
    numbers = [fact["number"] for fact in api.context(server)["facts"]]
    assert tiny.number in numbers and precise.number in numbers


def test_remember_with_a_member_id_and_no_scope_is_a_fact_about_that_member(api, server):
    exchange = open_exchange(api, server)
    results = api.actions(exchange, remember=[{"key": "anna_address", "content": "Anna lives in Ghent.",
                                               "member_id": "333"}])
    fact = Fact.objects.get(server=server, number=results[0]["number"])
    assert (fact.scope, fact.member_id) == ("member", "333")


def test_remember_with_an_empty_member_id_and_no_scope_is_a_server_fact(api, server):
    exchange = open_exchange(api, server)
    results = api.actions(exchange, remember=[{"key": "rules", "content": "Be kind.", "member_id": ""}])
    assert Fact.objects.get(server=server, number=results[0]["number"]).scope == "server"


@pytest.mark.parametrize("where", ["write channels", "thread"])
def test_remember_is_ignored_where_writing_is_not_allowed(api, server, two_facts, where):
    _, newer = two_facts
    configure(server, memory_type=MemoryType.LEDGER, write_all_channels=False, write_channel_ids=["999"])
    thread = {"channel_id": "555", "thread_parent_id": "999"} if where == "thread" else {"channel_id": "111"}
    context = api.context(server, **thread)
    assert context["write_allowed"] is False
    before = facts_state()
    results = api.actions(context["exchange"], remember=[{"key": "k", "content": "Something new."}],
                          retract=[{"number": newer.number, "reason": "x"}])
    assert [(result["op"], result["status"]) for result in results] == [("retract", "ignored"),
                                                                        ("remember", "ignored")]
    assert all(result["detail"] == "memory may not be written in this channel" for result in results)
    assert "number" not in results[1]
    assert facts_state() == before


# The whole call ----------------------------------------------------------------------


def test_ops_are_applied_in_order_and_recorded_on_the_exchange(api, server, two_facts):
    older, newer = two_facts
    exchange = open_exchange(api, server)
    results = api.actions(exchange, retract=[{"number": newer.number, "reason": "gone"}],
                          supersede=[{"number": older.number, "content": "Support is in #help.", "reason": "moved"}],
                          remember=[{"key": "paul_birthday", "content": "Paul's birthday is 3 May."}])
    assert [result["op"] for result in results] == ["retract", "supersede", "remember"]
    assert all(result["status"] == "applied" for result in results)
    assert Exchange.objects.get(pk=exchange).actions == results


def test_an_empty_call_applies_nothing(api, server, two_facts):
    exchange = open_exchange(api, server)
    before = facts_state()
    assert api.actions(exchange) == []
    assert facts_state() == before


def test_a_call_with_one_invalid_op_is_refused_whole_and_applies_nothing(api, server, two_facts):
    older, newer = two_facts
    exchange = open_exchange(api, server)
    before = memory_state()
    response = api.post(f"/exchanges/{exchange}/actions", {
        "retract": [{"number": newer.number, "reason": "gone"}],
        "supersede": [{"number": older.number, "content": "Support is in #help.", "reason": "moved"}],
        "remember": [{"key": "paul_birthday", "content": "Paul's birthday is 3 May.", "importance": 0.6},
                     {"key": "anna_birthday", "content": "Anna's birthday is 12 June.", "importance": 1.5}],
    })
    body = assert_error(response, 400, "remember[1].importance")
    assert "0 to 1" in body["error"]
    assert memory_state() == before
    assert Exchange.objects.get(pk=exchange).actions == []


BAD_OPS = [
    ({"retract": {"number": 1}}, "retract", "at most 50"),
    ({"retract": [{"number": 1, "reason": "x"}] * 51}, "retract", "at most 50"),
    ({"remember": [{"key": "k", "content": "c"}] * 51}, "remember", "at most 50"),
    ({"retract": [1]}, "retract[0]", "object"),
    ({"retract": [{"reason": "x"}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": 0}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": -3}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": 2**31}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": "12"}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": 1.5}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": True}]}, "retract[0].number", "1 to 2147483647"),
    ({"retract": [{"number": 1, "reason": "x" * 501}]}, "retract[0].reason", "at most 500"),
    ({"retract": [{"number": 1, "reason": 5}]}, "retract[0].reason", "at most 500"),
    ({"supersede": [{"number": 1}]}, "supersede[0].content", "1–1000"),
    ({"supersede": [{"number": 1, "content": "   "}]}, "supersede[0].content", "1–1000"),
    ({"supersede": [{"number": 1, "content": "x" * 1001}]}, "supersede[0].content", "1–1000"),
    ({"supersede": [{"content": "New."}]}, "supersede[0].number", "1 to 2147483647"),
    ({"supersede": [{"number": 1, "content": "New.", "reason": "x" * 501}]}, "supersede[0].reason", "at most 500"),
    ({"remember": [{"content": "c"}]}, "remember[0].key", "1–64"),
    ({"remember": [{"key": "", "content": "c"}]}, "remember[0].key", "1–64"),
    ({"remember": [{"key": "k" * 65, "content": "c"}]}, "remember[0].key", "1–64"),
    ({"remember": [{"key": "paul's birthday!", "content": "c"}]}, "remember[0].key", "letters and digits"),
    ({"remember": [{"key": "k"}]}, "remember[0].content", "1–1000"),
    ({"remember": [{"key": "k", "content": ""}]}, "remember[0].content", "1–1000"),
    ({"remember": [{"key": "k", "content": "x" * 1001}]}, "remember[0].content", "1–1000"),
    ({"remember": [{"key": "k", "content": "c", "scope": "guild"}]}, "remember[0].scope", "'server' or 'member'"),
    ({"remember": [{"key": "k", "content": "c", "scope": "member"}]}, "remember[0].member_id", "1–20 digits"),
    ({"remember": [{"key": "k", "content": "c", "scope": "member", "member_id": "paul"}]},
     "remember[0].member_id", "1–20 digits"),
    ({"remember": [{"key": "k", "content": "c", "scope": "server", "member_id": "333"}]}, "remember[0].member_id",
     "scope to 'member'"),
    ({"remember": [{"key": "k", "content": "c", "importance": 1.5}]}, "remember[0].importance", "0 to 1"),
    ({"remember": [{"key": "k", "content": "c", "importance": -0.1}]}, "remember[0].importance", "0 to 1"),
    ({"remember": [{"key": "k", "content": "c", "importance": "high"}]}, "remember[0].importance", "0 to 1"),
    ({"remember": [{"key": "k", "content": "c", "confidence": 2}]}, "remember[0].confidence", "0 to 1"),
    ({"remember": [{"key": "k", "content": "c", "confidence": None}]}, "remember[0].confidence", "0 to 1"),
    ({"remember": [{"key": "k", "content": "c", "confidence": False}]}, "remember[0].confidence", "0 to 1"),
    ({"remember": [{"key": "k", "content": "c"}, {"key": "k", "content": "c", "importance": 9}]},
     "remember[1].importance", "0 to 1"),
]


@pytest.mark.parametrize(("body", "field", "limits"), BAD_OPS, ids=[f"{index}-{field}" for index, (_, field, _)
                                                                    in enumerate(BAD_OPS)])
def test_an_op_out_of_range_answers_400_naming_the_field_and_its_range(api, server, two_facts, body, field, limits):
    exchange = open_exchange(api, server)
    before = memory_state()
    error = assert_error(api.post(f"/exchanges/{exchange}/actions", body), 400, field)
    assert field in error["error"] and limits in error["error"], error
    assert memory_state() == before


def test_importance_that_is_not_a_finite_number_is_refused(api, server, two_facts):
    """Python's json module reads NaN and Infinity; they are not numbers from 0 to 1."""
    exchange = open_exchange(api, server)
    before = memory_state()
    for literal in ("NaN", "Infinity", "-Infinity"):
        raw = '{"remember": [{"key": "k", "content": "c", "importance": %s}]}' % literal
        assert_error(api.post(f"/exchanges/{exchange}/actions", raw=raw), 400, "remember[0].importance")
    assert memory_state() == before


def test_a_nul_character_in_remembered_content_is_refused_never_a_500(server, bot_token, two_facts):
    """PostgreSQL text cannot hold U+0000; API.md: a bad request never answers 500."""
    api = Api(Client(raise_request_exception=False), bot_token)
    exchange = open_exchange(api, server)
    before = memory_state()
    response = api.post(f"/exchanges/{exchange}/actions",
                        {"remember": [{"key": "k", "content": "Paul\x00's birthday is 3 May."}]})
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert response.json()["field"] == "remember[0].content"
        assert memory_state() == before


# The audience of a remember -------------------------------------------------------------------


def test_a_remember_may_narrow_the_audience_of_its_channel(api, server):
    configure(server, memory_type=MemoryType.LEDGER)
    api.report_channels(server, [{"id": "111", "name": "general", "public": True}])
    exchange = api.context(server, channel_id="111")["exchange"]
    results = api.actions(exchange, remember=[{"key": "a", "content": "For #general only.", "audience": "channel"},
                                              {"key": "b", "content": "For staff only.", "audience": "staff"},
                                              {"key": "c", "content": "For everyone.", "audience": None},
                                              {"key": "d", "content": "For everyone too."}])
    assert [result["status"] for result in results] == ["applied"] * 4
    assert dict(Fact.objects.values_list("key", "audience")) == {"a": "channel", "b": "staff", "c": "server",
                                                                 "d": "server"}
    assert set(Fact.objects.values_list("source_channel_id", flat=True)) == {"111"}


def test_a_remember_that_would_widen_its_channels_audience_is_ignored_with_the_reason(api, server):
    configure(server, memory_type=MemoryType.LEDGER)
    exchange = api.context(server, channel_id="444")["exchange"]  # a channel nobody reported: private
    results = api.actions(exchange, remember=[{"key": "a", "content": "Tell everyone.", "audience": "server"}])
    assert results == [{"op": "remember", "status": "ignored",
                        "detail": "a remember may only narrow the audience it inherits (channel in this channel), "
                                  "not widen it to server"}]
    assert not Fact.objects.filter(key="a").exists()


@pytest.mark.parametrize("audience", ["everyone", "Server", "", 1, ["server"]])
def test_an_unknown_audience_answers_400_and_changes_nothing(api, server, audience):
    configure(server, memory_type=MemoryType.LEDGER)
    exchange = api.context(server)["exchange"]
    before = memory_state()
    error = assert_error(api.post(f"/exchanges/{exchange}/actions", {"remember": [
        {"key": "a", "content": "Fine."}, {"key": "b", "content": "Bad.", "audience": audience}]}),
        400, "remember[1].audience")
    assert "'server', 'channel' or 'staff'" in error["error"]
    assert memory_state() == before


def test_an_explicit_null_confidence_is_refused_with_a_sentence_naming_the_field(api, server, two_facts):
    """Left out, the confidence is what the source allows; null is no number, and saying so beats guessing."""
    exchange = open_exchange(api, server)
    before = memory_state()
    error = assert_error(api.post(f"/exchanges/{exchange}/actions",
                                  {"remember": [{"key": "k", "content": "c", "confidence": None}]}), 400,
                         "remember[0].confidence")
    assert error["error"] == "remember[0].confidence: The confidence must be a number from 0 to 1."
    assert memory_state() == before


def test_a_remember_of_a_statement_already_known_answers_reinforced_with_its_number(api, server, two_facts):
    _, newer = two_facts
    exchange = open_exchange(api, server)
    results = api.actions(exchange, remember=[{"key": newer.key, "content": newer.content}])
    assert results == [{"op": "remember", "status": "reinforced", "number": newer.number,
                        "detail": f"already known as #{newer.number}: mentioned 2 times"}]
    assert Fact.objects.filter(server=server).count() == 2 and fresh(newer).mention_count == 2
