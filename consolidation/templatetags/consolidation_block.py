"""Whether the memory page shows the consolidation block: the one place that decides it."""

from __future__ import annotations

from django import template

from memory.types import profile_for
from teams.models import Server

from ..selectors import answers_waiting

register = template.Library()


@register.simple_tag
def consolidation_block_shown(server: Server, memory_type: str) -> bool:
    """Under Consolidated and Semantic always; under any other type while something an earlier round
    proposed still waits, so staff can answer it after switching away (the badge links here)."""
    return profile_for(memory_type).consolidates or answers_waiting(server)
