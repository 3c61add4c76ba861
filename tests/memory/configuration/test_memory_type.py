"""Choosing a server's memory type: ready types are saved at once and audited, and no switch costs a fact."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import memory_type_set
from memory.facts.services import fact_retract
from memory.models import Fact, MemoryType
from memory.types import profile_for
from teams.models import AuditEntry
from tests.factories import make_fact

READY = [MemoryType.CLASSIC, MemoryType.LEDGER, MemoryType.ARCHIVE, MemoryType.RANKED, MemoryType.CONSOLIDATED,
         MemoryType.SEMANTIC]


@pytest.fixture
def semantic_not_ready(monkeypatch):
    """All six types are built; the guard for a type whose machinery is missing still has to hold."""
    import dataclasses

    from memory import types as memory_types

    monkeypatch.setitem(memory_types._BY_VALUE, MemoryType.SEMANTIC,
                        dataclasses.replace(memory_types.profile_for(MemoryType.SEMANTIC), ready=False))
    return MemoryType.SEMANTIC


def type_changes(server):
    return AuditEntry.objects.filter(server=server, action="memory_type.set")


def test_a_new_server_starts_on_classic(server):
    assert ai_settings_for_server(server).memory_type == MemoryType.CLASSIC


@pytest.mark.parametrize("memory_type", READY)
def test_a_ready_memory_type_is_saved_for_the_server(server, owner, memory_type):
    memory_type_set(server=server, actor=owner, memory_type=memory_type)

    assert ai_settings_for_server(server).memory_type == memory_type


@pytest.mark.parametrize("memory_type", [MemoryType.LEDGER, MemoryType.ARCHIVE])
def test_changing_the_memory_type_writes_one_audit_row_naming_both_types(server, owner, memory_type):
    memory_type_set(server=server, actor=owner, memory_type=memory_type)

    row = type_changes(server).get()
    assert row.actor == owner
    assert "classic" in row.result and memory_type in row.result


def test_choosing_the_type_the_server_already_has_writes_no_audit_row(server, owner):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.CLASSIC)

    assert type_changes(server).count() == 2


def test_choosing_a_type_on_one_server_leaves_the_other_server_alone(server, other_server, owner):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.ARCHIVE)

    assert ai_settings_for_server(other_server).memory_type == MemoryType.CLASSIC


def test_a_type_that_is_not_ready_is_refused_and_the_server_keeps_its_type(server, owner, semantic_not_ready):
    memory_type = semantic_not_ready
    assert not profile_for(memory_type).ready
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)

    with pytest.raises(ValidationError) as refused:
        memory_type_set(server=server, actor=owner, memory_type=memory_type)

    assert "not ready" in " ".join(refused.value.message_dict["memory_type"])
    assert ai_settings_for_server(server).memory_type == MemoryType.LEDGER
    assert type_changes(server).count() == 1


@pytest.mark.parametrize("memory_type", ["", "vector", "Ledger", " classic", "6"])
def test_an_unknown_memory_type_is_refused(server, owner, memory_type):
    with pytest.raises(ValidationError) as refused:
        memory_type_set(server=server, actor=owner, memory_type=memory_type)

    assert "memory_type" in refused.value.message_dict
    assert ai_settings_for_server(server).memory_type == MemoryType.CLASSIC
    assert not type_changes(server).exists()


def memory_snapshot(server):
    return list(
        Fact.objects.filter(server=server)
        .order_by("number")
        .values_list("number", "content", "retracted_at", "retraction_reason", "superseded_by", "version")
    )


def test_switching_classic_to_ledger_and_back_never_costs_a_fact_or_changes_what_is_retracted(server, owner):
    facts = [make_fact(server, key=f"fact_{n}", content=f"Fact number {n}.") for n in range(5)]
    fact_retract(fact=facts[0], reason="no longer true")
    fact_retract(fact=facts[1], reason="replaced", superseded_by=facts[2])
    before = memory_snapshot(server)

    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    assert memory_snapshot(server) == before

    memory_type_set(server=server, actor=owner, memory_type=MemoryType.CLASSIC)
    assert memory_snapshot(server) == before
    assert len(before) == 5 and sum(1 for row in before if row[2] is not None) == 2
