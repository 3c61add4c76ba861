"""Whether a fact about to be remembered is already known: the same statement, in force, about the same subject.
Read-only; memory.facts.remembering reinforces what this finds instead of writing a second row.

The same statement is the same subject (scope and member) and one of: the same words once case, width,
punctuation and spacing are set aside (same key); nearly the same words by pg_trgm's trigram similarity, every
content word of each in the other (same key); or, under a type that embeds, the same meaning by the vectors (any
key). Whatever the similarity, two wordings are never the same statement when text alone sees a difference
(memory.text.statements.difference: different people named, another value or name, "not", a wish, the same words
in other roles), and a long shared stretch with a word of its own on either side is that word's statement
("teal" / "coral"): only the vectors judge wordings that share less than SHARED_WORDS_TEMPLATE of their words.

The rule errs towards keeping two rows: a wrong match loses what the new wording adds, a missed one only costs a
row (consolidation still proposes it later). TRIGRAM_SAME and MEANING_SAME were chosen on one half of the labelled
pairs of bench/dedupe_data.py and are reported on the other half by bench/dedupe.py (docs/ARCHITECTURE.md).

Both lookups are one statement each along an index: fact_same_words (migration 0025: the subject and the set of
words a wording uses) for words, with pg_trgm's similarity computed on what it finds; the member's facts or the
server's vector index (memory.retrieval.meaning) for meaning. Every wording the words rule accepts uses the same
words as the new one, so the index finds all of them but inflections ("tournament" / "tournaments"). From Ledger
up the same statement for words also reads the subject's newest facts under the key (fact_server_key, migration
0029), which the contradiction check of memory.facts.remembering judges once the new fact is written: one round
trip for both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from config.rows import loaded_instance, with_server_literal
from consolidation.pairs import Audienced, may_pair, reaches
from memory.models import Fact, Scope
from memory.retrieval.audience import Reader
from memory.retrieval.meaning import nearest_fact_ids, nearest_params
from memory.text.people import about_other_people, mentions
from memory.text.statements import difference, normalised, same_words, word_overlap, wording
from teams.models import Server

# pg_trgm similarity at which two wordings with the same words under one key are one statement (bench/dedupe.py).
TRIGRAM_SAME = 0.85
# Cosine similarity of the two facts' vectors (the built-in local model) at which two wordings are one statement.
MEANING_SAME = 0.95
# Wordings sharing this share of their content words or more, but not all of them, differ in what they do not share.
SHARED_WORDS_TEMPLATE = 0.4
WORD_CANDIDATES = 20
MEANING_CANDIDATES = 10

# What deciding needs of a candidate (the rest is read when it is reinforced, locked): not its search vector.
CANDIDATE_COLUMNS = ("f.id, f.server_id, f.number, f.key, f.content, f.audience, f.source_channel_id, "
                     "f.source_thread_id, f.pinned, f.retracted_at, f.changed_at")
# The facts of the subject under the key that use the same words, in any order (the index fact_same_words,
# migration 0025: an md5 of the wording's distinct words, sorted), the newest first along the index (a server may
# already hold hundreds of copies), with pg_trgm's similarity to the new wording.
# The subject's facts in force under the key, newest first (the duplicate check's and the same-key read's rows).
_SUBJECT_UNDER_KEY = """
    FROM memory_fact f
    WHERE f.server_id = %(server)s AND f.key = %(key)s AND f.member_id = %(member)s AND f.retracted_at IS NULL
      AND f.scope = %(scope)s {more}
    ORDER BY f.changed_at DESC, f.id DESC"""
_SAME_WORDS = _SUBJECT_UNDER_KEY.format(more="AND memory_word_set(f.content) = memory_word_set(%(content)s)")
WORD_CANDIDATES_SQL = f"""
    SELECT * FROM (
        SELECT {CANDIDATE_COLUMNS}, similarity(f.content, %(content)s) AS trigram, NULL::float8 AS closeness
        {_SAME_WORDS} LIMIT %(limit)s
    ) candidates ORDER BY trigram DESC, changed_at DESC, id DESC
"""
# A member's facts are few (the (server, member) index): every distance is computed, exactly.
MEMBER_MEANING_SQL = f"""
    SELECT {CANDIDATE_COLUMNS}, NULL::float8 AS trigram, 1 - (e.vector <=> %(vector)s::vector) AS closeness
    FROM memory_fact f JOIN memory_factembedding e ON e.fact_id = f.id AND e.model_name = %(model)s
    WHERE f.server_id = %(server)s AND f.member_id = %(member)s AND f.scope = %(scope)s AND f.retracted_at IS NULL
    ORDER BY e.vector <=> %(vector)s::vector, f.id LIMIT %(limit)s
"""
CLOSENESS_SQL = f"""
    SELECT {CANDIDATE_COLUMNS}, NULL::float8 AS trigram, 1 - (e.vector <=> %(vector)s::vector) AS closeness
    FROM memory_fact f JOIN memory_factembedding e ON e.fact_id = f.id AND e.model_name = %(model)s
    WHERE f.id = ANY(%(ids)s) AND f.member_id = %(member)s AND f.scope = %(scope)s AND f.retracted_at IS NULL
"""
# With the word candidates (as WORD_CANDIDATES_SQL), the newest same-key facts of the subject in force along
# fact_server_key (migration 0029: server, key, member, newest first), with what flagging and holding back need
# (version, pinned, held_back): the contradiction check's read, in the duplicate check's round trip. Under the key
# and not in the word candidates' order: `under_key`, last.
SAME_KEY_CANDIDATES = 20
SUBJECT_COLUMNS = f"{CANDIDATE_COLUMNS}, f.scope, f.member_id, f.version, f.held_back"
WORDS_AND_KEY_SQL = f"""
    SELECT * FROM (
        (SELECT {SUBJECT_COLUMNS}, similarity(f.content, %(content)s) AS trigram, NULL::float8 AS closeness,
                false AS under_key
         {_SAME_WORDS} LIMIT %(limit)s)
        UNION ALL
        (SELECT {SUBJECT_COLUMNS}, NULL::real, NULL::float8, true
         {_SUBJECT_UNDER_KEY.format(more="")} LIMIT %(same_key_limit)s)
    ) found ORDER BY under_key, trigram DESC, changed_at DESC, id DESC
"""


@dataclass(frozen=True)
class Meaning:
    """The new fact's vector, from the model whose vectors the server's facts have."""

    model_name: str
    vector: Sequence[float]


def same_statement(new: str, known: str, *, same_key: bool, trigram: float | None, closeness: float | None,
                   lossless: bool = True) -> str:
    """How `known` says what `new` says ('' when it does not): 'the same words', 'nearly the same words' (pg_trgm
    `trigram`, same key) or 'the same meaning' (the vectors' cosine `closeness`). `lossless=False` drops the rule
    that nearly the same words must be all the same words (bench/dedupe.py chooses TRIGRAM_SAME without it)."""
    new_wording, known_wording = wording(new), wording(known)
    if difference(new_wording, known_wording):
        return ""
    if same_key and normalised(new) == normalised(known):
        return "the same words"
    alike = same_words(new_wording, known_wording)
    if same_key and (alike or not lossless) and trigram is not None and trigram >= TRIGRAM_SAME:
        return "nearly the same words"
    if closeness is not None and closeness >= MEANING_SAME and (
            alike or word_overlap(new_wording, known_wording) < SHARED_WORDS_TEMPLATE):
        return "the same meaning"
    return ""


def _candidates(sql: str, params: dict) -> list[Fact]:
    """The rows as facts loaded from the database (config.rows: without a raw queryset's per-query set-up), each
    column an attribute (trigram, closeness too); a field not selected loads on first access."""
    # Planned for the server: a generic plan read a million-fact server's key the wrong way (the duplicate check and
    # same-key read of a remember: 216 ms p50 against 10 ms planned for the server).
    sql = with_server_literal(sql, params["server"])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [column.name for column in cursor.description]
        return [loaded_instance(Fact, names, row) for row in cursor.fetchall()]


def _word_candidates(server: Server, *, key: str, content: str, scope: str, member_id: str,
                     under_key: bool) -> tuple[list[Fact], list[Fact]]:
    """Facts of the subject under `key` that use the same words as `content`, closest by trigrams first; with
    `under_key`, also the subject's newest facts under `key` (WORDS_AND_KEY_SQL), else none."""
    params = {"server": server.pk, "member": member_id, "key": key, "scope": scope, "content": content,
              "limit": WORD_CANDIDATES, "same_key_limit": SAME_KEY_CANDIDATES}
    if not under_key:
        return _candidates(WORD_CANDIDATES_SQL, params), []
    found = _candidates(WORDS_AND_KEY_SQL, params)
    return [fact for fact in found if not fact.under_key], [fact for fact in found if fact.under_key]


def _meaning_candidates(server: Server, *, scope: str, member_id: str, meaning: Meaning,
                        reach: Audienced) -> list[Fact]:
    """The subject's facts nearest in meaning, closest first, with their cosine similarity (`closeness`): among
    those a reply where the new fact was learned may see, since only a known fact that reaches as far counts."""
    reader = Reader(reach.source_channel_id or "", reach.source_thread_id or "")
    params = nearest_params(server.pk, meaning.model_name, list(meaning.vector), MEANING_CANDIDATES, reader)
    params |= {"member": member_id, "scope": scope}
    if scope == Scope.MEMBER and member_id:
        return _candidates(MEMBER_MEANING_SQL, params)
    ids = nearest_fact_ids(server.pk, meaning.model_name, list(meaning.vector), MEANING_CANDIDATES, reader=reader)
    found = _candidates(CLOSENESS_SQL, params | {"ids": ids}) if ids else []
    return sorted(found, key=lambda fact: -fact.closeness)


def statement_lookup(server: Server, *, key: str, content: str, scope: str, member_id: str, reach: Audienced,
                     meaning: Meaning | None = None, under_key: bool = False) -> tuple[tuple[Fact, str] | None,
                                                                                   list[Fact]]:
    """statement_already_known's answer and, with `under_key`, the subject's newest facts in force under `key`, read
    in the same statement, for same_key_other_statements once the new fact is written (else an empty list)."""
    candidates, same_key = _word_candidates(server, key=key, content=content, scope=scope, member_id=member_id,
                                            under_key=under_key)
    if meaning is not None:
        candidates += _meaning_candidates(server, scope=scope, member_id=member_id, meaning=meaning, reach=reach)
    for fact in candidates:
        how = same_statement(content, fact.content, same_key=fact.key == key, trigram=fact.trigram,
                             closeness=fact.closeness)
        if how and reaches(fact, reach):
            return (fact, how), same_key
    return None, same_key


def statement_already_known(server: Server, *, key: str, content: str, scope: str, member_id: str,
                            reach: Audienced, meaning: Meaning | None = None) -> tuple[Fact, str] | None:
    """The fact in force that says the same about the same subject (same_statement) and is handed over wherever the
    new one (`reach`: its audience and source) would be, with how it says the same; or None. A known fact seen more
    narrowly is no reason to drop the new row: where only the new one would reach, the bot would lose the
    statement. `meaning`: the new fact's vector, under a type that embeds."""
    return statement_lookup(server, key=key, content=content, scope=scope, member_id=member_id, reach=reach,
                            meaning=meaning)[0]


def same_key_other_statements(fact: Fact, same_key: list[Fact]) -> list[Fact]:
    """Of `same_key` (statement_lookup's facts in force with the key of `fact`, about the same subject, read before
    `fact` was written), those that say something else: a contradiction when `fact` is written (Ledger and up flag
    it). Never two facts for two different channels, which contradict nobody (consolidation.pairs.may_pair), nor two
    facts about different people ("Mira uses she/her" / "Priya uses he/him" under one key pronouns say nothing
    against each other; "Alex and Nova" / "Alex and Sam are the moderators" do)."""
    wanted = normalised(fact.content)
    mentioned = mentions(fact.content)
    return [other for other in same_key if normalised(other.content) != wanted
            and may_pair(fact, other) and not about_other_people(mentioned, mentions(other.content))]
