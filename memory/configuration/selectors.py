"""Reads of a server's setup: its AI settings, model endpoints and channel names. Read-only: a server nobody has
configured yet has the defaults without a row being written (the services that change settings write it)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from memory.models import AISettings, Audience, Channel, Member, ModelEndpoint
from teams.models import Server


def ai_settings_for_server(server: Server) -> AISettings:
    """The server's AI settings; a server nobody has configured yet has the defaults (an unsaved row)."""
    try:
        return server.ai_settings  # often already loaded with the server (select_related)
    except AISettings.DoesNotExist:
        server.ai_settings = AISettings(server=server)  # kept on the server: asked again, not read again
        return server.ai_settings


def model_endpoints_for_server(server: Server) -> dict[str, ModelEndpoint]:
    return {endpoint.purpose: endpoint for endpoint in ModelEndpoint.objects.filter(server=server)}


def channel_names(server: Server) -> dict[str, str]:
    """Channel id → name, as last reported by the Discord adapter (empty until it has run)."""
    return dict(Channel.objects.filter(server=server).values_list("channel_id", "name"))


@dataclass(frozen=True)
class LearnedWhere:
    """Where a fact is learned, and the audience that gives it: a public channel's facts are for the whole server,
    a private one's for that channel only; a thread counts as the channel it was started in (a private thread of a
    public channel as a channel of its own: learned_where)."""

    audience: str
    source_channel_id: str
    source_thread_id: str


def channel_is_public(server: Server, channel_id: str) -> bool:
    """Whether @everyone can view the channel, as last reported; a channel nobody reported is private."""
    return Channel.objects.filter(server=server, channel_id=channel_id, public=True).exists()


def channel_display_name(server: Server, channel_id: str) -> str:
    """'#general' when the channel was reported, 'channel 111' otherwise ('' for no channel)."""
    if not channel_id:
        return ""
    name = Channel.objects.filter(server=server, channel_id=channel_id).values_list("name", flat=True).first()
    return f"#{name}" if name else f"channel {channel_id}"


def learned_where(server: Server, channel_id: str, thread_parent_id: str = "") -> LearnedWhere:
    """The audience a fact learned in this channel (or thread) inherits (learned_where_among)."""
    if not thread_parent_id:
        return learned_where_among({channel_id} if channel_is_public(server, channel_id) else set(), channel_id)
    public = set(Channel.objects.filter(server=server, channel_id__in=[channel_id, thread_parent_id], public=True)
                 .values_list("channel_id", flat=True))
    return learned_where_among(public, channel_id, thread_parent_id)


def learned_where_among(public: Collection[str], channel_id: str, thread_parent_id: str = "") -> LearnedWhere:
    """The audience a fact learned in this channel (or thread) inherits, given which of the two `public` holds (those
    @everyone can view, as last reported). A channel nobody reported counts as private (`channel`): what the bot
    learns is never wider than what it can prove. A thread takes its channel's audience, except a thread @everyone
    cannot view (a private one, or one nobody reported) in a public channel: its facts are for that thread alone
    (its own source channel), never for the public channel around it."""
    if not thread_parent_id:
        audience = Audience.SERVER if channel_id in public else Audience.CHANNEL
        return LearnedWhere(audience=audience, source_channel_id=channel_id, source_thread_id="")
    if thread_parent_id not in public:
        return LearnedWhere(audience=Audience.CHANNEL, source_channel_id=thread_parent_id, source_thread_id=channel_id)
    if channel_id in public:
        return LearnedWhere(audience=Audience.SERVER, source_channel_id=thread_parent_id, source_thread_id=channel_id)
    return LearnedWhere(audience=Audience.CHANNEL, source_channel_id=channel_id, source_thread_id=channel_id)


def member_names(server: Server, member_ids: Iterable[str]) -> dict[str, str]:
    """Member id → display name as last seen, for the ids asked about that the directory knows."""
    ids = list(set(member_ids))
    if not ids:
        return {}
    return dict(Member.objects.filter(server=server, member_id__in=ids).values_list("member_id", "display_name"))
