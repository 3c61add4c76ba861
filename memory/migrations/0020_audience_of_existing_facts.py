"""Existing facts get where they were learned and so who may see them (issue 19): a bot fact whose exchange tells
its channel records that channel (a thread's parent, and the thread) and takes that channel's audience — `server`
for a channel reported public, `channel` otherwise (a channel nobody reported counts as private, and no channel
was reported public before this release); every other fact keeps `server`. One statement: a million facts
migrate in seconds."""

from django.db import migrations

SNOWFLAKE = "^[0-9]{1,20}$"

FORWARD = f"""
    UPDATE memory_fact f
    SET source_channel_id = learned.channel_id,
        source_thread_id = learned.thread_id,
        audience = CASE WHEN EXISTS (SELECT 1 FROM memory_channel c WHERE c.server_id = f.server_id
                                     AND c.channel_id = learned.channel_id AND c.public)
                        THEN 'server' ELSE 'channel' END
    FROM (SELECT e.id,
                 CASE WHEN e.thread_parent_id <> '' THEN e.thread_parent_id ELSE e.channel_id END AS channel_id,
                 CASE WHEN e.thread_parent_id <> '' THEN e.channel_id ELSE '' END AS thread_id
          FROM memory_exchange e) learned
    WHERE f.source_exchange_id = learned.id AND f.author_kind = 'bot'
      AND learned.channel_id ~ '{SNOWFLAKE}' AND (learned.thread_id = '' OR learned.thread_id ~ '{SNOWFLAKE}')
"""
BACKWARD = "UPDATE memory_fact SET audience = 'server', source_channel_id = '', source_thread_id = ''"


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0019_audience"),
    ]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
