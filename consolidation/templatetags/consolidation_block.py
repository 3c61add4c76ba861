"""Whether the memory page shows the consolidation block: the one place that decides it."""

from __future__ import annotations

from django import template

from teams.models import Server

from ..rounds import CONSOLIDATING_TYPES
from ..selectors import answers_waiting

register = template.Library()


@register.simple_tag
def consolidation_block_shown(server: Server, memory_type: str) -> bool:
    """Under Consolidated and Semantic always; under any other type while something an earlier round
    proposed still waits, so staff can answer it after switching away (the badge links here)."""
    return memory_type in CONSOLIDATING_TYPES or answers_waiting(server)
