"""Bot tokens: stored hashed, shown once, revocable, one team's reach only."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from teams.models import BotToken
from teams.services import bot_token_hash, bot_token_issue, bot_token_revoke


def test_only_the_hash_of_a_token_is_stored(team):
    token, plaintext = bot_token_issue(team=team, name="bot host")
    stored = BotToken.objects.values_list("token_hash", "prefix", "name").get(pk=token.pk)
    assert plaintext not in " ".join(stored)
    assert stored[0] == bot_token_hash(plaintext)
    assert plaintext.startswith(stored[1])


def test_two_tokens_are_never_the_same(team):
    assert bot_token_issue(team=team)[1] != bot_token_issue(team=team)[1]


def test_revoking_is_recorded_once_and_is_idempotent(team):
    token, _ = bot_token_issue(team=team)
    bot_token_revoke(token=token)
    first_revoked_at = token.revoked_at
    bot_token_revoke(token=token)
    token.refresh_from_db()
    assert token.revoked_at == first_revoked_at is not None


def test_command_prints_the_token_alone_and_it_authenticates(team, server, client):
    out = io.StringIO()
    call_command("issue_bot_token", "--team", team.name, stdout=out)
    plaintext = out.getvalue().strip()
    assert "\n" not in plaintext and " " not in plaintext
    response = client.get(f"/api/v1/servers/{server.guild_id}", HTTP_AUTHORIZATION=f"Bearer {plaintext}")
    assert response.status_code == 200


def test_command_with_replace_revokes_the_earlier_token_of_that_name(team, server, client):
    first, second = io.StringIO(), io.StringIO()
    call_command("issue_bot_token", "--team", team.name, "--name", "demo", stdout=first)
    call_command("issue_bot_token", "--team", team.name, "--name", "demo", "--replace", stdout=second)
    old = client.get(f"/api/v1/servers/{server.guild_id}", HTTP_AUTHORIZATION=f"Bearer {first.getvalue().strip()}")
    new = client.get(f"/api/v1/servers/{server.guild_id}", HTTP_AUTHORIZATION=f"Bearer {second.getvalue().strip()}")
    assert (old.status_code, new.status_code) == (401, 200)


def test_command_refuses_an_unknown_team(db):
    with pytest.raises(CommandError, match="No team is called"):
        call_command("issue_bot_token", "--team", "Nope", stdout=io.StringIO())
