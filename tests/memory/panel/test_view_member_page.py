"""A page per member (issue 25): a viewer sees the member's name and id, the facts about them and learned from their
messages (in force and retracted, with audiences) and their recent exchanges; a configure user also gets *Wipe this
member* with the count first, one click from the confirmation; every member id on the panel links here."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from memory.bot.exchanges import IncomingMessage, exchange_open
from memory.configuration.directory import SeenMember, members_seen
from memory.facts.selectors import MEMBER_PAGE_FACTS
from memory.facts.services import FactAuthor, fact_retract
from memory.models import Audience
from tests.conftest import logged_in_client
from tests.factories import make_fact, make_facts_in_bulk

PAUL, MIRA = "222", "333"


@pytest.fixture
def pauls_memory(server):
    members_seen(server=server, members=[SeenMember(PAUL, "Paul")])
    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope="member", member_id=PAUL)
    fact_retract(fact=make_fact(server, key="paul_city", content="Paul lives in Ghent.", scope="member",
                                member_id=PAUL), reason="he moved")
    make_fact(server, key="raid_night", content="Raids are on Thursday.", author=FactAuthor.bot(PAUL),
              audience=Audience.STAFF)
    make_fact(server, key="mira_game", content="Mira plays Go.", scope="member", member_id=MIRA)
    exchange_open(server=server, message=IncomingMessage(channel_id="111", author_id=PAUL, author_name="Paul",
                                                         content="When is my birthday, Lorekeeper?"))
    return reverse("memory:member", args=[server.guild_id, PAUL])


def test_a_viewer_sees_what_is_known_about_the_member_and_learned_from_them(member, pauls_memory):
    page = logged_in_client(member).get(pauls_memory).content.decode()
    assert "Paul" in page and "(222)" in page
    assert "Paul&#x27;s birthday is 3 May." in page and "Paul lives in Ghent." in page  # in force and retracted
    assert "he moved" in page and "Raids are on Thursday." in page and "Staff only" in page
    assert "Mira plays Go." not in page
    assert "When is my birthday, Lorekeeper?" in page
    assert "Wipe this member" not in page


def test_a_moderator_sees_it_as_a_viewer_does(moderator, pauls_memory):
    page = logged_in_client(moderator).get(pauls_memory).content.decode()
    assert "Paul&#x27;s birthday is 3 May." in page and "Wipe this member" not in page


def test_a_configure_user_gets_the_wipe_with_the_count_and_it_leads_to_the_confirmation(owner, server, pauls_memory):
    client = logged_in_client(owner)
    page = client.get(pauls_memory).content.decode()
    assert "A wipe deletes 3 facts about them or learned from them and 1 exchange" in page
    wipe = reverse("memory:wipe", args=[server.guild_id]) + f"?target=member&amp;member_id={PAUL}"
    assert f'href="{wipe}"' in page
    confirm = client.get(wipe.replace("&amp;", "&")).content.decode()
    assert "3 facts" in confirm and "1 exchange" in confirm and "confirmation" in confirm


def test_a_member_with_nothing_stored_gets_an_empty_page_and_nothing_to_wipe(owner, server):
    page = logged_in_client(owner).get(reverse("memory:member", args=[server.guild_id, "999"])).content.decode()
    assert "Member 999" in page and "No facts about this member." in page
    assert "there is nothing to wipe" in page


def test_anonymous_is_sent_to_log_in_and_another_team_sees_nothing(client, outsider, pauls_memory):
    assert client.get(pauls_memory).status_code == 302
    assert logged_in_client(outsider).get(pauls_memory).status_code == 404


def test_a_member_id_that_is_not_a_discord_id_is_a_404(member, server):
    assert logged_in_client(member).get(reverse("memory:member", args=[server.guild_id, "paul"])).status_code == 404


def test_member_ids_on_the_memory_page_and_the_exchange_log_link_to_the_page(member, server, pauls_memory):
    client = logged_in_client(member)
    memory_page = client.get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert f'href="{pauls_memory}"' in memory_page
    exchanges = client.get(reverse("memory:exchanges", args=[server.guild_id])).content.decode()
    assert f'href="{pauls_memory}"' in exchanges


def test_a_busy_members_lists_come_a_page_at_a_time_newest_first_and_counted_whole(member, server):
    """A member with many facts: each list shows MEMBER_PAGE_FACTS of them, counted whole, and its *older ones*
    link walks on without repeating or skipping one, the other list staying where it was."""
    make_facts_in_bulk(server, MEMBER_PAGE_FACTS * 2 + 3, key="paul_note", content="Paul note {n}.", scope="member",
                       member_id=PAUL, step=timedelta(0))  # one changed_at for all: the id decides the order
    make_facts_in_bulk(server, MEMBER_PAGE_FACTS + 1, key="heard", content="Heard from Paul {n}.",
                       author_kind="bot", learned_from_member_id=PAUL)
    client, url = logged_in_client(member), reverse("memory:member", args=[server.guild_id, PAUL])
    seen, page = [], client.get(url).content.decode()
    assert f"({MEMBER_PAGE_FACTS * 2 + 3})" in page and f"({MEMBER_PAGE_FACTS + 1})" in page
    assert "Heard from Paul 0." in page and f"Heard from Paul {MEMBER_PAGE_FACTS}." not in page
    while True:
        shown = [int(n) for n in re.findall(r"Paul note (\d+)\.", page)]
        assert len(shown) <= MEMBER_PAGE_FACTS
        seen += shown
        older = re.search(r'<a href="(\?about_after=[^"&]+&amp;learned_after=)" rel="next">older ones</a>', page)
        if older is None:
            break
        page = client.get(url + html.unescape(older.group(1))).content.decode()
        assert "Heard from Paul 0." in page  # the other list is still on its newest page
    assert seen == list(range(MEMBER_PAGE_FACTS * 2 + 2, -1, -1))  # one changed_at: the higher id first


def test_the_recent_exchanges_link_the_exchange_log_filtered_by_the_member(member, server, pauls_memory):
    page = logged_in_client(member).get(pauls_memory).content.decode()
    assert f'href="{reverse("memory:exchanges", args=[server.guild_id])}?member={PAUL}"' in page
    log = logged_in_client(member).get(reverse("memory:exchanges", args=[server.guild_id]), {"member": PAUL})
    assert "When is my birthday, Lorekeeper?" in log.content.decode()


def test_a_paging_position_past_any_date_starts_at_the_newest_instead_of_failing(member, pauls_memory):
    client = logged_in_client(member)
    for position in ("999999999999999999.1", "99999999999999999999.1", "12.x", ""):
        response = client.get(pauls_memory, {"about_after": position, "learned_after": position})
        assert response.status_code == 200 and "birthday is 3 May." in response.content.decode()
