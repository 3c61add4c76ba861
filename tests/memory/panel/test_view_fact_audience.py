"""Who may see a fact, on the memory page: each row's audience and source channel, the filters by audience and by
channel, the one-click change (a widening of a fact learned in a private channel confirmed first, naming it) and the
audience of a fact added by staff."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from memory.configuration.directory import ReportedChannel, channels_report
from memory.facts.services import FactAuthor
from memory.models import Audience, Fact
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

PAGE = reverse("memory:page")
HTMX = {"HX-Request": "true"}
LIST_FRAGMENT = {"HX-Request": "true", "HX-Target": "fact-list"}
GENERAL, MODS, BAN_THREAD, UNREPORTED = "300000000000000001", "300000000000000002", "300000000000000003", \
    "300000000000000009"
NEW_FACT = {"key": "raid_time", "content": "Raids start at 8 pm.", "confidence": "1", "scope": "server",
            "member_id": ""}


@pytest.fixture
def channels(server):
    channels_report(server=server, channels=[
        ReportedChannel(channel_id=GENERAL, name="general", public=True),
        ReportedChannel(channel_id=MODS, name="mod-chat"),
        ReportedChannel(channel_id=BAN_THREAD, name="ban talk", parent_id=MODS, is_thread=True),
    ])
    return server


def learned_in(server, channel: str, *, audience: str = Audience.CHANNEL, thread: str = "", key: str = "ban_list",
               content: str = "Zed the spammer is banned.") -> Fact:
    return make_fact(server, key=key, content=content, audience=audience, source_channel_id=channel,
                     source_thread_id=thread)


def row_of(page: str, fact: Fact) -> str:
    start = page.rindex("<li", 0, page.index(f'id="fact-{fact.server_id}-{fact.number}"'))
    return page[start:page.index("</li>", start)]


def row_numbers(page: str) -> list[int]:
    return [int(number) for number in re.findall(r'<li class="fact[^"]*" id="fact-\d+-(\d+)"', page)]


def audience_url(fact: Fact) -> str:
    return reverse("memory:fact-audience", args=[fact.server.guild_id, fact.number])


def fresh(fact: Fact) -> Fact:
    return Fact.objects.get(pk=fact.pk)


# Rows ------------------------------------------------------------------------------------------------------------


def test_each_row_shows_its_audience_and_the_source_channel_by_name(member, channels):
    for_mods = learned_in(channels, MODS, thread=BAN_THREAD)
    for_all = learned_in(channels, GENERAL, audience=Audience.SERVER, key="raid_time", content="Raids start at 8.")
    staff_note = make_fact(channels, key="watch_zed", content="Keep an eye on Zed.", audience=Audience.STAFF)
    page = logged_in_client(member).get(PAGE, {"server": channels.guild_id}).content.decode()

    mods_row = row_of(page, for_mods)
    assert 'class="badge badge-audience audience-channel"' in mods_row and ">#mod-chat</span>" in mods_row
    assert "learned in" in mods_row and f"channel={MODS}" in mods_row and "(in thread #ban talk)" in mods_row
    general_row = row_of(page, for_all)
    assert ">Server</span>" in general_row and ">#general</a>" in general_row
    staff_row = row_of(page, staff_note)
    assert ">Staff only</span>" in staff_row and "learned in" not in staff_row


def test_a_channel_nobody_reported_is_shown_by_its_id(member, server):
    fact = learned_in(server, UNREPORTED)
    row = row_of(logged_in_client(member).get(PAGE, {"server": server.guild_id}).content.decode(), fact)
    assert f">channel {UNREPORTED}</span>" in row


def test_the_rows_of_a_page_name_their_channels_in_one_query(member, channels):
    client = logged_in_client(member)

    def queries_for_the_list() -> int:
        with CaptureQueriesContext(connection) as captured:
            client.get(PAGE, {"server": channels.guild_id}, headers=LIST_FRAGMENT)
        return len(captured.captured_queries)

    learned_in(channels, MODS, key="note_a", content="Note a.")
    learned_in(channels, GENERAL, key="note_b", content="Note b.")
    with_two = queries_for_the_list()
    for number in range(30):
        learned_in(channels, MODS if number % 2 else GENERAL, thread=BAN_THREAD if number % 2 else "",
                   key=f"note_{number}", content=f"Note {number}.")
    assert queries_for_the_list() == with_two
    page = client.get(PAGE, {"server": channels.guild_id}, headers=LIST_FRAGMENT).content.decode()
    assert page.count(">#mod-chat</span>") == 16


def test_a_viewer_sees_the_audience_but_no_buttons_that_change_it(member, channels):
    learned_in(channels, MODS)
    page = logged_in_client(member).get(PAGE, {"server": channels.guild_id}).content.decode()
    assert "audience-choice" not in page


def test_a_configure_user_gets_the_three_audiences_with_the_current_one_pressed(owner, channels):
    fact = learned_in(channels, MODS)
    row = row_of(logged_in_client(owner).get(PAGE, {"server": channels.guild_id}).content.decode(), fact)
    assert f'hx-post="{audience_url(fact)}"' in row and f'action="{audience_url(fact)}"' in row
    assert re.search(r'value="channel" aria-pressed="true"[^>]*>#mod-chat</button>', row)
    assert re.search(r'value="server" aria-pressed="false"', row)
    assert re.search(r'value="staff" aria-pressed="false"', row)


# Filters ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def three_audiences(channels):
    return {
        "channel": learned_in(channels, MODS),
        "server": learned_in(channels, GENERAL, audience=Audience.SERVER, key="raid_time", content="Raids at 8."),
        "staff": make_fact(channels, key="watch_zed", content="Keep an eye on Zed.", audience=Audience.STAFF),
        "thread": learned_in(channels, MODS, thread=BAN_THREAD, key="ban_reason", content="Zed spammed links."),
    }


@pytest.mark.parametrize("audience, expected", [
    ("server", ["server"]), ("channel", ["thread", "channel"]), ("staff", ["staff"]),
    ("", ["thread", "staff", "server", "channel"]), ("everyone", ["thread", "staff", "server", "channel"]),
], ids=["server", "channel", "staff", "none", "not an audience"])
def test_the_list_filters_by_audience(member, three_audiences, audience, expected):
    response = logged_in_client(member).get(PAGE, {"server": three_audiences["server"].server.guild_id,
                                                   "audience": audience}, headers=LIST_FRAGMENT)
    assert row_numbers(response.content.decode()) == [three_audiences[name].number for name in expected]


def test_the_list_filters_by_the_channel_facts_were_learned_in_its_threads_included(member, three_audiences):
    guild = three_audiences["server"].server.guild_id
    client = logged_in_client(member)
    in_mods = client.get(PAGE, {"server": guild, "channel": MODS}, headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(in_mods) == [three_audiences["thread"].number, three_audiences["channel"].number]
    in_thread = client.get(PAGE, {"server": guild, "channel": BAN_THREAD}, headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(in_thread) == [three_audiences["thread"].number]
    not_an_id = client.get(PAGE, {"server": guild, "channel": "mods"}, headers=LIST_FRAGMENT)
    assert len(row_numbers(not_an_id.content.decode())) == 4
    assert "channel=mods" not in not_an_id.get("HX-Push-Url", "")


def test_both_filters_and_a_search_narrow_together(member, three_audiences):
    guild = three_audiences["server"].server.guild_id
    page = logged_in_client(member).get(PAGE, {"server": guild, "channel": MODS, "audience": "channel", "q": "zed"},
                                        headers=LIST_FRAGMENT).content.decode()
    assert row_numbers(page) == [three_audiences["thread"].number, three_audiences["channel"].number]


def test_a_common_word_searched_within_one_audience_pages_through_that_audience_only(member, channels):
    """A search for a word most facts hold walks the newest facts (the window walk of memory.facts.listing): the
    audience is tested on the walk itself, so a page is full of that audience's matches and of nothing else."""
    for number in range(150):
        learned_in(channels, MODS if number % 2 else GENERAL,
                   audience=Audience.CHANNEL if number % 2 else Audience.SERVER,
                   key=f"raid_{number}", content=f"Raid {number} starts at eight.")
    for_one_channel = set(Fact.objects.filter(audience=Audience.CHANNEL).values_list("number", flat=True))
    client = logged_in_client(member)
    first = client.get(PAGE, {"server": channels.guild_id, "audience": "channel", "q": "raid"},
                       headers=LIST_FRAGMENT).content.decode()
    assert len(row_numbers(first)) == 50 and set(row_numbers(first)) <= for_one_channel
    assert ">75 facts matching “raid”<" in first
    later = re.search(r'<a href="([^"]+)" rel="next">', first).group(1).replace("&amp;", "&")
    second = client.get(PAGE + later, headers=LIST_FRAGMENT).content.decode()
    assert set(row_numbers(first)) | set(row_numbers(second)) == for_one_channel


def test_filters_are_links_and_a_form_that_work_without_script_and_keep_the_other_filters(member, three_audiences):
    guild = three_audiences["server"].server.guild_id
    page = logged_in_client(member).get(PAGE, {"server": guild, "channel": MODS, "sort": "number"}).content.decode()
    filters = page[page.index('class="list-filters"'):page.index('class="list-bar"')]
    assert f'href="?server={guild}&amp;channel={MODS}&amp;sort=number&amp;audience=staff"' in filters
    assert 'aria-current="true">anyone</a>' in filters
    form = filters[filters.index('<form class="channel-filter"'):]
    assert 'method="get"' in form and 'hx-trigger="change"' in form
    assert f'<input type="hidden" name="server" value="{guild}">' in form
    assert '<input type="hidden" name="sort" value="number">' in form
    assert f'<option value="{MODS}" selected>#mod-chat</option>' in form
    assert f'<option value="{BAN_THREAD}"' not in form  # a thread's facts are its channel's
    state = page[page.index('id="fact-list-state"'):]
    assert f'<input type="hidden" name="channel" value="{MODS}">' in state[:state.index("</div>")]


def test_a_filter_the_list_ignored_leaves_the_address(member, three_audiences):
    guild = three_audiences["server"].server.guild_id
    response = logged_in_client(member).get(PAGE, {"server": guild, "audience": "everyone"}, headers=LIST_FRAGMENT)
    assert "audience" not in response["HX-Push-Url"]


# One click -------------------------------------------------------------------------------------------------------


def test_narrowing_a_fact_to_its_channel_answers_the_row_updated_and_audits_it(owner, channels):
    fact = learned_in(channels, GENERAL, audience=Audience.SERVER)
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "channel"}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith(f'<li class="fact" id="fact-{channels.pk}-{fact.number}"')
    assert ">#general</span>" in page and "<html" not in page
    assert re.search(r'value="channel" aria-pressed="true" autofocus', page)
    assert (fresh(fact).audience, fresh(fact).source_channel_id) == (Audience.CHANNEL, GENERAL)
    assert AuditEntry.objects.get(action="fact.audience").result == "server → #general"


def test_hiding_a_fact_from_the_bot_needs_no_confirmation(owner, channels):
    fact = learned_in(channels, MODS)
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "staff"}, headers=HTMX)
    assert response.status_code == 200 and ">Staff only</span>" in response.content.decode()
    assert fresh(fact).audience == Audience.STAFF


def test_widening_a_fact_learned_in_a_private_channel_asks_first_and_names_the_channel(owner, channels):
    fact = learned_in(channels, MODS)
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "server"}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 409
    assert f"#{fact.number} was learned in #mod-chat, a private channel." in page
    assert "to members who cannot read #mod-chat" in page
    assert 'name="confirm" value="on"' in page and 'name="audience" value="server"' in page
    assert "Show it in every channel</button>" in page
    assert f'hx-get="{fact.url_base}"' in page  # Cancel brings the row back
    assert fresh(fact).audience == Audience.CHANNEL
    assert not AuditEntry.objects.filter(action="fact.audience").exists()


def test_the_confirmed_widening_is_saved_and_audited(owner, channels):
    fact = learned_in(channels, MODS)
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "server", "confirm": "on"},
                                            headers=HTMX)
    assert response.status_code == 200 and ">Server</span>" in response.content.decode()
    assert fresh(fact).audience == Audience.SERVER
    assert AuditEntry.objects.get(action="fact.audience").result == "#mod-chat → server"


def test_a_staff_only_fact_learned_in_a_private_channel_is_confirmed_before_the_bot_gets_it_there(owner, channels):
    fact = learned_in(channels, MODS, audience=Audience.STAFF)
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "channel"}, headers=HTMX)
    assert response.status_code == 409
    assert "The bot will be handed it again in #mod-chat and its threads." in response.content.decode()


def test_widening_a_fact_learned_in_a_public_channel_needs_no_confirmation(owner, channels):
    fact = learned_in(channels, GENERAL)
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "server"}, headers=HTMX)
    assert response.status_code == 200 and fresh(fact).audience == Audience.SERVER


def test_a_fact_learned_nowhere_asks_which_channel_then_takes_it(owner, channels):
    fact = make_fact(channels, author=FactAuthor.staff(owner))
    client = logged_in_client(owner)
    asked = client.post(audience_url(fact), {"audience": "channel"}, headers=HTMX)
    page = asked.content.decode()
    assert asked.status_code == 422
    assert "Choose the channel this fact is for." in page
    assert f'<option value="{MODS}">#mod-chat (private)</option>' in page
    assert f'<option value="{GENERAL}">#general</option>' in page
    assert fresh(fact).audience == Audience.SERVER

    chosen = client.post(audience_url(fact), {"audience": "channel", "channel_id": MODS}, headers=HTMX)
    assert chosen.status_code == 200 and ">#mod-chat</span>" in chosen.content.decode()
    assert (fresh(fact).audience, fresh(fact).source_channel_id) == (Audience.CHANNEL, MODS)


@pytest.mark.parametrize("data, message", [
    ({"audience": "everyone"}, "The audience must be &#x27;server&#x27;, &#x27;channel&#x27; or &#x27;staff&#x27;."),
    ({}, "The audience must be"),
    ({"audience": "channel", "channel_id": GENERAL}, "was learned in another channel"),
], ids=["not an audience", "no audience", "another channel"])
def test_bad_input_answers_422_with_a_sentence_and_changes_nothing(owner, channels, data, message):
    fact = learned_in(channels, MODS)
    response = logged_in_client(owner).post(audience_url(fact), data, headers=HTMX)
    assert response.status_code == 422 and message in response.content.decode()
    assert (fresh(fact).audience, fresh(fact).source_channel_id, fresh(fact).version) == (
        Audience.CHANNEL, MODS, fact.version)
    assert not AuditEntry.objects.filter(action="fact.audience").exists()


def test_a_channel_id_that_is_not_a_snowflake_is_refused(owner, channels):
    fact = make_fact(channels, author=FactAuthor.staff(owner))
    response = logged_in_client(owner).post(audience_url(fact), {"audience": "channel", "channel_id": "mods"},
                                            headers=HTMX)
    assert response.status_code == 422
    assert "A Discord channel id is a number of 1–20 digits" in response.content.decode()
    assert fresh(fact).audience == Audience.SERVER


def test_without_htmx_a_change_answers_the_facts_page_and_a_widening_a_confirmation_page(owner, channels):
    fact = learned_in(channels, MODS)
    client = logged_in_client(owner)
    asked = client.post(audience_url(fact), {"audience": "server"})
    page = asked.content.decode()
    assert asked.status_code == 409 and "<html" in page and "Who sees #" in page
    assert "hx-post" not in page[page.index('class="stack audience-ask"'):page.index("</form>")]
    done = client.post(audience_url(fact), {"audience": "staff"})
    assert done.status_code == 200 and f"<h1>Fact #{fact.number}</h1>" in done.content.decode()


def test_a_fact_of_another_server_or_gone_is_404(owner, outsider, other_server, channels):
    theirs = make_fact(other_server)
    assert logged_in_client(owner).post(audience_url(theirs), {"audience": "staff"}).status_code == 404
    assert logged_in_client(owner).post(reverse("memory:fact-audience", args=[channels.guild_id, 999]),
                                        {"audience": "staff"}, headers=HTMX).status_code == 404


@pytest.mark.parametrize("user", ["member", "moderator"])
def test_viewers_and_moderators_may_not_change_an_audience(request, channels, user):
    fact = learned_in(channels, MODS)
    response = logged_in_client(request.getfixturevalue(user)).post(audience_url(fact), {"audience": "staff"},
                                                                    headers=HTMX)
    assert response.status_code == 403 and fresh(fact).audience == Audience.CHANNEL


def test_an_outsider_gets_404_and_an_anonymous_htmx_request_401(client, outsider, channels):
    fact = learned_in(channels, MODS)
    assert logged_in_client(outsider).post(audience_url(fact), {"audience": "staff"}).status_code == 404
    assert client.post(audience_url(fact), {"audience": "staff"}, headers=HTMX).status_code == 401
    assert fresh(fact).audience == Audience.CHANNEL


def test_get_is_405(owner, channels):
    fact = learned_in(channels, MODS)
    assert logged_in_client(owner).get(audience_url(fact)).status_code == 405


# Add a fact ------------------------------------------------------------------------------------------------------


def create(client, server, **changes):
    return client.post(reverse("memory:fact-create", args=[server.guild_id]), {**NEW_FACT, **changes}, headers=HTMX)


def test_add_a_fact_offers_the_three_audiences_with_the_channel_directory(owner, channels):
    page = logged_in_client(owner).get(PAGE, {"server": channels.guild_id}).content.decode()
    form = page[page.index('<form id="fact-create"'):]
    form = form[:form.index("</form>")]
    assert 'name="audience" value="server" checked' in form
    assert 'name="audience" value="channel"' in form and 'name="audience" value="staff"' in form
    assert f'<option value="{GENERAL}">#general</option>' in form
    assert f'<option value="{MODS}">#mod-chat (private)</option>' in form
    assert BAN_THREAD not in form


def test_a_fact_added_for_one_channel_records_it(owner, channels):
    response = create(logged_in_client(owner), channels, audience="channel", channel_id=MODS)
    fact = Fact.objects.get(server=channels)
    assert response.status_code == 200
    assert (fact.audience, fact.source_channel_id, fact.author_kind) == (Audience.CHANNEL, MODS, "staff")
    assert ">#mod-chat</span>" in response.content.decode()


def test_a_staff_only_fact_records_no_channel_even_when_one_was_chosen(owner, channels):
    create(logged_in_client(owner), channels, audience="staff", channel_id=MODS)
    fact = Fact.objects.get(server=channels)
    assert (fact.audience, fact.source_channel_id) == (Audience.STAFF, "")


def test_a_fact_added_without_an_audience_is_for_the_whole_server(owner, channels):
    create(logged_in_client(owner), channels)
    assert Fact.objects.get(server=channels).audience == Audience.SERVER


@pytest.mark.parametrize("changes, message", [
    ({"audience": "channel", "channel_id": ""}, "A fact for one channel needs that channel: choose it."),
    ({"audience": "channel", "channel_id": "general"}, "A Discord channel id is a number of 1–20 digits"),
    ({"audience": "everyone"}, "Choose who sees the fact: the whole server, one channel or staff only."),
], ids=["no channel", "channel not an id", "not an audience"])
def test_a_bad_audience_answers_422_beside_the_field_and_adds_nothing(owner, channels, changes, message):
    response = create(logged_in_client(owner), channels, **changes)
    page = response.content.decode()
    assert response.status_code == 422 and message in page
    assert page.index('name="audience"') < page.index(message)
    assert not Fact.objects.filter(server=channels).exists()


def test_with_no_channel_reported_the_form_takes_a_channel_id(owner, server):
    page = logged_in_client(owner).get(PAGE, {"server": server.guild_id}).content.decode()
    assert 'name="channel_id" value="" inputmode="numeric"' in page
    create(logged_in_client(owner), server, audience="channel", channel_id=UNREPORTED)
    assert Fact.objects.get(server=server).source_channel_id == UNREPORTED
