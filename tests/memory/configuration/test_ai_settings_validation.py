"""Every AI setting is validated on the server, with a message naming the allowed range."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from memory.configuration.selectors import ai_settings_for_server
from memory.configuration.services import ChannelRule, ai_settings_update
from memory.models import AISettings

ALL = ChannelRule(all_channels=True)


def update(server, owner, **overrides):
    values = dict(max_injected_items=20, weight_recency=1.0, weight_importance=1.0, weight_relevance=1.0,
                  read=ALL, write=ALL, include_threads=False)
    values.update(overrides)
    return ai_settings_update(server=server, actor=owner, **values)


def test_defaults_match_the_spec(server):
    ai_settings = ai_settings_for_server(server)
    assert (ai_settings.memory_type, ai_settings.max_injected_items, ai_settings.include_threads) == (
        "classic", 20, False
    )
    assert ai_settings.read_all_channels and ai_settings.write_all_channels


@pytest.mark.parametrize("bad", [0, 1001, -5, 2.5, "20", True])
def test_max_injected_items_outside_1_to_1000_is_refused_naming_the_range(server, owner, bad):
    with pytest.raises(ValidationError) as refused:
        update(server, owner, max_injected_items=bad)
    assert refused.value.message_dict["max_injected_items"] == [
        "Maximum injected memory items must be a whole number from 1 to 1000."
    ]
    assert ai_settings_for_server(server).max_injected_items == 20


@pytest.mark.parametrize("value", [1, 1000])
def test_the_edges_of_the_range_are_accepted(server, owner, value):
    assert update(server, owner, max_injected_items=value).max_injected_items == value


@pytest.mark.parametrize("field", ["weight_recency", "weight_importance", "weight_relevance"])
@pytest.mark.parametrize("bad", [-0.1, 10.5])
def test_a_weight_outside_0_to_10_is_refused(server, owner, field, bad):
    with pytest.raises(ValidationError) as refused:
        update(server, owner, **{field: bad})
    assert refused.value.message_dict[field] == ["Each ranking weight must be a number from 0 to 10."]


def test_all_weights_zero_is_refused(server, owner):
    with pytest.raises(ValidationError, match="At least one ranking weight"):
        update(server, owner, weight_recency=0, weight_importance=0, weight_relevance=0)


def test_weights_are_kept_to_six_places_so_the_ranking_never_underflows(server, owner):
    """PostgreSQL raises on a float product that underflows; a weight of 1e-300 times a tiny confidence
    would have failed every Ranked context call of the server."""
    stored = update(server, owner, weight_recency=1e-300, weight_importance=2.1234567, weight_relevance=1)
    assert (stored.weight_recency, stored.weight_importance, stored.weight_relevance) == (0.0, 2.123457, 1.0)
    with pytest.raises(ValidationError, match="At least one ranking weight"):
        update(server, owner, weight_recency=1e-300, weight_importance=0, weight_relevance=0)


def test_channel_ids_must_be_snowflakes(server, owner):
    with pytest.raises(ValidationError) as refused:
        update(server, owner, read=ChannelRule(all_channels=False, channel_ids=("123", "general")))
    assert "general" in refused.value.message_dict["read_channel_ids"][0]


def test_valid_settings_are_saved_together_and_audited(server, owner):
    update(server, owner, max_injected_items=50, include_threads=True,
           write=ChannelRule(all_channels=False, channel_ids=("111", "222")))
    stored = AISettings.objects.get(server=server)
    assert (stored.max_injected_items, stored.include_threads, stored.write_all_channels, stored.write_channel_ids) \
        == (50, True, False, ["111", "222"])
    from teams.models import AuditEntry

    assert AuditEntry.objects.filter(server=server, action="ai_settings.update", actor=owner).count() == 1


def test_the_database_itself_refuses_an_out_of_range_value(server):
    from django.db import IntegrityError, transaction

    ai_settings = ai_settings_for_server(server)
    ai_settings.max_injected_items = 1001
    with pytest.raises(IntegrityError), transaction.atomic():
        ai_settings.save()


def test_the_audit_row_names_each_changed_setting_with_its_old_and_new_value(server, owner):
    from teams.models import AuditEntry

    update(server, owner)  # the defaults again: nothing changed, nothing to audit
    assert not AuditEntry.objects.filter(action="ai_settings.update").exists()

    ai_settings_update(server=server, actor=owner, max_injected_items=35, include_threads=True,
                       exchange_log_days=30)

    entry = AuditEntry.objects.get(action="ai_settings.update")
    assert entry.result == ("Maximum injected memory items: 20 → 35; Include threads: off → on; "
                            "Keep exchange logs for (days): 90 → 30")
    assert entry.changes == [
        {"field": "Maximum injected memory items", "old": "20", "new": "35"},
        {"field": "Include threads", "old": "off", "new": "on"},
        {"field": "Keep exchange logs for (days)", "old": "90", "new": "30"},
    ]
    assert entry.count == 3


def test_a_setting_not_given_is_left_as_it_is(server, owner):
    ai_settings_update(server=server, actor=owner, exchange_log_days=0)
    ai_settings_update(server=server, actor=owner, forget_me_mode="wipe")

    stored = AISettings.objects.get(server=server)
    assert (stored.exchange_log_days, stored.forget_me_mode, stored.max_injected_items) == (0, "wipe", 20)


@pytest.mark.parametrize(("field", "bad", "sentence"), [
    ("exchange_log_days", 3651, "Keep exchange logs for must be a whole number from 0 to 3650."),
    ("exchange_log_days", -1, "Keep exchange logs for must be a whole number from 0 to 3650."),
    ("forget_me_mode", "forget", "Choose request or wipe for when a member asks to be forgotten."),
])
def test_the_new_settings_refuse_values_outside_their_range(server, owner, field, bad, sentence):
    with pytest.raises(ValidationError) as refused:
        ai_settings_update(server=server, actor=owner, **{field: bad})
    assert refused.value.message_dict[field] == [sentence]
    assert not AISettings.objects.filter(server=server).exclude(**{field: bad}).exclude(
        exchange_log_days=90, forget_me_mode="request").exists()


def test_a_name_that_is_not_a_setting_is_a_programming_error(server, owner):
    with pytest.raises(TypeError, match="memory_type"):
        ai_settings_update(server=server, actor=owner, memory_type="semantic")


@pytest.mark.parametrize(("field", "bad", "sentence"), [
    ("max_memory_chars", 499, "Maximum memory characters must be a whole number from 500 to 100000."),
    ("max_memory_chars", 100_001, "Maximum memory characters must be a whole number from 500 to 100000."),
    ("speaker_share", 1.5, "The share of slots for the speaker must be a number from 0 to 1."),
    ("pinned_max_items", 201, "Pinned facts in every reply must be a whole number from 0 to 200."),
    ("half_life_event_days", -3, "The half-life of events must be a whole number from 0 to 36500."),
    ("bot_name", "x" * 81, "The bot's name must be text of at most 80 characters."),
    ("style_sample", "y" * 2001, "The style sample must be text of at most 2000 characters."),
])
def test_the_context_and_persona_settings_refuse_values_outside_their_range(server, owner, field, bad, sentence):
    with pytest.raises(ValidationError) as refused:
        ai_settings_update(server=server, actor=owner, **{field: bad})
    assert refused.value.message_dict[field] == [sentence]


def test_the_persona_is_saved_trimmed_and_audited_without_its_whole_text(server, owner):
    from teams.models import AuditEntry

    ai_settings_update(server=server, actor=owner, bot_name="  Pixel  ",
                       bot_description="A cheerful arcade robot who loves high scores and hates spoilers.")

    stored = AISettings.objects.get(server=server)
    assert stored.bot_name == "Pixel"
    result = AuditEntry.objects.get(action="ai_settings.update").result
    assert "The bot's name: empty → “Pixel”" in result
    assert "The bot's description: empty → “A cheerful arcade robot who loves high s…”" in result
