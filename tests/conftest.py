"""Shared fixtures: one team with a server, the three users every view is tested with, bot tokens, and a
Consolidated server with planted duplicates and a scripted consolidation model (consolidation, wipes, races)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation
from guardian.shortcuts import assign_perm

from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor
from memory.models import MemoryType, ModelPurpose
from teams.services import bot_token_issue, configure_grant, membership_add

from .factories import UserFactory, make_fact, make_server, make_team
from .model_server import played_model


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A panel request in Japanese leaves Japanese active in the test thread (LocaleMiddleware activates, nothing
    deactivates in one thread); the next test, a management command's sentence say, must start in English again."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def team(db):
    return make_team("Arcade staff")


@pytest.fixture
def server(team):
    return make_server(team, name="Retro Arcade", guild_id="100000000000000001")


@pytest.fixture
def other_team(db):
    return make_team("Synth staff")


@pytest.fixture
def other_server(other_team):
    return make_server(other_team, name="Synth Lab", guild_id="100000000000000002")


@pytest.fixture
def owner(team, server):
    """A member of the team with configure permission on its server."""
    user = UserFactory(username="owner")
    membership_add(team=team, user=user)
    configure_grant(server=server, user=user)
    return user


@pytest.fixture
def member(team, server):
    """A member of the team who may only view."""
    user = UserFactory(username="member")
    membership_add(team=team, user=user)
    return user


@pytest.fixture
def moderator(team, server):
    """A team member who may answer proposals and nothing else that changes memory."""
    user = UserFactory(username="moderator")
    membership_add(team=team, user=user)
    assign_perm("review_proposals", user, server)
    return user


@pytest.fixture
def outsider(other_team, other_server):
    """A configure user of another team: must never see or touch our server."""
    user = UserFactory(username="outsider")
    membership_add(team=other_team, user=user)
    configure_grant(server=other_server, user=user)
    return user


def logged_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def bot_token(team):
    """Plaintext token of our team."""
    return bot_token_issue(team=team, name="tests")[1]


@pytest.fixture
def other_bot_token(other_team):
    return bot_token_issue(team=other_team, name="tests")[1]


# Consolidation ---------------------------------------------------------------------------------

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
    with played_model(consolidated, owner, ModelPurpose.CONSOLIDATION, model_name="fake-consolidation",
                      api_key="sk-consolidation-0123456789") as fake:
        yield fake
