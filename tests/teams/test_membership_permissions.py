"""Guardian object permissions follow memberships and server ownership."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.core.exceptions import ValidationError
from guardian.shortcuts import assign_perm

from teams.models import Membership
from teams.permissions import (
    can_configure,
    server_ids_configurable_by,
    server_ids_reviewable_by,
    servers_configurable_by,
    servers_reviewable_by,
    servers_visible_to,
)
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


def test_the_flat_read_of_reviewable_servers_agrees_with_the_queryset_for_every_kind_of_user(
        team, server, owner, member, moderator, outsider, other_server):
    """The navigation's proposal count reads server_ids_reviewable_by; it must name exactly the servers
    servers_reviewable_by does: configure users and moderators on what they see, nothing for viewers or strangers."""
    moderated_elsewhere = UserFactory(username="review-without-view")
    assign_perm("review_proposals", moderated_elsewhere, other_server)  # may review, but cannot see it
    group_moderator = UserFactory(username="group-moderator")
    membership_add(team=team, user=group_moderator)
    reviewers = Group.objects.create(name="Reviewers")
    reviewers.user_set.add(group_moderator)
    assign_perm("review_proposals", reviewers, server)
    retired = UserFactory(username="retired", is_active=False)
    membership_add(team=team, user=retired)
    configure_grant(server=server, user=retired)
    expected = {owner: {server.pk}, member: set(), moderator: {server.pk}, outsider: {other_server.pk},
                moderated_elsewhere: set(), group_moderator: {server.pk}, retired: set(), AnonymousUser(): set()}
    for user, servers in expected.items():
        in_queryset = set(servers_reviewable_by(user).values_list("pk", flat=True))
        assert server_ids_reviewable_by(user) == servers == in_queryset
    root = UserFactory(username="root", is_superuser=True)
    assert server_ids_reviewable_by(root) is None  # every server


def test_the_flat_read_of_configurable_servers_agrees_with_the_queryset_for_every_kind_of_user(
        team, server, owner, member, moderator, outsider, other_server):
    """The memory page reads which of its servers the user may change with server_ids_configurable_by: the same
    servers as servers_configurable_by, limited to the ones asked about."""
    third = make_server(team, name="Third")
    no_longer_seen = UserFactory(username="configure-without-view")
    assign_perm("configure_server", no_longer_seen, server)
    retired = UserFactory(username="retired", is_active=False)
    membership_add(team=team, user=retired)
    configure_grant(server=server, user=retired)
    root = UserFactory(username="root", is_superuser=True)
    everything = {server.pk, other_server.pk, third.pk}
    for user in (owner, member, moderator, outsider, no_longer_seen, retired, root, AnonymousUser()):
        in_queryset = set(servers_configurable_by(user).values_list("pk", flat=True))
        assert server_ids_configurable_by(user, everything) == in_queryset & everything
        assert server_ids_configurable_by(user, {third.pk}) == in_queryset & {third.pk}
        assert server_ids_configurable_by(user, ()) == set()
    assert server_ids_configurable_by(owner, everything) == {server.pk}
