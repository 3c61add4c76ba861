"""One HTTP client per process for every model endpoint call (chat and embeddings): its connection pool and TLS
context are built once. `httpx.post` builds a client, and so loads the CA bundle, on every call: measured in
bench.discord at about three quarters of the bot's 33 ms of CPU per reply, which kept 50 busy channels from 20
replies a second."""

from __future__ import annotations

import os
import threading

import httpx

_lock = threading.Lock()
_client: httpx.Client | None = None
_client_pid = 0


def model_http() -> httpx.Client:
    """The process's client (thread-safe); a forked worker builds its own, never sharing its parent's sockets."""
    global _client, _client_pid
    with _lock:
        if _client is None or _client_pid != os.getpid():
            _client = httpx.Client(limits=httpx.Limits(max_connections=64, max_keepalive_connections=16))
            _client_pid = os.getpid()
        return _client
