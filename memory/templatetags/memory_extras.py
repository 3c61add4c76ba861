"""Template helpers for the memory pages."""

from django import template
from django.utils.translation import gettext

from memory.configuration.selectors import channel_display_name
from memory.text import sentence_case
from memory.text.numbers import grouped
from teams.models import Server

register = template.Library()


@register.simple_tag
def channel_label(channel_id: str, channels: dict | None) -> str:
    """#name (id) when the Discord adapter reported the channel's name, else the id."""
    name = (channels or {}).get(channel_id)
    return f"#{name} ({channel_id})" if name else f"channel {channel_id}"


@register.simple_tag
def source_channel_name(server: Server, channel_id: str) -> str:
    """'#mod-chat' for a reported channel, 'channel 111' for another, '' for none: for a fact shown outside the
    memory page's list (which names a page's channels in one query, memory.panel.audiences)."""
    return channel_display_name(server, channel_id)


# Audit actions whose target_ids hold a Discord member's id, not fact numbers.
MEMBER_TARGETS = frozenset({"memory.wipe_member"})
SHOWN_TARGETS = 5


@register.simple_tag
def audit_targets(action: str, target_ids: list) -> str:
    """What an audit row was about: fact numbers as the memory page writes them (#12), a member as a member."""
    if action in MEMBER_TARGETS:
        return ", ".join(f"member {target}" for target in target_ids)
    shown = " ".join(f"#{target}" for target in target_ids[:SHOWN_TARGETS])
    return f"{shown} …" if len(target_ids) > SHOWN_TARGETS else shown


@register.filter
def key_of(keys: dict | None, number: int) -> str:
    """The key of fact #number as the page read it ('' when it is gone): exchanges show "#12 paul_birthday"."""
    return (keys or {}).get(number, "")


@register.filter
def thousands(value: int | None) -> str:
    """A count of tokens as staff read it in the page's language: 1,234,567 in English, 1.234.567 in German."""
    return "" if value is None else grouped(value)


@register.filter
def in_sentence(label) -> str:
    """A label inside a sentence, in the page's language's case (memory.text.sentence_case)."""
    return sentence_case.in_sentence(label)


@register.filter
def stored_words(text) -> str:
    """Words the audit log stored in English (a setting's label, "changed"), in the page's language when the
    catalogue has them: the log is written once, and read by staff in four languages."""
    return gettext(str(text)) if text else text
