"""Memory's tables, one module per concept; every name is importable from memory.models, as Django and the
migrations expect (app label "memory")."""

from memory.text.keys import KEY_DB_REGEX, KEY_MAX_LENGTH, KEY_REGEX
from memory.text.limits import CONTENT_MAX_LENGTH, SUMMARY_MAX_LENGTH

from .configuration import (
    AISettings,
    Channel,
    EmbeddingProviderChoice,
    ForgetMeMode,
    Member,
    ModelEndpoint,
    ModelPurpose,
)
from .exchanges import Exchange, ExchangeStatus
from .facts import (
    AUDIENCE_BREADTH,
    PREFIX_CONFIG,
    SEARCH_CONFIG,
    UNSCORED_IMPORTANCE,
    Audience,
    AuthorKind,
    Fact,
    FactCounter,
    Kind,
    MemoryType,
    Scope,
    Summary,
    narrower_audience,
)
from .history import ActorKind, FactVersion, VersionChange
from .idempotency import IdempotentRequest
from .learning import (
    CHANNEL_NOTE_MAX_LENGTH,
    ChannelMessage,
    ChannelNote,
    LearnedFrom,
    LearningRun,
    LearningRunStatus,
    LearningState,
)
from .members import ForgetRequest, ForgetRequestStatus, ForgetRequestVia
from .usage import BACKGROUND_PURPOSES, REPLY_PURPOSES, ModelCall, UsageMonth, UsagePurpose
from .vectors import (
    EMBEDDING_DIMENSIONS,
    EMBEDDING_ROUND_OPEN,
    EmbeddingRound,
    EmbeddingRoundStatus,
    FactEmbedding,
)

__all__ = [
    "AUDIENCE_BREADTH", "BACKGROUND_PURPOSES", "REPLY_PURPOSES", "CHANNEL_NOTE_MAX_LENGTH", "CONTENT_MAX_LENGTH", "EMBEDDING_DIMENSIONS", "EMBEDDING_ROUND_OPEN", "KEY_DB_REGEX",
    "KEY_MAX_LENGTH", "KEY_REGEX", "PREFIX_CONFIG", "SEARCH_CONFIG", "SUMMARY_MAX_LENGTH", "UNSCORED_IMPORTANCE",
    "AISettings", "ActorKind", "Audience", "AuthorKind", "Channel", "ChannelMessage", "ChannelNote", "EmbeddingProviderChoice", "EmbeddingRound",
    "EmbeddingRoundStatus", "Exchange", "ExchangeStatus", "Fact", "FactCounter", "FactEmbedding", "FactVersion",
    "ForgetMeMode", "ForgetRequest", "ForgetRequestStatus", "ForgetRequestVia", "IdempotentRequest",
    "Kind", "LearnedFrom", "LearningRun", "LearningRunStatus", "LearningState", "Member", "MemoryType", "ModelCall", "ModelEndpoint", "ModelPurpose", "Scope", "Summary",
    "UsageMonth", "UsagePurpose", "VersionChange", "narrower_audience",
]
