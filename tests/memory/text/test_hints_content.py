"""The hint shown while staff type a fact: secrets and private data are called out, ordinary facts are not."""

from __future__ import annotations

import pytest

from memory.text.hints import content_hint


@pytest.mark.parametrize(("content", "kind"), [
    ("Paul's email is paul.smith+discord@example.org, ask him there.", "an email address"),
    ("Call Anna on +31 6 1234 5678 for the meetup.", "a phone number"),
    ("Her number is 06-12345678.", "a phone number"),
    ("The admin password is hunter2", "a password"),
    ("Use the key sk-abcdefghijklmnopqrstuvwx for the bot.", "an API key"),
])
def test_secrets_and_private_data_are_named(content, kind):
    assert content_hint(content).secret_kind == kind


@pytest.mark.parametrize("content", [
    "The tournament is on 2026-12-05 at 20:00 CET, round 2 of 16.",
    "Raids start at 19:30; 40 players max, 25 minimum.",
    "Our Minecraft server runs version 1.21.4 on port 25565.",
    "Mention @Mara in #events for the movie night.",
])
def test_ordinary_facts_get_no_warning(content):
    assert content_hint(content).secret_kind is None
