"""Finding the pairs a round proposes: blocking first, then scoring only the candidates.

Comparing every pair of a server's facts is quadratic (5·10⁹ pairs at 100,000 facts), and pg_trgm's
`%` over a whole server costs seconds per probe, so pairs are found in two cheap ways and only those
candidates are scored:

1. MinHash/LSH over each fact's shingles (content words, word pairs and key words): facts whose word
   sets overlap by about half or more share a band bucket with high probability. The signatures are
   computed with numpy over all facts at once (multiply-shift hashing), no per-pair work.
2. Shared normalised key: facts about the same subject (same scope and member, key words with
   aliases such as `lang` → `language` folded) are compared with each other, block by block.

Each candidate is then classified by rules (`classify`): a duplicate says the same thing; a
contradiction says something incompatible about the same subject (another value, another number, or a
negation). Two facts a merged fact could not stand for without reaching a channel one of them was not
meant for (two facts for two different channels) are never paired, whichever way they were found
(`may_pair`), nor two facts about different people ("Mira uses she/her pronouns" / "Priya uses she/her
pronouns": `about_different_people`); a merge takes the narrower audience of the two (`merged_reach`). Everything
here is plain Python over plain values, so the dry run and the round run the same code.
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from itertools import combinations
from typing import Protocol

import numpy as np

from memory.models import AUDIENCE_BREADTH, Audience
from memory.text.people import Mentions, about_other_people, mentions, people_differ
from memory.text.words import WORD_NO_UNDERSCORE

SIGNATURE_SIZE = 60
# 12 bands of 5 rows: a pair with Jaccard 0.75 (the bar for a duplicate across keys) becomes a candidate
# 96% of the time, one with 0.5 a third of the time, one with 0.3 almost never. Same-subject pairs,
# which may overlap less, come from the key blocks instead.
BANDS = 12
ROWS_PER_BAND = SIGNATURE_SIZE // BANDS
# A bucket or key block larger than this is a template, not a duplicate cluster: only neighbours in
# it (by recency) are paired, which keeps the work linear.
MAX_BLOCK = 40
DUPLICATE_ANY_SUBJECT = 0.75
CONTRADICTION_OVERLAP = 0.3

# Only words that carry no fact: pronouns stay (she/her and he/him are different facts).
STOPWORDS = frozenset(
    "a an the is are was were be been am of to in on at for and or but with by from as it its this that "
    "these those has have had do does did s so just also".split()
)
NEGATIONS = frozenset({"not", "no", "never", "isn", "doesn", "don", "didn", "wasn", "aren", "won", "cannot", "nobody"})
# Short forms people and bots use in keys, folded onto one word so `lang` and `language` meet.
KEY_ALIASES = {
    "lang": "language", "langs": "language", "languages": "language", "tz": "timezone", "time_zone": "timezone",
    "bday": "birthday", "dob": "birthday", "birth": "birthday", "born": "birthday", "pfp": "avatar",
    "fav": "favourite", "fave": "favourite", "favorite": "favourite", "pronoun": "pronouns", "loc": "location",
    "nick": "nickname", "name": "nickname", "rule": "rules", "game": "games", "pet": "pets",
}
_WORD = WORD_NO_UNDERSCORE  # letters, digits and their combining marks (Hindi words stay whole)
_NUMBER = re.compile(r"\d+(?:[.,:/]\d+)*")


@dataclass(frozen=True)
class PairingFact:
    """What pairing needs of a fact (read from the database by consolidation.selectors)."""

    id: int
    number: int
    key: str
    content: str
    scope: str
    member_id: str
    confidence: float
    staff_written: bool
    changed_at: datetime
    version: int
    audience: str = Audience.SERVER
    source_channel_id: str = ""
    source_thread_id: str = ""


class Audienced(Protocol):
    """Who may see a fact and where it was learned: a PairingFact, or a memory.models.Fact."""

    audience: str
    source_channel_id: str
    source_thread_id: str


def channel_bound(fact: Audienced) -> str:
    """The channel a fact's audience ties it to: its source channel, unless it is for the whole server ('' then, and
    for a staff-only fact learned nowhere)."""
    return "" if fact.audience == Audience.SERVER else fact.source_channel_id


def may_pair(left: Audienced, right: Audienced) -> bool:
    """Whether one merged fact could stand for both: not when each is tied to a channel and the channels differ (a
    fact for #a merged with one for #b would show each in the other's channel, or hide both from both)."""
    left_channel, right_channel = channel_bound(left), channel_bound(right)
    return not left_channel or not right_channel or left_channel == right_channel


def reaches(fact: Audienced, other: Audienced) -> bool:
    """Whether `fact` is handed over wherever `other` would be: at least as wide an audience, and when `fact` is tied
    to a channel, `other`'s channel (a statement said again is kept in the fact that reaches it; a contradiction's
    older side gives way to a newer one that reaches it, memory.facts.held_back)."""
    bound = channel_bound(fact)
    return (AUDIENCE_BREADTH[fact.audience] >= AUDIENCE_BREADTH[other.audience]
            and (not bound or bound == channel_bound(other)))


@dataclass(frozen=True)
class Reach:
    """Who may see a merged fact and where it counts as learned."""

    audience: str
    source_channel_id: str
    source_thread_id: str

    def fits(self, fact: Audienced) -> bool:
        """The fact already has this audience (and, when tied to a channel, this channel): it can stay as it is."""
        return fact.audience == self.audience and channel_bound(fact) == channel_bound(self)


def merged_reach(survivor: Audienced, retired: Audienced) -> Reach:
    """A merge never widens: the narrower audience of the two, with the source of the side it comes from (the
    survivor's on a tie). When that side was learned nowhere (a staff note), the other side's source, so a fact
    learned in a private channel keeps that channel (its purge, the confirmation before widening it)."""
    narrow, wide = ((survivor, retired) if AUDIENCE_BREADTH[survivor.audience] <= AUDIENCE_BREADTH[retired.audience]
                    else (retired, survivor))
    source = narrow if narrow.source_channel_id or not wide.source_channel_id else wide
    return Reach(narrow.audience, source.source_channel_id, source.source_thread_id)


@dataclass(frozen=True)
class Pair:
    keeper: PairingFact  # the fact that would stay (the winner)
    other: PairingFact
    kind: str  # "duplicate" | "contradiction"
    similarity: float
    why: str
    # Found only by the vectors (Semantic), which no rule could call: a possible duplicate until a model says so.
    by_meaning: bool = False


def words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def content_words(text: str) -> frozenset[str]:
    return frozenset(word for word in words(text) if word not in STOPWORDS)


def key_words(key: str) -> tuple[str, ...]:
    folded = KEY_ALIASES.get(key.lower(), key.lower())
    # A key of symbols only (🎂, 🎮) has no words: it stands for itself, or every such key would share a subject.
    return tuple(sorted({KEY_ALIASES.get(word, word) for word in words(folded.replace("_", " "))})) or (folded,)


def subject(fact: PairingFact) -> tuple:
    """Who and what a fact is about: scope, member and its normalised key words."""
    return (fact.scope, fact.member_id, key_words(fact.key))


def jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)


def winner_first(left: PairingFact, right: PairingFact) -> tuple[PairingFact, PairingFact]:
    """The fact that stays: higher confidence, then staff-written over bot-written, then newer."""
    def strength(fact: PairingFact) -> tuple:
        return (fact.confidence, fact.staff_written, fact.changed_at, fact.id)

    return (left, right) if strength(left) >= strength(right) else (right, left)


@dataclass(frozen=True)
class Features:
    """What classifying needs of one fact, computed once per fact rather than once per pair."""

    fact: PairingFact
    who: tuple[str, str]
    subject: tuple
    content: frozenset[str]
    content_plain: frozenset[str]  # without negation words
    with_key: frozenset[str]
    with_key_plain: frozenset[str]
    negated: bool
    numbers: frozenset[str]
    channel: str  # channel_bound

    @cached_property
    def mentions(self) -> Mentions:
        """Who the fact names, read only for the pairs a rule would propose (memory.text.people)."""
        return mentions(self.fact.content)


def features(fact: PairingFact) -> Features:
    content = content_words(fact.content)
    with_key = content | set(key_words(fact.key))  # the key says what the fact is about: count it too
    return Features(
        fact=fact, who=(fact.scope, fact.member_id), subject=subject(fact), content=content,
        content_plain=content - NEGATIONS, with_key=frozenset(with_key), with_key_plain=frozenset(with_key - NEGATIONS),
        negated=bool(content & NEGATIONS), numbers=frozenset(_NUMBER.findall(fact.content)),
        channel=channel_bound(fact),
    )


def _may_pair(left: Features, right: Features) -> bool:
    return left.who == right.who and (not left.channel or not right.channel or left.channel == right.channel)


def about_different_people(left: Features, right: Features, kind: str = "duplicate") -> bool:
    """They name different people: never a duplicate ("Mira uses she/her" / "Priya uses she/her"); a contradiction
    only when the people are a value that changed ("Alex and Nova" / "Alex and Sam" moderate: memory.text.people)."""
    return (people_differ if kind == "duplicate" else about_other_people)(left.mentions, right.mentions)


def classify(left: PairingFact | Features, right: PairingFact | Features) -> Pair | None:
    """Duplicate, contradiction, or nothing to propose (None). Facts about different members or of
    different scopes are never paired, nor facts for two different channels (`may_pair`), nor facts naming
    different people (`about_different_people`)."""
    left = left if isinstance(left, Features) else features(left)
    right = right if isinstance(right, Features) else features(right)
    if not _may_pair(left, right):
        return None
    pair = _classified(left, right)
    return None if pair is None or about_different_people(left, right, pair.kind) else pair


def _classified(left: Features, right: Features) -> Pair | None:
    same_subject = left.subject == right.subject
    similarity = jaccard(left.with_key, right.with_key)
    if not same_subject and similarity < 0.5:
        return None  # every rule below needs the same subject or at least half the words shared
    keeper, other = winner_first(left.fact, right.fact)
    if left.negated != right.negated and jaccard(left.with_key_plain, right.with_key_plain) >= 0.5:
        return Pair(keeper, other, "contradiction", similarity, "One says it is so, the other says it is not.")
    if left.numbers and right.numbers and left.numbers != right.numbers and (
            same_subject or similarity >= DUPLICATE_ANY_SUBJECT):
        return Pair(keeper, other, "contradiction", similarity,
                    "They give different numbers for the same thing: "
                    f"{', '.join(sorted(left.numbers))} / {', '.join(sorted(right.numbers))}.")
    # A duplicate says nothing the other does not: one fact's words are all in the other. Two facts that
    # each say something of their own (Fridays / Sundays, Nova / Sam) are never a duplicate, however
    # much else they share: merging them would drop a value, so they are flagged instead.
    contained = left.content <= right.content or right.content <= left.content
    if contained and (same_subject or similarity >= DUPLICATE_ANY_SUBJECT):
        why = (f"Same subject ({' '.join(left.subject[2])}) and the same content." if same_subject
               else "Different keys, but they say the same thing.")
        return Pair(keeper, other, "duplicate", similarity, why)
    if (same_subject and jaccard(left.content_plain, right.content_plain) >= CONTRADICTION_OVERLAP) or (
            not same_subject and similarity >= DUPLICATE_ANY_SUBJECT):
        only_left = sorted(left.content - right.content)[:3]
        only_right = sorted(right.content - left.content)[:3]
        return Pair(keeper, other, "contradiction", similarity,
                    f"About the same thing with different values: {' '.join(only_left)} / {' '.join(only_right)}.")
    return None


# Blocking ------------------------------------------------------------------------

def _shingle_hashes(fact: PairingFact) -> list[int]:
    content = [word for word in words(fact.content) if word not in STOPWORDS]
    shingles = set(content)
    shingles.update(f"{first} {second}" for first, second in zip(content, content[1:], strict=False))
    shingles.update(f"key:{word}" for word in key_words(fact.key))
    shingles.add(f"who:{fact.scope}:{fact.member_id}")
    return [zlib.crc32(shingle.encode()) for shingle in shingles]


def minhash_signatures(facts: Sequence[PairingFact], seed: int = 20261130) -> np.ndarray:
    """One row of SIGNATURE_SIZE minimum hashes per fact (multiply-shift hashing of 32-bit shingle
    hashes), computed for all facts at once."""
    lengths = []
    flat: list[int] = []
    for fact in facts:
        hashes = _shingle_hashes(fact)
        flat.extend(hashes)
        lengths.append(len(hashes))
    if not facts:
        return np.zeros((0, SIGNATURE_SIZE), dtype=np.uint32)
    shingles = np.asarray(flat, dtype=np.uint64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    rng = np.random.default_rng(seed)
    multipliers = rng.integers(1, 2**63, size=SIGNATURE_SIZE, dtype=np.uint64) | np.uint64(1)
    increments = rng.integers(0, 2**63, size=SIGNATURE_SIZE, dtype=np.uint64)
    signatures = np.empty((len(facts), SIGNATURE_SIZE), dtype=np.uint32)
    with np.errstate(over="ignore"):  # multiply-shift hashing relies on wrapping 64-bit arithmetic
        for row in range(SIGNATURE_SIZE):
            hashed = (shingles * multipliers[row] + increments[row]) >> np.uint64(32)
            signatures[:, row] = np.minimum.reduceat(hashed, offsets).astype(np.uint32)
    return signatures


def _pairs_in_block(members: list[int], facts: Sequence[PairingFact]) -> Iterable[tuple[int, int]]:
    if len(members) <= MAX_BLOCK:
        yield from combinations(members, 2)
        return
    # A template-sized block: pair each fact with its nearest neighbours in time only.
    ordered = sorted(members, key=lambda index: facts[index].changed_at)
    for position, index in enumerate(ordered):
        for neighbour in ordered[position + 1 : position + 4]:
            yield index, neighbour


def candidate_pairs(facts: Sequence[PairingFact]) -> set[tuple[int, int]]:
    """Index pairs (i < j) worth scoring: sharing an LSH band bucket or a normalised key block."""
    found: set[tuple[int, int]] = set()
    signatures = minhash_signatures(facts)
    weights = np.random.default_rng(7).integers(1, 2**63, size=ROWS_PER_BAND, dtype=np.uint64) | np.uint64(1)
    with np.errstate(over="ignore"):
        for band in range(BANDS):
            rows = signatures[:, band * ROWS_PER_BAND : (band + 1) * ROWS_PER_BAND].astype(np.uint64)
            keys = (rows * weights).sum(axis=1, dtype=np.uint64)
            order = np.argsort(keys, kind="stable")
            sorted_keys = keys[order]
            starts = np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]]))
            ends = np.concatenate([starts[1:], [len(order)]])
            for start, end in zip(starts[ends - starts > 1], ends[ends - starts > 1], strict=True):
                for left, right in _pairs_in_block(order[start:end].tolist(), facts):
                    found.add((min(left, right), max(left, right)))
    blocks: dict[tuple, list[int]] = defaultdict(list)
    for index, fact in enumerate(facts):
        blocks[subject(fact)].append(index)
    for members in blocks.values():
        for left, right in _pairs_in_block(members, facts):
            found.add((min(left, right), max(left, right)))
    return found


def _exact_clusters(facts: Sequence[PairingFact],
                    described: list[Features]) -> tuple[list[int], list[Pair], dict[int, int]]:
    """Facts saying word for word the same about the same subject, for the same channel (or none), form a
    cluster: each is paired with the cluster's strongest fact only (a star, not every pair), and only that fact
    takes part in the blocking. Returns (indexes of the facts that do, the star pairs, each fact's id → its hub's
    id). The channel is part of the cluster: a hub for #a would stand for a member for #b, which may not pair
    with it, and keep it from the server fact it may pair with."""
    clusters: dict[tuple, list[int]] = defaultdict(list)
    for index, described_fact in enumerate(described):
        clusters[(described_fact.subject, described_fact.content, described_fact.channel)].append(index)
    representatives: list[int] = []
    stars: list[Pair] = []
    hub_of: dict[int, int] = {}
    for members in clusters.values():
        hub = members[0]
        for index in members[1:]:
            if winner_first(facts[hub], facts[index])[0] is not facts[hub]:
                hub = index
        representatives.append(hub)
        for index in members:
            hub_of[facts[index].id] = facts[hub].id
            if index != hub:
                pair = classify(described[hub], described[index])
                if pair is not None:
                    stars.append(pair)
    return sorted(representatives), stars, hub_of


def find_pairs(facts: Sequence[PairingFact], neighbours: dict[tuple[int, int], float] | None = None) -> list[Pair]:
    """Every duplicate and contradiction among the facts, strongest similarity first.

    `neighbours` (Semantic): fact-id pairs the vectors see as close, with their cosine similarity; the
    rules classify them like any candidate. Those the rules cannot call (same meaning in other words,
    or the same topic with other values) come back as possible duplicates marked `by_meaning`: only a
    model can tell which they are; without its verdict a round proposes them saying no model checked them.
    Neither way pairs two facts for two different channels, about two members or naming different people."""
    described = [features(fact) for fact in facts]
    representatives, pairs, hub_of = _exact_clusters(facts, described)
    chosen = [facts[index] for index in representatives]
    proposed: set[tuple[int, int]] = set()  # by the rules; one they pass over is still the vectors' to propose
    for left, right in candidate_pairs(chosen):
        left_index, right_index = representatives[left], representatives[right]
        pair = classify(described[left_index], described[right_index])
        if pair is not None:
            pairs.append(pair)
            proposed.add(tuple(sorted((facts[left_index].id, facts[right_index].id))))
    index_of = {fact.id: index for index, fact in enumerate(facts)}
    for (low, high), closeness in (neighbours or {}).items():
        if low not in index_of or high not in index_of:
            continue
        # As in the blocking, a cluster of facts saying word for word the same takes part through its hub:
        # the vectors see its members as one (a pair inside it is a star pair already, proposed once).
        low, high = sorted((hub_of[low], hub_of[high]))
        if low == high or (low, high) in proposed:
            continue
        proposed.add((low, high))
        left, right = described[index_of[low]], described[index_of[high]]
        pair = classify(left, right)
        # The vectors' pairs obey the same rules as the blocking's: one subject, one channel, the same people.
        if pair is None and _may_pair(left, right) and not about_different_people(left, right):
            keeper, other = winner_first(left.fact, right.fact)
            pair = Pair(keeper, other, "duplicate", closeness,
                        f"The vectors see them as saying the same (similarity {closeness:.2f}).", by_meaning=True)
        if pair is not None:
            pairs.append(pair)
    pairs.sort(key=lambda pair: (-pair.similarity, pair.keeper.id, pair.other.id))
    return pairs


# Up to this many vectors every pair is compared, 1,000 rows at a time (a fraction of a second at 4,000); beyond,
# random-hyperplane LSH picks the pairs to compare, which finds a pair at 0.97 about three times in four.
EXACT_NEIGHBOURS_UP_TO, EXACT_BLOCK = 4_000, 1_000


def _exact_neighbours(ids: Sequence[int], vectors: np.ndarray, threshold: float) -> dict[tuple[int, int], float]:
    found: dict[tuple[int, int], float] = {}
    for start in range(0, len(ids), EXACT_BLOCK):
        similarity = vectors[start:start + EXACT_BLOCK] @ vectors.T
        for row, col in zip(*np.nonzero(similarity >= threshold), strict=True):
            if start + row < col:
                left, right = int(ids[start + row]), int(ids[col])
                found[(min(left, right), max(left, right))] = float(similarity[row, col])
    return found


def vector_neighbours(ids: Sequence[int], vectors: np.ndarray, threshold: float = 0.92) -> dict[tuple[int, int], float]:
    """Fact-id pairs whose unit vectors have cosine similarity ≥ threshold: all pairs up to EXACT_NEIGHBOURS_UP_TO
    vectors; beyond, random-hyperplane LSH (4 tables of 16 bits) buckets them, only pairs sharing one compared."""
    if len(ids) <= EXACT_NEIGHBOURS_UP_TO:
        return _exact_neighbours(ids, vectors, threshold)
    found: dict[tuple[int, int], float] = {}
    rng = np.random.default_rng(20261130)
    planes = rng.standard_normal((vectors.shape[1], 64)).astype(np.float32)
    bits = (vectors @ planes) > 0
    powers = (1 << np.arange(16, dtype=np.uint64)).astype(np.uint64)
    for table in range(4):
        keys = (bits[:, table * 16 : (table + 1) * 16].astype(np.uint64) * powers).sum(axis=1)
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        starts = np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]]))
        ends = np.concatenate([starts[1:], [len(order)]])
        for start, end in zip(starts, ends, strict=True):
            members = order[start:end][:MAX_BLOCK]
            if len(members) < 2:
                continue
            block = vectors[members]
            similarity = block @ block.T
            for row, col in zip(*np.nonzero(np.triu(similarity >= threshold, k=1)), strict=True):
                left, right = int(ids[members[row]]), int(ids[members[col]])
                found[(min(left, right), max(left, right))] = float(similarity[row, col])
    return found
