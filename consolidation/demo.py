"""The consolidation part of the demo: "Pixel Guild", a Consolidated server of the Demo team whose
memory holds a few duplicates and one contradiction, with a finished round waiting for answers."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_create
from memory.facts.summary import summary_set
from memory.models import Fact, MemoryType
from teams.models import Server, Team
from teams.services import configure_grant, server_create

from .models import ConsolidationRound, RoundTrigger
from .rounds import round_run

PIXEL_GUILD_ID = "100000000000000003"
BOT_SOURCE = "200000000000000031"  # the member the bot learned its facts from

PIXEL_FACTS: list[tuple[str, str, str, float]] = [
    # (key, content, author "staff" | "bot", confidence)
    ("server_theme", "Pixel Guild is a community for pixel artists and indie game makers.", "staff", 1.0),
    ("language", "The server's language is English.", "staff", 1.0),
    ("lang", "Server language: English", "bot", 0.7),
    ("art_jam", "The monthly art jam starts on the first Friday of the month.", "staff", 1.0),
    ("art_jam_start", "The monthly art jam starts on the first Friday of the month", "bot", 0.8),
    ("palette_limit", "Palette challenges use at most 16 colours.", "staff", 0.9),
    ("palette_limit", "Palette challenges use at most 32 colours.", "bot", 0.6),
    ("critique_channel", "Ask for critique in the feedback channel, not in general.", "staff", 1.0),
    ("feedback", "Ask for critique in the feedback channel, not in general chat.", "bot", 0.8),
    ("showcase", "Finished pieces go in the showcase channel with the software used.", "staff", 1.0),
    ("tools", "Aseprite and Pyxel Edit are the most used tools here.", "bot", 0.9),
    ("game_jam", "A game jam runs every spring; themes are voted a week before.", "staff", 1.0),
    ("mods", "Mara and Teo are the moderators.", "staff", 1.0),
    ("bot_tone", "The bot should be encouraging and concrete about technique.", "staff", 1.0),
]


@transaction.atomic
def demo_consolidation_load(*, team: Team, admin) -> bool:
    """Create Pixel Guild with its facts and run one round; False when it exists already."""
    if Server.objects.filter(guild_id=PIXEL_GUILD_ID).exists():
        return False
    server = server_create(team=team, guild_id=PIXEL_GUILD_ID, name="Pixel Guild")
    configure_grant(server=server, user=admin)
    written = timezone.now() - timedelta(days=3)  # long quiet: the round has no reason to wait
    for key, content, author, confidence in PIXEL_FACTS:
        fact_create(server=server, author=FactAuthor.staff(admin) if author == "staff" else FactAuthor.bot(BOT_SOURCE),
                    key=key, content=content, confidence=confidence, created_at=written)
    summary_set(server=server, content="Pixel Guild is a friendly community for pixel art and indie games.",
                author=FactAuthor.staff(admin))
    memory_type_set(server=server, actor=admin, memory_type=MemoryType.CONSOLIDATED)
    round_run(ConsolidationRound.objects.create(server=server, trigger=RoundTrigger.MANUAL).pk)
    assert Fact.objects.filter(server=server).count() == len(PIXEL_FACTS)
    return True
