"""Purge by source: choose a channel (by name or id) or an exchange, see how many facts were learned there, confirm;
every fact learned there goes (its threads too), audited; bad input is told in a sentence and deletes nothing."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from memory.configuration.directory import ReportedChannel, channels_report
from memory.facts.services import fact_retract
from memory.models import Audience, Exchange, Fact
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
GENERAL, MODS, BAN_THREAD, OFF_TOPIC = "300000000000000001", "300000000000000002", "300000000000000003", \
    "300000000000000004"
EXCHANGE_ID = uuid.UUID("5f0c6a52-1d2e-4c3b-9a8f-0123456789ab")


@pytest.fixture
def channels(server):
    channels_report(server=server, channels=[
        ReportedChannel(channel_id=GENERAL, name="general", public=True),
        ReportedChannel(channel_id=MODS, name="mod-chat"),
        ReportedChannel(channel_id=BAN_THREAD, name="ban talk", parent_id=MODS, is_thread=True),
        ReportedChannel(channel_id=OFF_TOPIC, name="off-topic", public=True),
    ])
    return server


@pytest.fixture
def learned(channels):
    """Two facts learned in #mod-chat (one in its thread, one since retracted) and one in #general, learned in the
    exchange EXCHANGE_ID."""
    exchange = Exchange.objects.create(id=EXCHANGE_ID, server=channels, channel_id=GENERAL,
                                       author_id="200000000000000011", message="The raid is at 8.",
                                       memory_type="classic")
    facts = {
        "mods": make_fact(channels, key="ban_list", content="Zed the spammer is banned.", audience=Audience.CHANNEL,
                          source_channel_id=MODS),
        "thread": make_fact(channels, key="ban_reason", content="Zed spammed links.", audience=Audience.CHANNEL,
                            source_channel_id=MODS, source_thread_id=BAN_THREAD),
        "general": make_fact(channels, key="raid_time", content="Raids start at 8.", source_channel_id=GENERAL,
                             source_exchange=exchange),
    }
    fact_retract(fact=facts["thread"], reason="Zed apologised")
    return facts


def purge_url(server) -> str:
    return reverse("memory:purge", args=[server.guild_id])


def test_the_first_step_chooses_nothing_and_offers_the_channel_directory(owner, channels):
    response = logged_in_client(owner).get(purge_url(channels))
    page = response.content.decode()
    assert response.status_code == 200 and "<html" in page
    assert 'name="source" value="channel" required >' in page and "checked" not in page
    assert f'<option value="{MODS}">#mod-chat (private)</option>' in page
    assert f'<option value="{BAN_THREAD}">#ban talk (thread)</option>' in page
    assert f'<option value="{GENERAL}">#general</option>' in page
    assert 'method="get"' in page


def test_the_memory_page_links_the_purge_beside_the_wipe_for_configure_users_only(owner, member, channels):
    link = f'href="{purge_url(channels)}"'
    memory = reverse("memory:page")
    owners = logged_in_client(owner).get(memory, {"server": channels.guild_id}).content.decode()
    assert link in owners and owners.index(link) < owners.index(reverse("memory:wipe", args=[channels.guild_id]))
    assert link not in logged_in_client(member).get(memory, {"server": channels.guild_id}).content.decode()


@pytest.mark.parametrize("typed", ["#mod-chat", "mod-chat", "MOD-CHAT", MODS])
def test_a_channel_typed_by_name_or_id_shows_the_count_first(owner, learned, typed):
    server = learned["mods"].server
    response = logged_in_client(owner).get(purge_url(server), {"source": "channel", "channel": typed})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Purging <strong>#mod-chat</strong> deletes, now and for good:" in page
    assert "<strong>2 facts</strong> learned there or in its threads: 1 in force, 1 retracted" in page
    assert "Purge 2 facts</button>" in page
    assert "Zed the spammer is banned." in page and "(retracted)" in page
    assert f'name="channel" value="{MODS}"' in page
    assert Fact.objects.filter(server=server).count() == 3


def test_confirming_deletes_every_fact_learned_there_and_audits_it(owner, learned):
    server = learned["mods"].server
    client = logged_in_client(owner)
    response = client.post(purge_url(server), {"source": "channel", "channel": MODS})
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('memory:page')}?server={server.guild_id}"
    assert list(Fact.objects.filter(server=server).values_list("key", flat=True)) == ["raid_time"]
    entry = AuditEntry.objects.get(action="memory.purge")
    assert (entry.actor, entry.count, entry.result) == (owner, 2, "2 facts learned in #mod-chat deleted")
    assert "Purged 2 facts learned in #mod-chat." in client.get(response["Location"]).content.decode()


def test_a_thread_purges_only_what_was_learned_in_the_thread(owner, learned):
    server = learned["mods"].server
    client = logged_in_client(owner)
    page = client.get(purge_url(server), {"channel": "#ban talk"}).content.decode()
    assert "<strong>1 fact</strong>" in page
    client.post(purge_url(server), {"source": "channel", "channel": BAN_THREAD})
    assert set(Fact.objects.filter(server=server).values_list("key", flat=True)) == {"ban_list", "raid_time"}


def test_the_exchange_page_links_the_purge_of_what_was_learned_there(owner, member, learned):
    server = learned["mods"].server
    exchange_url = reverse("memory:exchange", args=[server.guild_id, EXCHANGE_ID])
    link = f'href="{purge_url(server)}?exchange={EXCHANGE_ID}"'
    assert link in logged_in_client(owner).get(exchange_url).content.decode()
    assert link not in logged_in_client(member).get(exchange_url).content.decode()
    page = logged_in_client(owner).get(purge_url(server), {"exchange": str(EXCHANGE_ID)}).content.decode()
    assert f"Purging <strong>exchange {EXCHANGE_ID}</strong>" in page
    assert "<strong>1 fact</strong> learned in this exchange: 1 in force, 0 retracted" in page


def test_purging_an_exchange_deletes_the_facts_it_taught_and_keeps_the_exchange(owner, learned):
    server = learned["mods"].server
    logged_in_client(owner).post(purge_url(server), {"source": "exchange", "exchange": str(EXCHANGE_ID)})
    assert not Fact.objects.filter(server=server, key="raid_time").exists()
    assert Fact.objects.filter(server=server).count() == 2 and Exchange.objects.filter(pk=EXCHANGE_ID).exists()
    assert AuditEntry.objects.get(action="memory.purge").result == f"1 fact learned in exchange {EXCHANGE_ID} deleted"


def test_a_channel_where_nothing_was_learned_says_so_and_offers_no_purge(owner, learned):
    server = learned["mods"].server
    page = logged_in_client(owner).get(purge_url(server), {"channel": OFF_TOPIC}).content.decode()
    card = page[page.index('<section id="purge"'):page.index("</section>")]
    assert "No fact was learned in #off-topic or its threads: there is nothing to purge." in card
    assert "Purge 0" not in card and 'method="post"' not in card


def test_a_purge_that_matches_nothing_by_the_time_it_is_confirmed_removes_nothing_and_is_audited(owner, learned):
    server = learned["mods"].server
    response = logged_in_client(owner).post(purge_url(server), {"source": "channel", "channel": OFF_TOPIC},
                                            follow=True)
    assert "Purged 0 facts learned in #off-topic." in response.content.decode()
    assert Fact.objects.filter(server=server).count() == 3
    assert AuditEntry.objects.get(action="memory.purge").count == 0


@pytest.mark.parametrize("data, field, message", [
    ({"source": "channel", "channel": ""}, "channel", "Choose a channel, or enter its id."),
    ({"source": "channel", "channel": "#nowhere"}, "channel",
     "No channel called #nowhere was reported on Retro Arcade. Enter its id instead (a number of 1–20 digits)."),
    ({"source": "exchange", "exchange": ""}, "exchange", "Paste the id of the exchange"),
    ({"source": "exchange", "exchange": "not-an-id"}, "exchange", "An exchange id looks like"),
    ({"source": "exchange", "exchange": str(uuid.uuid4())}, "exchange",
     "No exchange with this id is in the log of Retro Arcade."),
    ({"source": "everything"}, "source", "Choose what to purge: the facts learned in a channel, or in one exchange."),
    ({"source": ""}, "source", "Choose what to purge: the facts learned in a channel, or in one exchange."),
], ids=["no channel", "unknown name", "no exchange", "exchange not an id", "unknown exchange", "unknown source",
        "no source"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_bad_input_answers_422_with_a_sentence_beside_the_field_and_deletes_nothing(owner, learned, data, field,
                                                                                    message, method):
    server = learned["mods"].server
    client = logged_in_client(owner)
    url = purge_url(server)
    response = client.get(url, data) if method == "GET" else client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 422
    assert message in page
    # Beside its field: after a text field, at the top of the choice for the source (as the wipe page shows it).
    assert page.index(f'name="{field}"' if field != "source" else "<legend>What to purge</legend>") < \
        page.index(message) < page.index('name="exchange"' if field != "exchange" else "Continue</button>")
    assert Fact.objects.filter(server=server).count() == 3
    assert not AuditEntry.objects.filter(action="memory.purge").exists()


def test_two_channels_of_one_name_are_told_apart_by_id(owner, channels):
    channels_report(server=channels, channels=[ReportedChannel(channel_id="300000000000000005", name="mod-chat")])
    page = logged_in_client(owner).get(purge_url(channels), {"channel": "#mod-chat"}).content.decode()
    assert "More than one channel is called #mod-chat on Retro Arcade" in page
    assert f"{MODS}, 300000000000000005" in page


def test_an_exchange_of_another_server_is_no_exchange_here(owner, learned, other_server):
    theirs = Exchange.objects.create(server=other_server, channel_id=GENERAL, author_id="200000000000000011",
                                     message="Hi", memory_type="classic")
    response = logged_in_client(owner).get(purge_url(learned["mods"].server), {"exchange": str(theirs.pk)})
    assert response.status_code == 422 and "No exchange with this id is in the log of Retro Arcade." in \
        response.content.decode()


def test_with_htmx_each_step_answers_the_card_alone_and_the_purge_a_client_redirect(owner, learned):
    server = learned["mods"].server
    client = logged_in_client(owner)
    chosen = client.get(purge_url(server), {"channel": MODS}, headers=HTMX).content.decode()
    assert chosen.lstrip().startswith('<section id="purge"') and "<html" not in chosen
    assert 'hx-post="' in chosen and 'hx-target="#purge"' in chosen
    first = client.get(purge_url(server), headers=HTMX).content.decode()
    assert first.lstrip().startswith('<section id="purge"') and 'hx-push-url="true"' in first
    done = client.post(purge_url(server), {"source": "channel", "channel": MODS}, headers=HTMX)
    assert done.status_code == 200 and done["HX-Redirect"] == f"{reverse('memory:page')}?server={server.guild_id}"


@pytest.mark.parametrize("user", ["member", "moderator"])
def test_viewers_and_moderators_may_neither_see_the_count_nor_purge(request, learned, user):
    server = learned["mods"].server
    client = logged_in_client(request.getfixturevalue(user))
    assert client.get(purge_url(server), {"channel": MODS}).status_code == 403
    assert client.post(purge_url(server), {"source": "channel", "channel": MODS}, headers=HTMX).status_code == 403
    assert Fact.objects.filter(server=server).count() == 3


def test_an_outsider_gets_404_and_an_anonymous_visitor_the_login_page(client, outsider, learned):
    server = learned["mods"].server
    assert logged_in_client(outsider).post(purge_url(server), {"source": "channel", "channel": MODS}).status_code \
        == 404
    assert client.post(purge_url(server), {"source": "channel", "channel": MODS}, headers=HTMX).status_code == 401
    assert client.get(purge_url(server))["Location"].startswith(reverse("login"))
    assert Fact.objects.filter(server=server).count() == 3


def test_put_is_405(owner, channels):
    assert logged_in_client(owner).put(purge_url(channels)).status_code == 405
