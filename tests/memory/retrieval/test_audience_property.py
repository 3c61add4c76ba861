"""Property: over random channels (public, private, never reported), random facts with random audiences and
sources, and random messages in random channels and threads with Include threads on or off, the facts the bot is
handed are exactly the ones the audience rule lets that message see (memory.retrieval.audience.visible_to, the
rule in Python, over every fact of the server) that its type would choose: under Classic and Searchable archive
the newest N of them; the search returns only such facts, and finds them when they hold the word.

The SQL path is what the bot runs (exchange_open, exchange_search); the expectation is computed in Python."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memory.bot.exchanges import IncomingMessage, exchange_open, exchange_search
from memory.configuration.directory import ReportedChannel, channels_report
from memory.facts.services import fact_retract
from memory.models import Audience, Fact
from memory.retrieval.audience import Reader, visible_to
from memory.retrieval.words import SEARCH_RESULT_LIMIT
from tests.factories import UserFactory, make_fact, make_server, make_team
from tests.memory.conftest import PAUL, set_channel_rules, use_memory_type

WORDS = ["dragon", "castle", "wizard", "potion", "knight"]
CHANNELS = [f"55500000000000000{index}" for index in range(5)]
THREADS = [f"55500000000000010{index}" for index in range(3)]

fact = st.fixed_dictionaries({
    "audience": st.sampled_from([Audience.SERVER, Audience.SERVER, Audience.CHANNEL, Audience.CHANNEL,
                                 Audience.STAFF]),
    # the last index: learned in a private thread of a public channel, the thread its own source (learned_where)
    "channel": st.integers(min_value=0, max_value=len(CHANNELS)),
    "has_source": st.booleans(),  # a server or staff fact may name where it was learned, or not
    "in_thread": st.booleans(),
    "word": st.integers(min_value=0, max_value=len(WORDS) - 1),
    "retracted": st.sampled_from([False, False, False, True]),
})
scenario = st.fixed_dictionaries({
    "reports": st.lists(st.sampled_from(["public", "private", "unreported"]), min_size=len(CHANNELS),
                        max_size=len(CHANNELS)),
    "facts": st.lists(fact, min_size=1, max_size=14),
    "max_injected": st.integers(min_value=1, max_value=8),
    "include_threads": st.booleans(),
    "messages": st.lists(st.tuples(st.integers(min_value=0, max_value=len(CHANNELS) - 1), st.booleans(),
                                   st.sampled_from(WORDS)), min_size=1, max_size=4),
})


def _facts(server, case) -> list[Fact]:
    made = []
    for index, drawn in enumerate(case["facts"]):
        named = drawn["audience"] == Audience.CHANNEL or drawn["has_source"]
        own_thread = drawn["channel"] == len(CHANNELS)
        channel = (THREADS[0] if own_thread else CHANNELS[drawn["channel"]]) if named else ""
        thread = THREADS[0] if own_thread else THREADS[index % len(THREADS)] if drawn["in_thread"] else ""
        made.append(make_fact(server, key=f"note_{index}", content=f"The {WORDS[drawn['word']]} note {index}.",
                              audience=drawn["audience"], source_channel_id=channel,
                              source_thread_id=thread if named else ""))
        if drawn["retracted"]:
            fact_retract(fact=made[-1], reason="no longer true")
    return made


@pytest.mark.django_db
@pytest.mark.parametrize("memory_type", ["classic", "archive"])
@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=scenario)
def test_the_bot_is_handed_exactly_the_facts_its_channel_may_see_that_the_type_would_choose(memory_type, case):
    with transaction.atomic():  # every example in a savepoint, rolled back at the end
        actor = UserFactory()
        server = make_server(make_team())
        use_memory_type(server, actor, memory_type)
        set_channel_rules(server, actor, max_injected_items=case["max_injected"],
                          include_threads=case["include_threads"])
        channels_report(server=server, channels=[
            ReportedChannel(channel, f"channel-{index}", public=report == "public")
            for index, (channel, report) in enumerate(zip(CHANNELS, case["reports"], strict=True))
            if report != "unreported"])
        _facts(server, case)
        every_fact = list(Fact.objects.filter(server=server).order_by("-changed_at", "-id"))

        for channel_index, in_thread, word in case["messages"]:
            channel = CHANNELS[channel_index]
            message = IncomingMessage(channel_id=THREADS[0] if in_thread else channel, author_id=PAUL,
                                      content=f"tell me about the {word}",
                                      thread_parent_id=channel if in_thread else "")
            reader = Reader.for_message(message.channel_id, message.thread_parent_id)
            assert reader.channel_id == channel  # a thread reads as the channel it was started in, and as itself
            assert reader.thread_id == (THREADS[0] if in_thread else "")
            visible = [fact for fact in every_fact if fact.retracted_at is None and visible_to(fact, reader)]
            reads = not in_thread or case["include_threads"]
            in_force = [fact for fact in every_fact if fact.retracted_at is None]
            event("a thread that reads nothing" if not reads else "nothing visible" if not visible
                  else "every fact visible" if len(visible) == len(in_force) else "some facts hidden")

            opened = exchange_open(server=server, message=message)
            chosen = visible[: case["max_injected"]] if reads else []  # newest first; the block lists them oldest first
            assert [fact.pk for fact in opened.facts] == [fact.pk for fact in reversed(chosen)]
            assert opened.exchange.shown_numbers == [fact.number for fact in reversed(chosen)]

            if opened.exchange.can_search:
                found = exchange_search(exchange=opened.exchange, query=word).facts
                holding_the_word = [fact for fact in visible if word in fact.content.split()]
                assert all(visible_to(fact, reader) and fact.retracted_at is None for fact in found)
                assert {fact.pk for fact in found} <= {fact.pk for fact in holding_the_word}
                assert len(found) == min(SEARCH_RESULT_LIMIT, len(holding_the_word))
        transaction.set_rollback(True)
