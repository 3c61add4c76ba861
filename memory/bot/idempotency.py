"""Exactly once: a bot that sends `actions` or `reply` again with the same Idempotency-Key (its HTTP client retried
after a timeout) gets the first answer again, and nothing is applied twice (memory.models.IdempotentRequest).

A key is one server's for a day. While one request of a key is being answered, its connection holds a session
advisory lock on (server, key): a second request of that key waits for the lock and then reads the first answer
(an `actions` call takes milliseconds), or gives up after WAIT_SECONDS with KeyBusy (a reply that is still asking
its model). PostgreSQL releases the lock if the process dies, so no claim is ever left behind. An `actions` call
is applied and its answer kept in one transaction, so it is applied once even if the process dies between the
two; a reply asks its model between transactions, so its answer is kept when it is done. Only answers that
changed something (200) are kept: an error changed nothing, and the same key may be sent again."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from django.db import connection, transaction
from django.utils import timezone

from memory.models import IdempotentRequest

KEY_MAX_LENGTH = 200
KEPT_FOR = timedelta(hours=24)
WAIT_SECONDS = 5.0  # a second request of a key in progress waits this long for the first answer, then KeyBusy
POLL_SECONDS = 0.02
LOCK_CLASS = 0x4C4B4944  # first key of the advisory lock ("LKID"); the second is hashtext(server id:key)
PURGE_BATCH = 5000
KEPT_STATUS = 200


class KeyReused(Exception):
    """The key already answered another request (another operation, exchange or body) within the day."""


class KeyBusy(Exception):
    """A request of this key is still being answered."""


@dataclass(frozen=True)
class Answer:
    status_code: int
    body: str
    exchange_id: UUID | None = None  # the exchange the answer is about: kept with it (None: not kept)
    replayed: bool = False


def request_fingerprint(operation: str, target: str, body: bytes) -> str:
    """What a key names: the operation, what it acts on and the body, as SHA-256. A JSON body counts by its
    meaning (whitespace and the order of an object's fields aside), so a client that rebuilds the same request
    matches; anything else by its bytes."""
    try:
        canonical = json.dumps(json.loads(body or b"null"), sort_keys=True, ensure_ascii=False).encode()
    except (ValueError, UnicodeError, RecursionError):
        canonical = body
    digest = hashlib.sha256(f"{operation}\n{target}\n".encode())
    digest.update(canonical)
    return digest.hexdigest()


@contextmanager
def _key_lock(server_id: int, key: str) -> Iterator[None]:
    """Hold (server, key)'s advisory lock for the block, waiting up to WAIT_SECONDS for it (KeyBusy after)."""
    arguments = [LOCK_CLASS, f"{server_id}:{key}"]
    deadline = time.monotonic() + WAIT_SECONDS
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", arguments)
            if cursor.fetchone()[0]:
                break
            if time.monotonic() >= deadline:
                raise KeyBusy
            time.sleep(POLL_SECONDS)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", arguments)


def _kept_answer(server_id: int, key: str, fingerprint: str, now: datetime) -> Answer | None:
    kept = (IdempotentRequest.objects.filter(server_id=server_id, key=key, created_at__gt=now - KEPT_FOR)
            .values_list("request_hash", "status_code", "response_body").first())
    if kept is None:
        return None
    request_hash, status_code, body = kept
    if request_hash != fingerprint:
        raise KeyReused
    return Answer(status_code, body, replayed=True)


def _keep(server_id: int, key: str, fingerprint: str, answer: Answer, now: datetime) -> None:
    """Keep the answer; a row of this key older than a day (not yet purged) is another request's and gives way."""
    IdempotentRequest.objects.filter(server_id=server_id, key=key).delete()
    IdempotentRequest.objects.create(server_id=server_id, key=key, request_hash=fingerprint,
                                     exchange_id=answer.exchange_id, status_code=answer.status_code,
                                     response_body=answer.body, created_at=now)


def answer_once(*, server_id: int, key: str, fingerprint: str, answer: Callable[[], Answer],
                atomic: bool) -> Answer:
    """The first answer to this server's key, computing it with `answer()` only if there is none yet. Raises
    KeyReused when the key named another request within the day, KeyBusy when a request of the key is still being
    answered after WAIT_SECONDS; whatever `answer()` raises passes through, and nothing is kept. `atomic`: apply
    and keep in one transaction (for answers computed in one transaction anyway)."""
    with _key_lock(server_id, key):
        kept = _kept_answer(server_id, key, fingerprint, timezone.now())
        if kept is not None:
            return kept
        with transaction.atomic() if atomic else nullcontext():
            fresh = answer()
            if fresh.status_code == KEPT_STATUS and fresh.exchange_id is not None:
                _keep(server_id, key, fingerprint, fresh, timezone.now())
        return fresh


def idempotent_requests_purge(*, now: datetime) -> int:
    """Delete every kept answer older than a day (none is given again after that), a batch at a time. Returns how
    many were deleted."""
    purged = 0
    with connection.cursor() as cursor:
        while True:
            cursor.execute("DELETE FROM memory_idempotentrequest WHERE id IN (SELECT id FROM memory_idempotentrequest"
                           " WHERE created_at < %s LIMIT %s)", [now - KEPT_FOR, PURGE_BATCH])
            purged += cursor.rowcount
            if cursor.rowcount < PURGE_BATCH:
                return purged
