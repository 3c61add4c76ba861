"""Why each fact of an exchange's context came in, as its record says (memory.models.Exchange): pinned, about the
speaker or a member they mentioned, by the memory type's own order, or cut by the character budget. Reads only."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.db.models import Q, QuerySet
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from memory.configuration.selectors import member_names
from memory.models import Exchange, ExchangeStatus, Fact
from memory.types import ContextOrder, profile_for
from teams.models import SNOWFLAKE_REGEX, Server

ORDER_LABELS = {ContextOrder.NEWEST: gettext_lazy("newest changes"),
                ContextOrder.BEST_SCORE: gettext_lazy("by score")}


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
        order_label=ORDER_LABELS.get(profile_for(exchange.memory_type).context_order, gettext_lazy("by the type's order")),
        mentioned=[(member_id, names.get(member_id, "")) for member_id in exchange.mentioned_ids],
    )


def attach_fact_keys(exchanges: list[Exchange], server: Server) -> None:
    """Give each exchange `fact_keys` (number → key) for the facts it shows, found or changed: one query for the
    page, so the log reads "#12 paul_birthday", not bare numbers."""
    numbers = {number for exchange in exchanges for number in (
        *exchange.shown_numbers, *exchange.budget_cut_numbers, *exchange.found_numbers)}
    keys = dict(Fact.objects.filter(server=server, number__in=numbers).values_list("number", "key")) if numbers else {}
    for exchange in exchanges:
        exchange.fact_keys = keys


@dataclass(frozen=True)
class ExchangeFilters:
    """The exchange log's filters as the address gives them; a value that is not one (not an id, an unknown status)
    filters nothing, as an unknown sort does on the memory page."""

    member: str = ""
    channel: str = ""  # the channel, or a thread started in it
    status: str = ""
    used: str = ""  # "yes": memory was handed over or searched; "no": neither

    @classmethod
    def from_query(cls, query: QueryDict) -> ExchangeFilters:
        def snowflake(name: str) -> str:
            value = query.get(name, "").strip()
            return value if re.fullmatch(SNOWFLAKE_REGEX, value) else ""
        status, used = query.get("status", ""), query.get("used", "")
        return cls(member=snowflake("member"), channel=snowflake("channel"),
                   status=status if status in ExchangeStatus.values else "", used=used if used in ("yes", "no") else "")

    def apply(self, exchanges: QuerySet[Exchange]) -> QuerySet[Exchange]:
        if self.member:
            exchanges = exchanges.filter(author_id=self.member)
        if self.channel:
            exchanges = exchanges.filter(Q(channel_id=self.channel) | Q(thread_parent_id=self.channel))
        if self.status:
            exchanges = exchanges.filter(status=self.status)
        used = Q(shown_numbers__len__gt=0) | Q(searched_at__isnull=False)
        if self.used == "yes":
            exchanges = exchanges.filter(used)
        elif self.used == "no":
            exchanges = exchanges.exclude(used)
        return exchanges

    @property
    def any(self) -> bool:
        return bool(self.member or self.channel or self.status or self.used)

    def query_prefix(self) -> str:
        """The filters as the start of a query string ("member=222&"), for the next page's address."""
        pairs = {name: value for name, value in vars(self).items() if value}
        return urlencode(pairs) + "&" if pairs else ""
