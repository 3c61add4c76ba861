"""Template helpers for the memory pages."""

from django import template

register = template.Library()


@register.simple_tag
def channel_label(channel_id: str, channels: dict | None) -> str:
    """#name (id) when the Discord adapter reported the channel's name, else the id."""
    name = (channels or {}).get(channel_id)
    return f"#{name} ({channel_id})" if name else f"channel {channel_id}"
