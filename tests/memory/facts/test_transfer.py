"""The import of a memory export (memory.facts.transfer): every bad line answered with a sentence naming it, nothing
written unless every line is right, a hand-written server fact with member_id null imported as a server fact."""

from __future__ import annotations

import json

import pytest

from memory.facts.services import fact_retract
from memory.facts.transfer import ImportRefused, export_lines, import_check, import_lines
from memory.models import Audience, Fact, Summary
from teams.models import AuditEntry
from tests.factories import make_fact, make_server

pytestmark = pytest.mark.django_db

HEADER = json.dumps({"format": "lorekeeper-memory/1", "guild_id": "100000000000000001", "name": "Retro Arcade",
                     "exported_at": "2026-11-02T10:00:00+00:00"})
SERVER_FACT = {"kind": "fact", "number": 1, "scope": "server", "member_id": None, "key": "raid_night",
               "content": "Raids are on Wednesday."}
MEMBER_FACT = {"kind": "fact", "number": 2, "scope": "member", "member_id": "200000000000000011",
               "key": "pronouns", "content": "Paul uses he/him."}


@pytest.fixture
def empty(team):
    return make_server(team, name="Empty Arcade", guild_id="100000000000000077")


def lines(*rows) -> list[str]:
    return [HEADER, *(row if isinstance(row, str) else json.dumps(row, ensure_ascii=False) for row in rows)]


def refusal(server, given) -> list[str]:
    with pytest.raises(ImportRefused) as refused:
        import_lines(server, given)
    assert not Fact.objects.filter(server=server).exists()
    assert not Summary.objects.filter(server=server).exists()
    assert not AuditEntry.objects.filter(server=server, action="memory.import").exists()
    return refused.value.messages


def test_a_server_fact_with_member_id_null_is_imported_as_a_server_fact(empty, owner):
    counts = import_lines(empty, lines(SERVER_FACT, MEMBER_FACT), actor=owner)

    assert counts == {"facts": 2, "summaries": 0}
    stored = Fact.objects.get(server=empty, number=1)
    assert (stored.scope, stored.member_id, stored.content) == ("server", "", "Raids are on Wednesday.")
    assert Fact.objects.get(server=empty, number=2).member_id == "200000000000000011"
    assert AuditEntry.objects.get(server=empty, action="memory.import").actor == owner


@pytest.mark.parametrize("row, sentence", [
    ("{not json", "Line 2: the line is not JSON"),
    ("[1, 2]", "Line 2: the line is not a JSON object"),
    ({**SERVER_FACT, "colour": "red"}, "Line 2: unknown field “colour” on a fact line."),
    ({**SERVER_FACT, "kind": "note"}, "Line 2: “kind” must be \"fact\" or \"summary\", not \"note\"."),
    ({**SERVER_FACT, "created_at": "yesterday"}, "Line 2: created_at \"yesterday\" is not a date and time"),
    ({**SERVER_FACT, "confidence": "high"}, "Line 2: confidence must be a number from 0 to 1, not \"high\"."),
    ({**SERVER_FACT, "confidence": 1.5}, "Line 2: confidence must be a number from 0 to 1, not 1.5."),
    ({**SERVER_FACT, "number": "one"}, "Line 2: number must be a whole number from 1 up, not \"one\"."),
    ({**SERVER_FACT, "number": 0}, "Line 2: number must be a whole number from 1 up, not 0."),
    ('{"kind": "fact", "number": 1, "key": "a", "key": "b", "content": "x"}',
     "Line 2: the field “key” is given twice."),
    ('{"kind": "fact", "number": 1, "key": "a", "content": "x", "confidence": NaN}',
     "Line 2: NaN is not a number JSON allows."),
    ({**SERVER_FACT, "key": "Äpfel"}, "Line 2: the key \"Äpfel\" is not written as keys are stored"),
    ({**SERVER_FACT, "content": ""}, "Line 2: the content is 0 characters long; it must be 1–"),
    ({**SERVER_FACT, "content": "nul\u0000"}, "Line 2: content must be text (without NUL characters)"),
    ({**SERVER_FACT, "member_id": "200000000000000011"},
     "Line 2: a server fact (scope “server”) is about no member"),
    ({**MEMBER_FACT, "member_id": None}, "Line 2: a member fact (scope “member”) needs the member's Discord id"),
    ({**MEMBER_FACT, "member_id": "Paul"}, "Line 2: member_id \"Paul\" is not a Discord id"),
    ({**SERVER_FACT, "scope": "guild"}, "Line 2: scope must be one of server, member, not \"guild\"."),
    ({**SERVER_FACT, "superseded_by": 1, "retracted_at": "2026-01-01T00:00:00+00:00"},
     "Line 2: fact #1 cannot be replaced by itself."),
    ({**SERVER_FACT, "superseded_by": 7}, "Line 2: superseded_by is set but retracted_at is not"),
    ({**SERVER_FACT, "superseded_by": 7, "retracted_at": "2026-01-01T00:00:00+00:00"},
     "Line 2: superseded_by names fact #7, which is not in the file."),
    ({**SERVER_FACT, "audience": "channel"}, "Line 2: a fact with the channel audience needs its channel's id"),
    ({"kind": "fact", "number": 1, "content": "No key."}, "Line 2: a fact line needs “key”."),
    ({**SERVER_FACT, "valid_from": "0001-01-01T00:00:00+05:00"}, "Line 2: valid_from \"0001-01-01T00:00:00+05:00\" is"),
    ("[" * 100_000 + "]" * 100_000, "Line 2: the line is not a memory export's line (nested too deeply"),
    ('{"kind": "fact", "number": ' + "9" * 5000 + "}", "Line 2: the line is not a memory export's line"),
    ({"kind": "summary", "content": "x", "author": "me"}, "Line 2: unknown field “author” on a summary line."),
])
def test_a_bad_line_is_refused_with_a_sentence_naming_it_and_nothing_is_imported(empty, row, sentence):
    messages = refusal(empty, lines(row))

    assert len(messages) == 1 and messages[0].startswith(sentence), messages


def test_a_line_that_is_not_utf8_is_named(empty):
    given = [HEADER.encode(), json.dumps(SERVER_FACT).encode(), b'{"kind": "summary", "content": "caf\xe9"}']

    assert refusal(empty, given) == ["Line 3: the line is not UTF-8 text."]


def test_a_fact_number_twice_names_both_lines(empty):
    messages = refusal(empty, lines(SERVER_FACT, {**MEMBER_FACT, "number": 1}))

    assert messages == ["Line 3: the file holds fact #1 more than once (first on line 2)."]


def test_two_summaries_in_force_are_refused(empty):
    messages = refusal(empty, lines({"kind": "summary", "content": "One."}, {"kind": "summary", "content": "Two."}))

    assert messages[0].startswith("Line 3: a second summary in force (line 2 is one)")


def test_every_bad_line_is_named_and_one_good_line_does_not_get_in(empty):
    given = lines(SERVER_FACT, {**MEMBER_FACT, "confidence": "sure"}, "{oops", {**SERVER_FACT, "number": 5, "x": 1})

    messages = refusal(empty, given)

    assert [message.split(":")[0] for message in messages] == ["Line 3", "Line 4", "Line 5"]


def test_a_file_wrong_on_every_line_lists_twenty_and_counts_the_rest(empty):
    messages = refusal(empty, lines(*(["{"] * 25)))

    assert len(messages) == 21 and messages[-1] == "… and 5 more lines are wrong."


@pytest.mark.parametrize("first, sentence", [
    (json.dumps({"format": "something-else/2"}), "Line 1: this is not a Lorekeeper memory export"),
    ("not json at all", "Line 1: the line is not JSON"),
    (json.dumps({"format": "lorekeeper-memory/1", "extra": 1}), "Line 1: unknown field “extra” on the first line."),
])
def test_a_file_that_is_not_an_export_is_told_so_once(empty, first, sentence):
    messages = refusal(empty, [first, "{", "{"])

    assert len(messages) == 1 and messages[0].startswith(sentence)


def test_an_empty_file_and_a_file_of_nothing_are_refused(empty):
    assert refusal(empty, ["", "\n"])[0].startswith("The file is empty")
    assert refusal(empty, [HEADER]) == ["The file holds no facts and no summary: there is nothing to import."]


def test_a_server_with_memory_is_refused_and_keeps_what_it_had(server):
    make_fact(server, key="kept", content="Stays as it is.")

    with pytest.raises(ImportRefused, match="already has memory"):
        import_lines(server, lines(SERVER_FACT))
    assert list(Fact.objects.filter(server=server).values_list("key", flat=True)) == ["kept"]


def test_the_check_counts_what_would_come_and_writes_nothing(empty):
    retracted = {**MEMBER_FACT, "number": 3, "retracted_at": "2026-01-01T00:00:00", "superseded_by": 2}
    plan = import_check(empty, lines(SERVER_FACT, MEMBER_FACT, retracted, {"kind": "summary", "content": "Hi."}))

    assert not plan.errors
    assert (plan.facts_in_force, plan.facts_retracted, plan.summaries_count, plan.members_named) == (2, 1, 1, 1)
    assert (plan.source_name, plan.source_guild_id) == ("Retro Arcade", "100000000000000001")
    assert not Fact.objects.filter(server=empty).exists() and not Summary.objects.filter(server=empty).exists()


def test_the_check_of_a_bad_file_gives_the_same_sentences_as_the_import(empty):
    given = lines({**SERVER_FACT, "confidence": "sure"})

    assert import_check(empty, given).error_sentences() == refusal(empty, given)


def test_who_may_see_a_fact_and_its_kind_and_pin_travel_with_it(server, empty):
    staff_only = make_fact(server, key="mod_note", content="Watch the raffle.")
    Fact.objects.filter(pk=staff_only.pk).update(audience=Audience.STAFF, kind="rule", pinned=True)
    replaced = make_fact(server, key="raid_day", content="Raids are on Friday.")
    fact_retract(fact=replaced, reason="moved", superseded_by=staff_only)

    import_lines(empty, export_lines(server))

    copied = Fact.objects.get(server=empty, number=staff_only.number)
    assert (copied.audience, copied.kind, copied.pinned) == ("staff", "rule", True)
    assert Fact.objects.get(server=empty, number=replaced.number).superseded_by == copied
