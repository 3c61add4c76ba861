"""What the bot remembers about a server: facts, the summary, and the server's AI settings."""

from __future__ import annotations

import uuid

EMBEDDING_DIMENSIONS = 384  # memory.embeddings.DIMENSIONS: one vector size for the column and its index

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, Length, Replace
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from pgvector.django import HnswIndex, VectorField

from teams.models import SNOWFLAKE_REGEX, Server

from .text.hints import looks_like_instructions
from .text.keys import KEY_DB_REGEX, KEY_MAX_LENGTH, KEY_REGEX  # noqa: F401 - KEY_REGEX is imported from here
from .text.limits import CONTENT_MAX_LENGTH, SUMMARY_MAX_LENGTH

# Full-text configuration for facts. English stemming and stop words make "birthdays" find
# "birthday" and keep "when is my" out of the ranking; identical words in other languages
# still match because both sides are processed the same way.
SEARCH_CONFIG = "english"
PREFIX_CONFIG = "simple"
# Importance of a fact nobody has rated yet: middling, so ranking works from the first message.
UNSCORED_IMPORTANCE = 0.5


class MemoryType(models.TextChoices):
    CLASSIC = "classic", "Classic"
    LEDGER = "ledger", "Ledger"
    ARCHIVE = "archive", "Searchable archive"
    RANKED = "ranked", "Ranked"
    CONSOLIDATED = "consolidated", "Consolidated"
    SEMANTIC = "semantic", "Semantic"


class Scope(models.TextChoices):
    SERVER = "server", "Server"
    MEMBER = "member", "Member"


class AuthorKind(models.TextChoices):
    STAFF = "staff", "Staff"
    BOT = "bot", "Bot"


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

    # Two sets of lexemes in one vector (one GIN index): stemmed English words (weights A, B) for the
    # bot's search and ranking, and the words as written (weights C, D) so that the panel's prefix
    # search finds "gaming" while "gamin" is typed (the stemmer would have stored only "game").
    search_vector = models.GeneratedField(
        expression=SearchVector(Replace("key", Value("_"), Value(" ")), weight="A", config=SEARCH_CONFIG)
        + SearchVector("content", weight="B", config=SEARCH_CONFIG)
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
        ]
        indexes = [
            # Classic context and the default memory page order: newest change first, in force only.
            # It carries the search vector too, so the bot's search can rank the newest matches of a
            # common word from the index alone (retrieval.search_words).
            models.Index(
                fields=["server", "-changed_at", "-id"],
                include=["search_vector"],
                condition=Q(retracted_at__isnull=True),
                name="fact_in_force_newest",
            ),
            # Ranked context (memory/ranking/): facts in force by their weight, confidence × importance
            # (unscored counts as UNSCORED_IMPORTANCE), newest first among equals. It finds the few older facts
            # whose weight could still beat the newest ones; changed_at is a key column so that the time window
            # those facts must fall in is checked on the index entries, before any table row is read.
            models.Index(
                F("server"), (F("confidence") * Coalesce("importance", Value(UNSCORED_IMPORTANCE))).desc(),
                F("changed_at").desc(), F("id").desc(),
                condition=Q(retracted_at__isnull=True), name="fact_in_force_weight",
            ),
            models.Index(F("server"), F("changed_at").desc(), F("id").desc(), name="fact_newest"),
            # Sorting by confidence, and the all-servers list (newest first, filtered to the user's servers).
            models.Index(F("server"), F("confidence").desc(), F("id").desc(), name="fact_confidence"),
            models.Index(
                F("changed_at").desc(), F("id").desc(), condition=Q(retracted_at__isnull=True),
                name="fact_in_force_newest_all",
            ),
            models.Index(fields=["server", "key"], name="fact_server_key"),
            models.Index(fields=["server", "member_id"], name="fact_server_member"),
            models.Index(fields=["server", "learned_from_member_id"], name="fact_server_learned_from"),
            models.Index(fields=["server", "retracted_at"], name="fact_server_retracted"),
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
        learned it from a member (memory.prompt)."""
        return looks_like_instructions(self.content) or looks_like_instructions(self.key.replace("_", " "))

    @cached_property
    def url_base(self) -> str:
        """The fact's panel address; list views set it for many rows at once (memory_page._attach_urls)."""
        return reverse("memory:fact", args=[self.server.guild_id, self.number])

    @property
    def is_in_force(self) -> bool:
        return self.retracted_at is None


class ExchangeStatus(models.TextChoices):
    CONTEXT = "context", "Context given"  # the bot asked for context and runs its own model
    REPLIED = "replied", "Replied"
    FAILED = "failed", "Failed"


class Exchange(models.Model):
    """One message the bot answered: what it was shown, searched, changed and learned, and why."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No index of its own: exchange_server_newest starts with it (one fewer to update per bot message).
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="exchanges", db_index=False)
    created_at = models.DateTimeField(default=timezone.now)
    source = models.CharField(max_length=16, default="api", help_text="api, reply, playground or discord")
    channel_id = models.CharField(max_length=20)
    thread_parent_id = models.CharField(max_length=20, blank=True)
    author_id = models.CharField(max_length=20, help_text="The member who wrote the message.")
    author_name = models.CharField(max_length=100, blank=True)
    message = models.TextField()
    memory_type = models.CharField(max_length=16, choices=MemoryType.choices)
    read_allowed = models.BooleanField(default=False)
    write_allowed = models.BooleanField(default=False)
    can_search = models.BooleanField(default=False)
    access_reason = models.CharField(max_length=200, blank=True)
    shown_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    memory_block = models.TextField(blank=True)
    search_query = models.TextField(blank=True)
    searched_at = models.DateTimeField(null=True, blank=True)
    # How the context judged relevance (types that rank): "words" or "hybrid", and under Semantic why
    # meaning was not used; empty for the types that show the newest facts.
    relevance_mode = models.CharField(max_length=16, blank=True, default="")
    relevance_fallback_reason = models.CharField(max_length=300, blank=True, default="")
    search_mode = models.CharField(max_length=16, blank=True)
    search_fallback_reason = models.CharField(max_length=300, blank=True)
    found_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    actions = models.JSONField(default=list, blank=True, help_text="Every memory action asked for, with its result.")
    model_calls = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=ExchangeStatus.choices, default=ExchangeStatus.CONTEXT)
    error = models.TextField(blank=True)
    reply = models.TextField(blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(F("server"), F("created_at").desc(), name="exchange_server_newest"),
            models.Index(fields=["server", "author_id"], name="exchange_server_author"),
        ]

    def __str__(self) -> str:
        return f"Exchange {self.id} in {self.server}"

    @property
    def reachable_numbers(self) -> set[int]:
        """Numbers the bot may act on: handed in the context, or found by its one search."""
        return set(self.shown_numbers) | set(self.found_numbers)


class Channel(models.Model):
    """A Discord channel or thread as last reported by the bot, so settings can show names."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="channels")
    channel_id = models.CharField(max_length=20)
    name = models.CharField(max_length=100)
    parent_id = models.CharField(max_length=20, blank=True, help_text="For a thread: the channel it started in.")
    is_thread = models.BooleanField(default=False)
    reported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["server", "channel_id"], name="channel_unique_per_server")]

    def __str__(self) -> str:
        return f"#{self.name}"


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


class EmbeddingProviderChoice(models.TextChoices):
    LOCAL = "local", "Built-in local model (multilingual-e5-small, no network)"
    ENDPOINT = "endpoint", "The embedding model endpoint below"
    NONE = "none", "None: Semantic searches by words only"


class AISettings(models.Model):
    """Per-server AI settings (SPEC section 7), including the chosen memory type."""

    MAX_INJECTED_RANGE = (1, 1000)
    WEIGHT_RANGE = (0.0, 10.0)
    REMEMBER_LIMIT_RANGE = (0, 10000)

    server = models.OneToOneField(Server, on_delete=models.CASCADE, primary_key=True, related_name="ai_settings")
    memory_type = models.CharField(max_length=16, choices=MemoryType.choices, default=MemoryType.CLASSIC)
    max_injected_items = models.PositiveIntegerField("maximum injected memory items", default=20)
    weight_recency = models.FloatField(default=1.0)
    weight_importance = models.FloatField(default=1.0)
    weight_relevance = models.FloatField(default=1.0)
    read_all_channels = models.BooleanField("memory may be read in every channel", default=True)
    read_channel_ids = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    write_all_channels = models.BooleanField("memory may be written in every channel", default=True)
    write_channel_ids = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    include_threads = models.BooleanField(
        default=False, help_text="A thread follows the channel it was started in; off: no memory in threads."
    )
    reply_channel_ids = ArrayField(
        models.CharField(max_length=20), default=list, blank=True,
        help_text="Channels where the Discord bot answers every message; elsewhere only when mentioned.",
    )
    remember_limit_per_hour = models.PositiveIntegerField(
        "facts the bot may remember per member and hour", default=20,
        help_text="Counted per member the bot learns from; 0 lets the bot remember nothing new.",
    )
    embedding_provider = models.CharField(
        max_length=16, choices=EmbeddingProviderChoice.choices, default=EmbeddingProviderChoice.LOCAL,
        help_text="Where Semantic gets its vectors. The endpoint's URL and key default to the reply model's.",
    )
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "AI settings"
        verbose_name_plural = "AI settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(max_injected_items__gte=1) & Q(max_injected_items__lte=1000),
                name="ai_settings_max_injected_range",
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{name}__gte": 0.0}) & Q(**{f"{name}__lte": 10.0}),
                    name=f"ai_settings_{name}_range",
                )
                for name in ("weight_recency", "weight_importance", "weight_relevance")
            ],
            models.CheckConstraint(
                condition=Q(weight_recency__gt=0) | Q(weight_importance__gt=0) | Q(weight_relevance__gt=0),
                name="ai_settings_weights_not_all_zero",
            ),
        ]

    def __str__(self) -> str:
        return f"AI settings of {self.server}"


class ModelPurpose(models.TextChoices):
    REPLY = "reply", "Reply model"
    CONSOLIDATION = "consolidation", "Consolidation model"
    EMBEDDING = "embedding", "Embedding model"


class ModelEndpoint(models.Model):
    """An OpenAI-compatible endpoint a server uses for one purpose. The key is stored encrypted."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="model_endpoints")
    purpose = models.CharField(max_length=16, choices=ModelPurpose.choices)
    base_url = models.URLField("endpoint URL", max_length=500, blank=True,
                               help_text="e.g. http://127.0.0.1:11434/v1 (an embedding model may leave it empty: "
                                         "it then uses the reply model's URL and key)")
    model_name = models.CharField(max_length=200)
    api_key_encrypted = models.TextField(blank=True, help_text="MultiFernet token; never shown.")
    api_key_hint = models.CharField(max_length=8, blank=True, help_text="Last characters of the key, for masking.")
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["server", "purpose"], name="model_endpoint_one_per_purpose"),
        ]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} of {self.server}"

    @property
    def masked_key(self) -> str:
        return f"••••{self.api_key_hint}" if self.api_key_encrypted else ""


class FactEmbedding(models.Model):
    """A fact's vector under one embedding model (Semantic). `text_hash` is of the model and the wording
    that was embedded: an unchanged fact is never embedded twice, a rewritten one exactly once."""

    fact = models.OneToOneField(Fact, on_delete=models.CASCADE, primary_key=True, related_name="embedding")
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+")
    model_name = models.CharField(max_length=200)
    text_hash = models.CharField(max_length=64)
    vector = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    embedded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # Cosine HNSW over every server's vectors; searches filter by server with iterative scans.
            HnswIndex(name="fact_embedding_hnsw", fields=["vector"], m=16, ef_construction=64,
                      opclasses=["vector_cosine_ops"]),
            models.Index(fields=["server", "model_name"], name="fact_embedding_server_model"),
        ]


class EmbeddingRoundStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    REPLACED = "replaced", "Replaced by a round of another model"
    FAILED = "failed", "Failed"


EMBEDDING_ROUND_OPEN = (EmbeddingRoundStatus.QUEUED, EmbeddingRoundStatus.RUNNING)


class EmbeddingRound(models.Model):
    """The catch-up round: embeds every fact in force that has no vector from the current model."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="embedding_rounds")
    model_name = models.CharField(max_length=200)
    status = models.CharField(max_length=16, choices=EmbeddingRoundStatus.choices, default=EmbeddingRoundStatus.QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["server"], condition=Q(status__in=["queued", "running"]),
                                    name="embedding_round_one_open_per_server"),
        ]
