"""A member wipe leaves nothing about the member in any table (issue 21): after everything a member's messages
write through the API (facts about them and learned from them, a reinforcement of someone else's fact, a staff edit,
versions, a kept Idempotency-Key answer, the member directory's name, exchanges), every text, JSON and array column
of every table is searched in the database for their id, their name and their words."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.postgres.fields import ArrayField
from django.db import connection, models

from memory.facts.deletes import member_wipe
from memory.facts.services import fact_update
from memory.models import Exchange, Fact, FactVersion, Member, MemoryType
from teams.models import AuditEntry

from .helpers import Api, configure

QUINN = "200000000000000077"
QUINN_NAME = "Quuxwell"
QUINNS_WORDS = "Zanzibarquux"  # only ever in what Quinn said
ANNA = "200000000000000022"
TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField, ArrayField)


def rows_naming(needle: str, *, skip: set[int] = frozenset()) -> dict[str, int]:
    """For every table of every model, how many rows hold `needle` as a word in a text, JSON or array column (cast
    to text in the query, so a value nested in JSON or an array counts; as a word, so 2221 is not 222)."""
    found = {}
    for model in apps.get_models(include_auto_created=True):
        columns = [field.column for field in model._meta.concrete_fields if isinstance(field, TEXT_FIELDS)]
        if not columns:
            continue
        condition = " OR ".join(f'"{column}"::text ~ %s' for column in columns)
        table = model._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE ({condition}) AND NOT ({_pk(model)}::text = ANY(%s::text[]))',
                           [rf"\m{needle}\M"] * len(columns) + [[str(pk) for pk in skip]])
            count = cursor.fetchone()[0]
        if count:
            found[table] = count
    return found


def _pk(model) -> str:
    return f'"{model._meta.pk.column}"'


@pytest.mark.parametrize("memory_type", [MemoryType.CLASSIC, MemoryType.LEDGER])
def test_a_member_wipe_leaves_no_row_naming_the_member_in_any_table(api: Api, server, owner, memory_type):
    configure(server, memory_type=memory_type)
    annas = api.context(server, author_id=ANNA, author_name="Anna", content="raids?")["exchange"]
    api.actions(annas, remember=[{"key": "raid_day", "content": "Raids are on Friday."}])
    exchange = api.context(server, author_id=QUINN, author_name=QUINN_NAME,
                           content=f"I am {QUINN_NAME}, I love {QUINNS_WORDS}; raids are on Friday, right?",
                           mentions=[{"id": ANNA, "name": "Anna"}])["exchange"]
    response = api.post(f"/exchanges/{exchange}/actions", {"remember": [
        {"key": "quinn_loves", "content": f"Loves {QUINNS_WORDS}.", "member_id": QUINN},
        {"key": "server_game", "content": f"The server plays {QUINNS_WORDS} on Sundays."},
        {"key": "raid_day", "content": "Raids are on Friday."}]}, HTTP_IDEMPOTENCY_KEY="quinn-retry-1")
    assert response.status_code == 200, response.content
    assert [result["status"] for result in response.json()["results"]] == ["applied", "applied", "reinforced"]
    api.context(server, author_id=ANNA, author_name="Anna", content="are you coming?",
                mentions=[{"id": QUINN, "name": QUINN_NAME}, {"id": QUINN + "1", "name": "Quinta"}])
    loves = Fact.objects.get(server=server, key="quinn_loves")
    fact_update(fact=loves, actor=owner, expected_version=loves.version, key=loves.key,
                content=f"Loves {QUINNS_WORDS} a lot.", confidence=loves.confidence)
    assert rows_naming(QUINN) and rows_naming(QUINNS_WORDS) and rows_naming(QUINN_NAME)  # the search finds them

    member_wipe(server=server, actor=owner, member_id=QUINN)

    # The wipe's own audit row says whose memory went, by id (the proof of the erasure); nothing else may.
    wipe_entry = set(AuditEntry.objects.filter(action="memory.wipe_member").values_list("pk", flat=True))
    assert rows_naming(QUINN, skip=wipe_entry) == {}
    assert rows_naming(QUINNS_WORDS) == {}
    assert rows_naming(QUINN_NAME) == {}
    # What is not theirs stays: Anna's fact (its mention count a number about no one), her name, her versions.
    assert Fact.objects.filter(server=server, key="raid_day").count() == 1
    assert Member.objects.filter(server=server, member_id=ANNA).exists()
    assert FactVersion.objects.filter(server=server).exists()
    # A member whose id starts with theirs keeps being named where they were mentioned.
    mentioned = Exchange.objects.get(server=server, message="are you coming?")
    assert mentioned.mentioned_ids == [QUINN + "1"]
    assert f"Quinta (member {QUINN}1)" in mentioned.memory_block
    assert "a member whose memory was wiped" in mentioned.memory_block
