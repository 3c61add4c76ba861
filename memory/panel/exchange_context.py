"""Why each fact of an exchange's context came in, as its record says (memory.models.Exchange): pinned, about the
speaker or a member they mentioned, by the memory type's own order, or cut by the character budget. Reads only."""

from __future__ import annotations

from dataclasses import dataclass

from memory.configuration.selectors import member_names
from memory.models import Exchange
from memory.types import ContextOrder, profile_for
from teams.models import Server

ORDER_LABELS = {ContextOrder.NEWEST: "newest changes", ContextOrder.BEST_SCORE: "by score"}


@dataclass(frozen=True)
class InjectedFacts:
    pinned: list[int]
    speaker: list[int]  # about the speaker or a member mentioned
    by_order: list[int]  # the rest of what was shown
    cut: list[int]  # chosen by the type, left out by Maximum memory characters
    order_label: str
    mentioned: list[tuple[str, str]]  # (member id, display name or "")

    @property
    def shown_any(self) -> bool:
        return bool(self.pinned or self.speaker or self.by_order)


def injected_facts(exchange: Exchange, server: Server) -> InjectedFacts:
    """The exchange's shown facts in three groups, in the order the block took them, and those the budget cut."""
    pinned, speaker = set(exchange.pinned_numbers), set(exchange.speaker_numbers)
    names = member_names(server, exchange.mentioned_ids) if exchange.mentioned_ids else {}
    return InjectedFacts(
        pinned=[number for number in exchange.shown_numbers if number in pinned],
        speaker=[number for number in exchange.shown_numbers if number in speaker and number not in pinned],
        by_order=[number for number in exchange.shown_numbers if number not in pinned | speaker],
        cut=list(exchange.budget_cut_numbers),
        order_label=ORDER_LABELS.get(profile_for(exchange.memory_type).context_order, "by the type's order"),
        mentioned=[(member_id, names.get(member_id, "")) for member_id in exchange.mentioned_ids],
    )
