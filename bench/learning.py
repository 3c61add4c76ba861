"""Measure learning from members' words (issue 23): storing the messages a bot sends in, and one learning run.

Figures:

- ingest.messages rps=<x>: messages stored per second by memory.learning.ingest.messages_ingest (the work of
  POST …/messages behind its parsing), 20 batches of 100 messages of four members and the bot in three channels,
  into the million-fact bench server (bench/_seed.py). Target ≥ 500.
- learning.run.100 seconds=<x>: one learning run over 100 of those messages (two channels), its model a local HTTP
  server answering each call in 200 ms with five facts; `database_ms=` and `model_ms=` say where the time went
  (the run's own counters). Target ≤ 5 s.

Everything the bench writes goes afterwards: its messages, runs, notes and the facts it learned (facts_purge of
its channels), and what it set is set back as it was: the server's learning-model endpoint (removed when it had none,
else its row as it was, key included), Messages one learning run reads and the learning read position; so the bench
server stays as seeded. `--smoke`: one batch and a run over 10 messages on a small
server of its own (guild ...0093).
"""

from __future__ import annotations

import json
import sys
import time
from datetime import timedelta

from bench import _harness
from bench._harness import report_metric, run, scaled, setup_django

CHANNELS = ("310000000000000001", "310000000000000002", "310000000000000003")
MEMBERS = ("320000000000000001", "320000000000000002", "320000000000000003", "320000000000000004")
BOT = "320000000000000099"
LINES = ("I'm {name} and my favourite game is {game}.", "Game night moved to {day} at 8 pm.",
         "Ik woon in {city} sinds vorig jaar.", "Ich spiele am liebsten {game} mit Freunden.",
         "来週の{day}にオフ会があります。", "Does anyone know when the {game} tournament starts?")
WORDS = {"name": ("Paul", "Mira", "Zed", "Anouk"), "game": ("Tetris", "Doom", "Celeste", "Hades"),
         "day": ("Friday", "Saturday", "Sunday"), "city": ("Utrecht", "Köln", "Gent")}


def _messages(count: int, first_id: int, started):
    from memory.learning.ingest import IngestedMessage

    messages = []
    for n in range(count):
        author = BOT if n % 5 == 4 else MEMBERS[n % len(MEMBERS)]
        text = LINES[n % len(LINES)].format(**{key: values[n % len(values)] for key, values in WORDS.items()})
        messages.append(IngestedMessage(
            message_id=str(first_id + n), channel_id=CHANNELS[(n // 50) % 2 if count <= 100 else n % 3],
            thread_parent_id="", author_id=author, author_name=f"member {author[-2:]}", is_bot=author == BOT,
            content=text, sent_at=started + timedelta(seconds=n)))
    return messages


def _answer(messages) -> dict:
    """Five facts about the first members' messages of one channel's call, as a learning model would answer."""
    ids = [message.message_id for message in messages if not message.is_bot][:5]
    facts = [{"op": "new", "key": f"bench_fact_{message_id}", "content": f"Bench fact from message {message_id}.",
              "message_ids": [message_id]} for message_id in ids]
    content = json.dumps({"facts": facts, "note": "The bench members talk about games."})
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 200}}


def main(*, smoke: bool) -> None:
    setup_django()
    import logging

    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    from django.utils import timezone

    from bench._seed import bench_server_and_user, ensure_bench_facts
    from config import queue
    from memory.configuration.selectors import ai_settings_for_server
    from memory.configuration.services import ai_settings_update, model_endpoint_set
    from memory.facts.deletes import facts_purge
    from memory.facts.selectors import PurgeSource
    from memory.learning import ingest
    from memory.learning.ingest import messages_ingest
    from memory.learning.runs import learning_run
    from memory.models import ChannelMessage, ChannelNote, LearningRun, LearningState, ModelEndpoint, ModelPurpose
    from tests.model_server import FakeModelServer, Slow

    server, user = bench_server_and_user("100000000000000093", "Bench learning") if _harness.SMOKE \
        else ensure_bench_facts()
    # The run is timed below, not left to the queue: ingest imported enqueue_on_commit by name, so it is replaced
    # there too (else Celery, eager under config.settings.test, ran learning tasks inside the ingest's timing).
    queue.enqueue_on_commit = ingest.enqueue_on_commit = lambda *args: None
    model = FakeModelServer().start()
    started = timezone.now()
    first_id = 1_300_000_000_000_000_000 + int(time.time() * 1000) % 10**9 * 1000
    # What the run changes on the server, to set back afterwards (a later session reuses the bench server).
    endpoint_before = ModelEndpoint.objects.filter(server=server, purpose=ModelPurpose.LEARNING).first()
    max_messages_before = ai_settings_for_server(server).learning_max_messages
    state_before = LearningState.objects.filter(server=server).values_list("read_position", flat=True).first()
    try:
        model_endpoint_set(server=server, actor=user, purpose=ModelPurpose.LEARNING, base_url=model.base_url,
                           model_name="bench-learner", api_key=None)
        # A learning run of the bench messages only: whatever was waiting before is read past.
        last = ChannelMessage.objects.filter(server=server).order_by("-id").values_list("id", flat=True).first()
        LearningState.objects.update_or_create(server=server, defaults={"read_position": last or 0})
        batches, size = scaled(20, 1), scaled(100, 10)
        stored, began = 0, time.perf_counter()
        for batch in range(batches):
            stored += messages_ingest(server=server, messages=_messages(
                size, first_id + batch * size, started)).accepted
        seconds = time.perf_counter() - began
        report_metric("ingest.messages" if not smoke else "ingest.messages.smoke", "rps", stored / seconds)

        # The run reads the first batch (one run reads `size`): its channels' calls answered in 200 ms each.
        ai_settings_update(server=server, actor=user, learning_max_messages=size)
        first_batch = _messages(size, first_id, started)
        model.script = [Slow(0.2, _answer([m for m in first_batch if m.channel_id == channel]))
                        for channel in dict.fromkeys(m.channel_id for m in first_batch)]
        began = time.perf_counter()
        outcome = learning_run(server)
        seconds = time.perf_counter() - began
        run_row = outcome.run
        name = "learning.run.100" if not smoke else "learning.run.smoke"
        print(f"bench: {name} seconds={seconds:.3f} database_ms={run_row.database_ms} model_ms={run_row.model_ms} "
              f"written={run_row.written} status={run_row.status}", flush=True)
    finally:
        model.stop()
        for channel in CHANNELS:
            facts_purge(server=server, source=PurgeSource(channel_id=channel), actor_label="bench.learning")
        ChannelMessage.objects.filter(server=server, message_id__gte=str(first_id)).filter(
            channel_id__in=CHANNELS).delete()
        ChannelNote.objects.filter(server=server, channel_id__in=CHANNELS).delete()
        LearningRun.objects.filter(server=server, model_name="bench-learner").delete()
        _set_back(server, user, endpoint_before, max_messages_before, state_before)


def _set_back(server, user, endpoint_before, max_messages_before: int, state_before: int | None) -> None:
    """The learning-model endpoint, Messages one learning run reads and the read position as they were before the
    run: an endpoint the server had is written back as its row was (its key is stored encrypted: no service can set
    it from the plaintext), none is removed through the service (audited, as staff removing it)."""
    from memory.configuration.services import ai_settings_update, model_endpoint_remove
    from memory.models import LearningState, ModelEndpoint, ModelPurpose

    if endpoint_before is None:
        model_endpoint_remove(server=server, actor=user, purpose=ModelPurpose.LEARNING)
    else:
        endpoint_before.save()
    ai_settings_update(server=server, actor=user, learning_max_messages=max_messages_before)
    if state_before is None:
        LearningState.objects.filter(server=server).delete()
    else:
        LearningState.objects.filter(server=server).update(read_position=state_before)
    left = ModelEndpoint.objects.filter(server=server, purpose=ModelPurpose.LEARNING).first()
    print(f"# set back: learning endpoint {'none' if left is None else left.base_url}, learning_max_messages="
          f"{max_messages_before}, read position {state_before}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    run(main)
