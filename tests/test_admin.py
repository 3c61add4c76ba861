"""Django admin: admins manage teams, memberships and tokens; permissions follow what they do there."""

from __future__ import annotations

import pytest

from memory.configuration.directory import ReportedChannel, SeenMember, channels_report, members_seen
from memory.facts.forget_requests import forget_me
from memory.facts.services import fact_pin_set
from memory.models import Audience, Fact, ForgetRequest
from teams.models import AuditEntry, BotToken, Membership
from teams.permissions import servers_visible_to
from teams.services import audit_record
from tests.conftest import logged_in_client
from tests.factories import UserFactory, make_fact

CHANGELISTS = [
    "/admin/teams/team/", "/admin/teams/membership/", "/admin/teams/server/", "/admin/teams/bottoken/",
    "/admin/teams/auditentry/", "/admin/memory/fact/", "/admin/memory/summary/", "/admin/memory/aisettings/",
    "/admin/memory/modelendpoint/", "/admin/memory/exchange/", "/admin/memory/channel/",
    "/admin/memory/forgetrequest/", "/admin/memory/member/",
]


@pytest.fixture
def admin_client(db, django_user_model):
    return logged_in_client(django_user_model.objects.create_superuser("root", "root@example.invalid", "pw-r00t!"))


@pytest.mark.parametrize("url", CHANGELISTS)
def test_every_changelist_opens_for_an_admin(admin_client, server, url):
    assert admin_client.get(url).status_code == 200


@pytest.mark.parametrize("url", CHANGELISTS[:3])
def test_team_staff_without_admin_rights_are_sent_to_the_admin_login(member, url):
    response = logged_in_client(member).get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_adding_a_membership_in_admin_grants_view(admin_client, team, server):
    user = UserFactory(username="newcomer")
    response = admin_client.post("/admin/teams/membership/add/", {"team": team.pk, "user": user.pk})
    assert response.status_code == 302
    assert server in servers_visible_to(user)


def test_deleting_a_membership_in_admin_revokes_view(admin_client, team, server, member):
    membership = Membership.objects.get(team=team, user=member)
    admin_client.post(f"/admin/teams/membership/{membership.pk}/delete/", {"post": "yes"})
    member = type(member).objects.get(pk=member.pk)
    assert server not in servers_visible_to(member)


def test_adding_a_token_in_admin_shows_it_once_and_stores_a_hash(admin_client, team, server, client):
    response = admin_client.post("/admin/teams/bottoken/add/", {"team": team.pk, "name": "bot"}, follow=True)
    shown = [str(message) for message in response.context["messages"]]
    plaintext = next(word for message in shown for word in message.split() if word.startswith("lk_"))
    token = BotToken.objects.get(team=team)
    assert token.token_hash != plaintext and plaintext not in token.token_hash
    api = client.get(f"/api/v1/servers/{server.guild_id}", HTTP_AUTHORIZATION=f"Bearer {plaintext}")
    assert api.status_code == 200
    change_page = admin_client.get(f"/admin/teams/bottoken/{token.pk}/change/").content.decode()
    assert plaintext not in change_page


def test_the_revoke_action_stops_a_token(admin_client, team, server, bot_token, client):
    token = BotToken.objects.get(team=team)
    admin_client.post("/admin/teams/bottoken/", {"action": "revoke_tokens", "_selected_action": [token.pk]})
    api = client.get(f"/api/v1/servers/{server.guild_id}", HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    assert api.status_code == 401


def test_audit_entries_are_read_only_in_admin(admin_client, server, owner):
    entry = audit_record(actor=owner, server=server, action="memory.wipe", count=3)
    assert admin_client.get("/admin/teams/auditentry/add/").status_code == 403
    assert admin_client.post(f"/admin/teams/auditentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_adding_a_fact_in_admin_gives_it_the_next_number_and_an_audit_row(admin_client, server):
    from memory.models import Fact
    from tests.factories import make_fact

    earlier = make_fact(server, key="theme")
    response = admin_client.post("/admin/memory/fact/add/", {
        "server": server.pk, "key": "rules", "content": "Be kind.", "scope": "server", "member_id": "",
        "confidence": "1", "importance": "", "audience": "server", "source_channel_id": ""})

    assert response.status_code == 302, response.content[:2000]
    added = Fact.objects.get(server=server, key="rules")
    assert added.number == earlier.number + 1 and added.author_kind == "staff"
    assert AuditEntry.objects.filter(server=server, action="fact.create", target_ids=[added.number]).exists()


def test_adding_a_fact_in_admin_with_a_bad_key_shows_the_rule_and_stores_nothing(admin_client, server):
    from memory.models import Fact

    response = admin_client.post("/admin/memory/fact/add/", {
        "server": server.pk, "key": "Not A Key!", "content": "x", "scope": "member", "member_id": "abc",
        "confidence": "2", "importance": ""})

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) >= {"key", "member_id", "confidence"}
    assert not Fact.objects.filter(server=server).exists()


def test_editing_a_fact_in_admin_goes_through_the_panels_edit(admin_client, server):
    from memory.models import Fact
    from tests.factories import make_fact

    fact = make_fact(server, key="theme", content="Retro gaming.")
    response = admin_client.post(f"/admin/memory/fact/{fact.pk}/change/", {
        "key": "theme", "content": "Retro and indie gaming.", "confidence": "0.9", "importance": "0.5",
        "expected_version": str(fact.version)})

    assert response.status_code == 302, response.content[:2000]
    fact = Fact.objects.get(pk=fact.pk)
    assert (fact.content, fact.confidence, fact.importance, fact.version) == ("Retro and indie gaming.", 0.9, 0.5, 2)
    assert AuditEntry.objects.filter(server=server, action="fact.edit", target_ids=[fact.number]).exists()


def test_an_admin_edit_of_a_fact_changed_meanwhile_is_refused_and_saves_nothing(admin_client, server):
    from memory.models import Fact
    from tests.factories import make_fact

    fact = make_fact(server, key="theme", content="Retro gaming.")
    opened_at = fact.version
    Fact.objects.filter(pk=fact.pk).update(content="Retro and indie gaming.", version=opened_at + 1)  # the panel
    response = admin_client.post(f"/admin/memory/fact/{fact.pk}/change/", {
        "key": "theme", "content": "Only retro.", "confidence": "1", "importance": "",
        "expected_version": str(opened_at)})

    assert response.status_code == 200
    assert "Someone changed this fact since you opened it" in response.content.decode()
    assert Fact.objects.get(pk=fact.pk).content == "Retro and indie gaming."


# Who may see a fact, and forget-me requests (issue 19) ------------------------------------------------------------


@pytest.fixture
def heard(server):
    channels_report(server=server, channels=[ReportedChannel(channel_id="300000000000000002", name="mod-chat")])
    return {
        "mods": make_fact(server, key="ban_list", content="Zed is banned.", audience=Audience.CHANNEL,
                          source_channel_id="300000000000000002"),
        "all": make_fact(server, key="raid_time", content="Raids at 8.", source_channel_id="300000000000000001"),
    }


def test_the_fact_list_shows_and_filters_audience_and_source_channel(admin_client, heard):
    page = admin_client.get("/admin/memory/fact/").content.decode()
    assert "column-audience" in page and "column-source_channel_id" in page
    assert "?audience__exact=channel" in page and "#mod-chat (Retro Arcade)" in page
    channel_only = admin_client.get("/admin/memory/fact/", {"audience__exact": "channel"}).content.decode()
    assert "ban_list" in channel_only and "raid_time" not in channel_only
    in_mods = admin_client.get("/admin/memory/fact/", {"source_channel": "300000000000000002"}).content.decode()
    assert "ban_list" in in_mods and "raid_time" not in in_mods


def test_adding_a_fact_for_one_channel_in_admin_records_it(admin_client, server):
    response = admin_client.post("/admin/memory/fact/add/", {
        "server": server.pk, "key": "mod_rota", "content": "Ann moderates on Mondays.", "scope": "server",
        "member_id": "", "confidence": "1", "importance": "", "audience": "channel",
        "source_channel_id": "300000000000000002"})
    assert response.status_code == 302, response.content[:2000]
    added = Fact.objects.get(server=server, key="mod_rota")
    assert (added.audience, added.source_channel_id) == ("channel", "300000000000000002")


@pytest.mark.parametrize("channel, message", [
    ("", "A fact for one channel needs that channel: enter its id."),
    ("mod-chat", "A Discord channel id is a number of 1–20 digits (a snowflake)."),
])
def test_a_fact_for_one_channel_without_a_channel_id_is_refused_in_admin(admin_client, server, channel, message):
    response = admin_client.post("/admin/memory/fact/add/", {
        "server": server.pk, "key": "mod_rota", "content": "Ann moderates on Mondays.", "scope": "server",
        "member_id": "", "confidence": "1", "importance": "", "audience": "channel", "source_channel_id": channel})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["source_channel_id"] == [message]
    assert not Fact.objects.filter(server=server).exists()


def test_an_audience_is_not_changed_in_admin(admin_client, heard):
    fact = heard["mods"]
    page = admin_client.get(f"/admin/memory/fact/{fact.pk}/change/").content.decode()
    assert 'name="audience"' not in page and 'name="source_channel_id"' not in page


def test_forget_requests_are_read_only_in_admin(admin_client, server):
    request = forget_me(server=server, member_id="200000000000000011", member_name="Paul").request
    assert "200000000000000011" in admin_client.get("/admin/memory/forgetrequest/").content.decode()
    page = admin_client.get(f"/admin/memory/forgetrequest/{request.pk}/change/").content.decode()
    assert 'name="status"' not in page and "Paul" in page
    assert admin_client.get("/admin/memory/forgetrequest/add/").status_code == 403
    assert admin_client.post(f"/admin/memory/forgetrequest/{request.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin_client.post(f"/admin/memory/forgetrequest/{request.pk}/change/", {"status": "wiped"}).status_code \
        == 403
    assert ForgetRequest.objects.get(pk=request.pk).status == "open"


# Kinds and pins (issue 20) -------------------------------------------------------------------------------------


@pytest.mark.parametrize("scope, member_id, kind, expected", [
    ("server", "", "", "lore"), ("member", "200000000000000011", "", "profile"), ("server", "", "rule", "rule"),
], ids=["server fact by default", "member fact by default", "chosen"])
def test_adding_a_fact_in_admin_gives_it_a_kind(admin_client, server, scope, member_id, kind, expected):
    response = admin_client.post("/admin/memory/fact/add/", {
        "server": server.pk, "key": "rules", "content": "Be kind.", "scope": scope, "member_id": member_id,
        "kind": kind, "confidence": "1", "importance": "", "audience": "server", "source_channel_id": ""})
    assert response.status_code == 302, response.content[:2000]
    assert Fact.objects.get(server=server, key="rules").kind == expected


def test_an_unknown_kind_is_refused_in_admin_and_nothing_is_stored(admin_client, server):
    response = admin_client.post("/admin/memory/fact/add/", {
        "server": server.pk, "key": "rules", "content": "Be kind.", "scope": "server", "member_id": "",
        "kind": "gossip", "confidence": "1", "importance": "", "audience": "server", "source_channel_id": ""})
    assert response.status_code == 200
    assert "kind" in response.context["adminform"].form.errors
    assert not Fact.objects.filter(server=server).exists()


def test_an_admin_edit_changes_the_kind_and_one_without_it_keeps_it(admin_client, server):
    fact = make_fact(server, key="theme", content="Retro gaming.")
    edit = {"key": "theme", "content": "Retro gaming.", "confidence": "1", "importance": ""}
    admin_client.post(f"/admin/memory/fact/{fact.pk}/change/", {**edit, "kind": "event", "expected_version": "1"})
    assert Fact.objects.get(pk=fact.pk).kind == "event"
    admin_client.post(f"/admin/memory/fact/{fact.pk}/change/", {**edit, "content": "Retro.", "expected_version": "2"})
    fact = Fact.objects.get(pk=fact.pk)
    assert (fact.kind, fact.content) == ("event", "Retro.")


def test_the_fact_list_shows_and_filters_kind_and_pin_but_a_pin_changes_on_the_memory_page(admin_client, server,
                                                                                         owner):
    pinned = fact_pin_set(fact=make_fact(server, key="no_public_support", content="No support in public.",
                                         kind="rule"), pinned=True, actor=owner)
    make_fact(server, key="raid_time", content="Raids at 8.", kind="event")
    page = admin_client.get("/admin/memory/fact/").content.decode()
    assert "column-kind" in page and "column-pinned" in page
    rules = admin_client.get("/admin/memory/fact/", {"kind__exact": "rule"}).content.decode()
    assert "no_public_support" in rules and "raid_time" not in rules
    only_pinned = admin_client.get("/admin/memory/fact/", {"pinned__exact": "1"}).content.decode()
    assert "no_public_support" in only_pinned and "raid_time" not in only_pinned
    change = admin_client.get(f"/admin/memory/fact/{pinned.pk}/change/").content.decode()
    assert 'name="pinned"' not in change


def test_the_member_directory_is_read_only_in_admin(admin_client, server):
    members_seen(server=server, members=[SeenMember("200000000000000011", "Paul")])
    assert "Paul" in admin_client.get("/admin/memory/member/").content.decode()
    assert admin_client.get("/admin/memory/member/add/").status_code == 403
