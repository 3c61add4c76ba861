"""Per-server setup: the AI settings (the memory type among them), model endpoints and the channels the bot
reported."""

from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teams.models import Server

from .facts import MemoryType


class EmbeddingProviderChoice(models.TextChoices):
    LOCAL = "local", _("Built-in local model (multilingual-e5-small, no network)")
    ENDPOINT = "endpoint", _("The embedding model endpoint below")
    NONE = "none", _("None: Semantic searches by words only")


class ForgetMeMode(models.TextChoices):
    REQUEST = "request", _("File a request for staff to act on")
    WIPE = "wipe", _("Wipe the member's memory at once")


class AISettings(models.Model):
    """Per-server AI settings (SPEC section 7), including the chosen memory type."""

    MAX_INJECTED_RANGE = (1, 1000)
    WEIGHT_RANGE = (0.0, 10.0)
    REMEMBER_LIMIT_RANGE = (0, 10000)
    EXCHANGE_LOG_DAYS_RANGE = (0, 3650)
    MAX_MEMORY_CHARS_RANGE = (500, 100_000)
    PINNED_MAX_ITEMS_RANGE = (0, 200)
    PINNED_MAX_CHARS_RANGE = (0, 20_000)
    HALF_LIFE_DAYS_RANGE = (0, 36_500)  # 0: age never lowers recency
    BOT_NAME_MAX_LENGTH = 80
    LEARNING_MAX_MESSAGES_RANGE = (1, 500)
    LEARNING_STEP_SECONDS_RANGE = (5, 600)
    PERSONA_TEXT_MAX_LENGTH = 2000
    REPLY_DEADLINE_SECONDS_RANGE = (5, 120)
    FALLBACK_TEXT_MAX_LENGTH = 500
    TOKEN_BUDGET_RANGE = (1, 10**12)

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
    exchange_log_days = models.PositiveIntegerField(
        "keep exchange logs for (days)", default=90,
        help_text="After this many days the words of an exchange (message, memory block, reply) are removed; "
                  "what provenance needs stays. 0 keeps them forever. Facts are never touched.",
    )
    forget_me_mode = models.CharField(
        "when a member asks to be forgotten", max_length=8, choices=ForgetMeMode.choices,
        default=ForgetMeMode.REQUEST,
    )
    # The context (issue 20): who is speaking gets a share of the slots, pinned facts their own cap, and the whole
    # memory block a budget in characters.
    speaker_share = models.FloatField(
        "share of the slots for facts about the speaker and members mentioned", default=0.25,
        help_text="0–1 of Maximum injected memory items, chosen by the memory type's own order.",
    )
    pinned_max_items = models.PositiveIntegerField("pinned facts in every reply, at most", default=20)
    pinned_max_chars = models.PositiveIntegerField("characters of pinned facts, at most", default=2000)
    max_memory_chars = models.PositiveIntegerField(
        "maximum memory characters", default=6000,
        help_text="The memory block stops at the first fact that no longer fits, in the order the type chose.",
    )
    # How fast age lowers a fact's recency, by kind (days for it to halve; 0 = never). Ranked and after.
    half_life_rule_days = models.PositiveIntegerField("half-life of rules (days)", default=0)
    half_life_lore_days = models.PositiveIntegerField("half-life of lore (days)", default=0)
    half_life_profile_days = models.PositiveIntegerField("half-life of profiles (days)", default=0)
    half_life_preference_days = models.PositiveIntegerField("half-life of preferences (days)", default=180)
    half_life_event_days = models.PositiveIntegerField("half-life of events (days)", default=30)
    # The bot's persona: in the system prompt of every reply.
    bot_name = models.CharField(max_length=80, blank=True, help_text="What the bot is called (1–80 characters).")
    bot_description = models.TextField(blank=True, help_text="What the bot is and what it cares about.")
    style_sample = models.TextField(blank=True, help_text="A short reply in the voice the community wants.")
    # The language of the server's memory (issue 22): "" = detected from its facts and messages (hourly,
    # memory.tasks.detect_memory_languages), else a code of memory.text.language.LANGUAGES chosen by staff.
    memory_language = models.CharField("memory language", max_length=8, blank=True, default="",
                                       help_text="Empty: detected from the server's facts and messages.")
    # What the words index uses now: the language (chosen or detected) and its PostgreSQL configuration, which new
    # facts take (migration 0030's trigger). While words_rebuild_started_at is set, older facts are being
    # re-indexed to words_config and the search matches words as written (`simple`), and says so.
    words_language = models.CharField(max_length=8, default="en", editable=False)
    words_config = models.CharField(max_length=64, default="english", editable=False)
    words_rebuild_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Learning from conversations (issue 23): the channels whose every message the Discord adapter sends in, how
    # many messages one learning run reads, and how long each of its model steps may take.
    learn_channel_ids = ArrayField(
        models.CharField(max_length=20), default=list, blank=True, verbose_name="learn from conversations in",
        help_text="Channels whose every message the Discord bot sends in to learn from; empty by default.",
    )
    learning_max_messages = models.PositiveIntegerField("messages one learning run reads, at most", default=100)
    learning_step_seconds = models.PositiveIntegerField("time limit of each learning step (seconds)", default=120)
    # The deadline and the budgets (issue 24): the whole reply ends by the deadline; what the Discord bot posts when it
    # cannot answer (past the deadline, over budget; empty: nothing); tokens a calendar month (UTC) may use, per
    # server, of the reply model and of the background models (consolidation and learning together). None: no budget.
    reply_deadline_seconds = models.PositiveIntegerField("reply deadline (seconds)", default=20)
    fallback_text = models.TextField(blank=True, help_text="What the Discord bot posts when it cannot answer.")
    reply_token_budget = models.PositiveBigIntegerField("monthly token budget of the reply model", null=True,
                                                        blank=True)
    background_token_budget = models.PositiveBigIntegerField(
        "monthly token budget of the consolidation and learning models", null=True, blank=True)
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
            models.CheckConstraint(condition=Q(exchange_log_days__lte=3650), name="ai_settings_exchange_log_days"),
            models.CheckConstraint(condition=Q(forget_me_mode__in=ForgetMeMode.values),
                                   name="ai_settings_forget_me_mode"),
            models.CheckConstraint(condition=Q(speaker_share__gte=0.0) & Q(speaker_share__lte=1.0),
                                   name="ai_settings_speaker_share_range"),
            models.CheckConstraint(condition=Q(max_memory_chars__gte=500) & Q(max_memory_chars__lte=100_000),
                                   name="ai_settings_max_memory_chars_range"),
            models.CheckConstraint(condition=Q(pinned_max_items__lte=200) & Q(pinned_max_chars__lte=20_000),
                                   name="ai_settings_pinned_caps_range"),
            *[
                models.CheckConstraint(condition=Q(**{f"half_life_{kind}_days__lte": 36_500}),
                                       name=f"ai_settings_half_life_{kind}_range")
                for kind in ("rule", "lore", "profile", "preference", "event")
            ],
            models.CheckConstraint(
                condition=Q(learning_max_messages__gte=1) & Q(learning_max_messages__lte=500)
                & Q(learning_step_seconds__gte=5) & Q(learning_step_seconds__lte=600),
                name="ai_settings_learning_range",
            ),
            models.CheckConstraint(
                condition=Q(reply_deadline_seconds__gte=5) & Q(reply_deadline_seconds__lte=120)
                & LessThanOrEqual(Length("fallback_text"), 500)
                & (Q(reply_token_budget__isnull=True) | Q(reply_token_budget__gte=1))
                & (Q(background_token_budget__isnull=True) | Q(background_token_budget__gte=1)),
                name="ai_settings_deadline_and_budgets",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("bot_description"), 2000)
                & LessThanOrEqual(Length("style_sample"), 2000),
                name="ai_settings_persona_length",
            ),
        ]

    def __str__(self) -> str:
        return f"AI settings of {self.server}"


class ModelPurpose(models.TextChoices):
    REPLY = "reply", _("Reply model")
    CONSOLIDATION = "consolidation", _("Consolidation model")
    EMBEDDING = "embedding", _("Embedding model")
    LEARNING = "learning", _("Learning model")


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


class Member(models.Model):
    """A member's display name as last seen (the adapter and the API report them), so member facts read "about
    Paul (222)" for the model and on the panel."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="members")
    member_id = models.CharField(max_length=20)
    display_name = models.CharField(max_length=100)
    seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["display_name"]
        constraints = [models.UniqueConstraint(fields=["server", "member_id"], name="member_unique_per_server")]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.member_id})"


class Channel(models.Model):
    """A Discord channel or thread as last reported by the bot: its name for the panel, and whether @everyone can
    view it, which decides the audience of what the bot learns there (a channel nobody reported is private)."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="channels")
    channel_id = models.CharField(max_length=20)
    name = models.CharField(max_length=100)
    parent_id = models.CharField(max_length=20, blank=True, help_text="For a thread: the channel it started in.")
    is_thread = models.BooleanField(default=False)
    public = models.BooleanField(default=False, help_text="@everyone can view it (a thread: its channel).")
    reported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["server", "channel_id"], name="channel_unique_per_server")]

    def __str__(self) -> str:
        return f"#{self.name}"
