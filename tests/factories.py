"""factory_boy factories; teams and servers go through services so permissions are set up as in real life."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from memory.facts.services import FactAuthor, fact_create
from memory.models import Fact, FactCounter
from memory.usage.recording import CallUsage, model_calls_record
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


def make_facts_in_bulk(server: Server, count: int, *, newest: datetime | None = None, step: timedelta = timedelta(
        seconds=1), key: str = "chatter", content: str = "Someone said hello in chat ({n}).", **fields) -> list[Fact]:
    """`count` facts in one INSERT (a thousand facts in a fraction of a second), numbered after the server's last,
    the first changed at `newest` (default: now) and each next one `step` earlier; `{n}` in the content is the
    fact's place in the run. Only for tests that need many facts: no validation, no embedding queued."""
    newest = newest or timezone.now()
    counter, _ = FactCounter.objects.get_or_create(server=server)
    first = counter.last_number + 1
    facts = [Fact(server=server, number=first + n, key=key, content=content.format(n=n), created_at=newest - n * step,
                  changed_at=newest - n * step, valid_from=newest - n * step, **fields) for n in range(count)]
    Fact.objects.bulk_create(facts, batch_size=2000)
    FactCounter.objects.filter(server=server).update(last_number=first + count - 1)
    return facts


def record_call(server, purpose: str, prompt_tokens: int | None = None, completion_tokens: int | None = None, *,
                called_at: datetime | None = None, model_name: str = "m", **links) -> None:
    """One model call's usage recorded as the pipeline records it (memory.usage.recording): the call and its month's
    total. Both counts None: the endpoint reported nothing."""
    usage = CallUsage(model_name, prompt_tokens, completion_tokens, called_at or timezone.now())
    model_calls_record(server_id=server.pk, purpose=purpose, calls=[usage], **{f"{name}_id": value.pk
                                                                               for name, value in links.items()})
