"""Who may see a fact, in a real browser: staff narrow a fact to its channel and the playground in another channel no
longer shows it; the memory page's audiences, filters and the widening confirmation; purge by source; forget-me
requests (desktop and phone widths, screenshots in tests/artifacts)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from memory.configuration.directory import ReportedChannel, channels_report
from memory.configuration.services import model_endpoint_set
from memory.facts.forget_requests import forget_me
from memory.facts.services import FactAuthor
from memory.models import Audience, Exchange, Fact, ForgetRequest, ForgetRequestStatus, ModelPurpose
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.model_server import FakeModelServer

from .conftest import screenshot
from .test_memory_page import GUILD, arcade, log_in  # noqa: F401 (arcade is a fixture)

pytestmark = pytest.mark.browser
GENERAL, MODS, OFF_TOPIC, BAN_THREAD = "300000000000000001", "300000000000000002", "300000000000000003", \
    "300000000000000004"
NOVA, MIA = "200000000000000013", "200000000000000021"
VAULT = "The vault code is PLUMTREE-7."


@pytest.fixture
def channels(arcade):  # noqa: F811
    channels_report(server=arcade, channels=[
        ReportedChannel(channel_id=GENERAL, name="general", public=True),
        ReportedChannel(channel_id=OFF_TOPIC, name="off-topic", public=True),
        ReportedChannel(channel_id=MODS, name="mod-chat"),
        ReportedChannel(channel_id=BAN_THREAD, name="ban talk", parent_id=MODS, is_thread=True),
    ])
    return arcade


@pytest.fixture
def model():
    server = FakeModelServer().start()
    yield server
    server.stop()


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def row(page, fact: Fact):
    return page.locator(f"#fact-{fact.server_id}-{fact.number}")


def open_memory(page, live_server, query: str = "") -> None:
    page.goto(f"{live_server.url}/memory/?server={GUILD}{query}")
    page.wait_for_selector("#fact-list")


def talk_in(page, live_server, channel_id: str, message: str) -> str:
    """Send a message in the playground (as its default member) in that channel; the memory block the bot was handed."""
    page.goto(f"{live_server.url}/servers/{GUILD}/playground/")
    page.fill("#id_channel_id", channel_id)
    page.fill("textarea[name=message]", message)
    page.click("button:has-text('Send')")
    page.wait_for_selector("#playground-result .reply-text")
    return page.inner_text("#playground-result .memory-block")


def test_staff_narrow_a_fact_to_its_channel_and_the_playground_in_another_channel_no_longer_shows_it(
        live_server, channels, model, page):
    """Needs the read path of issue 19 (memory.retrieval obeying the audience in its statements) as well as the
    panel: the memory page narrows the fact; the bot's reads must then leave it out in #off-topic."""
    owner = get_user_model().objects.get(username="owner")
    model_endpoint_set(server=channels, actor=owner, purpose=ModelPurpose.REPLY, base_url=model.base_url,
                       model_name="fake", api_key="sk-test-0123456789abcdef")
    vault = make_fact(channels, key="vault_code", content=VAULT, author=FactAuthor.bot(NOVA),
                      source_channel_id=GENERAL)
    log_in(page, live_server, "owner")
    assert VAULT in talk_in(page, live_server, OFF_TOPIC, "What is the vault code?")  # for the whole server

    open_memory(page, live_server)
    expect(row(page, vault).locator(".badge-audience")).to_have_text("Server")
    row(page, vault).locator("button[name=audience][value=channel]").click()
    expect(row(page, vault).locator(".badge-audience")).to_have_text("#general")
    expect(row(page, vault).locator("button[name=audience][value=channel]")).to_have_attribute("aria-pressed", "true")
    assert (Fact.objects.get(pk=vault.pk).audience, AuditEntry.objects.get(action="fact.audience").result) == (
        Audience.CHANNEL, "server → #general")

    assert VAULT in talk_in(page, live_server, GENERAL, "What is the vault code?")  # its own channel still sees it
    requests_before = len(model.requests)
    elsewhere = talk_in(page, live_server, OFF_TOPIC, "What is the vault code?")
    assert "PLUMTREE" not in elsewhere
    assert all("PLUMTREE" not in str(body) for body in model.requests[requests_before:])


@pytest.fixture
def audiences(channels):
    owner = get_user_model().objects.get(username="owner")
    return {
        "ban": make_fact(channels, key="ban_list", content="Zed the spammer is banned until June.",
                         author=FactAuthor.bot(MIA), audience=Audience.CHANNEL, source_channel_id=MODS,
                         source_thread_id=BAN_THREAD),
        "raid": make_fact(channels, key="raid_time", content="Raids start at 8 pm on Fridays.",
                          author=FactAuthor.bot(NOVA), source_channel_id=GENERAL),
        "watch": make_fact(channels, key="watch_zed", content="Keep an eye on Zed's alt accounts.",
                           author=FactAuthor.staff(owner), audience=Audience.STAFF),
        "unreported": make_fact(channels, key="old_rule", content="No memes before noon.", author=FactAuthor.bot(NOVA),
                                audience=Audience.CHANNEL, source_channel_id="300000000000000099"),
    }


@pytest.mark.parametrize("width", [1280, 390])
def test_the_memory_page_shows_who_sees_each_fact_filters_by_it_and_confirms_a_widening(live_server, audiences,
                                                                                        page, width):
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    expect(row(page, audiences["ban"]).locator(".badge-audience")).to_have_text("#mod-chat")
    expect(row(page, audiences["ban"]).locator(".fact-meta")).to_contain_text(
        "learned in #mod-chat (in thread #ban talk)")
    expect(row(page, audiences["raid"]).locator(".badge-audience")).to_have_text("Server")
    expect(row(page, audiences["watch"]).locator(".badge-audience")).to_have_text("Staff only")
    expect(row(page, audiences["unreported"]).locator(".badge-audience")).to_have_text("channel 300000000000000099")
    fits(page, width)
    screenshot(page, f"memory-audiences-{width}")

    page.select_option("#id_channel", MODS)
    expect(page.locator("#fact-rows .fact")).to_have_count(1)
    expect(page).to_have_url(re.compile(rf"[?&]channel={MODS}(&|$)"))
    page.locator(".audience-filter a", has_text="one channel").click()  # the channel filter stays
    expect(page.locator(".audience-filter a[aria-current=true]")).to_have_text("one channel")
    expect(page).to_have_url(re.compile(rf"[?&]channel={MODS}&audience=channel(&|$)"))
    expect(page.locator("#fact-rows .fact")).to_have_count(1)
    page.select_option("#id_channel", "")  # and the audience filter stays: both channel facts
    expect(page.locator("#fact-rows .fact")).to_have_count(2)
    page.locator(".audience-filter a", has_text="staff only").click()
    expect(page.locator("#fact-rows .fact")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"[?&]audience=staff(&|$)"))
    fits(page, width)
    screenshot(page, f"memory-audience-filtered-{width}")

    open_memory(page, live_server)
    row(page, audiences["ban"]).locator("button[name=audience][value=server]").click()
    confirm = row(page, audiences["ban"])
    expect(confirm).to_contain_text(f"#{audiences['ban'].number} was learned in #mod-chat, a private channel.")
    assert Fact.objects.get(pk=audiences["ban"].pk).audience == Audience.CHANNEL
    fits(page, width)
    screenshot(page, f"memory-audience-confirm-{width}")
    confirm.locator("button:has-text('Cancel')").click()
    expect(row(page, audiences["ban"]).locator(".badge-audience")).to_have_text("#mod-chat")
    row(page, audiences["ban"]).locator("button[name=audience][value=server]").click()
    row(page, audiences["ban"]).locator("button:has-text('Show it in every channel')").click()
    expect(row(page, audiences["ban"]).locator(".badge-audience")).to_have_text("Server")
    assert Fact.objects.get(pk=audiences["ban"].pk).audience == Audience.SERVER

    page.click("summary:has-text('Add a fact')")
    form = page.locator("#fact-create")
    form.locator("input[name=key]").fill("mod_rota")
    form.locator("textarea[name=content]").fill("Ann moderates on Mondays.")
    form.locator("input[name=audience][value=channel]").check()
    form.locator("select[name=channel_id]").select_option(MODS)
    fits(page, width)
    screenshot(page, f"memory-add-fact-audience-{width}")
    form.locator("button:has-text('Add fact')").click()
    added = page.locator("#fact-rows .fact", has_text="mod_rota")
    expect(added.locator(".badge-audience")).to_have_text("#mod-chat")
    assert Fact.objects.get(key="mod_rota").source_channel_id == MODS


@pytest.mark.parametrize("width", [1280, 390])
def test_purge_by_source_counts_before_it_deletes(live_server, audiences, page, width):
    Fact.objects.filter(pk=audiences["raid"].pk).update(source_channel_id=MODS)
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    page.click("a:has-text('Purge by source…')")
    expect(page.locator("input[name=source]:checked")).to_have_count(0)
    fits(page, width)
    screenshot(page, f"purge-choice-{width}")

    page.check("input[name=source][value=channel]")
    page.fill("#id_channel", "#nowhere")
    page.click("button:has-text('Continue')")
    expect(page.locator("#id_channel_errors")).to_contain_text("No channel called #nowhere was reported")
    page.fill("#id_channel", "#mod-chat")
    page.click("button:has-text('Continue')")
    expect(page.locator(".wipe-items")).to_contain_text("2 facts learned there or in its threads: 2 in force")
    expect(page.locator(".purge-preview li")).to_have_count(2)
    assert Fact.objects.filter(server=audiences["ban"].server).count() == 7
    fits(page, width)
    screenshot(page, f"purge-confirm-{width}")

    page.click("button:has-text('Purge 2 facts')")
    expect(page.locator(".message-success")).to_have_text("Purged 2 facts learned in #mod-chat.")
    assert not Fact.objects.filter(key__in=["ban_list", "raid_time"]).exists() and Fact.objects.count() == 5


@pytest.mark.parametrize("width", [1280, 390])
def test_forget_me_requests_are_counted_on_the_memory_page_and_answered_on_their_own(live_server, audiences, page,
                                                                                   width):
    server = audiences["ban"].server
    Exchange.objects.create(server=server, channel_id=GENERAL, author_id=NOVA, message="Forget me, please.",
                            memory_type="classic")
    nova = forget_me(server=server, member_id=NOVA, member_name="Nova").request
    forget_me(server=server, member_id=MIA, member_name="Mia")
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server, "owner")
    open_memory(page, live_server)
    link = page.locator(".subnav a", has_text="Forget-me requests")
    expect(link).to_contain_text("2 waiting")
    link.click()
    expect(page.locator("#forget-requests-waiting > li")).to_have_count(2)
    fits(page, width)
    screenshot(page, f"forget-requests-{width}")

    nova_row = page.locator(f"#forget-request-{nova.pk}")
    nova_row.locator("a:has-text('Wipe…')").click()
    expect(nova_row).to_contain_text("2 facts about them or learned from their messages")
    expect(nova_row).to_contain_text("1 exchange of theirs")
    fits(page, width)
    screenshot(page, f"forget-request-wipe-{width}")
    nova_row.locator("button:has-text('Wipe 2 facts and 1 exchange')").click()
    expect(page.locator("#forget-requests > .message")).to_have_text(f"Wiped member {NOVA}: 2 facts removed.")
    expect(page.locator(f"#forget-requests-answered #forget-request-{nova.pk}")).to_contain_text("Wiped by owner")
    expect(page.locator("h2", has_text="Waiting for staff")).to_have_text("Waiting for staff (1)")
    fits(page, width)
    screenshot(page, f"forget-request-wiped-{width}")
    assert ForgetRequest.objects.get(pk=nova.pk).status == ForgetRequestStatus.WIPED
    assert not Fact.objects.filter(learned_from_member_id=NOVA).exists()
