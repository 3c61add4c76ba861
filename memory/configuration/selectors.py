"""Reads of a server's setup: its AI settings, model endpoints and channel names. Read-only: a server nobody has
configured yet has the defaults without a row being written (the services that change settings write it)."""

from __future__ import annotations

from memory.models import AISettings, Channel, ModelEndpoint
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
