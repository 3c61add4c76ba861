"""The fact services staff and the bot write through: create, edit, delete, retract, restore, and the summary."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from memory.facts.selectors import facts_in_force, summary_current
from memory.facts.deletes import fact_delete
from memory.facts.services import FactAuthor, FactConflict, fact_create, fact_restore, fact_retract, fact_update, facts_restore_all
from memory.facts.summary import summary_set
from memory.models import Fact, Scope, Summary
from teams.models import AuditEntry
from tests.factories import make_fact

MEMBER_ID = "200000000000000021"


def audit_rows(server, action: str):
    return AuditEntry.objects.filter(server=server, action=action)


# fact_create ---------------------------------------------------------------------


def test_a_new_fact_is_stored_in_force_with_what_was_written(server, owner):
    fact = fact_create(
        server=server, author=FactAuthor.staff(owner), key="bot_tone", content="  Friendly, short answers.  ",
        confidence=0.8, importance=0.4,
    )

    stored = Fact.objects.get(pk=fact.pk)
    assert (stored.key, stored.content, stored.confidence, stored.importance) == (
        "bot_tone", "Friendly, short answers.", 0.8, 0.4
    )
    assert stored.scope == Scope.SERVER and stored.member_id == ""
    assert stored.author_user == owner and stored.is_in_force
    assert stored.version == 1
    assert list(facts_in_force(server)) == [stored]


def test_a_key_with_capitals_and_spaces_is_normalised_to_lower_case_with_underscores(server):
    fact = make_fact(server, key="  Server Theme ")

    assert Fact.objects.get(pk=fact.pk).key == "server_theme"


@pytest.mark.parametrize(("written", "stored"), [
    ("Aniversário do Paulo", "aniversário_do_paulo"),
    ("Geburtstag Müller", "geburtstag_müller"),
    ("誕生日", "誕生日"),
    ("मित्र का नाम", "मित्र_का_नाम"),
    ("İstanbul trip", "istanbul_trip"),  # not "i̇stanbul": Python lowers İ to i plus a combining dot
    ("birth\u200bday", "birthday"),  # an invisible character would make two keys that look the same
    ("🎂 cake", "🎂_cake"),
])
def test_a_key_in_any_language_is_stored_lowered_with_underscores(server, written, stored):
    fact = make_fact(server, key=written)

    assert Fact.objects.get(pk=fact.pk).key == stored


@pytest.mark.parametrize("key", ["a:b", "[#12]", "x\x07y", "x\x9fy", "\u200b", "\ud800"])
def test_a_key_with_punctuation_controls_or_nothing_visible_is_refused(server, owner, key):
    with pytest.raises(ValidationError) as refused:
        fact_create(server=server, author=FactAuthor.staff(owner), key=key, content="c")

    assert "key" in refused.value.message_dict
    assert not Fact.objects.exists()


def test_the_database_refuses_a_key_the_services_would_refuse(server):
    """The check constraint holds the same rule, for writes that do not go through validate_key."""
    from django.db import IntegrityError, transaction

    fact = make_fact(server, key="aniversário")
    for bad in ("a:b", "Upper", "two words", "zero\u200bwidth"):
        with pytest.raises(IntegrityError), transaction.atomic():
            Fact.objects.filter(pk=fact.pk).update(key=bad)
    Fact.objects.filter(pk=fact.pk).update(key="誕生日.2-b_c")
    assert Fact.objects.get(pk=fact.pk).key == "誕生日.2-b_c"


def test_a_member_fact_keeps_the_discord_user_id_it_is_about(server):
    fact = make_fact(server, key="birthday", content="Born on 3 May.", scope=Scope.MEMBER, member_id=MEMBER_ID)

    assert Fact.objects.get(pk=fact.pk).member_id == MEMBER_ID


def test_a_bot_fact_remembers_the_member_whose_message_taught_it(server):
    fact = make_fact(server, author=FactAuthor.bot(MEMBER_ID))

    stored = Fact.objects.get(pk=fact.pk)
    assert stored.author_kind == "bot" and stored.learned_from_member_id == MEMBER_ID


@pytest.mark.parametrize(
    ("fields", "error_field"),
    [
        ({"key": ""}, "key"),
        ({"key": "   "}, "key"),
        ({"key": "Hello World!"}, "key"),
        ({"key": "k" * 65}, "key"),
        ({"content": ""}, "content"),
        ({"content": "   \n "}, "content"),
        ({"content": "x" * 1001}, "content"),
        ({"confidence": -0.01}, "confidence"),
        ({"confidence": 1.01}, "confidence"),
        ({"confidence": None}, "confidence"),
        ({"importance": 1.5}, "importance"),
        ({"scope": Scope.MEMBER, "member_id": ""}, "member_id"),
        ({"scope": Scope.MEMBER, "member_id": "paul"}, "member_id"),
        ({"scope": Scope.MEMBER, "member_id": "<@200000000000000021>"}, "member_id"),
        ({"scope": Scope.MEMBER, "member_id": "1" * 21}, "member_id"),
        ({"scope": "channel"}, "scope"),
    ],
)
def test_an_invalid_fact_is_refused_and_nothing_is_saved(server, owner, fields, error_field):
    values = {"key": "server_theme", "content": "Retro gaming.", "confidence": 1.0, **fields}

    with pytest.raises(ValidationError) as refused:
        fact_create(server=server, author=FactAuthor.staff(owner), **values)

    assert error_field in refused.value.message_dict
    assert not Fact.objects.exists()
    assert not audit_rows(server, "fact.create").exists()
    # A refusal uses up no number either: the next fact is still #1.
    assert make_fact(server).number == 1


def test_content_of_exactly_1000_characters_and_confidence_0_and_1_are_accepted(server):
    longest = make_fact(server, content="x" * 1000, confidence=0.0)
    certain = make_fact(server, confidence=1.0)

    assert len(Fact.objects.get(pk=longest.pk).content) == 1000
    assert {longest.confidence, certain.confidence} == {0.0, 1.0}


def test_numbers_count_up_per_server_independently(server, other_server):
    ours = [make_fact(server).number for _ in range(3)]
    theirs = [make_fact(other_server).number for _ in range(2)]

    assert ours == [1, 2, 3]
    assert theirs == [1, 2]


def test_the_number_of_a_deleted_fact_is_never_handed_out_again(server, owner):
    make_fact(server)
    newest = make_fact(server)
    assert newest.number == 2

    fact_delete(fact=newest, actor=owner)

    assert make_fact(server).number == 3


def test_a_staff_fact_is_written_to_the_audit_log(server, owner):
    fact = fact_create(server=server, author=FactAuthor.staff(owner), key="rule", content="No spoilers.")

    row = audit_rows(server, "fact.create").get()
    assert row.actor == owner and row.target_ids == [fact.number] and row.count == 1


# fact_update ---------------------------------------------------------------------


def test_an_edit_saves_key_content_and_confidence_and_bumps_the_version(server, owner):
    fact = make_fact(server, confidence=0.5)

    updated = fact_update(
        fact=fact, actor=owner, expected_version=1, key="Server Theme Now", content="Retro and indie games.",
        confidence=0.9,
    )

    stored = Fact.objects.get(pk=fact.pk)
    assert (stored.key, stored.content, stored.confidence) == ("server_theme_now", "Retro and indie games.", 0.9)
    assert stored.version == updated.version == 2
    assert stored.number == fact.number
    assert audit_rows(server, "fact.edit").get().target_ids == [fact.number]


def test_an_edit_made_from_a_stale_version_raises_a_conflict_and_changes_nothing(server, owner, member):
    fact = make_fact(server, content="Original wording.")
    fact_update(fact=fact, actor=owner, expected_version=1, key="server_theme", content="First edit.",
                confidence=1.0)

    with pytest.raises(FactConflict) as conflict:
        fact_update(fact=fact, actor=member, expected_version=1, key="other_key", content="Second edit.",
                    confidence=0.1)

    assert conflict.value.current.content == "First edit." and conflict.value.current.version == 2
    stored = Fact.objects.get(pk=fact.pk)
    assert (stored.key, stored.content, stored.confidence, stored.version) == ("server_theme", "First edit.", 1.0, 2)
    assert audit_rows(server, "fact.edit").count() == 1


def test_an_invalid_edit_is_refused_and_changes_nothing(server, owner):
    fact = make_fact(server, content="Original wording.")

    with pytest.raises(ValidationError):
        fact_update(fact=fact, actor=owner, expected_version=1, key="Hello World!", content="New.", confidence=1.0)

    stored = Fact.objects.get(pk=fact.pk)
    assert (stored.key, stored.content, stored.version) == ("server_theme", "Original wording.", 1)
    assert not audit_rows(server, "fact.edit").exists()


def test_an_edit_that_names_no_importance_keeps_it(server, owner):
    fact = make_fact(server, importance=0.7)

    fact_update(fact=fact, actor=owner, expected_version=1, key="server_theme", content="New.", confidence=1.0)

    assert Fact.objects.get(pk=fact.pk).importance == 0.7


@pytest.mark.parametrize("importance", [0.0, 0.25, 1.0, None], ids=["0", "0.25", "1", "unscored"])
def test_an_edit_sets_or_clears_the_importance(server, owner, importance):
    fact = make_fact(server, importance=0.7)

    fact_update(fact=fact, actor=owner, expected_version=1, key="server_theme", content="New.", confidence=1.0,
                importance=importance)

    assert Fact.objects.get(pk=fact.pk).importance == importance


@pytest.mark.parametrize("importance", [1.01, -0.5, float("nan"), True, "0.5"])
def test_an_importance_outside_0_to_1_is_refused_and_changes_nothing(server, owner, importance):
    fact = make_fact(server, importance=0.7)

    with pytest.raises(ValidationError) as refused:
        fact_update(fact=fact, actor=owner, expected_version=1, key="server_theme", content="New.", confidence=1.0,
                    importance=importance)

    assert refused.value.message_dict["importance"] == ["The importance must be a number from 0 to 1."]
    stored = Fact.objects.get(pk=fact.pk)
    assert (stored.content, stored.importance, stored.version) == ("This server is about retro gaming.", 0.7, 1)


# fact_delete ---------------------------------------------------------------------


def test_delete_removes_the_fact_for_good_and_records_it(server, owner):
    fact = make_fact(server)
    kept = make_fact(server, key="bot_tone")

    fact_delete(fact=fact, actor=owner)

    assert not Fact.objects.filter(pk=fact.pk).exists()
    assert Fact.objects.filter(pk=kept.pk).exists()
    row = audit_rows(server, "fact.delete").get()
    assert row.actor == owner and row.target_ids == [fact.number] and row.count == 1


def test_delete_removes_a_retracted_fact_like_any_other(server, owner):
    fact = make_fact(server)
    fact_retract(fact=fact, reason="no longer true")

    fact_delete(fact=fact, actor=owner)

    assert not Fact.objects.filter(pk=fact.pk).exists()


def test_deleting_a_replacement_leaves_the_fact_it_replaced_retracted_and_unlinked(server, owner):
    old = make_fact(server, content="The server is about retro gaming.")
    replacement = make_fact(server, content="The server is about indie gaming.")
    fact_retract(fact=old, reason="changed theme", superseded_by=replacement)

    fact_delete(fact=replacement, actor=owner)

    stored = Fact.objects.get(pk=old.pk)
    assert stored.retracted_at is not None and stored.retraction_reason == "changed theme"
    assert stored.superseded_by is None


# fact_retract --------------------------------------------------------------------


def test_retracting_closes_the_window_with_reason_and_replacement_and_keeps_the_fact(server):
    old = make_fact(server, content="The server is about retro gaming.")
    replacement = make_fact(server, content="The server is about indie gaming.")

    fact_retract(fact=old, reason="  the theme changed  ", superseded_by=replacement)

    stored = Fact.objects.get(pk=old.pk)
    assert stored.retracted_at is not None and not stored.is_in_force
    assert stored.retraction_reason == "the theme changed"
    assert stored.superseded_by == replacement
    assert stored.content == "The server is about retro gaming."
    assert list(facts_in_force(server)) == [replacement]


def test_a_fact_cannot_be_replaced_by_a_fact_of_another_server(server, other_server):
    ours = make_fact(server)
    theirs = make_fact(other_server)

    with pytest.raises(ValidationError, match="same server"):
        fact_retract(fact=ours, reason="replaced", superseded_by=theirs)

    stored = Fact.objects.get(pk=ours.pk)
    assert stored.is_in_force and stored.superseded_by is None and stored.retraction_reason == ""
    assert stored.version == 1


def test_a_retracted_fact_cannot_be_retracted_again(server):
    fact = make_fact(server)
    first = fact_retract(fact=fact, reason="first")

    with pytest.raises(ValidationError, match="already retracted"):
        fact_retract(fact=fact, reason="second")

    stored = Fact.objects.get(pk=fact.pk)
    assert stored.retraction_reason == "first" and stored.retracted_at == first.retracted_at


# fact_restore --------------------------------------------------------------------


def test_restore_reopens_the_fact_and_clears_reason_and_replacement(server, owner):
    old = make_fact(server, content="The server is about retro gaming.")
    replacement = make_fact(server, content="The server is about indie gaming.")
    fact_retract(fact=old, reason="the theme changed", superseded_by=replacement)

    fact_restore(fact=old, actor=owner)

    stored = Fact.objects.get(pk=old.pk)
    assert stored.is_in_force
    assert stored.retraction_reason == "" and stored.superseded_by is None
    assert stored.content == "The server is about retro gaming."
    assert audit_rows(server, "fact.restore").get().target_ids == [old.number]


def test_restore_leaves_the_replacement_untouched_and_still_in_force(server, owner):
    old = make_fact(server, content="The server is about retro gaming.")
    replacement = make_fact(server, content="The server is about indie gaming.")
    fact_retract(fact=old, reason="the theme changed", superseded_by=replacement)
    before = Fact.objects.get(pk=replacement.pk)

    fact_restore(fact=old, actor=owner)

    after = Fact.objects.get(pk=replacement.pk)
    assert after.is_in_force
    assert (after.content, after.version, after.changed_at) == (before.content, before.version, before.changed_at)
    assert set(facts_in_force(server)) == {old, replacement}


def test_restoring_a_fact_in_force_is_refused(server, owner):
    fact = make_fact(server)

    with pytest.raises(ValidationError, match="already in force"):
        fact_restore(fact=fact, actor=owner)

    assert Fact.objects.get(pk=fact.pk).version == 1


# facts_restore_all ---------------------------------------------------------------


def test_restore_all_reopens_every_retracted_fact_of_the_server_and_returns_the_count(server, owner):
    facts = [make_fact(server, key=f"fact_{n}") for n in range(5)]
    fact_retract(fact=facts[0], reason="old")
    fact_retract(fact=facts[1], reason="replaced", superseded_by=facts[2])
    fact_retract(fact=facts[3], reason="wrong")

    restored = facts_restore_all(server=server, actor=owner)

    assert restored == 3
    assert facts_in_force(server).count() == 5
    assert not Fact.objects.filter(server=server).exclude(retraction_reason="").exists()
    assert not Fact.objects.filter(server=server, superseded_by__isnull=False).exists()


def test_restore_all_writes_one_audit_row_with_the_count(server, owner):
    for n in range(2):
        fact_retract(fact=make_fact(server, key=f"fact_{n}"), reason="old")

    facts_restore_all(server=server, actor=owner)

    row = audit_rows(server, "facts.restore_all").get()
    assert row.actor == owner and row.count == 2


def test_restore_all_leaves_other_servers_retracted_facts_alone(server, other_server, owner):
    fact_retract(fact=make_fact(server), reason="old")
    theirs = make_fact(other_server)
    fact_retract(fact=theirs, reason="theirs")

    facts_restore_all(server=server, actor=owner)

    stored = Fact.objects.get(pk=theirs.pk)
    assert not stored.is_in_force and stored.retraction_reason == "theirs"
    assert not audit_rows(other_server, "facts.restore_all").exists()


# summary_set ---------------------------------------------------------------------


def test_a_new_summary_retracts_the_previous_one_without_deleting_it(server, owner):
    first = summary_set(server=server, content="Retro Arcade talks about old consoles.",
                        author=FactAuthor.staff(owner))

    second = summary_set(server=server, content="Retro Arcade talks about old consoles and indie games.",
                         author=FactAuthor.bot(MEMBER_ID))

    assert summary_current(server) == second
    old = Summary.objects.get(pk=first.pk)
    assert old.retracted_at is not None and old.content == "Retro Arcade talks about old consoles."
    assert Summary.objects.filter(server=server).count() == 2


def test_a_summary_that_is_too_long_is_refused_and_the_current_one_stays(server, owner):
    current = summary_set(server=server, content="Short summary.", author=FactAuthor.staff(owner))

    with pytest.raises(ValidationError):
        summary_set(server=server, content="x" * 4001, author=FactAuthor.staff(owner))

    assert summary_current(server) == current
    assert Summary.objects.filter(server=server).count() == 1


def test_a_fact_cannot_replace_itself(server):
    fact = make_fact(server, key="loop")
    with pytest.raises(ValidationError, match="cannot replace itself"):
        fact_retract(fact=fact, reason="loop", superseded_by=fact)
    fact.refresh_from_db()
    assert fact.retracted_at is None
