"""Who may see a fact, as the panel shows it: the source channel's name from the channel directory (the id while
nobody reported it), the channels staff choose from, and a channel typed by name or id. Reads only."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from memory.models import Channel, Fact
from teams.models import SNOWFLAKE_REGEX, Server


def channel_text(channel_id: str, name: str | None) -> str:
    """'#general' when the channel was reported, 'channel 111' otherwise (as memory.configuration.selectors
    .channel_display_name says it, without a query per fact)."""
    return f"#{name}" if name else _("channel %(id)s") % {"id": channel_id}


def attach_audiences(facts: Iterable[Fact]) -> None:
    """Give each fact `source_label` (its source channel, '' when learned nowhere) and `thread_label` ('thread #name'
    or 'thread 222' when learned in one, else ''): one query for every fact of the page, whatever their servers."""
    facts = list(facts)
    wanted = {(fact.server_id, channel) for fact in facts
              for channel in (fact.source_channel_id, fact.source_thread_id) if channel}
    names: dict[tuple[int, str], str] = {}
    if wanted:
        rows = Channel.objects.filter(server_id__in={server for server, _ in wanted},
                                      channel_id__in={channel for _, channel in wanted})
        names = {(server, channel): name for server, channel, name in rows.values_list("server_id", "channel_id",
                                                                                       "name")}
    for fact in facts:
        fact.source_label = (channel_text(fact.source_channel_id, names.get((fact.server_id, fact.source_channel_id)))
                             if fact.source_channel_id else "")
        thread_name = names.get((fact.server_id, fact.source_thread_id))
        fact.thread_label = ("" if fact.source_thread_id in ("", fact.source_channel_id)  # a private thread's own
                             else _("thread #%(name)s") % {"name": thread_name} if thread_name
                             else _("thread %(id)s") % {"id": fact.source_thread_id})


def directory_channels(server: Server, *, threads: bool = False) -> list[Channel]:
    """The server's channels as the bot reported them, by name: what staff choose from. Threads only when asked
    (a purge may name one): a thread's facts are its channel's for everything else."""
    channels = Channel.objects.filter(server=server).order_by("is_thread", "name", "channel_id")
    return list(channels if threads else channels.filter(is_thread=False))


def channel_from_input(server: Server, raw: str) -> tuple[str, str]:
    """A channel typed as its id, '#name' or 'name' (of a reported channel or thread): (id, name or '')."""
    typed = raw.strip()
    if not typed:
        raise ValidationError(_("Choose a channel, or enter its id."))
    if re.fullmatch(SNOWFLAKE_REGEX, typed):
        name = Channel.objects.filter(server=server, channel_id=typed).values_list("name", flat=True).first()
        return typed, name or ""
    name = typed.removeprefix("#").strip()
    matches = list(Channel.objects.filter(server=server, name__iexact=name).values_list("channel_id", "name")[:6])
    if len(matches) == 1:
        return matches[0]
    if matches:
        ids = ", ".join(channel_id for channel_id, _ in matches[:5])
        raise ValidationError(_("More than one channel is called #%(name)s on %(server)s (%(ids)s); enter the id "
                                "of the one you mean.") % {"name": name, "server": server.name, "ids": ids})
    raise ValidationError(_("No channel called #%(name)s was reported on %(server)s. Enter its id instead (a number "
                            "of 1–20 digits).") % {"name": name, "server": server.name})
