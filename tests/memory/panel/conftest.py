"""Fixtures the panel's tests share."""

import pytest

from memory.configuration.services import memory_type_set
from memory.models import MemoryType


@pytest.fixture
def ledger(server, owner):
    """Our server under Ledger: a retract keeps the fact (Classic deletes it), so it can be restored."""
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.LEDGER)
    return server
