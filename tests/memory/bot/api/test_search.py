"""POST /api/v1/exchanges/{exchange}/search (API.md §2): the exchange's one full-text search."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from memory.facts.services import fact_retract
from memory.models import Exchange, MemoryType
from tests.factories import make_fact

from .helpers import Api, assert_error, configure, memory_state


def minutes_ago(minutes: int):
    return timezone.now() - timedelta(minutes=minutes)


@pytest.fixture
def birthdays(archive_server, other_server):
    """Facts about birthdays in both scopes, one retracted, one on another team's server."""
    configure(archive_server, max_injected_items=1)
    facts = {
        "anna": make_fact(archive_server, key="anna_birthday", content="Anna's birthday is 12 June.",
                          scope="member", member_id="333", created_at=minutes_ago(30)),
        "party": make_fact(archive_server, key="party", content="The birthday party is on Friday.",
                           created_at=minutes_ago(20)),
        "theme": make_fact(archive_server, key="server_theme", content="This server is about retro gaming.",
                           created_at=minutes_ago(10)),
        "old": make_fact(archive_server, key="paul_birthday", content="Paul's birthday was 2 May.",
                         scope="member", member_id="222", created_at=minutes_ago(40)),
        "other": make_fact(other_server, key="birthday", content="A birthday on another server.",
                           created_at=minutes_ago(5)),
    }
    fact_retract(fact=facts["old"], reason="it was wrong")
    return facts


def open_exchange(api, server, **overrides) -> dict:
    return api.context(server, **overrides)


def test_it_finds_facts_in_force_of_both_scopes_best_match_first(api, archive_server, birthdays):
    context = open_exchange(api, archive_server)
    assert [fact["key"] for fact in context["facts"]] == ["server_theme"]
    body = api.search(context["exchange"], "birthday")
    # The member fact about someone else (Anna, not the author) is found, and it ranks above the newer
    # fact because "birthday" is in its key as well as its content.
    assert [fact["number"] for fact in body["facts"]] == [birthdays["anna"].number, birthdays["party"].number]
    assert body["facts"][0] == {"number": birthdays["anna"].number, "key": "anna_birthday",
                                "content": "Anna's birthday is 12 June.", "scope": "member", "member_id": "333",
                                "confidence": 1.0, "audience": "server", "channel_id": None, "kind": "profile",
                                "changed_at": birthdays["anna"].changed_at.isoformat()}
    assert (body["mode"], body["fallback_reason"]) == ("words", None)


def test_it_never_finds_a_retracted_fact_or_another_servers_fact(api, archive_server, birthdays):
    body = api.search(open_exchange(api, archive_server)["exchange"], "birthday")
    numbers = [fact["number"] for fact in body["facts"]]
    assert birthdays["old"].number not in numbers
    assert all("another server" not in fact["content"] for fact in body["facts"])
    assert set(numbers) == {birthdays["anna"].number, birthdays["party"].number}
    # Paul's birthday is only in the retracted fact: the other birthdays are found, never the retracted one.
    pauls = api.search(open_exchange(api, archive_server)["exchange"], "Paul's birthday")["facts"]
    assert {fact["number"] for fact in pauls} == {birthdays["anna"].number, birthdays["party"].number}


def test_words_are_stemmed_so_birthdays_finds_birthday(api, archive_server, birthdays):
    body = api.search(open_exchange(api, archive_server)["exchange"], "birthdays")
    assert [fact["key"] for fact in body["facts"]] == ["anna_birthday", "party"]


def test_a_fact_with_every_word_comes_first_and_every_word_counts(api, archive_server, birthdays):
    every_word = api.search(open_exchange(api, archive_server)["exchange"], "birthday party friday")
    assert [fact["key"] for fact in every_word["facts"]] == ["party", "anna_birthday"]
    natural = api.search(open_exchange(api, archive_server)["exchange"], "when is the birthday in june?")
    assert [fact["key"] for fact in natural["facts"]] == ["anna_birthday", "party"]


def test_a_fact_holding_none_of_the_words_is_never_found(api, archive_server, birthdays):
    body = api.search(open_exchange(api, archive_server)["exchange"], "anna party")
    assert {fact["key"] for fact in body["facts"]} == {"anna_birthday", "party"}
    assert "server_theme" not in {fact["key"] for fact in body["facts"]}


def test_nothing_found_is_an_empty_list(api, archive_server, birthdays):
    body = api.search(open_exchange(api, archive_server)["exchange"], "spaceships")
    assert body == {"facts": [], "mode": "words", "fallback_reason": None, "language": "en", "language_note": None}


def test_at_most_ten_facts_are_found(api, archive_server):
    for index in range(12):
        make_fact(archive_server, key=f"game_{index}", content=f"Game night number {index}.")
    body = api.search(open_exchange(api, archive_server)["exchange"], "game night")
    assert len(body["facts"]) == 10


def test_the_search_is_recorded_on_the_exchange(api, archive_server, birthdays):
    context = open_exchange(api, archive_server)
    body = api.search(context["exchange"], "  birthday  ")
    exchange = Exchange.objects.get(pk=context["exchange"])
    assert exchange.search_query == "birthday"
    assert exchange.search_mode == "words" and exchange.searched_at is not None
    assert exchange.found_numbers == [fact["number"] for fact in body["facts"]]


def test_searching_changes_no_fact(api, archive_server, birthdays):
    context = open_exchange(api, archive_server)
    facts_before = memory_state()["facts"]
    api.search(context["exchange"], "birthday")
    assert memory_state()["facts"] == facts_before


def test_a_second_search_answers_409_and_changes_nothing(api, archive_server, birthdays):
    context = open_exchange(api, archive_server)
    api.search(context["exchange"], "birthday")
    before = memory_state()
    body = assert_error(api.post(f"/exchanges/{context['exchange']}/search", {"query": "gaming"}), 409, None)
    assert "already" in body["error"]
    assert memory_state() == before
    assert Exchange.objects.get(pk=context["exchange"]).search_query == "birthday"


@pytest.mark.parametrize(("memory_type", "label"), [(MemoryType.CLASSIC, "Classic"), (MemoryType.LEDGER, "Ledger")])
def test_search_under_classic_and_ledger_answers_409_and_changes_nothing(api, archive_server, birthdays,
                                                                        memory_type, label):
    configure(archive_server, memory_type=memory_type)
    context = open_exchange(api, archive_server)
    assert context["can_search"] is False
    before = memory_state()
    body = assert_error(api.post(f"/exchanges/{context['exchange']}/search", {"query": "birthday"}), 409, None)
    assert label in body["error"]
    assert memory_state() == before
    assert Exchange.objects.get(pk=context["exchange"]).searched_at is None


def test_search_where_reading_is_not_allowed_answers_409_and_changes_nothing(api, archive_server, birthdays):
    configure(archive_server, read_all_channels=False, read_channel_ids=["333"])
    context = open_exchange(api, archive_server, channel_id="111")
    assert (context["read_allowed"], context["can_search"]) == (False, False)
    before = memory_state()
    body = assert_error(api.post(f"/exchanges/{context['exchange']}/search", {"query": "birthday"}), 409, None)
    assert "may not be read" in body["error"]
    assert memory_state() == before


@pytest.mark.parametrize("change", ["switched to Classic", "channel closed to reading"])
def test_a_search_after_staff_took_search_away_answers_409_and_changes_nothing(api, archive_server, birthdays, change):
    context = open_exchange(api, archive_server, channel_id="111")
    assert context["can_search"] is True
    if change == "switched to Classic":
        configure(archive_server, memory_type=MemoryType.CLASSIC)
    else:
        configure(archive_server, read_all_channels=False, read_channel_ids=["333"])
    before = memory_state()
    body = assert_error(api.post(f"/exchanges/{context['exchange']}/search", {"query": "birthday"}), 409, None)
    assert ("Classic" if change == "switched to Classic" else "no longer be read") in body["error"]
    assert memory_state() == before


def test_a_missing_exchange_answers_404(api, archive_server):
    assert_error(api.post("/exchanges/5f0c3d1e-0000-4000-8000-000000000000/search", {"query": "x"}), 404, None)


BAD_QUERIES = [("", "empty"), ("   ", "blank"), ("x" * 501, "too-long"), (42, "number"), (None, "null"),
               (["birthday"], "list")]


@pytest.mark.parametrize("query", [query for query, _ in BAD_QUERIES], ids=[name for _, name in BAD_QUERIES])
def test_a_query_out_of_range_answers_400_naming_the_field_and_its_range(api, exchange, query):
    before = memory_state()
    body = assert_error(api.post(f"/exchanges/{exchange.pk}/search", {"query": query}), 400, "query")
    assert "'query'" in body["error"] and "1–500" in body["error"]
    assert memory_state() == before


def test_a_missing_query_answers_400(api, exchange):
    before = memory_state()
    assert_error(api.post(f"/exchanges/{exchange.pk}/search", {}), 400, "query")
    assert memory_state() == before


def test_a_nul_character_in_the_query_is_refused_or_dropped_never_a_500(archive_server, bot_token, birthdays):
    """PostgreSQL text cannot hold U+0000 (the query is stored on the exchange); API.md: never 500."""
    api = Api(Client(raise_request_exception=False), bot_token)
    exchange = open_exchange(api, archive_server)["exchange"]
    before = memory_state()
    response = api.post(f"/exchanges/{exchange}/search", {"query": "birthday\x00"})
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert response.json()["field"] == "query"
        assert memory_state() == before


def test_the_search_says_its_language_and_while_a_new_one_is_indexed_that_words_are_matched_as_written(
        api, archive_server, birthdays):
    from memory.indexing.words_language import words_language_set_now, words_language_switch, words_reindex_run
    from memory.models import AISettings

    make_fact(archive_server, key="talen", content="Mira spreekt vloeiend Frans.")
    words_language_set_now(archive_server, "nl")
    body = api.search(open_exchange(api, archive_server)["exchange"], "wie kan Frans spreken")
    assert (body["language"], body["language_note"]) == ("nl", None)
    assert [fact["key"] for fact in body["facts"]] == ["talen"]

    words_language_switch(AISettings.objects.get(server=archive_server), "de")  # queued; the worker has not run
    during = api.search(open_exchange(api, archive_server)["exchange"], "spreekt")
    assert during["language"] == "de" and "matched as written" in during["language_note"]
    assert [fact["key"] for fact in during["facts"]] == ["talen"]  # as written, still found
    words_reindex_run(archive_server.pk)
    after = api.search(open_exchange(api, archive_server)["exchange"], "spreekt")
    assert (after["language"], after["language_note"]) == ("de", None)
