"""Who may see a fact: the one rule, in SQL for every read the bot makes and in Python for tests.

A fact's audience is `server` (every channel where memory may be read), `channel` (replies in its source channel,
and in that channel's threads when Include threads is on) or `staff` (never handed to the model). A read for the
bot is made for a `Reader`: the reply's channel, or for a thread the channel it was started in and the thread
itself (without Include threads a thread reads no memory at all: memory.configuration.channels). The thread
counts because a private thread of a public channel is its own source channel (memory.configuration.selectors
.learned_where): what was said there is seen in that thread only, never in the channel around it. The
filter is part of each statement (`visible_sql`), never applied to what a statement returned, so a limit, a
ranking or a nearest-neighbour search only ever sees facts the reader may see. No reader sees a fact held back
while a contradiction caught at write waits for staff (Fact.held_back): the newer side is handed over instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.models import Audience, Exchange, Fact

# The rule's SQL, for a fact table alias; %(reader_channel)s is the reader's channel and %(reader_thread)s its
# thread, the channel again outside a thread (never empty: a snowflake or "-", which no fact's source channel is).
# A fact held back (the older side of a contradiction caught at write, memory.facts.held_back) is seen by no reader
# until staff answer the flag; fact_in_force_newest carries held_back with the audience, so walks test both on the
# index entry.
_VISIBLE = ("(NOT {alias}.held_back AND ({alias}.audience = 'server' OR ({alias}.audience = 'channel' AND "
            "{alias}.source_channel_id IN ({channel}, {thread}))))")
NO_CHANNEL = "-"
NAMED = ("%(reader_channel)s", "%(reader_thread)s")
POSITIONAL = ("%s", "%s")  # in Reader.params' order


@dataclass(frozen=True)
class Reader:
    """Whom a bot read is for: a reply in `channel_id` (for a thread, the channel it was started in, and the thread
    as `thread_id`; "" outside a thread)."""

    channel_id: str
    thread_id: str = ""

    @classmethod
    def for_message(cls, channel_id: str, thread_parent_id: str = "") -> Reader:
        """The reader of a message in `channel_id`; a thread reads as the channel it was started in, and as itself."""
        if thread_parent_id:
            return cls(thread_parent_id, channel_id or NO_CHANNEL)
        return cls(channel_id or NO_CHANNEL)

    @classmethod
    def for_exchange(cls, exchange: Exchange) -> Reader:
        """The reader of an exchange's later calls (its search, the API's detail): the message it was opened for."""
        return cls.for_message(exchange.channel_id, exchange.thread_parent_id or "")

    @classmethod
    def any_channel(cls) -> Reader:
        """A reply in a channel where no fact was learned: sees the server facts only (the panel's dry runs,
        which stand for no channel in particular)."""
        return cls(NO_CHANNEL)

    @property
    def params(self) -> dict[str, str]:
        channel = self.channel_id or NO_CHANNEL
        return {"reader_channel": channel, "reader_thread": self.thread_id or channel}


def visible_sql(alias: str = "f", placeholders: tuple[str, str] = NAMED) -> str:
    """The SQL condition "the reader may see this fact" for the fact table joined as `alias`; `placeholders` are
    the reader's channel and thread (NAMED for Reader.params as a mapping, POSITIONAL for its values in order)."""
    channel, thread = placeholders
    return _VISIBLE.format(alias=alias, channel=channel, thread=thread)


def visible_to(fact: Fact, reader: Reader) -> bool:
    """The same rule in Python (tests compare the two; reads use the SQL)."""
    if fact.held_back:
        return False
    if fact.audience == Audience.SERVER:
        return True
    return fact.audience == Audience.CHANNEL and fact.source_channel_id in (reader.channel_id,
                                                                            reader.thread_id or reader.channel_id)
