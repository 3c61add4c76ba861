"""Fixtures for consolidation: a Consolidated server with facts, a moderator, a scripted model."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.models import MemoryType, ModelPurpose
from memory.services import FactAuthor, memory_type_set, model_endpoint_set
from tests.factories import make_fact
from tests.model_server import FakeModelServer

FILLER = [
    ("raid_time", "Raids start at 8 pm on Fridays."), ("theme", "The server is about retro gaming."),
    ("mod_team", "Alex and Nova are the moderators."), ("movie_night", "Movie night is every second Sunday."),
    ("voice", "Voice chat opens at 6 pm."), ("emotes", "Custom emotes are voted on monthly."),
    ("art_channel", "Fan art goes in the gallery channel."), ("bot_prefix", "The bot answers when mentioned."),
    ("welcome", "New members introduce themselves in the welcome channel."),
]


def long_ago(hours: float):
    return timezone.now() - timedelta(hours=hours)


@pytest.fixture
def consolidated(server, owner):
    memory_type_set(server=server, actor=owner, memory_type=MemoryType.CONSOLIDATED)
    return server


@pytest.fixture
def planted(consolidated, owner):
    """Nine unrelated facts, a duplicate pair (language / lang) and a contradiction (raid day numbers),
    all written three hours ago: the server is quiet."""
    facts = {key: make_fact(consolidated, key=key, content=content, created_at=long_ago(3)) for key, content in FILLER}
    facts["language"] = make_fact(consolidated, key="language", content="The server's language is French.",
                                  author=FactAuthor.staff(owner), confidence=0.9, created_at=long_ago(3))
    facts["lang"] = make_fact(consolidated, key="lang", content="Server language: French", confidence=0.7,
                              created_at=long_ago(3))
    facts["cup_a"] = make_fact(consolidated, key="cup_date", content="The summer cup final is on 12 July.",
                               created_at=long_ago(3))
    facts["cup_b"] = make_fact(consolidated, key="cup_date", content="The summer cup final is on 19 July.",
                               created_at=long_ago(3))
    return facts


@pytest.fixture
def consolidation_model(consolidated, owner):
    fake = FakeModelServer().start()
    model_endpoint_set(server=consolidated, actor=owner, purpose=ModelPurpose.CONSOLIDATION, base_url=fake.base_url,
                       model_name="fake-consolidation", api_key="sk-consolidation-0123456789")
    yield fake
    fake.stop()
