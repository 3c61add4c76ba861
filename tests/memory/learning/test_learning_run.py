"""The learning run (memory.learning.runs): members' messages become facts with the right members, audiences and
message links; the bot's words never on their own; the same statement again is reinforced; a contradiction is
flagged; bad items are refused one by one; a failing model moves nothing; a second run over the same messages
writes nothing."""

from __future__ import annotations

import pytest

from consolidation.models import Proposal, ProposalKind
from memory.learning.runs import learning_run
from memory.models import (Audience, ChannelNote, Fact, LearnedFrom, LearningRun, LearningRunStatus, LearningState,
                           Scope)
from tests.factories import make_fact
from tests.memory.conftest import GENERAL, MODS
from tests.model_server import Slow, Status

from .conftest import BOT, MIRA, PAUL, ZED, fact, ingest, learned, msg


def fifty_messages(server) -> None:
    """Fifty messages of three members and the bot in #general and #mod-chat, over an evening."""
    chatter = [msg(1000 + n, (PAUL, MIRA, BOT)[n % 3], f"chatting about the weekend, part {n}") for n in range(40)]
    ingest(server, msg(900, PAUL, "I'm Paul, and my favourite game is Tetris."),
           msg(901, BOT, "Nice to meet you Paul! The server rule is no spoilers."),
           msg(902, MIRA, "Heads up: game night is every Friday at 8 pm."),
           *chatter,
           msg(950, ZED, "Zed here: the ban appeal form is pinned in this channel.", channel=MODS),
           *[msg(960 + n, ZED, f"mod small talk {n}", channel=MODS) for n in range(6)])


def test_one_run_learns_the_members_facts_with_their_audiences_and_message_links(learning_server, learning_model):
    fifty_messages(learning_server)
    learning_model.script = [
        learned([fact("paul_favourite_game", "Paul's favourite game is Tetris.", [900], scope="member",
                      member_id=PAUL, kind="preference"),
                 fact("game_night", "Game night is every Friday at 8 pm.", [902], kind="event", importance=0.8),
                 fact("no_spoilers", "The server rule is no spoilers.", [901], kind="rule")],  # the bot's words
                note="Paul introduced himself; Mira announced Friday's game night."),
        learned([fact("ban_appeals", "The ban appeal form is pinned in #mod-chat.", [950])], note="Mods chatting."),
    ]
    outcome = learning_run(learning_server)
    run = outcome.run
    assert run.status == LearningRunStatus.DONE, run.reason
    assert (run.written, run.reinforced, run.refused, len(run.message_ids)) == (3, 0, 1, 50)
    paul = Fact.objects.get(server=learning_server, key="paul_favourite_game")
    assert (paul.scope, paul.member_id, paul.learned_from_member_id, paul.audience, paul.kind) == (
        Scope.MEMBER, PAUL, PAUL, Audience.SERVER, "preference")
    night = Fact.objects.get(server=learning_server, key="game_night")
    assert (night.learned_from_member_id, night.audience, night.source_channel_id) == (MIRA, Audience.SERVER, GENERAL)
    appeals = Fact.objects.get(server=learning_server, key="ban_appeals")
    assert (appeals.audience, appeals.source_channel_id) == (Audience.CHANNEL, MODS)  # #mod-chat is private
    assert not Fact.objects.filter(server=learning_server, key="no_spoilers").exists()
    refused = [result for result in run.results if result["status"] == "refused"]
    assert refused[0]["detail"] == "it rests only on a bot's or a notice's words, never memory on their own"
    links = {link.fact.key: (link.run_id, link.message_ids) for link in LearnedFrom.objects.select_related("fact")}
    assert links == {"paul_favourite_game": (run.pk, ["900"]), "game_night": (run.pk, ["902"]),
                     "ban_appeals": (run.pk, ["950"])}
    assert LearningState.objects.get(server=learning_server).read_position == run.upto_position
    assert (run.prompt_tokens, run.completion_tokens) == (1800, 240)
    # One call per channel: #general's request holds its messages, the bot's marked as a bot's, and none of #mod-chat.
    general, mods = (request["body"]["messages"][1]["content"] for request in learning_model.requests)
    assert "[id 900] 2026-05-03 18:00 Paul (member 222): I'm Paul" in general
    assert "bot Lorekeeper: Nice to meet you" in general and "ban appeal" not in general
    assert "ban appeal form" in mods and "Tetris" not in mods
    notes = dict(ChannelNote.objects.values_list("channel_id", "content"))
    assert notes == {GENERAL: "Paul introduced himself; Mira announced Friday's game night.", MODS: "Mods chatting."}


def test_the_model_is_shown_what_a_reply_there_may_see_and_never_a_staff_only_fact(learning_server, learning_model):
    make_fact(learning_server, key="paul_birthday", content="Paul's birthday is 12 March.", scope=Scope.MEMBER,
              member_id=PAUL)
    make_fact(learning_server, key="watch_paul", content="Staff keep an eye on Paul's alts.",
              audience=Audience.STAFF, scope=Scope.MEMBER, member_id=PAUL)
    make_fact(learning_server, key="mod_plan", content="Mods plan the raid response.", audience=Audience.CHANNEL,
              source_channel_id=MODS)
    ingest(learning_server, msg(900, PAUL, "My birthday party is on Saturday!"))
    learning_model.script = [learned()]
    learning_run(learning_server)
    request = learning_model.requests[0]["body"]["messages"][1]["content"]
    assert "[#1] (" in request and "paul_birthday: Paul's birthday is 12 March. (about Paul (222))" in request
    assert "alts" not in request and "raid response" not in request


def test_the_same_statement_again_is_reinforced_not_stored_twice(learning_server, learning_model):
    ingest(learning_server, msg(900, PAUL, "Game night is every Friday at 8 pm."))
    learning_model.script = [learned([fact("game_night", "Game night is every Friday at 8 pm.", [900])])]
    assert learning_run(learning_server).run.written == 1
    ingest(learning_server, msg(901, MIRA, "Reminder: game night is every Friday at 8 pm."))
    learning_model.script = [learned([fact("game_night", "Game night is every Friday at 8 pm.", [901])])]
    run = learning_run(learning_server).run
    assert (run.written, run.reinforced) == (0, 1)
    night = Fact.objects.get(server=learning_server, key="game_night")
    assert night.mention_count == 2 and Fact.objects.filter(server=learning_server).count() == 1
    assert LearnedFrom.objects.filter(fact=night, reinforced=True).get().message_ids == ["901"]


def test_reinforce_by_number_and_a_contradiction_is_flagged(learning_server, learning_model):
    favourite = make_fact(learning_server, key="paul_favourite_game", content="Paul's favourite game is Tetris.",
                          scope=Scope.MEMBER, member_id=PAUL)
    night = make_fact(learning_server, key="game_night", content="Game night is on Fridays.")
    ingest(learning_server, msg(900, PAUL, "Honestly my favourite game is Doom now, not Tetris."),
           msg(901, MIRA, "Game night on Friday as always!"))
    learning_model.script = [learned([
        fact("", "Paul's favourite game is now Doom.", [900], op="contradicts", number=favourite.number),
        fact("", "", [901], op="reinforce", number=night.number),
        fact("x", "Something.", [901], op="reinforce", number=77)])]
    run = learning_run(learning_server).run
    assert (run.written, run.reinforced, run.refused) == (1, 1, 1), run.results
    newer = Fact.objects.get(server=learning_server, content="Paul's favourite game is now Doom.")
    assert (newer.key, newer.member_id) == ("paul_favourite_game", PAUL)
    flag = Proposal.objects.get(server=learning_server, kind=ProposalKind.CONTRADICTION)
    assert {flag.keeper_id, flag.other_id} == {favourite.pk, newer.pk}
    assert Fact.objects.get(pk=night.pk).mention_count == 2
    assert [r["detail"] for r in run.results if r["status"] == "refused"] == [
        "#77 was not among the facts the model was shown"]


def test_bad_items_are_refused_each_with_its_reason_and_the_rest_applied(learning_server, learning_model):
    ingest(learning_server, msg(900, PAUL, "I'm learning Japanese."), msg(901, MIRA, "I live in Utrecht."))
    learning_model.script = [learned([
        "just a string",
        fact("paul_language", "Paul is learning Japanese.", [900], scope="member", member_id=PAUL),
        fact("bad key!", "Mira lives in Utrecht.", [901]),
        fact("mira_city", "Mira lives in Utrecht.", [12345]),
        fact("mira_city", "Mira lives in Utrecht.", []),
        fact("mira_city", "", [901]),
        fact("mira_city", "Mira lives in Utrecht.", [901], op="forget"),
        fact("mira_city", "Mira lives in Utrecht.", [901], confidence=7),
        *[fact(f"extra_{n}", f"Extra {n}.", [901]) for n in range(25)],
    ])]
    run = learning_run(learning_server).run
    assert run.status == LearningRunStatus.DONE
    reasons = [result["detail"] for result in run.results if result["status"] == "refused"]
    assert "not an object" in reasons
    assert any("letters and digits" in reason for reason in reasons)
    assert "message 12345 is not among the messages read" in reasons
    assert "it names no message it rests on" in reasons
    assert "Enter the content (1–1000 characters)." in reasons
    assert "op must be one of new, reinforce, contradicts" in reasons
    assert "The confidence must be a number from 0 to 1." in reasons
    assert reasons.count("more than the 20 facts one call may propose") == 6  # 26 good ones, 20 applied
    assert Fact.objects.filter(server=learning_server, key="paul_language").exists()
    assert run.written == 20 and run.refused == len(reasons)


@pytest.mark.parametrize(("step", "status"), [
    (Status(500), LearningRunStatus.FAILED),
    (learned()["choices"][0]["message"]["content"].replace("{", "not json"), LearningRunStatus.FAILED),
])
def test_a_model_that_fails_entirely_leaves_the_read_position_where_it_was(learning_server, learning_model, step,
                                                                           status):
    ingest(learning_server, msg(900, PAUL, "I'm Paul."))
    learning_model.script = [step if isinstance(step, Status) else {**learned(), "choices": [
        {"index": 0, "message": {"role": "assistant", "content": step}, "finish_reason": "stop"}]}]
    run = learning_run(learning_server).run
    assert run.status == status and "The read position did not move." in run.reason
    assert LearningState.objects.get(server=learning_server).read_position == 0
    assert not Fact.objects.filter(server=learning_server).exists()
    learning_model.script = [learned([fact("paul_name", "The member 222 is called Paul.", [900])])]
    assert learning_run(learning_server).run.written == 1  # the next run reads the same messages again


def test_a_model_step_past_its_time_limit_ends_the_run_timed_out(learning_server, learning_model):
    from tests.memory.bot.api.helpers import configure  # the fixture's own helper, imported where it is needed

    configure(learning_server, learning_step_seconds=5)
    ingest(learning_server, msg(900, PAUL, "I'm Paul."))
    learning_model.script = [Slow(6, learned())]
    run = learning_run(learning_server).run
    assert run.status == LearningRunStatus.TIMED_OUT and "within 5 seconds" in run.reason
    assert LearningState.objects.get(server=learning_server).read_position == 0


def test_running_twice_over_the_same_messages_writes_nothing_the_second_time(learning_server, learning_model):
    ingest(learning_server, msg(900, PAUL, "I'm Paul."))
    learning_model.script = [learned([fact("paul_name", "The member 222 is called Paul.", [900])])]
    learning_run(learning_server)
    before = list(Fact.objects.values_list("pk", "mention_count"))
    outcome = learning_run(learning_server)
    assert outcome.run is None and outcome.said == "No new messages to learn from."
    assert list(Fact.objects.values_list("pk", "mention_count")) == before
    assert learning_model.chat_calls == 1 and LearningRun.objects.count() == 1


def test_without_a_learning_model_nothing_is_learned_and_it_says_so(learning_server):
    ingest(learning_server, msg(900, PAUL, "I'm Paul."))
    outcome = learning_run(learning_server)
    assert outcome.run is None and "no learning model" in outcome.said
    assert not Fact.objects.exists() and not LearningRun.objects.exists()
