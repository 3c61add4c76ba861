"""The home page in a real browser: thirty servers in name order, narrowed as you type in the filter box, at desktop
and phone widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from teams.services import membership_add, server_create, team_create
from tests.factories import UserFactory, make_fact

from .conftest import screenshot
from .test_memory_page import log_in

pytestmark = pytest.mark.browser
NAMES = ["Retro Arcade", "Mod Room", "Speedrun Hub", "Pixel Art Guild", "Synth Lab", "Board Game Café",
         "Chess Club", "Cozy Corner", "Dungeon Crawlers", "Esports Academy", "Fantasy League", "Game Jam",
         "Hollow Knights", "Indie Devs", "Jigsaw Society", "Kart Racers", "Lore Keepers", "Minecraft Builders",
         "Night Owls", "Open Mic", "Puzzle Hunters", "Quiz Night", "Raid Squad", "Sim Racing",
         "Tabletop Tavern", "Upcycling Crew", "Vinyl Lounge", "Word Games", "Yoga & Gaming", "Zelda Speedruns"]


@pytest.fixture
def thirty(transactional_db):
    team = team_create(name="Arcade staff")
    viewer = UserFactory(username="viewer")
    membership_add(team=team, user=viewer)
    servers = [server_create(team=team, guild_id=str(100000000000000001 + index), name=name)
               for index, name in enumerate(NAMES)]
    make_fact(servers[0], key="tournament_day", content="Tournaments are every Saturday at 20:00 CET.")
    return servers


def card_names(page) -> list[str]:
    return page.locator("#server-list .server-name").all_inner_texts()


@pytest.mark.parametrize("width", [1280, 390])
def test_thirty_servers_by_name_narrowed_as_you_type(live_server, thirty, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "viewer")
    assert card_names(page) == sorted(NAMES, key=str.lower)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"home-thirty-{width}")

    page.locator("#id_server_filter").press_sequentially("speedrun", delay=40)
    expect(page.locator("#server-list .server-card")).to_have_count(2)
    assert card_names(page) == ["Speedrun Hub", "Zelda Speedruns"]
    expect(page.locator("#server-list .list-bar")).to_contain_text("2 of 30 servers")
    assert "q=speedrun" in page.url  # the address follows: a reload or a shared link shows the same list
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"home-filtered-{width}")

    page.reload()
    expect(page.locator("#id_server_filter")).to_have_value("speedrun")
    assert card_names(page) == ["Speedrun Hub", "Zelda Speedruns"]

    page.locator("#id_server_filter").fill("")
    page.locator("#id_server_filter").press_sequentially("zzz", delay=40)
    expect(page.locator("#server-list")).to_contain_text("No server, team or guild id matches “zzz”.")


def test_enter_in_the_filter_box_filters_in_place(live_server, thirty, page):
    log_in(page, live_server, "viewer")
    page.locator("#id_server_filter").fill("chess")
    page.locator("#id_server_filter").press("Enter")
    expect(page.locator("#server-list .server-card")).to_have_count(1)
    assert card_names(page) == ["Chess Club"]
    assert page.locator("#id_server_filter").input_value() == "chess"
