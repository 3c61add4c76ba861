"""The dry run of the server's current memory type: the context a message would get, built by the code the bot
uses (memory.bot.exchanges.context_build) without recording an exchange, and what it holds: the pinned facts, the
speaker's share, the rest by the type's order, the facts the character budget cut, and how many characters the
memory block takes."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from memory.bot.exchanges import IncomingMessage, context_build
from memory.bot.prompt import fact_line
from memory.configuration.selectors import ai_settings_for_server
from memory.models import Fact
from memory.retrieval.context import speaker_slots
from memory.types import ContextOrder, profile_for
from teams.models import Server

ORDER_LABELS = {ContextOrder.NEWEST: gettext_lazy("newest changes first"),
                ContextOrder.BEST_SCORE: gettext_lazy("by score, best first")}


@dataclass(frozen=True)
class ContextPreview:
    message: str
    member_id: str
    member_name: str
    channel_id: str
    type_label: str
    order_label: str
    read_allowed: bool
    access_reason: str
    max_items: int
    speaker_slots: int
    max_chars: int
    block: str
    pinned: list[Fact] = field(default_factory=list)
    speaker: list[Fact] = field(default_factory=list)  # about the speaker, kept in the block
    general: list[Fact] = field(default_factory=list)  # by the type's order, kept in the block
    cut: list[Fact] = field(default_factory=list)  # chosen, but past Maximum memory characters
    line_characters: int = 0  # the fact lines, as the budget counts them

    @property
    def shown(self) -> int:
        return len(self.pinned) + len(self.speaker) + len(self.general)


def context_preview(server: Server, *, message: str = "", member_id: str = "", member_name: str = "",
                    channel_id: str = "") -> ContextPreview:
    """The context `message` would get from `member_id` in `channel_id` (none: a channel where nothing was learned,
    which sees the server's facts only), as the bot would build it now; nothing is recorded."""
    if not channel_id:
        ai_settings = ai_settings_for_server(server)
        # Where memory may be read: anywhere (a channel where nothing was learned), or the first read channel.
        channel_id = "" if ai_settings.read_all_channels else next(iter(ai_settings.read_channel_ids), "")
    incoming = IncomingMessage(channel_id=channel_id, author_id=member_id, author_name=member_name, content=message)
    built = context_build(server=server, message=incoming)
    ai_settings, block = built.ai_settings, built.block
    kept = {id(fact) for fact in block.shown}
    speaker_ids = {id(fact) for fact in built.choice.speaker}
    profile = profile_for(ai_settings.memory_type)
    for fact in [*block.shown, *block.cut]:  # whom a member fact is about, as the block names them
        name = built.names.get(fact.member_id, "") if fact.member_id else ""
        fact.about_label = f"{name} ({fact.member_id})" if name else fact.member_id
    return ContextPreview(
        message=message, member_id=member_id, member_name=member_name, channel_id=channel_id,
        type_label=profile.label, order_label=ORDER_LABELS[profile.context_order],
        read_allowed=built.access.read_allowed, access_reason=built.access.reason,
        max_items=ai_settings.max_injected_items,
        speaker_slots=speaker_slots(ai_settings.max_injected_items, ai_settings.speaker_share) if member_id else 0,
        max_chars=ai_settings.max_memory_chars, block=block.text,
        pinned=list(block.pinned),
        speaker=[fact for fact in built.choice.speaker if id(fact) in kept],
        general=[fact for fact in built.choice.general if id(fact) in kept and id(fact) not in speaker_ids],
        cut=list(block.cut),
        line_characters=sum(len(fact_line(fact, built.names)) + 1 for fact in block.shown),
    )
