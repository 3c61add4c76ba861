"""The learning runs page and a run's page (viewers): what each run read, proposed and did; a learned fact's page links
its run and messages; the memory page says plainly when nothing is learned."""

from __future__ import annotations

from django.urls import reverse

from memory.learning.runs import learning_run
from memory.models import Fact
from tests.conftest import logged_in_client
from tests.memory.learning.conftest import BOT, PAUL, fact, ingest, learned, learning_model, learning_server, msg

__all__ = ["learning_model", "learning_server"]  # the fixtures, used by name


def test_a_viewer_sees_each_run_its_proposals_and_the_messages_it_read(learning_server, learning_model, member):
    ingest(learning_server, msg(900, PAUL, "My favourite game is Tetris."), msg(901, BOT, "Nice, Paul!"))
    learning_model.script = [learned([fact("paul_game", "Paul's favourite game is Tetris.", [900]),
                                      fact("bot_words", "Paul is nice.", [901])])]
    run = learning_run(learning_server).run
    client = logged_in_client(member)
    listing = client.get(reverse("memory:learning-runs", args=[learning_server.guild_id])).content.decode()
    assert "1 written, 0 reinforced, 1 refused" in listing and "tokens 900 in, 120 out" in listing
    page = client.get(reverse("memory:learning-run", args=[learning_server.guild_id, run.pk])).content.decode()
    assert "Paul&#x27;s favourite game is Tetris." in page
    assert "it rests only on a bot&#x27;s or a notice&#x27;s words" in page
    assert "My favourite game is Tetris." in page and "bot Lorekeeper" in page
    number = Fact.objects.get(key="paul_game").number
    fact_page = client.get(reverse("memory:fact", args=[learning_server.guild_id, number])).content.decode()
    assert "Learned from conversations" in fact_page
    assert reverse("memory:learning-run", args=[learning_server.guild_id, run.pk]) in fact_page
    assert "message 900</a>, Paul (222)" in fact_page


def test_without_a_learning_model_the_memory_page_says_nothing_is_learned(learning_server, member):
    ingest(learning_server, msg(900, PAUL, "My favourite game is Tetris."))
    page = logged_in_client(member).get(reverse("memory:page"), {"server": learning_server.guild_id})
    text = page.content.decode()
    assert "Nothing is learned from conversations: this server has no learning model" in text
    assert "1 member message waits to be read." in text


def test_a_fact_whose_message_was_deleted_is_flagged_and_its_page_links_the_message(learning_server, learning_model,
                                                                                   member):
    from memory.learning.deletions import messages_deleted  # the service under test, as the bot calls it

    ingest(learning_server, msg(900, PAUL, "My favourite game is Tetris."))
    learning_model.script = [learned([fact("paul_game", "Paul's favourite game is Tetris.", [900])])]
    learning_run(learning_server)
    number = Fact.objects.get(key="paul_game").number
    client = logged_in_client(member)
    fact_url = reverse("memory:fact", args=[learning_server.guild_id, number])
    before = client.get(fact_url).content.decode()
    assert f'href="https://discord.com/channels/{learning_server.guild_id}/' in before and "message 900" in before
    assert "message deleted" not in before
    messages_deleted(server=learning_server, message_ids=["900"])
    page = client.get(reverse("memory:page"), {"server": learning_server.guild_id, "state": "retracted"}
                      ).content.decode()
    assert "message deleted" in page  # Ledger: retracted, and the row says why, for staff to restore if it should stay
    fact_page = client.get(fact_url).content.decode()
    assert "the member deleted the message it came from" in fact_page and "message 900 (no longer stored)" in fact_page
