"""A server's learning run: claim it, read the messages after the read position, ask the learning model about each
channel's share of them (its request and answer stored on the run before anything is applied, so a resumed run
does not ask again), then apply the writes, move the read position and end the run in one transaction.

Exactly once: the claim (one conditional UPDATE of memory_learningstate) lets one run per server work at a time,
and the applying transaction locks that row and applies only when the read position is still where the run started
reading. A worker killed at any point leaves either nothing applied (the run stays open and the next claim resumes
it, with the answers it already has) or everything (the run is ended); never half."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from memory.clients.chat import ModelError, ModelTimeout, chat_completion
from memory.configuration.selectors import ai_settings_for_server, member_names, model_endpoints_for_server
from memory.models import (AISettings, ChannelMessage, LearningRun, LearningRunStatus, ModelEndpoint, ModelPurpose,
                           UsagePurpose)
from memory.retrieval.audience import Reader
from memory.retrieval.context import ContextFor, context_choice
from memory.usage.budget import BACKGROUND, over_budget
from memory.usage.recording import CallUsage, model_calls_record
from teams.models import Server

from .applying import run_apply
from .claims import CLAIM_FREE_SQL, UNCLAIMED_SQL
from .notes import channel_note
from .prompt import MAX_FACTS_PER_CALL, AnswerUnreadable, learning_answer, learning_request

# How long a claim holds past its next model step when its worker's database session lives on: only a backstop,
# since a claim whose session is gone (a killed worker) is free at once.
LEASE_MARGIN_S = 60


@dataclass(frozen=True)
class RunOutcome:
    run: LearningRun | None
    said: str  # what happened, in one sentence (the task's log, the tests)
    more: bool = False  # messages remain after what this run read


# The claim takes the state row when it is free (memory.learning.claims). The row's INSERT is a statement of its
# own: an UPDATE does not see what a WITH of its own statement inserted.
_STATE_ROW_SQL = """INSERT INTO memory_learningstate (server_id, read_position) VALUES (%(server)s, 0)
                    ON CONFLICT (server_id) DO NOTHING"""
_CLAIM_SQL = f"""
    UPDATE memory_learningstate s
    SET claim_token = %(token)s, claimed_until = now() + make_interval(secs => %(lease)s),
        claimed_pid = pg_backend_pid(),
        claimed_backend_start = (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid())
    WHERE s.server_id = %(server)s AND {CLAIM_FREE_SQL.format(alias="s")}
    RETURNING s.read_position
"""
_EXTEND_SQL = """UPDATE memory_learningstate SET claimed_until = now() + make_interval(secs => %s)
                 WHERE server_id = %s AND claim_token = %s"""
_RELEASE_SQL = f"UPDATE memory_learningstate SET {UNCLAIMED_SQL} WHERE server_id = %s AND claim_token = %s"


def _claim(server: Server, token: uuid.UUID, lease_s: int) -> int | None:
    """The read position, when this worker now holds the server's learning; None when another does. The first
    claim of a server inserts its row; a second worker's INSERT waits for that one's commit, then its UPDATE sees
    the row claimed."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_STATE_ROW_SQL, {"server": server.pk})
        cursor.execute(_CLAIM_SQL, {"server": server.pk, "token": token, "lease": lease_s})
        row = cursor.fetchone()
    return None if row is None else row[0]


def _sql(sql: str, params: list) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def learning_endpoint(server: Server) -> ModelEndpoint | None:
    """The server's learning model, or its consolidation model when it has none."""
    endpoints = model_endpoints_for_server(server)
    return endpoints.get(ModelPurpose.LEARNING) or endpoints.get(ModelPurpose.CONSOLIDATION)


def _open_run(server: Server, position: int, ai_settings: AISettings, endpoint: ModelEndpoint) -> LearningRun | None:
    """The run a killed worker left open (resumed where it stood), else a new run over the next messages."""
    left = LearningRun.objects.filter(server=server, status=LearningRunStatus.RUNNING).order_by("started_at").first()
    if left is not None:
        if left.after_position == position:
            return left
        _end(left, LearningRunStatus.SUPERSEDED, "Its messages were applied by another run.")
    messages = list(ChannelMessage.objects.filter(server=server, id__gt=position).order_by("id")
                    .values_list("id", "message_id", "author_id", "is_bot", "channel_id", "thread_parent_id")
                    [: ai_settings.learning_max_messages])
    if not messages:
        return None
    calls: dict[tuple[str, str], dict] = {}
    for _, message_id, _, _, channel_id, parent_id in messages:
        call = calls.setdefault((channel_id, parent_id), {"channel_id": channel_id, "thread_parent_id": parent_id,
                                                          "message_ids": [], "request": None, "answer": None,
                                                          "usage": None, "model_ms": None})
        call["message_ids"].append(message_id)
    return LearningRun.objects.create(
        server=server, after_position=position, upto_position=messages[-1][0], model_name=endpoint.model_name,
        message_ids=[row[1] for row in messages], calls=list(calls.values()),
        author_ids=sorted({row[2] for row in messages if not row[3]}))


def _end(run: LearningRun, status: str, reason: str) -> None:
    run.status, run.reason, run.ended_at = status, reason, timezone.now()
    run.save(update_fields=["status", "reason", "ended_at", "calls", "model_ms", "prompt_tokens",
                            "completion_tokens"])


def run_messages(run: LearningRun) -> dict[str, ChannelMessage]:
    """The run's messages by Discord id."""
    return {message.message_id: message for message in ChannelMessage.objects.filter(
        server_id=run.server_id, id__gt=run.after_position, id__lte=run.upto_position)}


def known_facts(server: Server, ai_settings: AISettings, messages: list[ChannelMessage], call: dict) -> list:
    """What the model is shown as known for one channel's messages: what a reply there would be handed about its
    speakers and their words (the memory type's own choice, the channel's audience: never a staff-only fact)."""
    reader = Reader.for_message(call["channel_id"], call["thread_parent_id"])
    speakers = tuple(dict.fromkeys(message.author_id for message in messages if not message.is_bot))
    text = "\n".join(message.content for message in messages if not message.is_bot)[-4000:]
    return context_choice(server, ai_settings, text, ContextFor(reader, speakers)).facts


def _ask(server: Server, ai_settings: AISettings, run: LearningRun, call: dict, endpoint: ModelEndpoint,
         messages: dict[str, ChannelMessage]) -> None:
    """One channel's call: asked (ModelError when it fails), checked as a whole (AnswerUnreadable), and stored."""
    read = [messages[message_id] for message_id in call["message_ids"] if message_id in messages]
    known = known_facts(server, ai_settings, read, call)
    names = member_names(server, {message.author_id for message in read} | {fact.member_id for fact in known
                                                                             if fact.member_id})
    request = learning_request(read, known, channel_note(server, call["channel_id"]), names, MAX_FACTS_PER_CALL)
    started = time.monotonic()
    try:
        answer = chat_completion(endpoint, request, read_timeout_s=float(ai_settings.learning_step_seconds))
    except ModelError:
        _usage_record(run, endpoint, None, None)  # asked, and the endpoint reported nothing
        raise
    _usage_record(run, endpoint, answer.usage.prompt_tokens, answer.usage.completion_tokens)
    call["model_ms"] = round((time.monotonic() - started) * 1000)
    run.model_ms += call["model_ms"]
    call["usage"] = {"prompt_tokens": answer.usage.prompt_tokens, "completion_tokens": answer.usage.completion_tokens}
    for name in ("prompt_tokens", "completion_tokens"):
        if call["usage"][name] is not None:
            setattr(run, name, (getattr(run, name) or 0) + call["usage"][name])
    call["request"], call["known_numbers"] = request, [fact.number for fact in known]
    learning_answer(answer.content, set(call["message_ids"]), MAX_FACTS_PER_CALL)  # AnswerUnreadable: none of it
    call["answer"] = answer.content
    run.save(update_fields=["calls", "model_ms", "prompt_tokens", "completion_tokens"])


def _usage_record(run: LearningRun, endpoint: ModelEndpoint, prompt_tokens: int | None,
                  completion_tokens: int | None) -> None:
    model_calls_record(server_id=run.server_id, purpose=UsagePurpose.LEARNING, learning_run_id=run.pk,
                       calls=[CallUsage(endpoint.model_name, prompt_tokens, completion_tokens)])


def learning_run(server: Server) -> RunOutcome:
    """Run the server's learning once, unless another worker is running it (then nothing is done), or the background
    models' monthly budget is used up (then it waits for the next month: the messages stay unread)."""
    ai_settings = ai_settings_for_server(server)
    endpoint = learning_endpoint(server)
    if endpoint is None:
        return RunOutcome(None, "This server has no learning model (nor a consolidation model): nothing is learned.")
    spent = over_budget(ai_settings, BACKGROUND)
    if spent is not None:
        return RunOutcome(None, f"{spent.sentence()} Learning waits until then; the messages stay unread.")
    token = uuid.uuid4()
    lease = ai_settings.learning_step_seconds + LEASE_MARGIN_S
    position = _claim(server, token, lease)
    if position is None:
        return RunOutcome(None, "Another learning run of this server is running.")
    try:
        run = _open_run(server, position, ai_settings, endpoint)
        if run is None:
            return RunOutcome(None, "No new messages to learn from.")
        messages = run_messages(run)
        for call in run.calls:
            if call.get("answer") is not None:
                continue  # a resumed run does not ask again
            _sql(_EXTEND_SQL, [lease, server.pk, token])
            try:
                _ask(server, ai_settings, run, call, endpoint, messages)
            except ModelTimeout as late:
                _end(run, LearningRunStatus.TIMED_OUT, f"{late} The read position did not move.")
                return RunOutcome(run, run.reason)
            except (ModelError, AnswerUnreadable) as failed:
                _end(run, LearningRunStatus.FAILED, f"{failed} The read position did not move.")
                return RunOutcome(run, run.reason)
        said = run_apply(server, run, token, messages)
        more = ChannelMessage.objects.filter(server=server, id__gt=run.upto_position).exists()
        return RunOutcome(run, said, more=more and run.status == LearningRunStatus.DONE)
    finally:
        _sql(_RELEASE_SQL, [server.pk, token])  # applied runs released it already; a failure frees it here


_UNREAD_SQL = f"""
    SELECT s.id FROM teams_server s
    LEFT JOIN memory_learningstate l ON l.server_id = s.id
    WHERE EXISTS (SELECT 1 FROM memory_channelmessage m WHERE m.server_id = s.id
                  AND m.id > coalesce(l.read_position, 0) AND NOT m.is_bot)
      AND {CLAIM_FREE_SQL.format(alias="l")}
      AND EXISTS (SELECT 1 FROM memory_modelendpoint e WHERE e.server_id = s.id
                  AND e.purpose IN ('learning', 'consolidation'))
"""


def servers_with_unread_messages() -> list[int]:
    """Servers with a learning (or consolidation) model, members' messages after their read position and no live
    run: what the beat queues a run for."""
    with connection.cursor() as cursor:
        cursor.execute(_UNREAD_SQL)
        return [row[0] for row in cursor.fetchall()]
