"""Guardian object permissions follow memberships and server ownership."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from teams.models import Membership
from teams.permissions import can_configure, servers_visible_to
from teams.services import (
    configure_grant,
    configure_revoke,
    membership_add,
    membership_remove,
    server_sync_permissions,
)
from tests.factories import UserFactory, make_server


def test_a_new_member_can_view_every_server_of_the_team(team, server):
    second = make_server(team, name="Second")
    user = UserFactory()
    membership_add(team=team, user=user)
    assert set(servers_visible_to(user)) == {server, second}
    assert user.has_perm("teams.view_server", server)


def test_a_server_created_later_is_visible_to_existing_members(team, member):
    later = make_server(team, name="Later")
    assert later in servers_visible_to(member)


def test_leaving_the_team_removes_view_and_configure(team, server, owner):
    membership_remove(membership=Membership.objects.get(team=team, user=owner))
    owner = type(owner).objects.get(pk=owner.pk)  # fresh object: guardian caches per instance
    assert list(servers_visible_to(owner)) == []
    assert not owner.has_perm("teams.configure_server", server)
    assert not can_configure(owner, server)


def test_moving_a_server_to_another_team_moves_its_viewers(server, member, other_team, outsider):
    server.team = other_team
    server.save()
    server_sync_permissions(server=server)
    member = type(member).objects.get(pk=member.pk)
    outsider = type(outsider).objects.get(pk=outsider.pk)
    assert server not in servers_visible_to(member)
    assert server in servers_visible_to(outsider)


def test_configure_is_granted_per_user_and_only_to_members(server, member, outsider):
    assert not can_configure(member, server)
    configure_grant(server=server, user=member)
    member = type(member).objects.get(pk=member.pk)
    assert can_configure(member, server)
    with pytest.raises(ValidationError):
        configure_grant(server=server, user=outsider)


def test_configure_revoke_keeps_view(server, owner):
    configure_revoke(server=server, user=owner)
    owner = type(owner).objects.get(pk=owner.pk)
    assert not can_configure(owner, server)
    assert server in servers_visible_to(owner)


def test_adding_the_same_member_twice_is_harmless(team, server, member):
    membership_add(team=team, user=member)
    assert Membership.objects.filter(team=team, user=member).count() == 1
    assert server in servers_visible_to(member)
