"""The ranking's SQL statements (memory/retrieval/ranking/walk.py runs them): hand-written, since they run for every
message the bot sees on a ranked server (config/rows.py). Each statement is put together from the parts below
(`statement`), and every part sends rows of one shape, told apart by their first column (ROW_SOURCES). SQL_MARGIN,
the N-th best and the thresholds come in as parameters; which parts the first step may take is top.py's business."""

from ..audience import visible_sql

# The weight and importance expressions must read exactly as the index expressions of migrations 0008 and 0023
# for the indexes to be used.
WEIGHT = "confidence * COALESCE(importance, 0.5)"
IMPORTANCE_KEY = "COALESCE(importance, 0.5)"
# Every statement reads only the facts in force that the reader may see (memory/retrieval/audience.py): the walk,
# the index reads and the matched facts alike, so every bound below is over what the reader may be handed.
# {filters} narrows them further for the caller (only facts about some members, none of those already chosen).
IN_FORCE = f"server_id = %(server)s AND retracted_at IS NULL AND {visible_sql('memory_fact')} {{filters}}"
ONLY_MEMBERS = "AND member_id = ANY(%(members)s)"
EXCLUDED = "AND id <> ALL(%(excluded)s)"
MICROSECONDS = "(EXTRACT(EPOCH FROM changed_at) * 1000000)::int8"
# How fast the fact's kind ages, in halvings per second (1 / its half-life in seconds, 0 for a kind that never
# ages: score.HalfLives), and score.recency() in SQL: one multiplication instead of a division by a half-life that
# may be 0 (the exponent differs from Python's by a unit in the last place, far inside SQL_MARGIN). float8
# arithmetic refuses to underflow (Python's gives 0): ages beyond 200 half-lives count as that old (0.5 ** 200,
# 6e-61) and a confidence below 1e-150 as 0 in the recency term, so no product reaches the smallest float; either
# moves a score by less than 1e-60. Every operand is float8, as in Python (a numeric would make power() exact and
# slow).
HALVINGS_PER_SECOND = """(CASE kind WHEN 'event' THEN %(rate_event)s::float8
                                     WHEN 'profile' THEN %(rate_profile)s::float8
                                     WHEN 'rule' THEN %(rate_rule)s::float8
                                     WHEN 'preference' THEN %(rate_preference)s::float8
                                     ELSE %(rate_lore)s::float8 END)"""
RECENCY = f"""power(0.5::float8, least(greatest(date_part('epoch', %(now)s::timestamptz - changed_at), 0)
                                       * {HALVINGS_PER_SECOND}, 200))"""
# score.score() of an unmatched fact (relevance 0). The facts the search matched come back whole and Python
# scores them; a matched fact read elsewhere scores at least this much, so no filter below drops it wrongly.
UNMATCHED_SCORE = f"""(%(w_rec)s::float8 * ((CASE WHEN confidence < 1e-150 THEN 0 ELSE confidence END) * {RECENCY})
                        + %(w_imp)s::float8 * ({WEIGHT})) / %(w_total)s::float8"""
CANDIDATE = f"id, changed_at, confidence, importance, kind, {WEIGHT} AS weight, {UNMATCHED_SCORE} AS score"
FACT_COLUMNS = f"id, {MICROSECONDS}, confidence, importance, kind"

# Every row: (source, id, changed_us, confidence, importance, kind, weight, flag, count, extra), where flag, count
# and extra mean, by source: walk: the last fact walked, how many were walked; heavy: -, how many the weight index
# read found (a row without a fact when none), the weight of the lightest; ageless: the last fact of its group,
# how many its group read, and for the last of a group read in full the next lower importance in the group (the
# best the facts after it can have: NULL when none); threshold: -, -, the threshold the ageless read used.
ROW_SOURCES = ("walk", "matched", "heavy", "ageless", "threshold", "member")

# One walk step: the next `depth` facts in `order` after the last one walked ({after}, empty on the first).
WALKED = f"""
    walked AS (SELECT {CANDIDATE} FROM memory_fact WHERE {IN_FORCE} {{after}} ORDER BY {{order}} LIMIT %(depth)s),
    last_walked AS (SELECT id FROM walked ORDER BY {{reverse_order}} LIMIT 1)"""
NEWEST = {"order": "changed_at DESC, id DESC", "reverse_order": "changed_at, id",
          "after": "AND (changed_at, id) < (%(after_changed_at)s, %(after_id)s)"}
HEAVIEST = {"order": f"{WEIGHT} DESC, changed_at DESC, id DESC", "reverse_order": "weight, changed_at, id",
            "after": f"AND ({WEIGHT}, changed_at, id) < (%(after_weight)s::float8, %(after_changed_at)s, %(after_id)s)"}
# Facts of the kinds that age ({aging}), heavy and recent enough to still reach the N-th best, heaviest first,
# at most `cap`, with how many were found and the weight of the lightest.
HEAVY = f"""
    heavy AS (
        SELECT {CANDIDATE} FROM memory_fact
        WHERE {IN_FORCE} {{aging}} AND {WEIGHT} >= %(min_weight)s::float8 AND changed_at <= %(newest)s {{since}}
        ORDER BY {WEIGHT} DESC, changed_at DESC, id DESC LIMIT %(cap)s
    ),
    found AS (SELECT count(*) AS found, min(weight) AS lightest FROM heavy)"""
AGING = "AND kind = ANY(%(aging)s)"
# The kinds that never age (%(ageless)s): their unmatched score depends only on confidence and importance, rising
# with each, so the fact_in_force_by_rating index (server, kind, confidence, importance, changed_at, id) holds
# each (kind, confidence) group best first. The groups are found by a skip scan down the distinct confidences of
# each kind, stopping at the first whose best possible score (importance 1) is below the threshold; each group
# gives its first `per_group` facts in index order that can reach the threshold (importance high enough:
# {needed}). The threshold: the N-th best the walk found (%(guess)s), less SQL_MARGIN. A statement of its own:
# with bounds known it has one good plan, which PostgreSQL makes once (top._first_step says why that matters).
AGELESS = f"""
    threshold AS (SELECT COALESCE(%(guess)s::float8, '-infinity'::float8) - %(margin)s::float8 AS thr),
    groups (kind, confidence) AS (
        SELECT kinds.kind, (SELECT confidence FROM memory_fact
                            WHERE server_id = %(server)s AND retracted_at IS NULL AND kind = kinds.kind
                            ORDER BY confidence DESC LIMIT 1)
        FROM unnest(%(ageless)s::text[]) AS kinds (kind)
      UNION ALL
        SELECT groups.kind, (SELECT confidence FROM memory_fact
                             WHERE server_id = %(server)s AND retracted_at IS NULL AND kind = groups.kind
                               AND confidence < groups.confidence
                             ORDER BY confidence DESC LIMIT 1)
        FROM groups, threshold
        WHERE groups.confidence IS NOT NULL  -- the kind's lowest confidence was the last
          AND GREATEST(groups.confidence, 1e-150) * %(w_best)s::float8 >= threshold.thr
    ),
    ageless AS (
        SELECT rated.* FROM groups, threshold, LATERAL (
            SELECT first.*, count(*) OVER () AS group_count,
                   row_number() OVER (ORDER BY {{group_order}}) AS position
            FROM (SELECT {CANDIDATE}, {IMPORTANCE_KEY} AS importance_key FROM memory_fact
                  WHERE {IN_FORCE} AND kind = groups.kind AND confidence = groups.confidence {{needed}}
                  ORDER BY {{group_order}} LIMIT %(per_group)s) first
        ) rated
        WHERE groups.confidence IS NOT NULL
          AND GREATEST(groups.confidence, 1e-150) * %(w_best)s::float8 >= threshold.thr
    )"""
# The importance a fact of the group needs to reach the threshold (w_rec·c + w_imp·c·i ≥ thr·W), when importance
# counts and the confidence is not vanishing (a division would overflow).
NEEDED = f"""AND {IMPORTANCE_KEY} >= CASE WHEN groups.confidence >= 1e-150
                 THEN (threshold.thr * %(w_total)s::float8 / groups.confidence - %(w_rec)s::float8) / %(w_imp)s::float8
                 ELSE '-infinity'::float8 END"""
# Within a group every fact scores by its importance (index order); with importance weighted 0 they all tie, and
# the newer change wins.
BY_IMPORTANCE = f"{IMPORTANCE_KEY} DESC, changed_at DESC, id DESC"
BY_CHANGE = "changed_at DESC, id DESC"

# Which rows are sent: those within SQL_MARGIN of the N-th best of everything the statement scored (or of a known
# N-th best, %(min_score)s, when higher), and the last fact of each walk or group. With facts left out, the
# (N + left out)-th best, so that the hint this ranking leaves (top._HINTS) holds as many scores.
FLOOR = """
    floor AS (SELECT COALESCE(GREATEST(%(min_score)s::float8,
                                       (SELECT score FROM scores ORDER BY score DESC OFFSET %(send_nth)s LIMIT 1)),
                              '-infinity'::float8) - %(margin)s::float8 AS score)"""
SEND = {
    "walked": f"""
        SELECT 'walk' AS source, {FACT_COLUMNS}, weight, id = (SELECT id FROM last_walked) AS flag,
               (SELECT count(*) FROM walked) AS count, NULL::float8 AS extra
        FROM walked WHERE walked.score >= (SELECT score FROM floor) OR walked.id = (SELECT id FROM last_walked)""",
    "matched": f"""
        SELECT 'matched', {FACT_COLUMNS}, {WEIGHT}, false, NULL, NULL FROM memory_fact
        WHERE {IN_FORCE} AND id = ANY(%(matched)s)""",
    "heavy": f"""
        SELECT 'heavy', heavy.id, {MICROSECONDS}, confidence, importance, kind, weight, false, found.found,
               found.lightest
        FROM found LEFT JOIN heavy ON heavy.score >= (SELECT score FROM floor)""",
    "ageless": f"""
        SELECT 'ageless', {FACT_COLUMNS}, weight, position = group_count, group_count,
               CASE WHEN position = group_count AND group_count >= %(per_group)s THEN (
                   SELECT {IMPORTANCE_KEY} FROM memory_fact
                   WHERE {IN_FORCE} AND kind = ageless.kind AND confidence = ageless.confidence
                     AND {IMPORTANCE_KEY} < ageless.importance_key
                   ORDER BY {IMPORTANCE_KEY} DESC LIMIT 1) END
        FROM ageless WHERE ageless.score >= (SELECT score FROM floor) OR position = group_count""",
    "threshold": "SELECT 'threshold', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, thr FROM threshold",
}
# What each part adds to the scores the floor is taken from.
SCORES = {part: f"SELECT id, score FROM {part}" for part in ("walked", "heavy", "ageless")}


def statement(parts: dict[str, str]) -> str:
    """One statement of the named parts (walked, heavy, ageless: their CTEs, already formatted), sending the
    matched facts when `matched` is among them."""
    ctes = [parts[name] for name in ("walked", "heavy", "ageless") if name in parts]
    # A fact two parts read counts once (UNION: the same fact, the same expression, the same score).
    scores = " UNION ".join(SCORES[name] for name in ("walked", "heavy", "ageless") if name in parts)
    ctes += [f"scores AS ({scores})", FLOOR]
    sends = [SEND[name] for name in ("walked", "matched", "heavy", "ageless") if name in parts]
    if "ageless" in parts:
        sends.append(SEND["threshold"])
    return f"WITH RECURSIVE {', '.join(ctes)}\n" + "\nUNION ALL\n".join(sends)


# The facts about some members (the speaker's share): few enough to score every one, found by the
# fact_server_member index; those within SQL_MARGIN of their N-th best come back, and every one the search matched.
MEMBER_FACTS = f"""
    WITH theirs AS (SELECT {CANDIDATE} FROM memory_fact WHERE {IN_FORCE}),
    floor AS (SELECT COALESCE((SELECT score FROM theirs ORDER BY score DESC OFFSET %(nth)s LIMIT 1),
                              '-infinity'::float8) - %(margin)s::float8 AS score)
    SELECT 'member', {FACT_COLUMNS}, weight, false, NULL::int8, NULL::float8 FROM theirs
    WHERE theirs.score >= (SELECT score FROM floor) OR theirs.id = ANY(%(matched)s)
"""
