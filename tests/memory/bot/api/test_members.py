"""The member's own calls (API.md §8): GET .../members/{member_id}/facts, what the bot knows about a member, for a
bot to show them privately; POST .../members/{member_id}/forget, wiped now or a request for staff."""

from __future__ import annotations

import pytest

from memory.configuration.services import ai_settings_ensure
from memory.facts.services import FactAuthor, fact_retract
from memory.models import Audience, Fact, ForgetMeMode, ForgetRequest, ForgetRequestVia, Scope
from teams.models import AuditEntry
from tests.factories import UserFactory, make_fact

from .helpers import assert_error, memory_state

PAUL, MIRA = "222", "333"


def fact_json(fact: Fact) -> dict:
    return {"number": fact.number, "key": fact.key, "content": fact.content, "scope": fact.scope,
            "member_id": fact.member_id or None, "confidence": fact.confidence, "audience": fact.audience,
            "channel_id": fact.source_channel_id or None, "kind": fact.kind, "changed_at": fact.changed_at.isoformat()}


@pytest.fixture
def pauls(server):
    """Facts about Paul in every audience, one learned from him about the server, one about Mira he told, one
    retracted, and Mira's own."""
    paul = FactAuthor.bot(PAUL)
    return {
        "birthday": make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope=Scope.MEMBER,
                              member_id=PAUL, author=paul, audience=Audience.CHANNEL, source_channel_id="444"),
        "pronouns": make_fact(server, key="paul_pronouns", content="Paul goes by he/him.", scope=Scope.MEMBER,
                              member_id=PAUL, author=paul, source_channel_id="111"),
        "warning": make_fact(server, key="paul_warning", content="Paul was warned for spam.", scope=Scope.MEMBER,
                             member_id=PAUL, author=FactAuthor.staff(UserFactory()), audience=Audience.STAFF),
        "theme": make_fact(server, key="theme", content="Retro gaming.", author=paul, source_channel_id="111"),
        "mira": make_fact(server, key="mira_cat", content="Mira has a cat.", scope=Scope.MEMBER, member_id=MIRA,
                          author=paul, audience=Audience.CHANNEL, source_channel_id="444"),
        "old": fact_retract(fact=make_fact(server, key="paul_old", content="Paul lives in Oslo.", scope=Scope.MEMBER,
                                           member_id=PAUL, author=paul), reason="moved"),
        "miras_own": make_fact(server, key="mira_dog", content="Mira has a dog too.", scope=Scope.MEMBER,
                               member_id=MIRA, author=FactAuthor.bot(MIRA)),
    }


def test_it_answers_what_the_bot_knows_about_the_member_in_every_audience(api, server, pauls):
    body = api.member_facts(server, PAUL)
    assert body == {
        "about": [fact_json(pauls[name]) for name in ("warning", "pronouns", "birthday")],
        "learned_from": [fact_json(pauls[name]) for name in ("mira", "theme")],
    }
    assert [fact["audience"] for fact in body["about"]] == ["staff", "server", "channel"]
    assert body["about"][2]["channel_id"] == "444"


def test_a_member_the_bot_knows_nothing_about_gets_empty_lists(api, server, pauls):
    assert api.member_facts(server, "999") == {"about": [], "learned_from": []}


def test_reading_a_members_facts_changes_nothing(api, server, pauls):
    before = memory_state()
    api.member_facts(server, PAUL)
    assert memory_state() == before


@pytest.mark.parametrize("member_id", ["paul", "22a", "1" * 21, "%20"])
def test_a_member_id_that_is_not_a_discord_id_answers_400(api, server, pauls, member_id):
    for method, action in (("GET", "facts"), ("POST", "forget")):
        before = memory_state()
        response = api.request(method, f"/servers/{server.guild_id}/members/{member_id}/{action}",
                               {} if method == "POST" else None)
        assert_error(response, 400, "member_id")
        assert memory_state() == before


# Forget me ------------------------------------------------------------------------------------


def set_mode(server, mode: str) -> None:
    settings = ai_settings_ensure(server=server)
    settings.forget_me_mode = mode
    settings.save(update_fields=["forget_me_mode"])


def test_by_default_forgetting_files_a_request_for_staff_and_removes_nothing(api, server, pauls):
    facts_before = memory_state()["facts"]
    assert api.forget(server, PAUL, {"member_name": "Paul"}) == {"wiped": False, "request": "open"}
    assert memory_state()["facts"] == facts_before
    request = ForgetRequest.objects.get()
    assert (request.member_id, request.member_name, request.via, request.status) == (
        PAUL, "Paul", ForgetRequestVia.API, "open")


def test_asking_again_while_a_request_waits_files_no_second_one(api, server, pauls):
    api.forget(server, PAUL, {"member_name": "Paul"})
    assert api.forget(server, PAUL) == {"wiped": False, "request": "open"}
    assert ForgetRequest.objects.count() == 1


def test_under_wipe_the_member_is_forgotten_at_once_and_audited_as_them(api, server, pauls):
    set_mode(server, ForgetMeMode.WIPE)
    body = api.forget(server, PAUL, {"member_name": "Paul"})
    # About Paul (live and retracted) and learned from him: everything but Mira's own fact.
    assert body == {"wiped": True, "facts_removed": 6}
    assert set(Fact.objects.values_list("key", flat=True)) == {"mira_dog"}
    entry = AuditEntry.objects.get(action="memory.wipe_member")
    assert entry.actor is None and entry.actor_label == "member 222 (Paul) via Bot API"
    assert not ForgetRequest.objects.exists()


def test_forgetting_without_a_name_is_fine(api, server, pauls):
    assert api.forget(server, PAUL) == {"wiped": False, "request": "open"}
    assert ForgetRequest.objects.get().member_name == ""


@pytest.mark.parametrize("body", [{"member_name": 222}, {"member_name": None}, {"member_name": "P" * 101},
                                  {"member_name": "Pa\x00ul"}], ids=["number", "null", "too-long", "nul"])
def test_a_bad_member_name_answers_400_and_changes_nothing(api, server, pauls, body):
    set_mode(server, ForgetMeMode.WIPE)
    before = memory_state()
    assert_error(api.post(f"/servers/{server.guild_id}/members/{PAUL}/forget", body), 400, "member_name")
    assert memory_state() == before


def test_another_teams_token_cannot_forget_our_members(api, server, pauls, other_bot_token):
    set_mode(server, ForgetMeMode.WIPE)
    before = memory_state()
    outsider = api.as_token(other_bot_token)
    assert_error(outsider.post(f"/servers/{server.guild_id}/members/{PAUL}/forget", {}), 404, None)
    assert_error(outsider.get(f"/servers/{server.guild_id}/members/{PAUL}/facts"), 404, None)
    assert memory_state() == before
