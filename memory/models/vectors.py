"""Semantic memory's tables: a fact's vector under one embedding model, and the catch-up round that fills them."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex, VectorField

from teams.models import Server

from .facts import Fact

EMBEDDING_DIMENSIONS = 384  # memory.clients.embeddings.DIMENSIONS: one vector size for the column and its index


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
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    REPLACED = "replaced", _("Replaced by a round of another model")
    FAILED = "failed", _("Failed")


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
