"""Export and import in a real browser: the owner downloads Retro Arcade's memory and imports the file into an empty
server, checked first (counts, nothing written), then imported; a bad file's lines are named (1280 and 390 px)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from memory.facts.services import fact_retract
from memory.models import Audience, Fact
from teams.models import AuditEntry, Server
from teams.services import configure_grant, server_create

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser
EMPTY = "100000000000000099"


@pytest.fixture
def empty_server(arcade):  # noqa: F811
    """Retro Arcade with a retracted fact and a staff-only one, and an empty server the owner may configure."""
    fact_retract(fact=Fact.objects.get(server=arcade, key="tournament_day"), reason="moved to Sunday")
    Fact.objects.filter(server=arcade, key="server_theme").update(audience=Audience.STAFF)
    empty = server_create(team=arcade.team, guild_id=EMPTY, name="Arcade Two")
    configure_grant(server=empty, user=get_user_model().objects.get(username="owner"))
    return empty


@pytest.mark.parametrize("width", [1280, 390])
def test_the_owner_downloads_a_servers_memory_and_imports_it_into_an_empty_server(live_server, empty_server, page,
                                                                                 width, tmp_path):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/memory/?server={GUILD}")
    page.get_by_role("link", name="Export or import…").click()
    page.wait_for_selector("h1:has-text('Export and import memory of Retro Arcade')")
    expect(page.get_by_text("Retro Arcade already has memory")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"transfer-full-server-{width}")

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download memory").click()
    download = download_info.value
    assert download.suggested_filename.startswith(f"lorekeeper-{GUILD}-") and \
        download.suggested_filename.endswith(".jsonl")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    rows = [json.loads(line) for line in saved.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["guild_id"] == GUILD and len(rows) == 1 + 3
    assert AuditEntry.objects.filter(server__guild_id=GUILD, action="memory.export").count() == 1

    page.goto(f"{live_server.url}/servers/{EMPTY}/transfer/")
    page.set_input_files("#id_file", str(saved))
    page.get_by_role("button", name="Check file").click()
    result = page.locator("#import-result")
    expect(result).to_contain_text("Exported from Retro Arcade")
    expect(result).to_contain_text("2 facts in force")
    expect(result).to_contain_text("1 retracted fact")
    expect(result).to_contain_text("1 member named by member facts")
    assert not Fact.objects.filter(server__guild_id=EMPTY).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"transfer-checked-{width}")

    page.get_by_role("button", name="Import 3 facts").click()
    page.wait_for_selector("h1:has-text('Memory of Arcade Two')")
    expect(page.locator(".messages")).to_contain_text("Imported 3 facts into Arcade Two.")
    copied = Server.objects.get(guild_id=EMPTY)
    assert sorted(Fact.objects.filter(server=copied).values_list("key", "audience")) == [
        ("paul_birthday", "server"), ("server_theme", "staff"), ("tournament_day", "server")]
    screenshot(page, f"transfer-imported-{width}")


def test_a_bad_file_names_its_lines_and_imports_nothing(live_server, empty_server, page, tmp_path):
    bad = tmp_path / "hand-written.jsonl"
    bad.write_text("\n".join([
        json.dumps({"format": "lorekeeper-memory/1"}),
        json.dumps({"kind": "fact", "number": 1, "scope": "server", "member_id": None, "key": "raid_night",
                    "content": "Raids are on Wednesday."}),
        json.dumps({"kind": "fact", "number": 2, "key": "raid_time", "content": "At 8.", "valid_from": "soon"}),
        "{broken",
    ]) + "\n", encoding="utf-8")
    log_in(page, live_server, "owner")
    page.goto(f"{live_server.url}/servers/{EMPTY}/transfer/")
    page.set_input_files("#id_file", str(bad))
    held = []  # the check's request held back, so that what the page shows while it runs can be seen
    page.route("**/transfer/import", lambda route: held.append(route))
    expect(page.locator("#import-progress")).to_be_hidden()
    page.get_by_role("button", name="Check file").click()
    expect(page.locator("#import-progress")).to_be_visible()
    expect(page.get_by_role("button", name="Check file")).to_be_disabled()
    screenshot(page, "transfer-checking-1280")
    held[0].continue_()
    page.unroute("**/transfer/import")
    errors = page.locator(".import-errors")
    expect(errors).to_contain_text('Line 3: valid_from "soon" is not a date and time')
    expect(errors).to_contain_text("Line 4: the line is not JSON")
    expect(page.get_by_role("button", name="Import 1 fact")).to_have_count(0)
    expect(page.locator("#import-progress")).to_be_hidden()
    assert not Fact.objects.filter(server__guild_id=EMPTY).exists()
    screenshot(page, "transfer-bad-file-1280")
    other = tmp_path / "another.jsonl"
    other.write_text(bad.read_text(encoding="utf-8"), encoding="utf-8")
    page.set_input_files("#id_file", str(other))  # another file chosen: the old check's answer goes
    expect(errors).to_have_count(0)
