"""The one place that answers "may this user see or change this server"."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404
from guardian.shortcuts import get_objects_for_user

from .models import Server

VIEW_SERVER = "teams.view_server"
CONFIGURE_SERVER = "teams.configure_server"


def servers_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Server]:
    """Servers the user may view (every server for a superuser)."""
    if not user.is_authenticated:
        return Server.objects.none()
    return get_objects_for_user(user, VIEW_SERVER, klass=Server, accept_global_perms=False).select_related("team")


def can_configure(user: AbstractBaseUser | AnonymousUser, server: Server) -> bool:
    """Configure needs both: seeing the server and the configure permission on it."""
    return (
        user.is_authenticated
        and user.has_perm(VIEW_SERVER, server)
        and user.has_perm(CONFIGURE_SERVER, server)
    )


def server_for_viewer(user: AbstractBaseUser | AnonymousUser, guild_id: str) -> Server:
    """The server, or 404 when it does not exist or the user cannot see it (the two look the same)."""
    server = servers_visible_to(user).filter(guild_id=guild_id).first()
    if server is None:
        raise Http404("No such server.")
    return server


def server_for_configurer(user: AbstractBaseUser | AnonymousUser, guild_id: str) -> Server:
    """The server, 404 when the user cannot see it, 403 when they see it but may not change it."""
    server = server_for_viewer(user, guild_id)
    if not can_configure(user, server):
        raise PermissionDenied("You need the configure permission on this server.")
    return server
