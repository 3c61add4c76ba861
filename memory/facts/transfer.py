"""Export and import of one server's memory as JSON lines: every fact (in force and retracted, with
its validity window, reason and what replaced it) and every summary wording.

Line 1 describes the export; then one line per summary and one per fact. Facts keep their numbers, so
[#12] is still #12 after an import, and "replaced by" links are written as numbers. Authors are kept
as kinds ("staff" / "bot") and member ids; staff accounts are not carried over (the importing server's
users may differ).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from memory.indexing.catchup import catchup_if_embedding
from memory.models import Fact, FactCounter, Summary
from memory.text.limits import validate_key

from .confidence import CONFIDENCE_IMPORTED
from teams.models import Server
from teams.services import audit_record

FORMAT = "lorekeeper-memory/1"
FACT_FIELDS = ("number", "scope", "member_id", "key", "content", "confidence", "importance", "author_kind",
               "learned_from_member_id", "created_at", "changed_at", "valid_from", "retracted_at", "retraction_reason",
               "version")
SUMMARY_FIELDS = ("content", "author_kind", "created_at", "retracted_at")
_DATES = {"created_at", "changed_at", "valid_from", "retracted_at"}


def _value(name: str, value):
    return value.isoformat() if name in _DATES and value is not None else value


def export_lines(server: Server) -> Iterator[str]:
    """The server's memory, one JSON object per line (facts streamed in number order)."""
    yield json.dumps({"format": FORMAT, "guild_id": server.guild_id, "name": server.name,
                      "exported_at": timezone.now().isoformat()})
    for summary in Summary.objects.filter(server=server).order_by("created_at", "id").values(*SUMMARY_FIELDS):
        yield json.dumps({"kind": "summary", **{name: _value(name, value) for name, value in summary.items()}},
                         ensure_ascii=False)
    numbers = dict(Fact.objects.filter(server=server).values_list("pk", "number"))
    facts = (Fact.objects.filter(server=server).order_by("number")
             .values(*FACT_FIELDS, "superseded_by_id").iterator(chunk_size=2000))
    for fact in facts:
        replaced_by = numbers.get(fact.pop("superseded_by_id"))
        yield json.dumps({"kind": "fact", **{name: _value(name, value) for name, value in fact.items()},
                          "superseded_by": replaced_by}, ensure_ascii=False)


def _parsed(row: dict, fields: Iterable[str]) -> dict:
    values = {}
    for name in fields:
        value = row.get(name)
        values[name] = datetime.fromisoformat(value) if name in _DATES and value is not None else value
    return values


@transaction.atomic
def import_lines(server: Server, lines: Iterable[str], actor: AbstractBaseUser | None = None) -> dict[str, int]:
    """Load an export into a server that holds no facts or summaries yet; all or nothing."""
    # The counter row first: a fact written meanwhile (the bot's remember) waits for the import and then gets
    # a number after the imported ones, instead of taking one of them.
    counter, _ = FactCounter.objects.select_for_update().get_or_create(server=server, defaults={"last_number": 0})
    if Fact.objects.filter(server=server).exists() or Summary.objects.filter(server=server).exists():
        raise ValidationError("This server already has memory; import only into a server without facts or summary "
                              "(wipe it first).")
    rows = [json.loads(line) for line in lines if line.strip()]
    if not rows or rows[0].get("format") != FORMAT:
        raise ValidationError(f"This is not a Lorekeeper memory export (first line must say format {FORMAT}).")
    facts, replaced_by, summaries = [], {}, []
    for row in rows[1:]:
        if row.get("kind") == "summary":
            summaries.append(Summary(server=server, **_parsed(row, SUMMARY_FIELDS)))
        elif row.get("kind") == "fact":
            # A line that does not say how sure it is (written by hand or by another tool) is trusted less than
            # an export, which always says.
            fact = Fact(server=server, **_parsed({"confidence": CONFIDENCE_IMPORTED, **row}, FACT_FIELDS))
            # Before full_clean: the database check cannot tell upper from lower case beyond ASCII ("Äpfel"),
            # and a lone surrogate would fail it as an encoding error instead of a sentence.
            if not isinstance(fact.key, str) or validate_key(fact.key) != fact.key:
                raise ValidationError(f"Fact #{fact.number}: the key {fact.key!r} is not written as keys are stored "
                                      "(lower case, '_' for spaces, no punctuation but '_', '.' and '-').")
            fact.full_clean(exclude=["server", "search_vector", "superseded_by", "source_exchange", "author_user"],
                            validate_unique=False)
            facts.append(fact)
            if row.get("superseded_by"):
                replaced_by[fact.number] = row["superseded_by"]
        else:
            raise ValidationError(f"Unknown line kind {row.get('kind')!r}.")
    numbers = [fact.number for fact in facts]
    twice = sorted(number for number, seen in Counter(numbers).items() if seen > 1)[:5]
    if twice:
        raise ValidationError(f"The export holds fact number {', '.join(f'#{n}' for n in twice)} more than once.")
    Summary.objects.bulk_create(summaries)
    Fact.objects.bulk_create(facts, batch_size=2000)
    by_number = dict(Fact.objects.filter(server=server).values_list("number", "pk"))
    with connection.cursor() as cursor:
        for number, replacement in replaced_by.items():
            cursor.execute("UPDATE memory_fact SET superseded_by_id = %s WHERE server_id = %s AND number = %s",
                           [by_number.get(replacement), server.pk, number])
    # Numbers are never handed out twice: a wiped server's counter stays where it was if it is higher.
    counter.last_number = max(counter.last_number, max(numbers, default=0))
    counter.save(update_fields=["last_number"])
    catchup_if_embedding(server)  # the imported facts get their vectors like any fact without one
    audit_record(actor=actor, server=server, action="memory.import", count=len(facts),
                 result=f"{len(facts)} facts and {len(summaries)} summaries imported",
                 actor_label="" if actor else "import")
    return {"facts": len(facts), "summaries": len(summaries)}
