"""Export and import of one server's memory as JSON lines: every fact (in force and retracted, with
its validity window, reason, what replaced it and who may see it) and every summary wording.

Line 1 describes the export; then one line per summary and one per fact. Facts keep their numbers, so
[#12] is still #12 after an import, and "replaced by" links are written as numbers. Authors are kept
as kinds ("staff" / "bot") and member ids; staff accounts are not carried over (the importing server's
users may differ). An import checks every line before it writes anything (memory/facts/transfer_lines.py):
the command, the panel's check step and its import step all answer a bad line with a sentence naming it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from memory.indexing.catchup import catchup_if_embedding
from memory.models import Fact, FactCounter, Summary
from teams.models import Server
from teams.services import audit_record

from .selectors import server_has_memory
from .transfer_lines import (DATES, FACT_FIELDS, FACT_KIND_FIELD, FORMAT, SUMMARY_FIELDS, ImportPlan, ImportRefused,
                             plan_from_lines, rows_to_write)

_BATCH = 2000  # facts written per INSERT

__all__ = ["FORMAT", "ImportPlan", "ImportRefused", "export_download", "export_lines", "import_check", "import_lines"]


def _value(name: str, value):
    return value.isoformat() if name in DATES and value is not None else value


def _file_name(name: str) -> str:
    return FACT_KIND_FIELD if name == "kind" else name


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
        yield json.dumps({"kind": "fact", **{_file_name(name): _value(name, value) for name, value in fact.items()},
                          "superseded_by": replaced_by}, ensure_ascii=False)


def export_download(*, server: Server, actor: AbstractBaseUser) -> Iterator[str]:
    """Record who downloaded the server's memory (one audit row), then hand over its lines to stream."""
    facts = Fact.objects.filter(server=server).count()
    audit_record(actor=actor, server=server, action="memory.export", count=facts,
                 result=f"{facts} facts downloaded as a memory export")
    return export_lines(server)


def import_check(server: Server, lines: Iterable[str | bytes]) -> ImportPlan:
    """What an import of these lines would bring, or every reason it would be refused; writes nothing."""
    return plan_from_lines(server, lines, has_memory=server_has_memory(server))


@transaction.atomic
def import_lines(server: Server, lines: Iterable[str | bytes], actor: AbstractBaseUser | None = None) -> dict[str, int]:
    """Load an export into a server that holds no facts or summaries yet: every line is checked again first, and
    any bad one (ImportRefused, its sentences naming the lines) leaves the server as it was."""
    # The counter row first: a fact written meanwhile (the bot's remember) waits for the import and then gets
    # a number after the imported ones, instead of taking one of them.
    counter, _ = FactCounter.objects.select_for_update().get_or_create(server=server, defaults={"last_number": 0})
    lines = list(lines)  # read twice: checked, then written (an open file or a generator is read once)
    plan = plan_from_lines(server, lines, has_memory=server_has_memory(server))
    if plan.errors:
        raise ImportRefused(plan.error_sentences())
    summaries, facts = [], []
    for row in rows_to_write(server, lines):
        (summaries if isinstance(row, Summary) else facts).append(row)
        if len(facts) == _BATCH:
            Fact.objects.bulk_create(facts)
            facts = []
    Fact.objects.bulk_create(facts)
    Summary.objects.bulk_create(summaries)
    by_number = dict(Fact.objects.filter(server=server).values_list("number", "pk"))
    with connection.cursor() as cursor:
        for number, replacement in plan.replaced_by.items():
            cursor.execute("UPDATE memory_fact SET superseded_by_id = %s WHERE server_id = %s AND number = %s",
                           [by_number[replacement], server.pk, number])
    # Numbers are never handed out twice: a wiped server's counter stays where it was if it is higher.
    counter.last_number = max(counter.last_number, plan.highest_number)
    counter.save(update_fields=["last_number"])
    catchup_if_embedding(server)  # the imported facts get their vectors like any fact without one
    audit_record(actor=actor, server=server, action="memory.import", count=plan.facts_count,
                 result=f"{plan.facts_count} facts and {plan.summaries_count} summaries imported",
                 actor_label="" if actor else "import")
    return {"facts": plan.facts_count, "summaries": plan.summaries_count}
