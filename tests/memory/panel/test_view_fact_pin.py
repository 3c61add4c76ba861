"""Pinning a fact from the memory page (one click, audited, configure users only) and the pinned block: pinned facts
first, in the order every reply takes them, and which ones the pinned caps leave out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from memory.configuration.services import ai_settings_update
from memory.facts.services import FactAuthor, fact_pin_set, fact_retract
from memory.models import Audience, Fact
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
FROM_BLOCK = {**HTMX, "HX-Target": "pinned-facts"}


def pin_url(fact: Fact) -> str:
    return reverse("memory:fact-pin", args=[fact.server.guild_id, fact.number])


def pinned_url(server) -> str:
    return reverse("memory:pinned", args=[server.guild_id])


def block_of(page: str) -> str:
    start = page.index('<section id="pinned-facts"')
    return page[start:page.index("</section>", start)]


def test_pinning_from_a_row_answers_the_fresh_row_audits_and_reloads_the_pinned_block(owner, server):
    fact = make_fact(server, key="no_public_support", content="Do not give support in public channels.")
    response = logged_in_client(owner).post(pin_url(fact), {"pinned": "true"}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert Fact.objects.get(pk=fact.pk).pinned
    assert f'id="fact-{server.pk}-{fact.number}"' in page
    assert ">Pinned</span>" in page
    assert 'name="pinned" value="false"' in page  # the button now unpins
    assert "autofocus" in page.split('name="pinned" value="false"')[1].split(">")[0]
    assert "pins-changed" in response["HX-Trigger-After-Settle"]
    assert AuditEntry.objects.filter(server=server, action="fact.pin", actor=owner).count() == 1


def test_unpinning_from_a_row_clears_the_marker_and_audits(owner, server):
    fact = make_fact(server)
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    response = logged_in_client(owner).post(pin_url(fact), {"pinned": "false"}, headers=HTMX)
    assert response.status_code == 200
    assert not Fact.objects.get(pk=fact.pk).pinned
    assert ">Pinned</span>" not in response.content.decode()
    assert AuditEntry.objects.filter(server=server, action="fact.unpin").count() == 1


def test_unpinning_from_the_pinned_block_answers_the_block_and_reloads_the_list(owner, server):
    fact = make_fact(server, key="speak_french", content="This server speaks French.")
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    response = logged_in_client(owner).post(pin_url(fact), {"pinned": "false"}, headers=FROM_BLOCK)
    page = response.content.decode()
    assert response.status_code == 200
    assert '<section id="pinned-facts"' in page
    assert "No fact is pinned." in page
    assert "facts-changed" in response["HX-Trigger-After-Settle"]
    assert not Fact.objects.get(pk=fact.pk).pinned


def test_pinning_twice_changes_nothing_the_second_time(owner, server):
    fact = make_fact(server)
    client = logged_in_client(owner)
    client.post(pin_url(fact), {"pinned": "true"}, headers=HTMX)
    client.post(pin_url(fact), {"pinned": "true"}, headers=HTMX)
    assert AuditEntry.objects.filter(server=server, action="fact.pin").count() == 1
    assert Fact.objects.get(pk=fact.pk).version == 2


def test_a_retracted_fact_cannot_be_pinned_the_row_says_why_and_nothing_changes(owner, server):
    fact = make_fact(server)
    fact_retract(fact=fact, reason="moved")
    response = logged_in_client(owner).post(pin_url(fact), {"pinned": "true"}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 422
    assert f"Fact #{fact.number} is retracted; restore it before pinning it." in page
    assert f'id="fact-{server.pk}-{fact.number}"' in page
    assert not Fact.objects.get(pk=fact.pk).pinned
    assert not AuditEntry.objects.filter(server=server, action="fact.pin").exists()


@pytest.mark.parametrize("data", [{}, {"pinned": "yes"}, {"pinned": ""}], ids=["missing", "yes", "empty"])
def test_a_value_that_is_neither_pin_nor_unpin_is_told_and_changes_nothing(owner, server, data):
    fact = make_fact(server)
    response = logged_in_client(owner).post(pin_url(fact), data, headers=HTMX)
    assert response.status_code == 422
    sentence = "Say whether to pin the fact or unpin it: &#x27;true&#x27; or &#x27;false&#x27;."
    assert sentence in response.content.decode()
    assert Fact.objects.get(pk=fact.pk).version == 1
    assert not AuditEntry.objects.filter(server=server, action__startswith="fact.").exclude(
        action="fact.create").exists()


def test_without_script_a_pin_answers_the_facts_own_page(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(pin_url(fact), {"pinned": "true"})
    assert response.status_code == 200
    assert f"<h1>Fact #{fact.number}</h1>" in response.content.decode()


def test_a_pin_of_a_fact_of_another_server_or_a_missing_number_is_404(owner, server, other_server):
    theirs = make_fact(other_server)
    assert logged_in_client(owner).post(pin_url(theirs), {"pinned": "true"}).status_code == 404
    missing = reverse("memory:fact-pin", args=[server.guild_id, 99])
    assert logged_in_client(owner).post(missing, {"pinned": "true"}, headers=HTMX).status_code == 404
    assert not Fact.objects.get(pk=theirs.pk).pinned


def test_viewers_see_the_pinned_marker_and_block_but_no_pin_button(member, owner, server):
    fact = make_fact(server, key="speak_french", content="This server speaks French.")
    make_fact(server, key="other", content="Something else.")
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    page = logged_in_client(member).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert ">Pinned</span>" in page
    assert "This server speaks French." in block_of(page)
    assert 'name="pinned"' not in page


def test_the_owner_gets_a_pin_button_on_every_fact_in_force(owner, server):
    make_fact(server, key="a", content="A.")
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert 'name="pinned" value="true"' in page


def test_the_pinned_block_comes_before_the_fact_list(owner, server):
    fact = make_fact(server, key="speak_french", content="This server speaks French.")
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    page = logged_in_client(owner).get(reverse("memory:page"), {"server": server.guild_id}).content.decode()
    assert page.index('id="pinned-facts"') < page.index('id="fact-list"')


def test_the_pinned_block_has_its_own_fragment_and_page(member, owner, server):
    fact = make_fact(server, key="speak_french", content="This server speaks French.")
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    fragment = logged_in_client(member).get(pinned_url(server), headers=HTMX).content.decode()
    assert "<html" not in fragment and "This server speaks French." in fragment
    page = logged_in_client(member).get(pinned_url(server)).content.decode()
    assert "<html" in page and "Pinned facts of Retro Arcade" in page


def _pinned(server, actor, count: int, *, content: str = "Rule number {i} of the server.") -> list[Fact]:
    now = timezone.now()
    facts = []
    for i in range(count):
        fact = make_fact(server, key=f"rule_{i}", content=content.format(i=i), kind="rule",
                         author=FactAuthor.staff(actor), created_at=now - timedelta(days=count - i))
        facts.append(fact_pin_set(fact=fact, pinned=True, actor=actor))
    return facts


def test_the_block_lists_pinned_facts_in_the_order_replies_take_them_oldest_change_first(owner, server):
    facts = _pinned(server, owner, 3)
    block = block_of(logged_in_client(owner).get(pinned_url(server), headers=HTMX).content.decode())
    positions = [block.index(f">rule_{i}<") for i in range(3)]
    assert positions == sorted(positions)
    assert all(f"#{fact.number}" in block for fact in facts)


def test_past_the_pinned_item_cap_the_block_says_which_facts_do_not_fit(owner, server):
    facts = _pinned(server, owner, 4)
    ai_settings_update(server=server, actor=owner, pinned_max_items=2)
    block = block_of(logged_in_client(owner).get(pinned_url(server), headers=HTMX).content.decode())
    assert "2 pinned facts do not fit the pinned caps:" in block
    # the oldest change first: the two newest are past the caps
    assert f"#{facts[2].number}</a> (in every reply)" in block
    assert f"#{facts[3].number}</a> (in every reply)" in block
    assert "They are not handed first; like any other fact they may still come in" in block
    assert block.count(">past the caps</span>") == 2


def test_past_the_pinned_character_cap_the_first_fact_that_no_longer_fits_and_those_after_it_are_cut(owner, server):
    facts = _pinned(server, owner, 4, content="x" * 300 + " {i}")
    short = _pinned(server, owner, 1, content="Short.")[0]  # would fit, but comes after the first that does not
    ai_settings_update(server=server, actor=owner, pinned_max_chars=700)
    block = block_of(logged_in_client(owner).get(pinned_url(server), headers=HTMX).content.decode())
    assert "3 pinned facts do not fit the pinned caps:" in block
    assert f"#{facts[0].number}</a> (in every reply)" not in block
    assert all(f"#{fact.number}</a> (in every reply)" in block for fact in (facts[2], facts[3], short))


def test_a_pinned_fact_for_one_channel_counts_against_the_caps_only_there(owner, server):
    now = timezone.now()
    channel_fact = make_fact(server, key="mods_rule", content="Mods answer within a day.", kind="rule",
                             audience=Audience.CHANNEL, source_channel_id="333", author=FactAuthor.staff(owner),
                             created_at=now - timedelta(days=9))
    fact_pin_set(fact=channel_fact, pinned=True, actor=owner)
    server_fact = _pinned(server, owner, 1)[0]  # changed later: after the channel's pin in channel 333
    ai_settings_update(server=server, actor=owner, pinned_max_items=1)
    block = block_of(logged_in_client(owner).get(pinned_url(server), headers=HTMX).content.decode())
    assert f"#{server_fact.number}</a> (in channel 333)" in block  # it fits in every other channel
    assert ">past the caps in channel 333</span>" in block
    assert "(in every reply)" not in block and ">past the caps</span>" not in block


def test_a_staff_only_pinned_fact_is_said_never_to_be_in_a_reply(owner, server):
    fact = make_fact(server, key="note", content="Staff note.", audience=Audience.STAFF)
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    block = block_of(logged_in_client(owner).get(pinned_url(server), headers=HTMX).content.decode())
    assert "staff only: never in a reply" in block
    assert "not fit" not in block


def test_editing_or_deleting_a_pinned_fact_reloads_the_pinned_block(owner, server):
    fact = make_fact(server)
    fact_pin_set(fact=fact, pinned=True, actor=owner)
    client = logged_in_client(owner)
    edited = client.post(reverse("memory:fact", args=[server.guild_id, fact.number]),
                         {"key": "server_theme", "content": "Retro games.", "confidence": "1", "version": "2"},
                         headers=HTMX)
    assert edited.status_code == 200 and "pins-changed" in edited["HX-Trigger-After-Settle"]
    deleted = client.post(reverse("memory:fact-delete", args=[server.guild_id, fact.number]), headers=HTMX)
    assert "pins-changed" in deleted["HX-Trigger-After-Settle"]


def test_editing_a_fact_that_is_not_pinned_leaves_the_pinned_block_alone(owner, server):
    fact = make_fact(server)
    edited = logged_in_client(owner).post(reverse("memory:fact", args=[server.guild_id, fact.number]),
                                          {"key": "server_theme", "content": "Retro.", "confidence": "1",
                                           "version": "1"}, headers=HTMX)
    assert "pins-changed" not in edited.get("HX-Trigger-After-Settle", "")
    assert "fact-history-changed" in edited["HX-Trigger-After-Settle"]  # its page's timeline, not the block
