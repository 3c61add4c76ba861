"""The demo: idempotent, development only, realistic memory for Retro Arcade."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from memory.facts.selectors import summary_current
from memory.models import Fact
from teams.models import Server
from teams.permissions import can_configure, servers_visible_to


def load(settings):
    settings.DEBUG = True
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_demo_refuses_to_load_with_debug_off(db, settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo", stdout=io.StringIO())
    assert not Server.objects.exists()


def test_demo_holds_retro_arcade_with_about_200_facts(db, settings, django_user_model):
    assert "Demo loaded" in load(settings)
    arcade = Server.objects.get(guild_id="100000000000000001")
    assert arcade.name == "Retro Arcade" and arcade.team.name == "Demo"
    in_force = Fact.objects.filter(server=arcade, retracted_at__isnull=True)
    assert 180 <= in_force.count() <= 220
    assert in_force.filter(scope="member").count() > 40
    retracted = Fact.objects.filter(server=arcade, retracted_at__isnull=False)
    assert retracted.count() >= 5 and retracted.filter(superseded_by__isnull=False).count() >= 3
    assert summary_current(arcade).content.startswith("Retro Arcade")

    viewer, admin, other = (django_user_model.objects.get(username=name) for name in ("viewer", "admin", "other"))
    assert arcade in servers_visible_to(viewer) and not can_configure(viewer, arcade)
    assert can_configure(admin, arcade)
    assert arcade not in servers_visible_to(other)
    assert Server.objects.get(guild_id="100000000000000002").team.name == "Other"


def test_running_the_demo_twice_changes_nothing(db, settings):
    load(settings)
    counts = (Fact.objects.count(), Server.objects.count())
    assert "already present" in load(settings)
    assert (Fact.objects.count(), Server.objects.count()) == counts


def test_synth_lab_runs_semantic_with_the_built_in_model_out_of_the_box(db, settings, django_capture_on_commit_callbacks):
    from memory.bot.exchanges import IncomingMessage, exchange_open, exchange_search
    from memory.models import EmbeddingRound

    settings.DEBUG = True
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=io.StringIO())
    synth = Server.objects.get(guild_id="100000000000000002")
    assert EmbeddingRound.objects.get(server=synth).status == "finished"
    exchange = exchange_open(server=synth, message=IncomingMessage(channel_id="1", author_id="2", content="hi")).exchange
    outcome = exchange_search(exchange=exchange, query="how loud can my mix be before mastering")
    assert outcome.mode == "hybrid" and outcome.facts[0].key == "tip_headroom"
