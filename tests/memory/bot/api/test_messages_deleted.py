"""POST /api/v1/servers/{guild_id}/messages/deleted (API.md §9): a member deleted Discord messages, so what was
learned from them is withdrawn from the bot (retracted from Ledger up, the staff audience under Classic), exactly:
the facts the learning run wrote from them and the facts the bot remembered while answering them. What only became
more certain through them stays, and so does everything else. Checked through the context the bot gets next."""

from __future__ import annotations

import pytest

from memory.learning.runs import learning_run
from memory.models import Audience, ChannelMessage, Exchange, Fact, FactVersion, MemoryType, ModelPurpose
from teams.models import AuditEntry
from tests.factories import make_fact
from tests.memory.conftest import GENERAL
from tests.memory.learning.conftest import fact as proposed
from tests.memory.learning.conftest import learned
from tests.model_server import played_model

from .test_wipe_residue import rows_naming
from .helpers import assert_error, configure, memory_state, message

PAUL, MIRA = "222", "333"


def said(message_id: str, author: str, content: str) -> dict:
    return {"id": message_id, "channel_id": GENERAL, "author_id": author, "author_name": {PAUL: "Paul"}.get(author, "Mira"),
            "content": content, "sent_at": "2026-05-03T18:30:00Z"}


def deleted(api, server, *message_ids: str) -> dict:
    response = api.post(f"/servers/{server.guild_id}/messages/deleted", {"message_ids": list(message_ids)})
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def memory(api, server, owner):
    """Four facts: #1 remembered while answering Paul's message 7001; #2 written by the learning run from Mira's
    message 7002; #3 written from message 7003 and reinforced by 7002; #4 a staff fact."""
    def build(memory_type: str) -> dict[str, Fact]:
        configure(server, memory_type=memory_type)
        exchange = api.context(server, author_id=PAUL, message_id="7001", content="Remember: I play the cello.")
        api.actions(exchange["exchange"], remember=[{"key": "paul_instrument", "content": "Paul plays the cello.",
                                                     "scope": "member", "member_id": PAUL}])
        api.send_messages(server, [said("7002", MIRA, "Game night moves to Thursdays, Zwartezee told me."),
                                   said("7003", MIRA, "The server's language is Dutch on weekends."),
                                   said("7004", PAUL, "Nice weather today.")])
        with played_model(server, owner, ModelPurpose.LEARNING, model_name="learner", api_key="sk-0123456789ab") as fake:
            fake.script = [learned([proposed("game_night", "Game night is on Thursdays.", [7002]),
                                    proposed("weekend_language", "The server speaks Dutch on weekends.", [7003])])]
            assert learning_run(server).run.written == 2
            api.send_messages(server, [said("7005", PAUL, "Yes, Dutch on weekends, I agree.")])
            fake.script = [learned([proposed("weekend_language", "", [7005], op="reinforce",
                                             number=Fact.objects.get(key="weekend_language").number)])]
            assert learning_run(server).run.reinforced == 1
        make_fact(server, key="server_rules", content="Be kind to each other.")
        return {fact.key: fact for fact in Fact.objects.filter(server=server)}
    return build


def handed_to_the_bot(api, server) -> set[str]:
    return {item["key"] for item in api.context(server, author_id=PAUL)["facts"]}


def test_under_ledger_the_facts_learned_from_a_deleted_message_are_retracted_and_no_longer_in_the_context(
        api, server, memory):
    facts = memory(MemoryType.LEDGER)
    assert handed_to_the_bot(api, server) == {"paul_instrument", "game_night", "weekend_language", "server_rules"}
    assert rows_naming("Zwartezee") and rows_naming("cello")
    answer = deleted(api, server, "7001", "7002", "7005")
    assert sorted(answer["withdrawn"]) == sorted([facts["paul_instrument"].number, facts["game_night"].number])
    assert answer["removed"] == 3  # messages 7002 and 7005 stored to learn from, and the answered message's text
    for key in ("paul_instrument", "game_night"):
        fact = Fact.objects.get(server=server, key=key)
        assert fact.retracted_at is not None and fact.source_deleted_at is not None
        assert fact.retraction_reason == "the member deleted the message it came from"
    # Reinforced by a deleted message, but learned from another: it stays.
    assert Fact.objects.get(server=server, key="weekend_language").retracted_at is None
    assert handed_to_the_bot(api, server) == {"weekend_language", "server_rules"}
    assert not ChannelMessage.objects.filter(server=server, message_id__in=["7002", "7005"]).exists()
    assert Exchange.objects.get(server=server, message_id="7001").message == ""
    # The deleted message's own words are nowhere any more (the facts keep theirs: restorable by staff).
    assert rows_naming("Zwartezee") == {}
    # The fact's wording stays with the fact, its versions and the action that asked for it (the exchange's actions).
    assert set(rows_naming("cello")) == {"memory_fact", "memory_factversion", "memory_exchange"}
    audit = AuditEntry.objects.get(action="memory.message_deleted")
    assert audit.count == 2 and "3 deleted Discord messages: 2 facts learned from them retracted" in audit.result


def test_under_classic_they_are_given_the_staff_audience_and_nothing_is_removed(api, server, memory):
    facts = memory(MemoryType.CLASSIC)
    before = Fact.objects.filter(server=server).count()
    answer = deleted(api, server, "7002")
    assert answer["withdrawn"] == [facts["game_night"].number]
    night = Fact.objects.get(server=server, key="game_night")
    assert (night.audience, night.retracted_at is None, night.source_deleted_at is not None) == (
        Audience.STAFF, True, True)
    assert Fact.objects.filter(server=server).count() == before
    assert "game_night" not in handed_to_the_bot(api, server)
    version = FactVersion.objects.filter(fact=night).order_by("-version").first()
    assert version.reason == "the member deleted the message it came from"


def test_deleting_twice_or_a_message_never_seen_changes_nothing(api, server, memory):
    memory(MemoryType.LEDGER)
    deleted(api, server, "7002")
    state = memory_state()
    assert deleted(api, server, "7002", "123456") == {"withdrawn": [], "removed": 0}
    assert memory_state() == state
    assert AuditEntry.objects.filter(action="memory.message_deleted").count() == 1


def test_a_restore_by_staff_hands_the_fact_back_and_clears_the_flag(api, server, memory, owner):
    from memory.facts.services import fact_restore  # the staff path under test, not a fixture of the module

    memory(MemoryType.LEDGER)
    deleted(api, server, "7002")
    night = fact_restore(fact=Fact.objects.get(server=server, key="game_night"), actor=owner)
    assert night.source_deleted_at is None and "game_night" in handed_to_the_bot(api, server)


@pytest.mark.parametrize("body, field", [
    ({}, "message_ids"),
    ({"message_ids": []}, "message_ids"),
    ({"message_ids": [str(n) for n in range(1, 102)]}, "message_ids"),
    ({"message_ids": ["7002", "x7"]}, "message_ids[1]"),
    ({"message_ids": [7002]}, "message_ids[0]"),
    ({"message_ids": ["7002"], "reason": "spam"}, "reason"),
])
def test_a_bad_body_is_a_400_naming_the_field_and_changes_nothing(api, server, memory, body, field):
    memory(MemoryType.LEDGER)
    state = memory_state()
    assert_error(api.post(f"/servers/{server.guild_id}/messages/deleted", body), 400, field)
    assert memory_state() == state


def test_no_token_and_another_teams_token_are_refused(api, server, memory, other_bot_token):
    memory(MemoryType.LEDGER)
    state = memory_state()
    body = {"message_ids": ["7002"]}
    assert_error(api.as_token(None).post(f"/servers/{server.guild_id}/messages/deleted", body), 401)
    assert_error(api.as_token(other_bot_token).post(f"/servers/{server.guild_id}/messages/deleted", body), 404)
    assert memory_state() == state


def test_context_and_reply_take_the_message_id_and_refuse_one_that_is_not_a_snowflake(api, server):
    configure(server, memory_type=MemoryType.LEDGER)
    api.context(server, message_id="7001")
    assert Exchange.objects.get(server=server).message_id == "7001"
    assert_error(api.post(f"/servers/{server.guild_id}/context", message(message_id="abc")), 400, "message_id")
