"""One fact at a time from the memory page: add, edit with a version check, delete, restore."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from memory.facts.services import fact_retract, fact_update
from memory.models import Fact
from teams.models import AuditEntry
from tests.conftest import logged_in_client
from tests.factories import make_fact

HTMX = {"HX-Request": "true"}
NEW_FACT = {"key": "Tournament Day", "content": "The tournament is on Saturday.", "confidence": "0.8",
            "scope": "server", "member_id": ""}


def field_error(page: str, field: str) -> str:
    """The error list Django renders for a field; it must come after the field's input, beside it."""
    match = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', page, flags=re.S)
    assert match, f"no error list for {field}"
    assert page.index(f'name="{field}"') < match.start(), f"the {field} error is not beside its field"
    return match.group(1)


def test_adding_a_fact_answers_its_row_and_a_fresh_form_out_of_band(owner, server):
    response = logged_in_client(owner).post(reverse("memory:fact-create", args=[server.guild_id]), NEW_FACT,
                                            headers=HTMX)
    page = response.content.decode()
    fact = Fact.objects.get(server=server)
    assert response.status_code == 200
    assert (fact.key, fact.content, fact.confidence, fact.author_user) == (
        "tournament_day", "The tournament is on Saturday.", 0.8, owner
    )
    assert f'id="fact-{server.pk}-{fact.number}"' in page
    assert "The tournament is on Saturday." in page
    form = page[page.index('<form id="fact-create"'):]
    assert 'hx-swap-oob="true"' in form[:form.index(">")]
    assert 'name="key" value=""' in form
    assert "The tournament is on Saturday." not in form
    assert "facts-changed" in response["HX-Trigger-After-Settle"]
    assert "<html" not in page


def test_the_fresh_form_says_which_fact_was_added(owner, server):
    """The list reloads at the page the user is on; from page 3 the new row (newest, so on page 1) leaves it."""
    response = logged_in_client(owner).post(reverse("memory:fact-create", args=[server.guild_id]), NEW_FACT,
                                            headers=HTMX)
    fact = Fact.objects.get(server=server)
    form = response.content.decode().split('<form id="fact-create"', 1)[1]
    fact_url = reverse("memory:fact", args=[server.guild_id, fact.number])
    assert (f'role="status">Added <a href="{fact_url}">#{fact.number}</a> '
            '<bdi><code dir="auto">tournament_day</code></bdi>.') in form


def test_adding_a_member_fact_needs_and_shows_the_member_id(owner, server):
    data = {**NEW_FACT, "scope": "member", "member_id": "200000000000000021"}
    response = logged_in_client(owner).post(reverse("memory:fact-create", args=[server.guild_id]), data,
                                            headers=HTMX)
    assert response.status_code == 200
    assert Fact.objects.get(server=server).member_id == "200000000000000021"
    assert "member 200000000000000021" in response.content.decode()


@pytest.mark.parametrize("change, field, message", [
    ({"key": ""}, "key", "This field is required."),
    ({"content": "x" * 1001}, "content", "The content is 1001 characters long; keep it to 1–1000 characters."),
    ({"confidence": "2"}, "confidence", "The confidence must be a number from 0 to 1."),
    ({"scope": "member", "member_id": ""}, "member_id", "A Discord user id is a number of 1–20 digits"),
    ({"scope": "member", "member_id": "paul"}, "member_id", "A Discord user id is a number of 1–20 digits"),
], ids=["empty key", "content over 1000", "confidence 2", "member without id", "member id not a snowflake"])
def test_bad_input_answers_422_with_the_message_beside_the_field_and_saves_nothing(owner, server, change, field,
                                                                                  message):
    response = logged_in_client(owner).post(reverse("memory:fact-create", args=[server.guild_id]),
                                            {**NEW_FACT, **change}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 422
    assert message in field_error(page, field)
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#fact-create", "outerHTML")
    assert not Fact.objects.filter(server=server).exists()
    assert not AuditEntry.objects.filter(server=server, action="fact.create").exists()


def test_a_refused_form_keeps_what_was_typed(owner, server):
    response = logged_in_client(owner).post(reverse("memory:fact-create", args=[server.guild_id]),
                                            {**NEW_FACT, "confidence": "2"}, headers=HTMX)
    assert ">The tournament is on Saturday.</textarea>" in response.content.decode()


def test_the_edit_form_holds_the_stored_values_and_version(owner, server):
    fact = make_fact(server, content="This server is about retro gaming.", confidence=0.7)
    response = logged_in_client(owner).get(reverse("memory:fact-edit", args=[server.guild_id, fact.number]),
                                           headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert ">This server is about retro gaming.</textarea>" in page
    assert 'name="confidence" value="0.7"' in page
    assert re.search(r'<input type="hidden" name="version" value="1"', page)


def test_the_edit_form_says_the_length_at_once(owner, server):
    fact = make_fact(server, content="This server is about retro gaming.")
    page = logged_in_client(owner).get(reverse("memory:fact-edit", args=[server.guild_id, fact.number]),
                                       headers=HTMX).content.decode()
    hint = page[page.index('class="content-hint"'):]
    assert "34 / 1,000 characters" in hint[:hint.index("</div>")]
    assert "data-autosize" in page and "data-cancel" in page  # app.js sizes the box; Esc presses Cancel


def test_editing_saves_and_bumps_the_version(owner, server):
    fact = make_fact(server, content="This server is about retro gaming.")
    response = logged_in_client(owner).post(
        reverse("memory:fact", args=[server.guild_id, fact.number]),
        {"key": "server_theme", "content": "Retro and indie games.", "confidence": "0.9", "version": "1"},
        headers=HTMX,
    )
    stored = Fact.objects.get(pk=fact.pk)
    assert response.status_code == 200
    assert "Retro and indie games." in response.content.decode()
    assert (stored.content, stored.confidence, stored.version) == ("Retro and indie games.", 0.9, 2)


def test_an_edit_from_a_stale_version_answers_409_and_keeps_the_stored_fact(owner, server):
    fact = make_fact(server, content="This server is about retro gaming.")
    fact_update(fact=fact, actor=owner, expected_version=1, key="server_theme", content="Theirs: indie games.",
                confidence=1.0)
    response = logged_in_client(owner).post(
        reverse("memory:fact", args=[server.guild_id, fact.number]),
        {"key": "server_theme", "content": "Mine: arcade games.", "confidence": "0.9", "version": "1"},
        headers=HTMX,
    )
    page = response.content.decode()
    stored = Fact.objects.get(pk=fact.pk)
    assert response.status_code == 409
    assert "changed this fact" in page
    assert "Theirs: indie games." in page
    assert ">Mine: arcade games.</textarea>" in page
    assert (stored.content, stored.version) == ("Theirs: indie games.", 2)


def test_saving_again_after_a_conflict_replaces_the_other_edit(owner, server):
    fact = make_fact(server)
    fact_update(fact=fact, actor=owner, expected_version=1, key="server_theme", content="Theirs: indie games.",
                confidence=1.0)
    client = logged_in_client(owner)
    url = reverse("memory:fact", args=[server.guild_id, fact.number])
    mine = {"key": "server_theme", "content": "Mine: arcade games.", "confidence": "0.9", "version": "1"}
    conflict = client.post(url, mine, headers=HTMX).content.decode()
    version = re.search(r'<input type="hidden" name="version" value="(\d+)">', conflict).group(1)
    response = client.post(url, {**mine, "version": version}, headers=HTMX)
    assert response.status_code == 200
    assert Fact.objects.get(pk=fact.pk).content == "Mine: arcade games."


def test_an_invalid_edit_answers_422_and_changes_nothing(owner, server):
    fact = make_fact(server, content="This server is about retro gaming.")
    response = logged_in_client(owner).post(
        reverse("memory:fact", args=[server.guild_id, fact.number]),
        {"key": "server_theme", "content": "x" * 1001, "confidence": "0.9", "version": "1"}, headers=HTMX,
    )
    assert response.status_code == 422
    assert "keep it to 1–1000 characters" in field_error(response.content.decode(), "content")
    assert "1,001 / 1,000 characters — too long, shorten it" in response.content.decode()
    assert Fact.objects.get(pk=fact.pk).version == 1


def test_cancel_answers_the_row_again(member, server):
    fact = make_fact(server)
    response = logged_in_client(member).get(reverse("memory:fact", args=[server.guild_id, fact.number]),
                                            headers=HTMX)
    page = response.content.decode()
    assert page.lstrip().startswith(f'<li class="fact" id="fact-{server.pk}-{fact.number}"')
    assert ">Edit</button>" not in page


def test_a_facts_own_page_lists_the_facts_it_replaced(member, server):
    old = make_fact(server, key="tournament_day", content="The tournament is on Friday.")
    new = make_fact(server, key="tournament_day", content="The tournament is on Saturday.")
    fact_retract(fact=old, reason="moved to Saturday", superseded_by=new)
    page = logged_in_client(member).get(reverse("memory:fact", args=[server.guild_id, new.number])).content.decode()
    assert "<html" in page
    assert "It replaced" in page
    assert "The tournament is on Friday." in page


def shown(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def validity_of(page: str) -> str:
    """The fact page's validity sentence, as one line of text."""
    sentence = re.search(r'<p class="validity[^"]*">(.*?)</p>', page, flags=re.S).group(1)
    return " ".join(re.sub(r"<(?!a |/a)[^>]+>", "", sentence).split())


def test_a_replaced_facts_page_says_from_when_until_when_and_what_replaced_it(member, server):
    old = make_fact(server, key="tournament_day", content="The tournament is on Friday.")
    new = make_fact(server, key="tournament_day", content="The tournament is on Saturday.")
    Fact.objects.filter(pk=old.pk).update(valid_from=timezone.now() - timedelta(days=30))
    old = fact_retract(fact=old, reason="moved to Saturday", superseded_by=new)
    page = logged_in_client(member).get(reverse("memory:fact", args=[server.guild_id, old.number])).content.decode()
    assert shown(old.valid_from) != shown(old.retracted_at)
    new_url = reverse("memory:fact", args=[server.guild_id, new.number])
    assert validity_of(page) == (
        f'In force from {shown(old.valid_from)} until {shown(old.retracted_at)}, replaced by '
        f'<a href="{new_url}">#{new.number}</a> (moved to Saturday). The bot no longer sees it.'
    )


def test_a_retracted_facts_page_says_until_when_and_that_it_was_retracted(member, server):
    fact = fact_retract(fact=make_fact(server, key="food_rule", content="No food in the arcade."), reason="")
    page = logged_in_client(member).get(reverse("memory:fact", args=[server.guild_id, fact.number])).content.decode()
    assert validity_of(page) == (
        f"In force from {shown(fact.valid_from)} until {shown(fact.retracted_at)}, retracted. "
        "The bot no longer sees it."
    )


def test_a_fact_in_force_says_only_since_when(member, server):
    fact = make_fact(server)
    page = logged_in_client(member).get(reverse("memory:fact", args=[server.guild_id, fact.number])).content.decode()
    assert validity_of(page) == f"In force since {shown(fact.valid_from)}."
    assert "until" not in validity_of(page)


def test_delete_asks_for_confirmation_in_the_row(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).get(reverse("memory:fact-delete", args=[server.guild_id, fact.number]),
                                           headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page
    assert f"Delete #{fact.number}" in page
    assert "for good?" in page
    assert Fact.objects.filter(pk=fact.pk).exists()


def test_delete_without_javascript_asks_on_a_page_of_its_own(owner, server):
    fact = make_fact(server)
    page = logged_in_client(owner).get(reverse("memory:fact-delete", args=[server.guild_id, fact.number]))
    assert "<html" in page.content.decode()
    assert "This deletes the fact for good" in page.content.decode()


def test_confirming_the_delete_removes_the_fact(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(reverse("memory:fact-delete", args=[server.guild_id, fact.number]),
                                            headers=HTMX)
    assert response.status_code == 200
    # Nothing takes the row's place; the only element is the status region, swapped in out of band.
    only_status = r'\s*<div id="page-messages"[^>]*hx-swap-oob="innerHTML">.*</div>\s*'
    assert re.fullmatch(only_status, response.content.decode(), flags=re.S)
    assert "facts-changed" in response["HX-Trigger-After-Settle"]
    assert not Fact.objects.filter(pk=fact.pk).exists()
    assert AuditEntry.objects.filter(server=server, action="fact.delete", target_ids=[fact.number]).count() == 1


def test_confirming_the_delete_without_javascript_returns_to_the_memory_page(owner, server):
    fact = make_fact(server)
    response = logged_in_client(owner).post(reverse("memory:fact-delete", args=[server.guild_id, fact.number]))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('memory:page')}?server={server.guild_id}"
    assert not Fact.objects.filter(pk=fact.pk).exists()


def test_restore_reopens_a_retracted_fact(owner, server):
    fact = make_fact(server, key="tournament_day", content="The tournament is on Friday.")
    fact_retract(fact=fact, reason="moved to Saturday")
    response = logged_in_client(owner).post(reverse("memory:fact-restore", args=[server.guild_id, fact.number]),
                                            headers=HTMX)
    page = response.content.decode()
    stored = Fact.objects.get(pk=fact.pk)
    assert response.status_code == 200
    assert "is-retracted" not in page
    assert "moved to Saturday" not in page
    assert (stored.retracted_at, stored.retraction_reason, stored.version) == (None, "", 3)
    assert "facts-changed" in response["HX-Trigger-After-Settle"]


def test_a_missing_fact_number_is_404(owner, server):
    response = logged_in_client(owner).get(reverse("memory:fact-edit", args=[server.guild_id, 999]), headers=HTMX)
    assert response.status_code == 404
