"""The running note of each channel (what is going on there now): the newest wording is the note, every earlier one
is kept. Written by the learning run only, read by replies in that channel only, never turned into facts."""

from __future__ import annotations

from django.db import connection

from memory.models import ChannelNote, LearningRun
from teams.models import Server

_NOTE_SQL = """SELECT content FROM memory_channelnote WHERE server_id = %s AND channel_id = %s
               ORDER BY id DESC LIMIT 1"""


def channel_note(server: Server | int, channel_id: str) -> str:
    """The channel's note now ("" when it has none): one index read (channel_note_newest: the highest id is the newest wording)."""
    with connection.cursor() as cursor:
        cursor.execute(_NOTE_SQL, [getattr(server, "pk", server), channel_id])
        row = cursor.fetchone()
    return row[0] if row else ""


def channel_note_write(server: Server, channel_id: str, content: str, run: LearningRun) -> bool:
    """A new wording, unless it says what the note says already (or nothing)."""
    content = content.strip()
    if not content or content == channel_note(server, channel_id):
        return False
    ChannelNote.objects.create(server=server, channel_id=channel_id, content=content, run=run)
    return True


def channel_note_history(server: Server, channel_id: str) -> list[ChannelNote]:
    """Every wording of a channel's note, newest first."""
    return list(ChannelNote.objects.filter(server=server, channel_id=channel_id).select_related("run"))
