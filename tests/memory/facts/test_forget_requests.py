"""A member asks to be forgotten: wiped at once, or a request staff answer, as the server chose; audited."""

from __future__ import annotations

import pytest

from memory.configuration.services import ai_settings_ensure
from memory.facts.forget_requests import (
    RequestAlreadyAnswered,
    forget_me,
    forget_request_dismiss,
    forget_request_wipe,
)
from memory.facts.services import FactAuthor
from memory.models import Fact, ForgetMeMode, ForgetRequest, ForgetRequestStatus, Scope
from teams.models import AuditEntry
from tests.factories import make_fact

PAUL = "200000000000000011"


@pytest.fixture
def pauls_facts(server):
    make_fact(server, key="paul_birthday", content="Paul's birthday is 3 May.", scope=Scope.MEMBER, member_id=PAUL)
    make_fact(server, key="theme", content="Retro gaming.")  # learned from Paul (the factories' default member)
    make_fact(server, key="mira_cat", content="Mira has a cat.", scope=Scope.MEMBER, member_id="200000000000000022",
              author=FactAuthor.bot("200000000000000022"))


def set_mode(server, mode):
    settings = ai_settings_ensure(server=server)
    settings.forget_me_mode = mode
    settings.save(update_fields=["forget_me_mode"])


def test_by_default_a_request_is_filed_and_nothing_is_wiped(server, pauls_facts):
    outcome = forget_me(server=server, member_id=PAUL, member_name="Paul")

    assert (outcome.wiped, outcome.request.status, outcome.request.member_name) == (False, "open", "Paul")
    assert Fact.objects.count() == 3
    entry = AuditEntry.objects.get(action="memory.forget_request")
    assert entry.actor_label == f"member {PAUL} (Paul) via Discord (/memory forget-me)"


def test_asking_twice_while_a_request_waits_files_one(server, pauls_facts):
    first = forget_me(server=server, member_id=PAUL, member_name="Paul")
    second = forget_me(server=server, member_id=PAUL, member_name="Paul")

    assert first.request.pk == second.request.pk
    assert ForgetRequest.objects.count() == 1


def test_under_wipe_mode_the_member_is_forgotten_at_once(server, pauls_facts):
    set_mode(server, ForgetMeMode.WIPE)

    outcome = forget_me(server=server, member_id=PAUL, member_name="Paul")

    assert (outcome.wiped, outcome.facts_removed) == (True, 2)
    assert list(Fact.objects.values_list("key", flat=True)) == ["mira_cat"]
    assert AuditEntry.objects.get(action="memory.wipe_member").actor_label.startswith(f"member {PAUL} (Paul)")
    assert not ForgetRequest.objects.exists()


def test_staff_grant_a_request_and_it_records_who_and_how_much(server, owner, pauls_facts):
    request = forget_me(server=server, member_id=PAUL, member_name="Paul").request

    answered = forget_request_wipe(request=request, actor=owner)

    assert (answered.status, answered.handled_by, answered.facts_removed) == (ForgetRequestStatus.WIPED, owner, 2)
    assert list(Fact.objects.values_list("key", flat=True)) == ["mira_cat"]


def test_staff_dismiss_a_request_and_nothing_is_wiped(server, owner, pauls_facts):
    request = forget_me(server=server, member_id=PAUL).request

    forget_request_dismiss(request=request, actor=owner)

    assert Fact.objects.count() == 3
    assert AuditEntry.objects.filter(action="memory.forget_request_dismiss").count() == 1


def test_a_request_answered_already_cannot_be_answered_again(server, owner, pauls_facts):
    request = forget_me(server=server, member_id=PAUL).request
    forget_request_dismiss(request=request, actor=owner)

    with pytest.raises(RequestAlreadyAnswered, match="Dismissed"):
        forget_request_wipe(request=request, actor=owner)
    assert Fact.objects.count() == 3


def test_a_member_id_that_is_not_a_snowflake_is_refused(server):
    with pytest.raises(Exception, match="snowflake"):
        forget_me(server=server, member_id="paul")
    assert not ForgetRequest.objects.exists()
