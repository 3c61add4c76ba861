"""factory_boy factories; teams and servers go through services so permissions are set up as in real life."""

from __future__ import annotations

import itertools

import factory
from django.contrib.auth import get_user_model

from memory.facts.services import FactAuthor, fact_create
from memory.models import Fact
from teams.models import Server, Team
from teams.services import server_create, team_create

_guild_ids = itertools.count(300000000000000001)
TEST_PASSWORD = "pw-for-tests-1"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(TEST_PASSWORD)


def make_team(name: str | None = None) -> Team:
    return team_create(name=name or f"Team {next(_guild_ids)}")


def make_server(team: Team, name: str = "Server", guild_id: str | None = None) -> Server:
    return server_create(team=team, guild_id=guild_id or str(next(_guild_ids)), name=name)


def make_fact(server: Server, *, key: str = "server_theme", content: str = "This server is about retro gaming.",
              **kwargs) -> Fact:
    author = kwargs.pop("author", None) or FactAuthor.bot("200000000000000011")
    return fact_create(server=server, author=author, key=key, content=content, **kwargs)
