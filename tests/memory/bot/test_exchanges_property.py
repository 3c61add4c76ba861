"""Property: whatever numbers the bot sends in its retract and supersede actions, the only facts that change
are facts shown or found in that exchange, and no fact of another server ever changes (SPEC section 5)."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memory.bot.actions import Retract, Supersede, exchange_apply_actions
from memory.bot.exchanges import exchange_open, exchange_search
from memory.facts.services import fact_retract
from memory.models import AuthorKind, Fact
from tests.factories import UserFactory, make_fact, make_server, make_team
from tests.memory.conftest import CHANNEL, PAUL, facts_snapshot, paul_says, set_channel_rules, use_memory_type

WORDS = ["dragon", "castle", "wizard", "potion", "knight"]
SOURCES = ["shown", "found", "other", "foreign", "missing"]

action = st.tuples(
    st.sampled_from(["retract", "supersede"]),
    st.sampled_from(SOURCES),
    st.integers(min_value=0, max_value=1000),  # which number of that pool
)
scenario = st.fixed_dictionaries({
    "fact_count": st.integers(min_value=2, max_value=9),
    "max_injected": st.integers(min_value=1, max_value=5),
    "retracted_beforehand": st.sets(st.integers(min_value=0, max_value=8), max_size=3),
    "query": st.lists(st.sampled_from(WORDS), min_size=1, max_size=2, unique=True).map(" ".join),
    "write_allowed": st.sampled_from([True, True, True, False]),
    "actions": st.lists(action, min_size=1, max_size=14),
    "batches": st.integers(min_value=1, max_value=3),
})


def _make_facts(server, count: int) -> list[Fact]:
    return [make_fact(server, key=f"note_{index}", content=f"The {WORDS[index % len(WORDS)]} note {index}.")
            for index in range(count)]


def _pick(pool: list[int], index: int, fallback: int) -> int:
    return pool[index % len(pool)] if pool else fallback


@pytest.mark.django_db
@pytest.mark.parametrize("memory_type", ["classic", "ledger", "archive"])
@settings(max_examples=20, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=scenario)
def test_actions_only_ever_change_facts_shown_or_found_in_the_exchange(memory_type, case):
    case = {**case, "memory_type": memory_type}
    # Every example builds its own servers inside a savepoint that is rolled back at the end.
    with transaction.atomic():
        actor = UserFactory()
        server = make_server(make_team())
        other_server = make_server(make_team())
        use_memory_type(server, actor, case["memory_type"])
        set_channel_rules(server, actor, max_injected_items=case["max_injected"],
                          write=None if case["write_allowed"] else ["999"])
        facts = _make_facts(server, case["fact_count"])
        foreign = _make_facts(other_server, case["fact_count"] + 5)
        for index in case["retracted_beforehand"]:
            if index < len(facts):
                fact_retract(fact=facts[index], reason="retracted before the exchange")
        before = facts_snapshot(server)
        foreign_before = facts_snapshot(other_server)

        exchange = exchange_open(server=server, message=paul_says("tell me about the castle")).exchange
        if exchange.can_search:
            exchange_search(exchange=exchange, query=case["query"])
        shown, found = list(exchange.shown_numbers), list(exchange.found_numbers)
        reachable = set(shown) | set(found)
        numbers = [fact.number for fact in facts]
        pools = {
            "shown": shown,
            "found": found,
            "other": [number for number in numbers if number not in reachable],
            "foreign": [fact.number for fact in foreign],
            "missing": [max(numbers) + offset for offset in range(1, 6)],
        }
        ops = []
        for kind, source, index in case["actions"]:
            number = _pick(pools[source], index, fallback=max(numbers) + 1)
            ops.append(Retract(number=number, reason=f"{source} {index}") if kind == "retract"
                       else Supersede(number=number, content=f"New wording from {source} {index}.",
                                      reason=f"{source} {index}"))
        size = -(-len(ops) // case["batches"]) or 1
        results = []
        for start in range(0, max(len(ops), 1), size):
            results += exchange_apply_actions(exchange=exchange, ops=ops[start:start + size])

        after = facts_snapshot(server)
        changed = {number for (_, number), state in before.items() if after.get((server.pk, number)) != state}
        new_facts = Fact.objects.filter(server=server).exclude(number__in=[number for _, number in before])
        applied = [result for result in results if result.status == "applied"]
        event(f"{'some' if applied else 'no'} action applied")
        event(f"{len(applied)} applied, {len(results) - len(applied)} ignored, {len(found)} found")

        # The property: only facts shown or found in this exchange change; another server never does.
        assert changed <= reachable
        assert facts_snapshot(other_server) == foreign_before
        # What was found is this server's and in force.
        assert set(found) <= {number for (_, number), state in before.items() if state[2] is None}
        # Every applied action names a reachable number; nothing is applied where writing is not allowed.
        assert {result.number for result in applied} <= reachable
        if not case["write_allowed"]:
            assert applied == [] and changed == set() and not new_facts.exists()
        # A fact already retracted before the exchange is never touched again.
        assert not {facts[index].number for index in case["retracted_beforehand"] if index < len(facts)} & changed
        # Classic deletes and never supersedes; the other types retract and keep the fact.
        if case["memory_type"] == "classic":
            assert not new_facts.exists()
            assert all((server.pk, number) not in after for number in changed)
        else:
            assert all((server.pk, number) in after for number in changed)
        # New facts come only from applied supersedes, written by the bot in this exchange.
        supersedes = [result for result in applied if result.op == "supersede"]
        assert sorted(new_facts.values_list("number", flat=True)) == sorted(r.new_number for r in supersedes)
        assert all(fact.author_kind == AuthorKind.BOT and fact.source_exchange_id == exchange.pk
                   and fact.learned_from_member_id == PAUL for fact in new_facts)
        # Every result is recorded on the exchange.
        exchange.refresh_from_db()
        assert exchange.actions == [result.as_dict() for result in results]
        assert exchange.channel_id == CHANNEL
        transaction.set_rollback(True)
