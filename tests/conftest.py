"""Shared fixtures: one team with a server, the three users every view is tested with, bot tokens."""

from __future__ import annotations

import pytest
from django.test import Client
from guardian.shortcuts import assign_perm

from teams.services import bot_token_issue, configure_grant, membership_add

from .factories import UserFactory, make_server, make_team


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
