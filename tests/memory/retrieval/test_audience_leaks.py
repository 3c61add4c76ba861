"""The leak matrix: for every memory type, every audience and every place a message can come from, a fact with a
distinctive word reaches the bot exactly where its audience allows and nowhere else.

Real database, real calls: the bot API's context, search and reply, and reply_to_message (what the Discord adapter
and the playground call) with the local model server recording every request body; the ranked candidates and,
under Semantic with the built-in local embedding model, the nearest facts in meaning and words and meaning fused,
each read for the exchange's reader. The fact is learned in #mods (SOURCE, a private channel); the places:

- same: #mods itself;
- public: #general, a public channel;
- private: #tickets, another private channel;
- thread: a thread of #mods, with Include threads on (it reads as #mods);
- thread-off: the same thread with Include threads off (nothing is read there at all).

A *server* fact is visible everywhere memory is read, a *channel* fact only in #mods and its threads, a *staff*
fact nowhere. Every cell is its own test id: <type>-<audience>-<place>.
"""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from memory.bot.reply import reply_to_message
from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.selectors import ai_settings_for_server
from memory.models import Audience, Exchange, MemoryType, ModelPurpose
from memory.retrieval.audience import Reader
from memory.retrieval.fusion import hybrid_ids
from memory.retrieval.meaning import nearest_fact_ids
from memory.retrieval.ranking import HalfLives, Weights, rank_top
from memory.types import ContextOrder, profile_for
from tests.factories import make_fact
from tests.memory.bot.api.helpers import Api
from tests.memory.conftest import paul_says, set_channel_rules, use_memory_type
from tests.model_server import answer, played_model, tool_call

pytestmark = pytest.mark.django_db

SOURCE, PUBLIC, PRIVATE, THREAD = "444000000000000001", "444000000000000002", "444000000000000003", "444000000000000004"
SECRET = "plumquartz"  # only in the fact's content: never in a message, a query or another fact
QUESTION = "what is the vault code again?"  # the words search and the meaning find the fact by these
FILLER = [("raid_night", "Raid nights are on Thursday evenings."), ("theme", "The server is about retro gaming."),
          ("moderators", "Alex and Nova moderate the server."), ("emotes", "Custom emotes are voted on monthly.")]
# place: (channel_id, thread_parent_id, include_threads)
PLACES = {
    "same": (SOURCE, "", False),
    "public": (PUBLIC, "", False),
    "private": (PRIVATE, "", False),
    "thread": (THREAD, SOURCE, True),
    "thread-off": (THREAD, SOURCE, False),
}


def visible_here(audience: str, place: str) -> bool:
    """The audience rule as the issue words it, for these places (memory.retrieval.audience holds the code)."""
    if place == "thread-off":
        return False  # a thread without Include threads reads no memory at all
    if audience == Audience.SERVER:
        return True
    return audience == Audience.CHANNEL and place in ("same", "thread")


@pytest.fixture
def reply_model(server, owner):
    with played_model(server, owner, ModelPurpose.REPLY, model_name="fake-reply", api_key="sk-leaks-0123456789") as fake:
        yield fake


def _set_up(server, owner, memory_type: str, audience: str, place: str, capture):
    channels_report(server=server, channels=[
        ReportedChannel(SOURCE, "mods"), ReportedChannel(PUBLIC, "general", public=True),
        ReportedChannel(PRIVATE, "tickets"), ReportedChannel(THREAD, "mods-thread", parent_id=SOURCE, is_thread=True)])
    for key, content in FILLER:
        make_fact(server, key=key, content=content)
    secret = make_fact(server, key="vault_code", content=f"The vault code is {SECRET}.", audience=audience,
                       source_channel_id=SOURCE)
    set_channel_rules(server, owner, include_threads=PLACES[place][2])
    with capture(execute=True):  # Semantic's catch-up round embeds every fact with the local model (eager worker)
        use_memory_type(server, owner, memory_type)
    return secret


def _script_reply(model, can_search: bool) -> None:
    """The model searches once where it may (its results come back in the second request), then answers."""
    model.script[:] = ([answer("", [tool_call("search_memory", query="vault code")]), answer("Noted.")]
                       if can_search else [answer("Noted.")])


def _bodies_since(model, start: int) -> str:
    return json.dumps([request["body"] for request in model.requests[start:]])


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("audience", [Audience.SERVER, Audience.CHANNEL, Audience.STAFF])
@pytest.mark.parametrize("memory_type", [choice.value for choice in MemoryType])
def test_a_fact_reaches_the_bot_exactly_where_its_audience_allows(
        client, server, owner, bot_token, reply_model, django_capture_on_commit_callbacks, memory_type, audience,
        place):
    secret = _set_up(server, owner, memory_type, audience, place, django_capture_on_commit_callbacks)
    expected = visible_here(audience, place)
    channel_id, thread_parent_id, _ = PLACES[place]
    body = {"channel_id": channel_id, "thread_parent_id": thread_parent_id or None, "content": QUESTION}
    profile = profile_for(memory_type)
    api = Api(client, bot_token)

    # The context call: its facts and its prompt.
    context = api.context(server, **body)
    assert context["read_allowed"] == (place != "thread-off")
    assert (secret.number in [fact["number"] for fact in context["facts"]]) == expected
    assert (SECRET in context["prompt"]) == expected
    assert (SECRET in json.dumps(context)) == expected
    assert (secret.number in Exchange.objects.get(pk=context["exchange"]).shown_numbers) == expected

    # The one search, where the type and the place allow it.
    if context["can_search"]:
        found = api.search(context["exchange"], "vault code")
        assert (SECRET in json.dumps(found)) == expected
        assert (secret.number in Exchange.objects.get(pk=context["exchange"]).found_numbers) == expected
    else:
        assert api.post(f"/exchanges/{context['exchange']}/search", {"query": "vault code"}).status_code == 409

    # What the reads under the context find for this exchange's reader, where reading is allowed at all.
    exchange = Exchange.objects.select_related("server").get(pk=context["exchange"])
    if exchange.read_allowed:
        reader = Reader.for_exchange(exchange)
        every_fact = {fact.pk: 1.0 for fact in server.facts.all()}  # as if the search had matched them all
        if profile.context_order == ContextOrder.BEST_SCORE:
            ranked = rank_top(server.pk, Weights(1, 1, 1), 50, every_fact, timezone.now(), reader=reader,
                              half_lives=HalfLives())
            assert (secret.pk in [fact.id for fact in ranked.facts]) == expected
        if profile.embeds:
            ai_settings = ai_settings_for_server(server)
            model_name, vector = _local_query_vector(server, ai_settings, QUESTION)
            nearest = nearest_fact_ids(server.pk, model_name, vector, 30, reader=reader)
            assert len(nearest) == len(FILLER) + (1 if expected else 0)  # every fact it may see, not one more
            assert (secret.pk in nearest) == expected
            fused = hybrid_ids(server, ai_settings, QUESTION, 30, reader=reader)
            assert fused.mode == "hybrid" and (secret.pk in fused.ids) == expected

    # The reply model's request bodies: through the API's reply, and through reply_to_message.
    _script_reply(reply_model, context["can_search"])
    start = len(reply_model.requests)
    replied = api.post(f"/servers/{server.guild_id}/reply", {**body, "author_id": "222", "author_name": "Paul"})
    assert replied.status_code == 200, replied.content
    assert (SECRET in _bodies_since(reply_model, start)) == expected
    _script_reply(reply_model, context["can_search"])
    start = len(reply_model.requests)
    outcome = reply_to_message(server=server, message=paul_says(QUESTION, channel_id=channel_id,
                                                                thread_parent_id=thread_parent_id), history=[])
    assert outcome.model_calls == (2 if context["can_search"] else 1)
    assert (SECRET in _bodies_since(reply_model, start)) == expected
    shown_or_found = set(outcome.exchange.shown_numbers) | set(outcome.exchange.found_numbers)
    assert (secret.number in shown_or_found) == expected


def _local_query_vector(server, ai_settings, text: str) -> tuple[str, list[float]]:
    """(model name, vector) of the query as Semantic embeds it: the built-in local model, no network."""
    from memory.indexing.catchup import meaning_for

    meaning = meaning_for(server, ai_settings)
    assert meaning.provider is not None, meaning.fallback_reason
    return meaning.provider.model_name, meaning.provider.query(text)


@pytest.mark.parametrize("place", ["same", "public", "thread"])
def test_the_context_call_reads_what_its_bodys_channel_may_see_with_the_token_in_one_query(
        client, server, owner, bot_token, django_capture_on_commit_callbacks, place):
    """Classic's newest facts come in the token's query, for the reader the body names (a thread reads as its
    channel): still one SELECT and one INSERT (whose WITH would store the author's name, here in the directory since
    the first call: memory.bot.exchanges), and the channel's facts only where they belong."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    secret = _set_up(server, owner, MemoryType.CLASSIC, Audience.CHANNEL, place, django_capture_on_commit_callbacks)
    channel_id, thread_parent_id, _ = PLACES[place]
    api = Api(client, bot_token)
    body = {"channel_id": channel_id, "thread_parent_id": thread_parent_id or None}
    api.context(server, **body)  # the token's first call also records its last use
    with CaptureQueriesContext(connection) as queries:
        context = api.context(server, **body)
    assert [query["sql"].split()[0] for query in queries.captured_queries] == ["SELECT", "INSERT"]
    assert queries.captured_queries[1]["sql"].startswith('INSERT INTO "memory_exchange"')
    assert (secret.number in [fact["number"] for fact in context["facts"]]) == visible_here(Audience.CHANNEL, place)
    assert len(context["facts"]) == len(FILLER) + (1 if visible_here(Audience.CHANNEL, place) else 0)

