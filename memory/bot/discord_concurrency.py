"""How the Discord adapter handles many servers at once (docs/ARCHITECTURE.md, "The Discord bot for many servers").

Messages of different channels are handled concurrently, at most LOREKEEPER_DISCORD_CONCURRENCY at a time in the
process; messages of one channel one after the other, in the order Discord sent them (`ChannelLanes`). The
database work, the synchronous reply pipeline with its model calls included, runs in a pool of threads of its own
(`DatabaseThreads`), each thread with its own database connection, checked before and after each call as Django
checks one around a request. The pool has one thread more than messages may run at once, so a guild event or a
slash command never waits behind slow model calls; the bot holds at most that many connections.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

Result = TypeVar("Result")
SPARE_THREADS = 1  # for guild events and slash commands, beside the message slots


def discord_concurrency() -> int:
    """Messages the process handles at once (the setting; at least one)."""
    return max(1, int(settings.LOREKEEPER_DISCORD_CONCURRENCY))


def _as_a_request(function: Callable[..., Result], *args, **kwargs) -> Result:
    # A connection that broke or outlived CONN_MAX_AGE is dropped before the work and after it, as
    # request_started / request_finished do for a web request; a long-lived thread would otherwise keep a dead one.
    close_old_connections()
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()


class DatabaseThreads:
    """`size` threads for the adapter's synchronous (ORM) work, off the event loop."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix="lorekeeper-discord")

    async def run(self, function: Callable[..., Result], /, *args, **kwargs) -> Result:
        return await sync_to_async(_as_a_request, thread_sensitive=False, executor=self._executor)(
            function, *args, **kwargs)


_threads: DatabaseThreads | None = None


def database_threads() -> DatabaseThreads:
    """The process's pool, made on first use (on the event loop's thread, so once)."""
    global _threads
    if _threads is None:
        _threads = DatabaseThreads(discord_concurrency() + SPARE_THREADS)
    return _threads


def in_django(function: Callable[..., Result]) -> Callable[..., asyncio.Future]:
    """The synchronous function as a coroutine function that runs it in the process's database threads."""
    async def in_a_database_thread(*args, **kwargs):
        return await database_threads().run(function, *args, **kwargs)

    return in_a_database_thread


class ChannelLanes:
    """One message of a channel at a time, in arrival order; at most `concurrency` of all channels at once.

    A message waits for its channel's lane first, then for a slot, so a busy channel's queue holds no slot another
    channel could use. asyncio's Lock wakes its waiters first come, first served, and taking a free lock does not
    yield, so the order in which discord.py starts the handlers is the order in which they run."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self._slots = asyncio.Semaphore(concurrency)
        self._lanes: dict[str, asyncio.Lock] = {}
        self._queued: dict[str, int] = {}  # messages holding or waiting for each lane: a lane no one uses goes

    @asynccontextmanager
    async def turn(self, channel_id: str) -> AsyncIterator[None]:
        lane = self._lanes.setdefault(channel_id, asyncio.Lock())
        self._queued[channel_id] = self._queued.get(channel_id, 0) + 1
        try:
            async with lane, self._slots:
                yield
        finally:
            self._queued[channel_id] -= 1
            if not self._queued[channel_id]:
                del self._queued[channel_id], self._lanes[channel_id]

    @property
    def channels(self) -> int:
        """Channels with a message being handled or waiting."""
        return len(self._lanes)
