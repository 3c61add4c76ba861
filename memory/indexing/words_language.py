"""The words index in the server's language (issue 22): which language a server's memory is in, and re-indexing its
facts when that changes.

Each fact's search vector is built with the text search configuration it carries (memory_fact.search_config, set on
insert from AISettings.words_config by migration 0030's trigger). A new language is taken at once by facts written
from then on; the older ones are re-indexed in background batches of REINDEX_BATCH (each batch one short
transaction: a million-fact server never holds a long lock), and meanwhile the words search matches the words as
written (`simple`, AISettings.words_rebuild_started_at set) and says so. Staff may choose the language (AI settings,
*Memory language*); left empty, it is detected from the server's newest facts and messages every hour
(memory.tasks.detect_memory_languages), and a detection that changes it re-indexes the same way.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from config.queue import enqueue_on_commit
from memory.models import AISettings, Exchange, Fact
from memory.text.language import LANGUAGES, detect_language
from teams.models import Server

logger = logging.getLogger(__name__)

REINDEX_BATCH = 2000
DETECTION_SAMPLE = 2000  # newest facts and newest messages read to detect a language
STALLED_REBUILD = timedelta(minutes=30)  # a rebuild started this long ago and not finished is queued again


def words_language_code(ai_settings: AISettings) -> str:
    """The language the server's words should be in: the one staff chose, else the one last detected."""
    return ai_settings.memory_language or ai_settings.words_language


def words_language_switch(ai_settings: AISettings, code: str) -> bool:
    """Point the server's words index at `code` (a LANGUAGES key); when its configuration changes, the older facts
    are re-indexed in the background (queued after the caller's transaction commits). Whether anything changed."""
    language = LANGUAGES[code]
    if ai_settings.words_language == code and ai_settings.words_config == language.config:
        return False
    rebuild = ai_settings.words_config != language.config
    ai_settings.words_language, ai_settings.words_config = code, language.config
    fields = ["words_language", "words_config"]
    if rebuild:
        ai_settings.words_rebuild_started_at = timezone.now()
        fields.append("words_rebuild_started_at")
    ai_settings.save(update_fields=fields)
    if rebuild:
        enqueue_on_commit("memory.tasks.reindex_words", ai_settings.server_id)
    return True


def words_reindex_run(server_id: int, batch: int = REINDEX_BATCH) -> int:
    """Re-index the server's facts still in another configuration than its words_config, a batch per transaction,
    then end the rebuild (the search goes back to the server's language). Returns the facts re-indexed; idempotent
    (a second run finds nothing left and only ends the rebuild)."""
    ai_settings = AISettings.objects.filter(server_id=server_id).first()
    if ai_settings is None:
        return 0
    done = 0
    while True:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                """UPDATE memory_fact SET search_config = %(config)s::regconfig WHERE id IN (
                       SELECT id FROM memory_fact WHERE server_id = %(server)s
                         AND search_config <> %(config)s::regconfig LIMIT %(batch)s)""",
                {"server": server_id, "config": ai_settings.words_config, "batch": batch})
            changed = cursor.rowcount
        done += changed
        if changed < batch:
            break
    # Only the rebuild this run finished: a switch in the meantime started another (its own task ends it).
    AISettings.objects.filter(server_id=server_id, words_config=ai_settings.words_config).update(
        words_rebuild_started_at=None)
    logger.info("server %s: %s facts re-indexed for %s", server_id, done, ai_settings.words_config)
    return done


def words_language_set_now(server: Server, code: str) -> None:
    """Staff's choice of `code`, its facts re-indexed at once (the bench and the demo: small servers)."""
    ai_settings, _ = AISettings.objects.get_or_create(server=server)
    if ai_settings.memory_language != code:
        ai_settings.memory_language = code
        ai_settings.save(update_fields=["memory_language"])
    words_language_switch(ai_settings, code)
    words_reindex_run(server.pk)


def detected_language(server: Server) -> str | None:
    """The language of the server's newest facts and messages, None when they are too few to tell."""
    texts = list(Fact.objects.filter(server=server, retracted_at__isnull=True).order_by("-changed_at", "-id")
                 .values_list("content", flat=True)[:DETECTION_SAMPLE])
    texts += list(Exchange.objects.filter(server=server).exclude(message="").order_by("-created_at")
                  .values_list("message", flat=True)[:DETECTION_SAMPLE])
    code = detect_language(texts)
    return code if code in LANGUAGES else None


def memory_languages_detect() -> int:
    """The hourly round: every server whose staff left Memory language empty takes the language detected now; a
    rebuild that stalled (its worker died) is queued again. Returns how many servers changed language."""
    changed = 0
    for ai_settings in AISettings.objects.filter(memory_language="").select_related("server"):
        code = detected_language(ai_settings.server)
        if code is not None and words_language_switch(ai_settings, code):
            changed += 1
    stalled = AISettings.objects.filter(words_rebuild_started_at__lt=timezone.now() - STALLED_REBUILD)
    for server_id in stalled.values_list("server_id", flat=True):
        enqueue_on_commit("memory.tasks.reindex_words", server_id)
    return changed
