"""Export and import in the panel: Download memory streams the export and is audited; Import memory checks the file
first (its counts, or every bad line, nothing written) and imports it only from the check's button, all or nothing."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from memory.facts.services import FactAuthor, fact_retract
from memory.facts.summary import summary_set
from memory.models import Fact, Summary
from teams.models import AuditEntry
from teams.services import configure_grant
from tests.conftest import logged_in_client
from tests.factories import make_fact, make_server

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
EMPTY_GUILD = "100000000000000088"
HEADER = {"format": "lorekeeper-memory/1", "guild_id": "100000000000000001", "name": "Retro Arcade",
          "exported_at": "2026-11-02T10:00:00+00:00"}
FACTS = [
    {"kind": "fact", "number": 1, "scope": "server", "member_id": None, "key": "raid_night",
     "content": "Raids are on Wednesday."},
    {"kind": "fact", "number": 2, "scope": "member", "member_id": "200000000000000011", "key": "pronouns",
     "content": "Paul uses he/him."},
    {"kind": "fact", "number": 3, "scope": "member", "member_id": "200000000000000011", "key": "pronouns",
     "content": "Paul uses they/them.", "retracted_at": "2026-01-01T00:00:00+00:00", "superseded_by": 2},
    {"kind": "summary", "content": "A retro gaming server."},
]


@pytest.fixture
def empty(team, owner):
    """A server of the owner's team without memory, which the owner may configure."""
    empty = make_server(team, name="Empty Arcade", guild_id=EMPTY_GUILD)
    configure_grant(server=empty, user=owner)
    return empty


def export_file(rows=FACTS, *, header=HEADER, name="memory.jsonl") -> SimpleUploadedFile:
    text = "\n".join(json.dumps(row, ensure_ascii=False) for row in [header, *rows]) + "\n"
    return SimpleUploadedFile(name, text.encode(), content_type="application/jsonl")


def post_import(client, guild_id: str, upload, *, confirm: str = "", htmx: bool = True):
    data = {"file": upload, **({"confirm": confirm} if confirm else {})}
    return client.post(reverse("memory:import", kwargs={"guild_id": guild_id}), data, headers=HTMX if htmx else {})


def fingerprint_in(page: str) -> str:
    return re.search(r'name="confirm" value="([0-9a-f]{64})"', page).group(1)


def nothing_imported(server) -> bool:
    return (not Fact.objects.filter(server=server).exists() and not Summary.objects.filter(server=server).exists()
            and not AuditEntry.objects.filter(server=server, action="memory.import").exists())


def test_download_streams_the_export_with_a_dated_name_and_is_audited(server, owner):
    kept = make_fact(server, key="raid_night", content="Raids are on Wednesday.")
    fact_retract(fact=make_fact(server, key="old", content="Raids were on Monday."), reason="moved")
    summary_set(server=server, content="Retro gaming.", author=FactAuthor.staff(owner))

    response = logged_in_client(owner).post(reverse("memory:export", kwargs={"guild_id": server.guild_id}))

    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    assert response["Content-Disposition"] == \
        f'attachment; filename="lorekeeper-{server.guild_id}-{timezone.now():%Y-%m-%d}.jsonl"'
    rows = [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]
    assert rows[0]["format"] == "lorekeeper-memory/1" and rows[0]["guild_id"] == server.guild_id
    assert [(row["kind"], row.get("number")) for row in rows[1:]] == [("summary", None), ("fact", kept.number),
                                                                      ("fact", kept.number + 1)]
    entry = AuditEntry.objects.get(server=server, action="memory.export")
    assert (entry.actor, entry.count) == (owner, 2)


def test_the_memory_page_links_export_and_import_for_configure_users(server, owner):
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()

    assert f'href="{reverse("memory:transfer", kwargs={"guild_id": server.guild_id})}"' in page


def test_a_server_with_memory_offers_the_download_and_says_why_there_is_no_import(server, owner):
    make_fact(server)

    page = logged_in_client(owner).get(reverse("memory:transfer", kwargs={"guild_id": server.guild_id}))

    text = page.content.decode()
    assert "Download memory" in text and "Retro Arcade already has memory" in text
    assert 'type="file"' not in text


def test_the_check_shows_what_the_file_holds_and_writes_nothing(empty, owner):
    response = post_import(logged_in_client(owner), EMPTY_GUILD, export_file())

    assert response.status_code == 200
    text = " ".join(response.content.decode().split())
    assert "Exported from Retro Arcade (guild 100000000000000001) on 2026-11-02 10:00 UTC" in text
    for count in ("<strong>2</strong> facts in force", "<strong>1</strong> retracted fact",
                  "<strong>1</strong> summary wording", "<strong>1</strong> member named by member facts",
                  "Import 3 facts"):
        assert count in text, count
    assert nothing_imported(empty)


def test_the_import_button_imports_the_checked_file_all_at_once_and_goes_to_the_memory_page(empty, owner):
    client = logged_in_client(owner)
    fingerprint = fingerprint_in(post_import(client, EMPTY_GUILD, export_file()).content.decode())

    response = post_import(client, EMPTY_GUILD, export_file(), confirm=fingerprint)

    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{reverse('memory:page')}?server={EMPTY_GUILD}"
    assert list(Fact.objects.filter(server=empty).order_by("number").values_list("number", "member_id")) == [
        (1, ""), (2, "200000000000000011"), (3, "200000000000000011")]
    assert Fact.objects.get(server=empty, number=3).superseded_by.number == 2
    assert AuditEntry.objects.get(server=empty, action="memory.import").actor == owner
    memory_page = client.get(response["HX-Redirect"]).content.decode()
    assert "Imported 3 facts into Empty Arcade. Summary wordings imported: 1." in memory_page


def test_without_javascript_the_check_is_the_whole_page(empty, owner):
    response = post_import(logged_in_client(owner), EMPTY_GUILD, export_file(), htmx=False)

    text = response.content.decode()
    assert response.status_code == 200 and "<html" in text and "Import 3 facts" in text and 'type="file"' in text
    assert nothing_imported(empty)


def test_every_bad_line_is_shown_as_a_sentence_and_nothing_is_written(empty, owner):
    rows = [FACTS[0], {**FACTS[1], "confidence": "sure"}, {**FACTS[0], "number": 9, "colour": "red"}]

    response = post_import(logged_in_client(owner), EMPTY_GUILD, export_file(rows))

    assert response.status_code == 422
    text = response.content.decode()
    assert "This file cannot be imported; nothing was written:" in text
    assert "Line 3: confidence must be a number from 0 to 1, not &quot;sure&quot;." in text
    assert "Line 4: unknown field “colour” on a fact line." in text
    assert 'name="confirm"' not in text
    assert nothing_imported(empty)


def test_a_file_that_is_not_utf8_or_not_an_export_is_told_so(empty, owner):
    client = logged_in_client(owner)
    latin1 = SimpleUploadedFile("memory.jsonl", '{"format": "lorekeeper-memory/1", "name": "Café"}'.encode("latin-1"))
    csv = SimpleUploadedFile("memory.csv", b"number,key,content\n1,raid_night,Raids\n")

    assert "Line 1: the line is not UTF-8 text." in post_import(client, EMPTY_GUILD, latin1).content.decode()
    assert "Line 1: the line is not JSON" in post_import(client, EMPTY_GUILD, csv).content.decode()
    assert nothing_imported(empty)


def test_an_import_without_a_file_asks_for_one(empty, owner):
    response = logged_in_client(owner).post(reverse("memory:import", kwargs={"guild_id": EMPTY_GUILD}), {},
                                            headers=HTMX)

    assert response.status_code == 422 and "Choose the export file to import." in response.content.decode()


def test_a_file_over_the_limit_is_refused_with_its_size(empty, owner, monkeypatch):
    # The limit made small, so that the test need not upload 50 MB; the check is the one the view runs.
    monkeypatch.setattr("memory.panel.transfer_forms.IMPORT_MAX_BYTES", 100)

    response = post_import(logged_in_client(owner), EMPTY_GUILD, export_file())

    assert response.status_code == 422
    assert "an import takes at most 100\xa0bytes. Nothing was imported." in response.content.decode()
    assert nothing_imported(empty)


def test_a_server_with_memory_is_refused_even_when_posted_to(server, owner):
    make_fact(server, key="kept", content="Stays.")

    response = post_import(logged_in_client(owner), server.guild_id, export_file())

    assert response.status_code == 422 and "This server already has memory" in response.content.decode()
    assert list(Fact.objects.filter(server=server).values_list("key", flat=True)) == ["kept"]


def test_the_import_checks_again_and_refuses_when_memory_arrived_since_the_check(empty, owner):
    client = logged_in_client(owner)
    fingerprint = fingerprint_in(post_import(client, EMPTY_GUILD, export_file()).content.decode())
    make_fact(empty, key="meanwhile", content="The bot remembered something.")

    response = post_import(client, EMPTY_GUILD, export_file(), confirm=fingerprint)

    assert response.status_code == 422 and "This server already has memory" in response.content.decode()
    assert list(Fact.objects.filter(server=empty).values_list("key", flat=True)) == ["meanwhile"]


def test_another_file_than_the_checked_one_is_checked_not_imported(empty, owner):
    client = logged_in_client(owner)
    fingerprint = fingerprint_in(post_import(client, EMPTY_GUILD, export_file()).content.decode())

    response = post_import(client, EMPTY_GUILD, export_file(FACTS[:1]), confirm=fingerprint)

    text = response.content.decode()
    assert "This is not the file that was checked, so nothing was imported." in text and "Import 1 fact" in text
    assert nothing_imported(empty)
