"""Run the hand-written scenarios (scenario_data) through the bot as it runs, under each of the six memory types,
and score each by whether every fact it needs is in the memory block handed to the model.

For each scenario one server is seeded: its listed facts aged by `age_days`, with their kinds, pins, importance and
authors, and the generated noise (noise.py), and the member directory knows everyone's display name. Under
Semantic every fact gets its vector from the built-in local model (the catch-up round is recorded as finished), so
meaning is used, not words alone. Then, for each type, the message goes through the bot API's context call (its
`prompt`) and through `reply_to_message` with a local model server (tests/model_server.py), whose request body's
system message is read: a scenario hits when every needed fact's line is there. Both must agree; the reply's
request is the one scored.

Used by tests/scenarios/test_scenarios.py and bench/scenarios.py.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.test import Client
from django.utils import timezone

from memory.bot.exchanges import IncomingMessage
from memory.bot.reply import reply_to_message
from memory.clients.embeddings import LOCAL_MODEL_NAME, LocalProvider, fact_text
from memory.configuration.directory import SeenMember
from memory.configuration.services import ai_settings_ensure
from memory.indexing.vectors import text_hash
from memory.models import (AISettings, AuthorKind, EmbeddingRound, EmbeddingRoundStatus, Fact, FactCounter,
                           FactEmbedding, Member, MemoryType, ModelEndpoint, ModelPurpose, Scope)
from memory.types import profile_for
from teams.models import Server, Team
from teams.services import bot_token_issue, server_create

from .noise import OTHERS, noise_facts
from .scenario_data import CATEGORIES, PEOPLE, SCENARIOS, Scenario

TYPES = tuple(MemoryType.values)  # classic … semantic, in the scale's order
CHANNEL = "310000000000000001"
_NUMBER = re.compile(r"^\[#(\d+)\]", re.M)


class VectorCache:
    """Vectors of the built-in local model by text, so each wording is embedded once per process."""

    def __init__(self) -> None:
        self.provider = LocalProvider()
        self.vectors: dict[str, list[float]] = {}

    def of(self, texts: Iterable[str]) -> dict[str, list[float]]:
        missing = list(dict.fromkeys(text for text in texts if text not in self.vectors))
        for start in range(0, len(missing), 32):
            batch = missing[start:start + 32]
            self.vectors.update(zip(batch, self.provider.passages(batch), strict=True))
        return self.vectors


@dataclass
class Seeded:
    scenario: Scenario
    server: Server
    numbers: dict[str, int]  # listed fact key → its number


def _fact(server: Server, number: int, now: datetime, *, key: str, content: str, scope: str, member: str | None,
          kind: str, age_seconds: float, importance: float | None, pinned: bool = False, staff: bool = False) -> Fact:
    moment = now - timedelta(seconds=age_seconds)
    return Fact(server=server, number=number, key=key, content=content, scope=scope,
                member_id=member or "" if scope == Scope.MEMBER else "", importance=importance, kind=kind,
                pinned=pinned, author_kind=AuthorKind.STAFF if staff else AuthorKind.BOT,
                learned_from_member_id="" if staff else (member or ""), created_at=moment, changed_at=moment,
                valid_from=moment)


def seed(scenario: Scenario, team: Team, guild_id: str, *, now: datetime, noise_cap: int | None = None) -> Seeded:
    """A server holding the scenario's facts and noise (at most `noise_cap` noise facts), its settings the
    scenario's (max_items, max_chars: at least the 500 the setting allows), everyone's display name in the member
    directory."""
    server = server_create(team=team, guild_id=guild_id, name=f"Scenario {scenario.name}"[:100])
    ai_settings = ai_settings_ensure(server=server)
    AISettings.objects.filter(pk=ai_settings.pk).update(max_injected_items=scenario.max_items,
                                                        max_memory_chars=max(500, scenario.max_chars))
    facts = [_fact(server, number, now, key=listed.key, content=listed.content, scope=listed.scope,
                   member=listed.member, kind=listed.kind, age_seconds=listed.age_days * 86400 + number,
                   importance=listed.importance, pinned=listed.pinned, staff=listed.author == "staff")
             for number, listed in enumerate(scenario.facts, 1)]
    numbers = {fact.key: fact.number for fact in facts}
    noise_count = min(scenario.noise.count, noise_cap or scenario.noise.count)
    for number, noise in enumerate(noise_facts(scenario, noise_count), len(facts) + 1):
        facts.append(_fact(server, number, now, key=noise.key, content=noise.content,
                           scope=Scope.MEMBER if noise.member else Scope.SERVER,
                           member=noise.member[0] if noise.member else None, kind=noise.kind,
                           age_seconds=noise.age_seconds, importance=noise.importance))
    Fact.objects.bulk_create(facts, batch_size=2000)
    FactCounter.objects.update_or_create(server=server, defaults={"last_number": len(facts)})
    members = {fact.member_id for fact in facts if fact.member_id} | {scenario.speaker[0]} | {
        member_id for member_id, _name in scenario.mentions}
    names = {**PEOPLE, **dict(OTHERS)}
    Member.objects.bulk_create([Member(server=server, member_id=member_id, display_name=names[member_id])
                                for member_id in sorted(members)])
    return Seeded(scenario, server, numbers)


def embed(seeded: Seeded, cache: VectorCache) -> None:
    """Every fact's vector from the built-in local model, as the catch-up round would store it."""
    server = seeded.server
    facts = list(Fact.objects.filter(server=server).values_list("id", "key", "content"))
    vectors = cache.of(fact_text(key, content) for _id, key, content in facts)
    FactEmbedding.objects.bulk_create([
        FactEmbedding(fact_id=fact_id, server=server, model_name=LOCAL_MODEL_NAME,
                      text_hash=text_hash(key, content, LOCAL_MODEL_NAME), vector=vectors[fact_text(key, content)])
        for fact_id, key, content in facts], batch_size=2000)
    EmbeddingRound.objects.create(server=server, model_name=LOCAL_MODEL_NAME, status=EmbeddingRoundStatus.FINISHED,
                                  total=len(facts), done=len(facts), finished_at=timezone.now())


def hits(block: str, seeded: Seeded) -> bool:
    """Whether every fact the scenario needs has its line in `block`."""
    shown = {int(number) for number in _NUMBER.findall(block)}
    return all(seeded.numbers[key] in shown for key in seeded.scenario.needed)


@dataclass
class Outcome:
    scenario: Scenario
    memory_type: str
    hit: bool
    api_hit: bool
    relevance_mode: str = ""


def _message(scenario: Scenario) -> IncomingMessage:
    author_id, author_name = scenario.speaker
    return IncomingMessage(channel_id=CHANNEL, author_id=author_id, author_name=author_name,
                           content=scenario.message,
                           mentions=tuple(SeenMember(member_id, name) for member_id, name in scenario.mentions))


def run(seeded: Seeded, memory_type: str, *, post: Callable[[str, dict], dict], model) -> Outcome:
    """The scenario under `memory_type`: the API's context and the reply's model request, each scored."""
    AISettings.objects.filter(server=seeded.server).update(memory_type=memory_type)
    seeded.server.refresh_from_db()
    scenario = seeded.scenario
    author_id, author_name = scenario.speaker
    context = post(f"/api/v1/servers/{seeded.server.guild_id}/context", {
        "channel_id": CHANNEL, "author_id": author_id, "author_name": author_name, "content": scenario.message,
        "mentions": [{"id": member_id, "name": name} for member_id, name in scenario.mentions]})
    before = len(model.requests)
    outcome = reply_to_message(server=seeded.server, message=_message(scenario), history=[])
    [request] = model.requests[before:]
    system = request["body"]["messages"][0]["content"]
    return Outcome(scenario, memory_type, hits(system, seeded), hits(context["prompt"], seeded),
                   outcome.exchange.relevance_mode)


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def share(self, memory_type: str, category: str | None = None) -> float:
        chosen = [outcome.hit for outcome in self.outcomes if outcome.memory_type == memory_type
                  and (category is None or outcome.scenario.category == category)]
        return sum(chosen) / len(chosen) if chosen else float("nan")

    def lines(self) -> list[str]:
        """`bench: scenarios.<type> hit=<x>` per type, then `#` lines per category and the misses."""
        lines = [f"bench: scenarios.{memory_type} hit={self.share(memory_type):.3f}" for memory_type in TYPES]
        for memory_type in TYPES:
            shares = " ".join(f"{category}={self.share(memory_type, category):.2f}" for category in CATEGORIES
                              if any(outcome.scenario.category == category and outcome.memory_type == memory_type
                                     for outcome in self.outcomes))
            lines.append(f"# scenarios.{memory_type} {shares}")
        missed = defaultdict(list)
        for outcome in self.outcomes:
            if not outcome.hit:
                missed[outcome.memory_type].append(outcome.scenario.name)
        lines += [f"# scenarios.{memory_type} missed: {', '.join(names)}" for memory_type, names in missed.items()]
        return lines


def api_poster(team: Team) -> Callable[[str, dict], dict]:
    """POST to the bot API in process with a fresh token of the team; any answer but 200 stops the run."""
    _token, plaintext = bot_token_issue(team=team, name="scenarios")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {plaintext}")

    def post(url: str, body: dict) -> dict:
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}: {response.content[:300]!r}")
        return response.json()

    return post


def run_all(team: Team, model, *, scenarios: Iterable[Scenario] = SCENARIOS,
            types: Callable[[Scenario], Iterable[str]] = lambda scenario: TYPES, noise_cap: int | None = None,
            first_guild: int = 950_000_000_000_000_000, progress: Callable[[str], None] = lambda line: None) -> Report:
    """Every scenario under each of its `types` (every type by default), with at most `noise_cap` noise facts
    each, in one transaction rolled back at the end: nothing stays behind."""
    report, cache, now = Report(), VectorCache(), timezone.now()
    post = api_poster(team)
    with transaction.atomic():
        for index, scenario in enumerate(scenarios):
            seeded = seed(scenario, team, str(first_guild + index), now=now, noise_cap=noise_cap)
            ModelEndpoint.objects.create(server=seeded.server, purpose=ModelPurpose.REPLY, base_url=model.base_url,
                                         model_name="scenarios")
            its_types = list(types(scenario))
            if any(profile_for(memory_type).embeds for memory_type in its_types):
                embed(seeded, cache)
            for memory_type in its_types:
                report.outcomes.append(run(seeded, memory_type, post=post, model=model))
            progress(f"{scenario.name}: " + " ".join(f"{outcome.memory_type}={'hit' if outcome.hit else 'miss'}"
                                                     for outcome in report.outcomes[-len(its_types):]))
        transaction.set_rollback(True)
    return report


def next_free_guild(start: int) -> int:
    """A guild id from which a run's servers find no existing server (ids are unique across teams)."""
    taken = Server.objects.filter(guild_id__gte=str(start)).aggregate(Max("guild_id"))["guild_id__max"]
    return max(start, int(taken) + 1) if taken and len(taken) == len(str(start)) else start
