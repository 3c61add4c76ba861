"""The facts a server remembers, their per-server numbers and the summary (the bot reads both)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Coalesce, Length, Replace
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from config.db_fields import RegConfigField
from memory.text.hints import looks_like_instructions
from memory.text.keys import KEY_DB_REGEX, KEY_MAX_LENGTH
from memory.text.limits import CONTENT_MAX_LENGTH, SUMMARY_MAX_LENGTH
from teams.models import SNOWFLAKE_REGEX, Server

# Full-text configuration of a server whose language is not known yet (AISettings.words_config holds each server's:
# its memory language's stemmer and stop words, memory.text.language). English stemming makes "birthdays" find
# "birthday"; identical words in other languages still match because both sides are processed the same way.
SEARCH_CONFIG = "english"
PREFIX_CONFIG = "simple"


def _search_text(field: str) -> Func:
    """A fact's text for its server's stemmer, with what the stemmer alone would miss: Dutch and German -t verb
    forms without the t ("spreekt" is also stored as "spreek", stemmed like "spreken"), and character pairs of
    scripts written without spaces (私は寿司が好き also holds 寿司). The SQL function is migration 0030's."""
    return Func(F("search_config"), F(field), function="lk_search_text", output_field=models.TextField())
# Importance of a fact nobody has rated yet: middling, so ranking works from the first message.
UNSCORED_IMPORTANCE = 0.5


class MemoryType(models.TextChoices):
    CLASSIC = "classic", _("Classic")
    LEDGER = "ledger", _("Ledger")
    ARCHIVE = "archive", _("Searchable archive")
    RANKED = "ranked", _("Ranked")
    CONSOLIDATED = "consolidated", _("Consolidated")
    SEMANTIC = "semantic", _("Semantic")


class Scope(models.TextChoices):
    SERVER = "server", _("Server")
    MEMBER = "member", _("Member")


class AuthorKind(models.TextChoices):
    STAFF = "staff", _("Staff")
    BOT = "bot", _("Bot")


class Audience(models.TextChoices):
    """Who a fact may reach. Narrowest last: a derived fact takes the narrower audience of its sources."""

    SERVER = "server", _("Server")  # every channel where memory may be read
    CHANNEL = "channel", _("Channel")  # only replies in its source channel (and that channel's threads)
    STAFF = "staff", _("Staff only")  # never handed to the model; kept for staff on the page


class Kind(models.TextChoices):
    """What kind of thing a fact says; it decides how fast age lowers its recency under Ranked and after
    (memory.retrieval.ranking: rules, lore and profiles never age, preferences slowly, events fast)."""

    RULE = "rule", _("Rule")
    LORE = "lore", _("Lore")  # server facts, terminology, running jokes: what a fact is when nothing else says
    PROFILE = "profile", _("Profile")  # about a member
    PREFERENCE = "preference", _("Preference")
    EVENT = "event", _("Event")  # something that happened or is planned


# Narrowing order: a bot's remember may only move down it, a merge keeps the lower of two.
AUDIENCE_BREADTH = {Audience.SERVER: 2, Audience.CHANNEL: 1, Audience.STAFF: 0}


def narrower_audience(first: str, second: str) -> str:
    return first if AUDIENCE_BREADTH[first] <= AUDIENCE_BREADTH[second] else second


def _between_zero_and_one(field: str) -> Q:
    return Q(**{f"{field}__gte": 0.0}) & Q(**{f"{field}__lte": 1.0})


class Fact(models.Model):
    """One memory item. Nothing deletes it automatically; retraction closes its validity window."""

    # No index of its own: fact_number_unique_per_server and the other per-server indexes start with
    # server_id (all but fact_in_force_newest_all, across servers). One fewer to update on every write and
    # to weigh when planning every read.
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="facts", db_index=False)
    number = models.PositiveIntegerField(help_text="Shown to staff and to the model as [#N]; unique per server.")
    scope = models.CharField(max_length=8, choices=Scope.choices, default=Scope.SERVER)
    member_id = models.CharField(
        "member id", max_length=20, blank=True, help_text="Discord user id the fact is about (member scope)."
    )
    key = models.CharField(max_length=KEY_MAX_LENGTH)
    content = models.TextField()
    confidence = models.FloatField(default=1.0)
    importance = models.FloatField(null=True, blank=True, help_text="0–1 as rated by the model; empty = unscored.")

    author_kind = models.CharField(max_length=8, choices=AuthorKind.choices, default=AuthorKind.STAFF)
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    learned_from_member_id = models.CharField(
        max_length=20, blank=True, help_text="For bot-written facts: the member whose message taught it."
    )

    created_at = models.DateTimeField(default=timezone.now)
    changed_at = models.DateTimeField(default=timezone.now)
    valid_from = models.DateTimeField(default=timezone.now, help_text="In force since.")
    retracted_at = models.DateTimeField(null=True, blank=True)
    retraction_reason = models.TextField(blank=True)
    superseded_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="supersedes"
    )
    # Optimistic concurrency: an edit names the version it started from.
    version = models.PositiveIntegerField(default=1)
    source_exchange = models.ForeignKey(
        "Exchange", on_delete=models.SET_NULL, null=True, blank=True, related_name="learned_facts",
        help_text="The exchange in which the bot learned this fact.",
    )
    # Where it was learned, and so who may see it (memory.retrieval.audience holds the one rule).
    audience = models.CharField(max_length=8, choices=Audience.choices, default=Audience.SERVER)
    source_channel_id = models.CharField(
        "source channel id", max_length=20, blank=True,
        help_text="The channel the fact was learned in (for a thread: the channel the thread was started in).",
    )
    source_thread_id = models.CharField("source thread id", max_length=20, blank=True,
                                        help_text="The thread the fact was learned in, if any.")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.LORE)
    # A pinned fact (a rule staff want in every reply) goes into every context of every type, before the others
    # and outside Maximum injected memory items, up to its own cap (AISettings.pinned_max_*). Only staff pin.
    pinned = models.BooleanField(default=False)
    # How often it was said (issue 21): remembering what is already known reinforces it instead of adding a row.
    mention_count = models.PositiveIntegerField(default=1)
    # The older side of a same-key contradiction caught at write (Ledger and up): kept in force for staff, but
    # the bot is handed only the newer one until someone answers the flag (memory.retrieval.audience).
    held_back = models.BooleanField(default=False)
    # The member deleted the Discord message it was learned from (issue 24): under Ledger and up it was retracted,
    # under Classic given the staff audience; the memory page flags it until staff restore it or choose an audience.
    source_deleted_at = models.DateTimeField(null=True, blank=True)

    # The server's text search configuration when the fact was written or last re-indexed: a BEFORE INSERT trigger
    # (migration 0030) copies AISettings.words_config, so ORM, bulk, COPY and raw inserts all take it; a language
    # change re-indexes in background batches (memory.indexing.words_language).
    search_config = RegConfigField(max_length=64, default=SEARCH_CONFIG, db_default=SEARCH_CONFIG, editable=False)
    # Two sets of lexemes in one vector (one GIN index): words stemmed in the server's language (weights A, B) for the
    # bot's search and ranking, and the words as written (weights C, D) so that the panel's prefix
    # search finds "gaming" while "gamin" is typed (the stemmer would have stored only "game"), and a search
    # during a re-index can match them with `simple`.
    search_vector = models.GeneratedField(
        expression=SearchVector(Replace("key", Value("_"), Value(" ")), weight="A", config=F("search_config"))
        + SearchVector(_search_text("content"), weight="B", config=F("search_config"))
        + SearchVector(Replace("key", Value("_"), Value(" ")), weight="C", config=PREFIX_CONFIG)
        + SearchVector("content", weight="D", config=PREFIX_CONFIG),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["server", "number"], name="fact_number_unique_per_server"),
            models.CheckConstraint(condition=Q(key__regex=KEY_DB_REGEX), name="fact_key_format"),
            models.CheckConstraint(
                condition=GreaterThanOrEqual(Length("content"), 1)
                & LessThanOrEqual(Length("content"), CONTENT_MAX_LENGTH),
                name="fact_content_length",
            ),
            models.CheckConstraint(condition=_between_zero_and_one("confidence"), name="fact_confidence_range"),
            models.CheckConstraint(
                condition=Q(importance__isnull=True) | _between_zero_and_one("importance"),
                name="fact_importance_range",
            ),
            models.CheckConstraint(
                condition=(Q(scope=Scope.SERVER) & Q(member_id=""))
                | (Q(scope=Scope.MEMBER) & Q(member_id__regex=SNOWFLAKE_REGEX)),
                name="fact_scope_member_id",
            ),
            models.CheckConstraint(
                condition=Q(superseded_by__isnull=True) | Q(retracted_at__isnull=False),
                name="fact_only_retracted_facts_are_superseded",
            ),
            models.CheckConstraint(
                condition=~Q(superseded_by=F("id")), name="fact_never_superseded_by_itself"
            ),
            models.CheckConstraint(condition=Q(audience__in=Audience.values), name="fact_audience_known"),
            models.CheckConstraint(condition=Q(kind__in=Kind.values), name="fact_kind_known"),
            # A channel audience names its channel; the rule reads "visible in source_channel_id".
            models.CheckConstraint(
                condition=~Q(audience=Audience.CHANNEL) | Q(source_channel_id__regex=SNOWFLAKE_REGEX),
                name="fact_channel_audience_has_channel",
            ),
            models.CheckConstraint(
                condition=Q(source_channel_id="") | Q(source_channel_id__regex=SNOWFLAKE_REGEX),
                name="fact_source_channel_format",
            ),
            models.CheckConstraint(
                condition=Q(source_thread_id="") | (Q(source_thread_id__regex=SNOWFLAKE_REGEX)
                                                    & Q(source_channel_id__regex=SNOWFLAKE_REGEX)),
                name="fact_source_thread_has_channel",
            ),
        ]
        indexes = [
            # Classic context and the default memory page order: newest change first, in force only.
            # It carries the search vector and the audience too, so the bot's search can rank the newest
            # matches of a common word, and every walk can test who may see a fact, from the index alone
            # (memory.retrieval.words, memory.retrieval.audience).
            models.Index(
                fields=["server", "-changed_at", "-id"],
                include=["search_vector", "audience", "source_channel_id", "held_back"],
                condition=Q(retracted_at__isnull=True),
                name="fact_in_force_newest",
            ),
            # Ranked context (memory/retrieval/ranking/): facts in force by their weight, confidence × importance
            # (unscored counts as UNSCORED_IMPORTANCE), newest first among equals. It finds the few older facts
            # whose weight could still beat the newest ones; changed_at is a key column so that the time window
            # those facts must fall in is checked on the index entries, before any table row is read.
            models.Index(
                F("server"), (F("confidence") * Coalesce("importance", Value(UNSCORED_IMPORTANCE))).desc(),
                F("changed_at").desc(), F("id").desc(),
                condition=Q(retracted_at__isnull=True), name="fact_in_force_weight",
            ),
            # Ranked context, the kinds that never age (memory/retrieval/ranking/): their score depends only on
            # confidence and importance, so each (kind, confidence) holds its facts best first; a skip scan down
            # the few confidences takes the best of each. The audience, to test who may see a fact on the entry.
            models.Index(
                F("server"), F("kind"), F("confidence").desc(),
                Coalesce("importance", Value(UNSCORED_IMPORTANCE)).desc(), F("changed_at").desc(), F("id").desc(),
                include=["audience", "source_channel_id"],
                condition=Q(retracted_at__isnull=True), name="fact_in_force_by_rating",
            ),
            models.Index(F("server"), F("changed_at").desc(), F("id").desc(), name="fact_newest"),
            # Sorting by confidence, and the all-servers list (newest first, filtered to the user's servers).
            models.Index(F("server"), F("confidence").desc(), F("id").desc(), name="fact_confidence"),
            models.Index(
                F("changed_at").desc(), F("id").desc(), condition=Q(retracted_at__isnull=True),
                name="fact_in_force_newest_all",
            ),
            # A key's facts about one subject, newest first: the same-key read of every remember from Ledger up (is
            # this a contradiction?) and the duplicate check's word candidates. (server, key) alone walked a common
            # key's 31,000 facts for the member's few (up to 175 ms); the memory page's key filter uses its prefix.
            models.Index(F("server"), F("key"), F("member_id"), F("changed_at").desc(), F("id").desc(),
                         name="fact_server_key"),
            # A member's page (issue 25): the facts about them and those learned from their messages, in force or not,
            # each list newest first: a page of a member with 10,000 facts reads its rows a page deep, not sorted
            # whole (14 ms at 6,000). Their prefixes serve the wipes' and the speaker's (server, member) reads.
            models.Index(F("server"), F("member_id"), F("changed_at").desc(), F("id").desc(),
                         name="fact_server_member"),
            models.Index(F("server"), F("learned_from_member_id"), F("changed_at").desc(), F("id").desc(),
                         name="fact_server_learned_from"),
            # Memory at a glance: new facts per week, counted along the index (a million-fact server wrote 250,000
            # in 26 weeks; without it PostgreSQL scanned the whole table: 1.5 s).
            models.Index(fields=["server", "created_at"], name="fact_server_created"),
            models.Index(fields=["server", "retracted_at"], name="fact_server_retracted"),
            # Pinned facts in force: every context reads them first (a handful per server).
            models.Index(F("server"), F("changed_at").desc(), F("id").desc(), name="fact_pinned_in_force",
                         condition=Q(pinned=True, retracted_at__isnull=True)),
            # The speaker's share of a context (memory.retrieval.context): each member's newest facts in force. A
            # member the bot has heard about forty thousand times is read a few entries deep, not sorted whole.
            models.Index(F("server"), F("member_id"), F("changed_at").desc(), F("id").desc(), name="fact_member_newest",
                         condition=Q(scope="member", retracted_at__isnull=True)),
            # Purge by source: every fact learned in one channel (its threads included) or one exchange.
            models.Index(fields=["server", "source_channel_id"], name="fact_server_source_channel",
                         condition=~Q(source_channel_id="")),
            models.Index(fields=["source_thread_id"], name="fact_source_thread", condition=~Q(source_thread_id="")),
            # btree_gin lets one GIN index answer "this server AND these words". fastupdate off: with it
            # on, new facts wait in a pending list that every search reads in full (9,000 pending facts
            # cost each search 11 ms at a million facts); facts are written far less often than searched.
            GinIndex(fields=["server", "search_vector"], name="fact_search", fastupdate=False),
        ]

    def __str__(self) -> str:
        return f"[#{self.number}] {self.key}"

    @property
    def instruction_like(self) -> bool:
        """Reads like an order to the bot (memory.text.hints): flagged on the page; quoted for the model when the bot
        learned it from a member (memory.bot.prompt)."""
        return looks_like_instructions(self.content) or looks_like_instructions(self.key.replace("_", " "))

    @cached_property
    def url_base(self) -> str:
        """The fact's panel address; list views set it for many rows at once (memory.panel.fact_rows.attach_urls)."""
        return reverse("memory:fact", args=[self.server.guild_id, self.number])

    @property
    def is_in_force(self) -> bool:
        return self.retracted_at is None


class FactCounter(models.Model):
    """The last fact number handed out on a server; numbers are never reused."""

    server = models.OneToOneField(Server, on_delete=models.CASCADE, primary_key=True, related_name="fact_counter")
    last_number = models.PositiveIntegerField(default=0)


class Summary(models.Model):
    """The one memory row the bot reads in full; older wordings stay, retracted."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="summaries")
    content = models.TextField(blank=True)
    author_kind = models.CharField(max_length=8, choices=AuthorKind.choices, default=AuthorKind.STAFF)
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    retracted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "summaries"
        constraints = [
            models.UniqueConstraint(
                fields=["server"], condition=Q(retracted_at__isnull=True), name="summary_one_current_per_server"
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("content"), SUMMARY_MAX_LENGTH), name="summary_length"
            ),
        ]

    def __str__(self) -> str:
        return f"Summary of {self.server}"
