"""Where memory may be read and written: the channel rules of SPEC section 5, in one function."""

from __future__ import annotations

from dataclasses import dataclass

from memory.models import AISettings


@dataclass(frozen=True)
class ChannelAccess:
    read_allowed: bool
    write_allowed: bool
    reason: str  # one sentence for the exchange log, e.g. why reading is off


def channel_access(ai_settings: AISettings, channel_id: str, thread_parent_id: str | None) -> ChannelAccess:
    """A thread is not its parent channel: without *include threads* nothing is read or written there;
    with it, the thread follows the channel it was started in."""
    if thread_parent_id:
        if not ai_settings.include_threads:
            return ChannelAccess(False, False, "Memory is off in threads (Include threads is off).")
        channel_id = thread_parent_id
    read = ai_settings.read_all_channels or channel_id in ai_settings.read_channel_ids
    write = ai_settings.write_all_channels or channel_id in ai_settings.write_channel_ids
    if read and write:
        reason = "Memory may be read and written here."
    elif read:
        reason = "Memory may be read here but not written (write channels)."
    elif write:
        reason = "Memory may be written here but not read (read channels)."
    else:
        reason = "Memory may be neither read nor written in this channel."
    return ChannelAccess(read, write, reason)
