"""The ranking's SQL statements (memory/retrieval/ranking/top.py runs them): hand-written, since they run for every
message the bot sees on a ranked server (config/rows.py). SQL_MARGIN, the N-th best and the thresholds come in
as parameters; which facts the hint cache (top._HINTS) lets the first step read is top.py's business."""

from ..audience import visible_sql

# The weight expression must read exactly as the index expression of migration 0008 for the index to be used.
WEIGHT = "confidence * COALESCE(importance, 0.5)"
# Every statement reads only the facts in force that the reader may see (memory/retrieval/audience.py): the walk,
# the weight index read and the matched facts alike, so every bound below is over what the reader may be handed.
# The audience columns are on the table row each candidate is read from anyway (confidence, importance).
# {filters} narrows them further for the caller (only facts about some members, none of those already chosen).
IN_FORCE = f"server_id = %(server)s AND retracted_at IS NULL AND {visible_sql('memory_fact')} {{filters}}"
ONLY_MEMBERS = "AND member_id = ANY(%(members)s)"
EXCLUDED = "AND id <> ALL(%(excluded)s)"
MICROSECONDS = "(EXTRACT(EPOCH FROM changed_at) * 1000000)::int8"
# The half-life of the fact's kind in seconds (score.HalfLives; 0: never ages), and score.recency() in SQL. float8
# arithmetic refuses to underflow (Python's gives 0): ages beyond 200 half-lives count as that old (0.5 ** 200, 6e-61)
# and a confidence below 1e-150 as 0 in the recency term, so no product reaches the smallest float; either moves a
# score by less than 1e-60, far inside SQL_MARGIN. Every operand is float8, as in Python (a numeric would make
# power() exact and slow).
HALF_LIFE = """(CASE kind WHEN 'rule' THEN %(hl_rule)s::float8 WHEN 'profile' THEN %(hl_profile)s::float8
                 WHEN 'preference' THEN %(hl_preference)s::float8 WHEN 'event' THEN %(hl_event)s::float8
                 ELSE %(hl_lore)s::float8 END)"""
RECENCY = f"""(CASE WHEN {HALF_LIFE} = 0 THEN 1::float8 ELSE power(0.5::float8, least(greatest(
                  date_part('epoch', %(now)s::timestamptz - changed_at), 0) / {HALF_LIFE}, 200)) END)"""
# score.score() of an unmatched fact (relevance 0). The facts the search matched come back whole and Python
# scores them; a matched fact walked past scores at least this much, so no filter below drops it wrongly.
UNMATCHED_SCORE = f"""(%(w_rec)s::float8 * ((CASE WHEN confidence < 1e-150 THEN 0 ELSE confidence END) * {RECENCY})
                        + %(w_imp)s::float8 * ({WEIGHT})) / %(w_total)s::float8"""
# One walk step: the next `depth` facts in `order` after the last one walked, scored; only those within
# SQL_MARGIN of the N-th best come back (the first step takes the N-th best of the walk), with the last
# one walked and how many were walked; the first step adds the facts the search matched.
WALK = f"""
    WITH walked AS (
        SELECT id, changed_at, confidence, importance, kind, {WEIGHT} AS weight, {UNMATCHED_SCORE} AS score
        FROM memory_fact WHERE {IN_FORCE} {{after}} ORDER BY {{order}} LIMIT %(depth)s
    ),
    last_walked AS (SELECT id FROM walked ORDER BY {{reverse_order}} LIMIT 1)
    SELECT id, {MICROSECONDS}, confidence, importance, kind, weight, id = (SELECT id FROM last_walked),
           (SELECT count(*) FROM walked)
    FROM walked
    WHERE score >= COALESCE(%(min_score)s::float8,
                            (SELECT score FROM walked ORDER BY score DESC OFFSET %(nth)s LIMIT 1),
                            '-infinity') - %(margin)s::float8
       OR id = (SELECT id FROM last_walked)
    UNION ALL
    SELECT id, {MICROSECONDS}, confidence, importance, kind, {WEIGHT}, false, NULL FROM memory_fact
    WHERE {IN_FORCE} AND %(first)s AND id = ANY(%(matched)s)
"""
NEWEST = {"order": "changed_at DESC, id DESC", "reverse_order": "changed_at, id",
           "after": "AND (changed_at, id) < (%(after_changed_at)s, %(after_id)s)"}
HEAVIEST = {"order": f"{WEIGHT} DESC, changed_at DESC, id DESC", "reverse_order": "weight, changed_at, id",
             "after": f"AND ({WEIGHT}, changed_at, id)"
                      " < (%(after_weight)s::float8, %(after_changed_at)s, %(after_id)s)"}
# Facts heavy enough and recent enough to still reach the N-th best, heaviest first, at most `cap`;
# those within SQL_MARGIN of it come back, with how many were found and the weight of the lightest.
# (Every fact the search matched was scored in the first step.)
HEAVY_ENOUGH = f"""
    WITH heavy AS (
        SELECT id, changed_at, confidence, importance, kind, {WEIGHT} AS weight, {UNMATCHED_SCORE} AS score
        FROM memory_fact
        WHERE {IN_FORCE} AND {WEIGHT} >= %(min_weight)s::float8 AND changed_at <= %(newest)s {{since}}
        ORDER BY {WEIGHT} DESC, changed_at DESC, id DESC LIMIT %(cap)s
    ),
    found AS (SELECT count(*) AS found, min(weight) AS lightest FROM heavy)
    SELECT found.found, found.lightest, heavy.id, {MICROSECONDS}, confidence, importance, kind
    FROM found LEFT JOIN heavy ON heavy.score >= %(min_score)s::float8 - %(margin)s::float8
"""
# The first step when an earlier ranking of the server left a hint (top._HINTS): the walk as above, and in the
# same round trip the weight index read with the thresholds the hinted N-th best calls for. Python checks
# the hint against the N-th best it then finds before relying on what the read left out.
HINTED_FIRST_STEP = f"""
    WITH walked AS (
        SELECT id, changed_at, confidence, importance, kind, {WEIGHT} AS weight, {UNMATCHED_SCORE} AS score
        FROM memory_fact WHERE {IN_FORCE} ORDER BY changed_at DESC, id DESC LIMIT %(depth)s
    ),
    last_walked AS (SELECT id FROM walked ORDER BY changed_at, id LIMIT 1),
    heavy AS (
        SELECT id, changed_at, confidence, importance, kind, {WEIGHT} AS weight, {UNMATCHED_SCORE} AS score
        FROM memory_fact
        WHERE {IN_FORCE} AND {WEIGHT} >= %(min_weight)s::float8 AND changed_at <= %(now)s::timestamptz {{since}}
        ORDER BY {WEIGHT} DESC, changed_at DESC, id DESC LIMIT %(cap)s
    ),
    found AS (SELECT count(*) AS found, min(weight) AS lightest FROM heavy)
    SELECT id, {MICROSECONDS}, confidence, importance, kind, weight, id = (SELECT id FROM last_walked),
           (SELECT count(*) FROM walked), NULL::int8, NULL::float8
    FROM walked
    WHERE score >= COALESCE((SELECT score FROM walked ORDER BY score DESC OFFSET %(nth)s LIMIT 1), '-infinity')
                   - %(margin)s::float8
       OR id = (SELECT id FROM last_walked)
    UNION ALL
    SELECT id, {MICROSECONDS}, confidence, importance, kind, {WEIGHT}, false, NULL, NULL, NULL FROM memory_fact
    WHERE {IN_FORCE} AND id = ANY(%(matched)s)
    UNION ALL
    SELECT heavy.id, {MICROSECONDS}, confidence, importance, kind, weight, false, NULL, found.found, found.lightest
    FROM found LEFT JOIN heavy ON heavy.score >= %(min_score)s::float8 - %(margin)s::float8
"""
