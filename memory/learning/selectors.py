"""What the panel reads of learning: a server's runs, newest first, one run with its messages, the facts a run
wrote, and whether the server learns at all (read-only)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import QuerySet

from memory.configuration.selectors import ai_settings_for_server
from memory.models import AISettings, ChannelMessage, LearnedFrom, LearningRun, LearningState, ModelPurpose
from memory.usage.budget import BACKGROUND, over_budget
from teams.models import Server

from .runs import learning_endpoint


def learning_runs_for_server(server: Server) -> QuerySet[LearningRun]:
    """Newest first, along learning_run_server_newest."""
    return LearningRun.objects.filter(server=server).order_by("-started_at")


def learning_run_for_server(server: Server, run_id: uuid.UUID) -> LearningRun | None:
    return LearningRun.objects.filter(server=server, pk=run_id).first()


def run_messages_shown(run: LearningRun) -> list[ChannelMessage]:
    """The messages the run read that are still stored (a member's wipe removes theirs), in the order read."""
    return list(ChannelMessage.objects.filter(server_id=run.server_id, id__gt=run.after_position,
                                              id__lte=run.upto_position).order_by("id"))


def fact_learned_from(fact_id: int) -> list[LearnedFrom]:
    """The learning runs a fact rests on (written or reinforced by), with the messages they cite."""
    return list(LearnedFrom.objects.filter(fact_id=fact_id).select_related("run").order_by("run__started_at"))


def messages_cited(server: Server, message_ids: list[str]) -> dict[str, ChannelMessage]:
    """The cited messages still stored, by Discord id."""
    return {message.message_id: message
            for message in ChannelMessage.objects.filter(server=server, message_id__in=message_ids)}


@dataclass(frozen=True)
class LearningStatus:
    """Whether the server learns, for a plain sentence on the memory page and the runs page."""

    has_model: bool
    uses_consolidation_model: bool
    waiting: int  # members' messages stored and not read yet
    learns_in_channels: bool  # the Discord bot sends every message of some channels (Learn from conversations in)
    over_budget: str = ""  # why learning waits for the next month (the background models' budget), else ""


def learning_status(server: Server) -> LearningStatus:
    endpoint = learning_endpoint(server)
    read = LearningState.objects.filter(server=server).values_list("read_position", flat=True).first() or 0
    # Along channel_message_read_order; a server waits for a few hundred at most (a run reads 100 at once).
    waiting = ChannelMessage.objects.filter(server=server, id__gt=read, is_bot=False).count()
    learns_in = AISettings.objects.filter(server=server).values_list("learn_channel_ids", flat=True).first()
    spent = over_budget(ai_settings_for_server(server), BACKGROUND) if endpoint is not None else None
    return LearningStatus(has_model=endpoint is not None,
                          uses_consolidation_model=endpoint is not None and endpoint.purpose != ModelPurpose.LEARNING,
                          waiting=waiting, learns_in_channels=bool(learns_in),
                          over_budget=spent.sentence() if spent is not None else "")
