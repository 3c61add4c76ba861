"""The two conditions of a server's learning claim (memory_learningstate), as SQL shared by the claim, its release, the
applying transaction's end and the beat's look for work (memory.learning.runs, memory.learning.applying)."""

# The claim is free, for the learning state joined as `{alias}`: nobody holds it, its lease ran out, or the session
# that took it is gone (a killed worker's connection closed). backend_start with the pid, so a pid PostgreSQL reused
# is not taken for the old session.
CLAIM_FREE_SQL = """({alias}.claim_token IS NULL OR {alias}.claimed_until < now() OR NOT EXISTS (
    SELECT 1 FROM pg_stat_activity a
    WHERE a.pid = {alias}.claimed_pid AND a.backend_start = {alias}.claimed_backend_start))"""
# What a learning state holds when nobody runs it.
UNCLAIMED_SQL = "claim_token = NULL, claimed_until = NULL, claimed_pid = NULL, claimed_backend_start = NULL"
