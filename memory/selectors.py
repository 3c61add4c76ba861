"""Every read of memory: facts, the summary and AI settings."""

from __future__ import annotations

from django.db.models import QuerySet

from teams.models import Server

from .models import AISettings, Fact, ModelEndpoint, Summary


def ai_settings_for_server(server: Server) -> AISettings:
    """The server's AI settings; a server nobody has configured yet has the defaults."""
    ai_settings, _ = AISettings.objects.get_or_create(server=server)
    return ai_settings


def summary_current(server: Server) -> Summary | None:
    return Summary.objects.filter(server=server, retracted_at__isnull=True).first()


def facts_in_force(server: Server) -> QuerySet[Fact]:
    return Fact.objects.filter(server=server, retracted_at__isnull=True)


def model_endpoints_for_server(server: Server) -> dict[str, ModelEndpoint]:
    return {endpoint.purpose: endpoint for endpoint in ModelEndpoint.objects.filter(server=server)}
