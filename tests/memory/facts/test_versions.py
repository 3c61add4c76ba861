"""The history of every fact (memory.facts.versions): each change is kept as a version with who made it (a staff
user, the bot in an exchange with its member, a consolidation round) and the old and new values; a staff edit can
be undone from it, and an undo that no longer applies is refused with what the fact says now."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from memory.facts.services import (
    FactAuthor,
    VersionNoLongerApplies,
    fact_audience_set,
    fact_pin_set,
    fact_restore,
    fact_retract,
    fact_retract_by_staff,
    fact_update,
    fact_version_undo,
    facts_restore_all,
)
from memory.models import ActorKind, Audience, Fact, FactVersion, MemoryType, VersionChange
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.memory.bot.api.helpers import Api, configure

pytestmark = pytest.mark.django_db

PAUL = "200000000000000021"


def timeline(fact: Fact) -> list[tuple[str, str]]:
    """(change, actor kind), oldest first."""
    return [(version.change, version.actor_kind)
            for version in FactVersion.objects.filter(fact_id=fact.pk).order_by("at", "id")]


def latest(fact: Fact) -> FactVersion:
    return FactVersion.objects.filter(fact_id=fact.pk).order_by("-at", "-id").first()


def fresh(fact: Fact) -> Fact:
    return Fact.objects.get(pk=fact.pk)


def edit(fact: Fact, actor, **fields) -> Fact:
    current = fresh(fact)
    values = {"key": current.key, "content": current.content, "confidence": current.confidence, **fields}
    return fact_update(fact=current, actor=actor, expected_version=current.version, **values)


@pytest.fixture
def staff_fact(server, owner):
    return make_fact(server, key="raid_day", content="Raids are on Friday.", author=FactAuthor.staff(owner))


# Who made each change -------------------------------------------------------------------------------------------


def test_a_staff_note_starts_its_history_with_a_version_by_that_user(staff_fact, owner):
    version = latest(staff_fact)

    assert (version.change, version.actor_kind, version.actor_user, version.version) == (
        VersionChange.CREATE, ActorKind.STAFF, owner, 1)
    assert version.actor_label == "owner"
    assert version.after["content"] == "Raids are on Friday." and version.before == {}


def test_an_edit_keeps_the_old_and_new_values_of_only_what_it_changed_and_who_changed_it(staff_fact, owner):
    edit(staff_fact, owner, content="Raids are on Saturday.", confidence=0.8)

    version = latest(staff_fact)
    assert (version.change, version.actor_kind, version.actor_user, version.version) == (
        VersionChange.EDIT, ActorKind.STAFF, owner, 2)
    assert version.before == {"content": "Raids are on Friday.", "confidence": 1.0}
    assert version.after == {"content": "Raids are on Saturday.", "confidence": 0.8}
    assert AuditEntry.objects.get(action="fact.edit").result == "version 2: content, confidence"


def test_an_edit_that_changes_nothing_keeps_no_version_and_writes_no_audit_row(staff_fact, owner):
    unchanged = edit(staff_fact, owner)

    assert unchanged.version == 1 and fresh(staff_fact).version == 1
    assert timeline(staff_fact) == [(VersionChange.CREATE, ActorKind.STAFF)]
    assert not AuditEntry.objects.filter(action="fact.edit").exists()


def test_the_bots_remember_retract_and_supersede_are_kept_with_its_exchange_and_member(client: Client, server,
                                                                                        bot_token):
    """The bot's changes arrive through its token's calls: each version names the exchange and the member whose
    message the bot acted on."""
    api = Api(client, bot_token)
    configure(server, memory_type=MemoryType.LEDGER)
    first = api.context(server, author_id=PAUL)["exchange"]
    remembered = api.actions(first, remember=[{"key": "raid_day", "content": "Raids are on Friday."},
                                              {"key": "theme", "content": "Retro gaming."}])
    raid, theme = (Fact.objects.get(server=server, number=result["number"]) for result in remembered)
    second = api.context(server, author_id=PAUL)["exchange"]
    results = api.actions(second, supersede=[{"number": raid.number, "content": "Raids are on Saturday.",
                                              "reason": "moved"}],
                          retract=[{"number": theme.number, "reason": "not true"}])
    assert {result["status"] for result in results} == {"applied"}

    created = FactVersion.objects.get(fact_id=raid.pk, change=VersionChange.CREATE)
    assert (created.actor_kind, str(created.exchange_id), created.member_id) == (ActorKind.BOT, first, PAUL)
    assert created.actor_label == f"the bot, from member {PAUL}"
    replaced = FactVersion.objects.get(fact_id=raid.pk, change=VersionChange.SUPERSEDE)
    replacement = fresh(raid).superseded_by
    assert (replaced.actor_kind, str(replaced.exchange_id), replaced.member_id, replaced.reason) == (
        ActorKind.BOT, second, PAUL, "moved")
    assert replaced.related_number == replacement.number
    assert FactVersion.objects.get(fact_id=replacement.pk).related_number == raid.number
    retracted = FactVersion.objects.get(fact_id=theme.pk, change=VersionChange.RETRACT)
    assert (retracted.actor_kind, str(retracted.exchange_id), retracted.reason) == (
        ActorKind.BOT, second, "not true")


def test_a_retract_nobody_named_is_kept_as_lorekeepers(server):
    fact = make_fact(server)
    fact_retract(fact=fact, reason="expired")

    assert (latest(fact).change, latest(fact).actor_kind, latest(fact).reason) == (
        VersionChange.RETRACT, ActorKind.SYSTEM, "expired")


def test_staff_retract_a_fact_with_a_reason_kept_in_its_history_and_the_audit_log(staff_fact, owner):
    fact_retract_by_staff(fact=staff_fact, reason="Wrong: the bot misread a joke", actor=owner)

    version = latest(staff_fact)
    assert (version.change, version.actor_user, version.reason) == (
        VersionChange.RETRACT, owner, "Wrong: the bot misread a joke")
    assert AuditEntry.objects.get(action="fact.retract").result == "Wrong: the bot misread a joke"


def test_staff_cannot_retract_a_fact_without_saying_why(staff_fact, owner):
    with pytest.raises(ValidationError, match="Say why the fact no longer holds"):
        fact_retract_by_staff(fact=staff_fact, reason="   ", actor=owner)

    assert fresh(staff_fact).retracted_at is None and len(timeline(staff_fact)) == 1


def test_a_restore_keeps_when_why_and_by_what_the_fact_had_been_retracted(server, staff_fact, owner):
    newer = make_fact(server, key="raid_day", content="Raids are on Saturday.")
    fact_retract(fact=staff_fact, reason="moved", superseded_by=newer)
    fact_restore(fact=fresh(staff_fact), actor=owner)

    version = latest(staff_fact)
    assert (version.change, version.actor_user) == (VersionChange.RESTORE, owner)
    assert version.before["retraction_reason"] == "moved" and version.before["superseded_by"] == newer.number
    assert version.before["retracted_at"] is not None


def test_restore_all_keeps_a_version_for_each_fact_it_restores(server, owner):
    facts = [make_fact(server, key=f"note_{index}", content=f"Note {index}.") for index in range(3)]
    for fact in facts[:2]:
        fact_retract(fact=fact, reason="stale")

    assert facts_restore_all(server=server, actor=owner) == 2

    restores = FactVersion.objects.filter(change=VersionChange.RESTORE)
    assert sorted(version.fact_id for version in restores) == sorted(fact.pk for fact in facts[:2])
    assert {(version.actor_user_id, version.before["retraction_reason"]) for version in restores} == {
        (owner.pk, "stale")}
    assert [fresh(fact).version for fact in facts[:2]] == [3, 3]


def test_pin_unpin_and_audience_changes_are_kept_by_the_staff_user(staff_fact, owner):
    fact_pin_set(fact=staff_fact, pinned=True, actor=owner)
    fact_pin_set(fact=fresh(staff_fact), pinned=False, actor=owner)
    fact_audience_set(fact=fresh(staff_fact), audience=Audience.STAFF, actor=owner)

    assert timeline(staff_fact) == [(VersionChange.CREATE, ActorKind.STAFF), (VersionChange.PIN, ActorKind.STAFF),
                                    (VersionChange.UNPIN, ActorKind.STAFF), (VersionChange.AUDIENCE, ActorKind.STAFF)]
    audience = latest(staff_fact)
    assert (audience.before, audience.after) == ({"audience": "server"}, {"audience": "staff"})
    assert [version.version for version in FactVersion.objects.filter(fact_id=staff_fact.pk).order_by("at", "id")] \
        == [1, 2, 3, 4]


# Undo -------------------------------------------------------------------------------------------------------------


def test_an_undo_puts_back_what_the_edit_replaced_as_a_version_of_its_own(staff_fact, owner):
    edit(staff_fact, owner, content="Raids are on Saturday.", key="raid_night")
    edited = latest(staff_fact)

    undone = fact_version_undo(version=edited, actor=owner)

    assert (undone.key, undone.content, undone.version) == ("raid_day", "Raids are on Friday.", 3)
    undo = latest(staff_fact)
    assert (undo.change, undo.undoes_id, undo.actor_user) == (VersionChange.UNDO, edited.pk, owner)
    assert undo.before == {"content": "Raids are on Saturday.", "key": "raid_night"}
    assert undo.after == {"content": "Raids are on Friday.", "key": "raid_day"}
    assert FactVersion.objects.filter(fact_id=staff_fact.pk).count() == 3, "nothing in the history was rewritten"
    assert AuditEntry.objects.get(action="fact.undo").result == "version 3 undoes version 2"


def test_an_undo_of_an_edit_the_fact_has_moved_on_from_is_refused_with_what_it_says_now(staff_fact, owner):
    edit(staff_fact, owner, content="Raids are on Saturday.")
    edited = latest(staff_fact)
    edit(staff_fact, owner, content="Raids are on Sunday.")

    with pytest.raises(VersionNoLongerApplies) as refused:
        fact_version_undo(version=edited, actor=owner)

    assert str(refused.value) == (f"Fact #{staff_fact.number} changed since; it now says: Raids are on Sunday.")
    assert refused.value.current.content == "Raids are on Sunday."
    assert fresh(staff_fact).content == "Raids are on Sunday." and fresh(staff_fact).version == 3


def test_the_same_edit_cannot_be_undone_twice(staff_fact, owner):
    edit(staff_fact, owner, content="Raids are on Saturday.")
    edited = latest(staff_fact)
    fact_version_undo(version=edited, actor=owner)

    with pytest.raises(VersionNoLongerApplies, match="it now says: Raids are on Friday."):
        fact_version_undo(version=edited, actor=owner)


@pytest.mark.parametrize("change", ["create", "pin"])
def test_only_a_staff_edit_can_be_undone_from_the_history(staff_fact, owner, change):
    if change == "pin":
        fact_pin_set(fact=staff_fact, pinned=True, actor=owner)

    with pytest.raises(ValidationError, match="cannot be undone from the history"):
        fact_version_undo(version=latest(staff_fact), actor=owner)
