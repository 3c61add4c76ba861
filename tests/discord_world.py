"""Discord without a network, for the adapter's tests and bench.discord: discord.py's own Guild, TextChannel,
Thread, Member and Message objects built from gateway-shaped payloads on a ConnectionState that has no HTTP client.

Channels that must post or read history are real TextChannel / Thread subclasses whose network methods are
replaced: send() records what would have been posted (and when), history() replays messages set by the test, and
typing() records when the typing indicator was shown and ended.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import discord
from discord.state import ConnectionState

from memory.bot.discord import bot_intents

BOT_ID = 900000000000000001
APPLICATION_ID = 900000000000000002
TIMESTAMP = "2025-01-01T12:00:00+00:00"

_message_ids = itertools.count(333000000000000001)


@dataclass(frozen=True)
class Person:
    id: int
    username: str
    nick: str | None = None
    bot: bool = False

    def user_payload(self) -> dict:
        return {"id": str(self.id), "username": self.username, "discriminator": "0", "avatar": None,
                "global_name": None, "bot": self.bot}


ANN = Person(444000000000000001, "ann", nick="Annie")
BOB = Person(444000000000000002, "bob")
DICE_BOT = Person(555000000000000001, "dicebot", bot=True)
LOREKEEPER = Person(BOT_ID, "lorekeeper", bot=True)


class _Typing:
    def __init__(self, channel: _Recording):
        self.channel = channel

    async def __aenter__(self):
        self.began = time.monotonic()
        return self

    async def __aexit__(self, *exc):
        self.channel.typing_spans.append((self.began, time.monotonic()))
        return False


class _Recording:
    """Replaces the network calls of a real channel: posts are recorded, history is replayed."""

    def start_recording(self, earlier: list[discord.Message] | None = None):
        self.sent: list[dict] = []
        self.earlier = earlier or []
        self.typing_spans: list[tuple[float, float]] = []  # (shown, ended), monotonic seconds
        return self

    async def send(self, content=None, **options):
        self.sent.append({"content": content, "at": time.monotonic(), **options})

    async def history(self, *, limit=100, before=None, **_):  # newest first, like Discord
        newer_first = sorted(self.earlier, key=lambda message: message.id, reverse=True)
        for message in [m for m in newer_first if before is None or m.id < before.id][:limit]:
            yield message

    def typing(self):
        return _Typing(self)


class RecordingTextChannel(_Recording, discord.TextChannel):
    pass


class RecordingThread(_Recording, discord.Thread):
    pass


def text_channel_payload(channel_id: int, name: str, guild_id: int) -> dict:
    return {"id": str(channel_id), "type": 0, "name": name, "position": 0, "guild_id": str(guild_id)}


def thread_payload(thread_id: int, name: str, parent_id: int, guild_id: int) -> dict:
    return {"id": str(thread_id), "type": 11, "name": name, "parent_id": str(parent_id), "owner_id": str(ANN.id),
            "guild_id": str(guild_id), "message_count": 0, "member_count": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": TIMESTAMP,
                                "locked": False}}


def on_a_loop_of_its_own(function, /, *args, **kwargs):
    """Run the coroutine function to its end on a new event loop in a thread of its own, as discord.py runs a handler
    on its loop, and return what it returns. Not async_to_sync in the test's thread: a test that ran earlier in the
    session (Playwright's sync API, the browser tests) may have left a running loop there."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, function(*args, **kwargs)).result()


def discord_state() -> ConnectionState:
    """A connection state with the bot logged in and no HTTP client."""
    state = ConnectionState(dispatch=lambda *args, **kwargs: None, handlers={}, hooks={}, http=None,
                            intents=bot_intents())
    state.user = discord.ClientUser(state=state, data=LOREKEEPER.user_payload())
    return state


def build_guild(state: ConnectionState, guild_id: int, name: str, *, text_channels: list[tuple[int, str]],
                threads: list[tuple[int, str, int]] = (), other_channels: list[dict] = ()) -> discord.Guild:
    """A guild whose text channels and threads (id, name, parent id) record what is posted in them;
    `other_channels`: payloads of channels that hold no recording (a category, a voice channel)."""
    guild = discord.Guild(state=state, data={
        "id": str(guild_id), "name": name, "roles": [], "members": [],
        "channels": [*(text_channel_payload(channel_id, channel_name, guild_id)
                       for channel_id, channel_name in text_channels), *other_channels],
        "threads": [thread_payload(thread_id, thread_name, parent, guild_id)
                    for thread_id, thread_name, parent in threads],
    })
    # Swap the message channels for recording ones (same payloads, same guild).
    for channel_id, channel_name in text_channels:
        guild._add_channel(RecordingTextChannel(state=state, guild=guild, data=text_channel_payload(
            channel_id, channel_name, guild_id)).start_recording())
    for thread_id, thread_name, parent in threads:
        guild._add_thread(RecordingThread(guild=guild, state=state, data=thread_payload(
            thread_id, thread_name, parent, guild_id)).start_recording())
    state._add_guild(guild)
    return guild


def message_in(state: ConnectionState, channel, content: str, *, author: Person = ANN,
               mentions: tuple[Person, ...] = (), replying_to: discord.Message | None = None,
               mention_everyone: bool = False, message_type: int = 0) -> discord.Message:
    """A message as the gateway delivers it, in `channel`."""
    data = {
        "id": str(next(_message_ids)), "channel_id": str(channel.id), "type": message_type, "content": content,
        "author": author.user_payload(), "mentions": [person.user_payload() for person in mentions],
        "mention_roles": [], "attachments": [], "embeds": [], "timestamp": TIMESTAMP, "edited_timestamp": None,
        "pinned": False, "mention_everyone": mention_everyone, "tts": False,
    }
    if getattr(channel, "guild", None) is not None:
        data["guild_id"] = str(channel.guild.id)
        data["member"] = {"nick": author.nick, "roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False,
                          "flags": 0}
    if replying_to is not None:
        data["message_reference"] = {"message_id": str(replying_to.id), "channel_id": str(channel.id),
                                     "guild_id": data.get("guild_id")}
        data["referenced_message"] = {
            "id": str(replying_to.id), "channel_id": str(channel.id), "type": 0, "content": replying_to.content,
            "author": LOREKEEPER.user_payload() if replying_to.author.id == BOT_ID else ANN.user_payload(),
            "mentions": [], "attachments": [], "embeds": [], "timestamp": TIMESTAMP, "edited_timestamp": None,
            "pinned": False, "mention_everyone": False, "tts": False,
        }
    return discord.Message(state=state, channel=channel, data=data)
