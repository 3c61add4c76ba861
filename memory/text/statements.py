"""What two wordings of a fact differ in, as far as text alone can tell: the people they name, the values they give
(numbers, days, months, channels, names of things), whether one says "not", and the words they do not share.
Pure text; memory.facts.sameness decides with it (and with the trigram and vector similarities the database
gives) whether a fact being remembered is a statement already known.

A wording that gives a value the other does not, or denies what the other says, is never the same statement
however alike the two read: "The weekly tournament is every Saturday" / "... every Sunday" are 0.98 apart in
meaning for the vectors. And two wordings that share most of their words are the same only when they share all
of them: what one has and the other has not ("teal" / "coral", "is" / "wants to become") is then the point.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from .dates import JAPANESE_DAYS, JAPANESE_WEEKDAY, date_value
from .people import fold, latin_words, lower_case_words, matches, names_differ, names_in

# Words that say it is not so, or no longer so, in English, Dutch, German and Japanese.
_NEGATION = re.compile(
    r"\b(?:not|no|never|nobody|nothing|none|cannot|neither|nor|without|stopped|quit|quitting|anymore|formerly"
    r"|niet|geen|nooit|niemand|niets|gestopt|vroeger|nicht|kein\w*|nie|niemals|nichts|aufgehört|früher|ehemals)\b"
    r"|n['’]t\b|\bused to\b|\bng\b|ない|ません|ず[、。]|やめ|もう")
# Words that carry no claim: articles, copulas, auxiliaries, prepositions and conjunctions. Pronouns, numbers,
# quantifiers and negations stay: "he/him" and "he/they", "first" and "last" Thursday are different facts.
STOPWORDS = frozenset("""
a an the is are was were be been am being of to in on at for and or but with by from as it its this that these
those has have had do does did so just also every each s
de het een is zijn was waren ben van in op aan voor en of maar met door bij als dat die dit deze er ook te om elke
der die das den dem des ein eine einen einem einer ist sind war waren bin von in im am an auf für und oder aber
mit bei als dass es auch zu zum zur um jeden jede jedes
""".split())
# A list's separators: the order of its items says nothing ("bass and drums", "日本語と英語と韓国語").
_LIST_SEPARATORS = frozenset({",", "、", "and", "or", "en", "of", "und", "oder", "と", "や"})
# A symbol standing alone is a value: "The bot's command prefix is !" / "... is ?".
_SYMBOL = re.compile(r"(?:^|(?<=\s))[^\w\s]+(?=\s|$)")
# Words that say someone wants, plans or hopes it ("wants to become a nurse", "wil graag een kat", "hätte gern
# einen Hund", "飼いたがってる"): a wish is not the thing itself.
_WISH = re.compile(
    r"\b(?:wants?|wanted|wanna|would like|wish(?:es)?|hopes?|plans?|planning|going to|looking for|trying to"
    r"|wil|willen|wilde|graag|hoopt|zou|will|möchte|möchten|gern|gerne|würde|hofft|plant)\b"
    r"|たい(?:[。、!？]|$|と|な)|たがって|たがる|目指|つもり")
_NUMBER = re.compile(r"\d+(?:[.,:/]\d+)*")
_CHANNEL = re.compile(r"#[^\s#,.;:!?]+")
_WORD = re.compile(r"[^\W_]+")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# Japanese characters that only carry grammar (particles, punctuation): left out of what a wording says.
_JAPANESE_GRAMMAR = frozenset("がはをにでのもとへや、。・「」()")
_NUMBER_WORDS = {
    word: str(value) for value, words in enumerate([
        (), ("one",), ("two", "twee", "zwei"), ("three", "drie", "drei"), ("four", "vier"), ("five", "vijf", "fünf"),
        ("six", "zes", "sechs"), ("seven", "zeven", "sieben"), ("eight", "acht"), ("nine", "negen", "neun"),
        ("ten", "tien", "zehn"), ("eleven", "elf"), ("twelve", "twaalf", "zwölf"),
    ]) for word in words}
def normalised(text: str) -> str:
    """Case, accents' composition, punctuation and spacing do not make another statement."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(character if character.isalnum() else " " for character in folded)
    return " ".join(kept.split())


@dataclass(frozen=True)
class Wording:
    """What one wording says, for comparing it with another."""

    text: str
    words: frozenset[str]  # its content words folded (function words out); Japanese: its meaningful characters
    values: frozenset[str]  # numbers, days, months, channels (names of people and things: compared pairwise)
    negated: bool
    wished: bool


def wording(text: str) -> Wording:
    folded = unicodedata.normalize("NFKC", text).casefold()
    values = set(_NUMBER.findall(folded)) | {channel.rstrip("-") for channel in _CHANNEL.findall(folded)}
    values |= {JAPANESE_DAYS[day] for day in JAPANESE_WEEKDAY.findall(folded)}
    values |= {symbol for symbol in _SYMBOL.findall(folded.strip()) if not set(symbol) <= set(".,;:-–—")}
    words: set[str] = set()
    for word in _WORD.findall(re.sub(r"['’]s?\b", " ", folded)):
        if _JAPANESE.search(word):
            words.update(character for character in word if character not in _JAPANESE_GRAMMAR
                         and not character.isdigit())
            continue
        if word in _NUMBER_WORDS:
            values.add(_NUMBER_WORDS[word])
        elif (day := date_value(word)) is not None:
            values.add(day)
        elif word not in STOPWORDS and not word.isdigit():
            words.add(word)
    return Wording(text=text, words=frozenset(words), values=frozenset(values), negated=bool(_NEGATION.search(folded)),
                   wished=bool(_WISH.search(folded)))


def _unmatched(left: frozenset[str] | set[str], right: frozenset[str] | set[str]) -> set[str]:
    return {word for word in left if not matches(word, set(right))}


def word_overlap(left: Wording, right: Wording) -> float:
    """Share of the two wordings' content words found in both (an inflection counts: tournament / tournaments)."""
    union = len(left.words | right.words)
    if not union:
        return 1.0
    missing = len(_unmatched(left.words, right.words)) + len(_unmatched(right.words, left.words))
    return max(0.0, 1.0 - missing / union)


def same_words(left: Wording, right: Wording) -> bool:
    """Every content word of each is in the other: the same words, maybe in another order or inflection."""
    return not _unmatched(left.words, right.words) and not _unmatched(right.words, left.words)


def _in_order(text: str) -> list[str]:
    """A Latin-script wording's content words in order, each list's items sorted (their order says nothing:
    "Spanish, Catalan and English"; a comma alone joins clauses, not a list)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    tokens = re.findall(r"[^\W_]+|,", re.sub(r"['’]s?\b", " ", folded))
    ordered: list[str] = []
    index = 0
    while index < len(tokens):
        items, separators = [tokens[index]], []
        while (index + 2 < len(tokens) and tokens[index + 1] in _LIST_SEPARATORS
               and tokens[index + 2] not in _LIST_SEPARATORS):
            separators.append(tokens[index + 1])
            index += 2
            items.append(tokens[index])
        listed = any(separator != "," for separator in separators)
        ordered.extend(sorted(items) if listed else [word for pair in zip(items, [*separators, ""], strict=True)
                                                     for word in pair if word])
        index += 1
    return [token for token in ordered if token not in _LIST_SEPARATORS and token not in STOPWORDS]


def _gives_value(words: list[str]) -> bool:
    return bool(wording(" ".join(words)).values)


def _latin_roles_swapped(left: str, right: str) -> bool:
    first, second = _in_order(left), _in_order(right)
    if first == second or sorted(first) != sorted(second):
        return False
    start = 0
    while first[start] == second[start]:
        start += 1
    end = 0
    while first[len(first) - 1 - end] == second[len(second) - 1 - end]:
        end += 1
    middle, other = first[start:len(first) - end], second[start:len(second) - end]
    if any(middle[cut:] + middle[:cut] == other for cut in range(1, len(middle))):
        return False  # one phrase moved
    # Two phrases swapped round a verb: Dutch and German put a time or a number first and the subject after the
    # verb ("Sinds 2022 woont Daan in Gent"); two people or things swapping places change the statement.
    for one in range(1, len(middle)):
        for pivot in range(one + 1, len(middle)):
            x, p, y = middle[:one], middle[one:pivot], middle[pivot:]
            if y + p + x == other and (_gives_value(x) or _gives_value(y)):
                return False
    return True


def _script(character: str) -> str:
    if "\u3040" <= character <= "\u309f":
        return "hiragana"
    return "word" if character.isalnum() else "other"


def _japanese_lists_sorted(text: str) -> str:
    """A Japanese wording with the items of each list (日本語と英語と韓国語) sorted: their order says nothing."""
    runs: list[str] = []
    for character in unicodedata.normalize("NFKC", text):
        if runs and _script(runs[-1][-1]) == _script(character) and runs[-1] not in ("と", "や", "、"):
            runs[-1] += character
        else:
            runs.append(character)
    joined: list[str] = []
    index = 0
    while index < len(runs):
        items = [runs[index]]
        while (_script(runs[index][-1]) == "word" and index + 2 < len(runs) and runs[index + 1] in ("と", "や", "、")
               and _script(runs[index + 2][0]) == "word"):
            index += 2
            items.append(runs[index])
        joined.append("と".join(sorted(items)))
        index += 1
    return "".join(joined)


# Japanese marks who does what with the particle after a word: はるとが (who) そうたに (to whom); は and が both
# mark who, へ and に where to.
_ROLE_PARTICLES = {"が": "が", "は": "が", "を": "を", "に": "に", "へ": "に", "で": "で"}


def _roles_in(text: str) -> dict[str, set[str]]:
    """Every run of two to four characters standing before a role particle, with the roles it has."""
    roles: dict[str, set[str]] = {}
    for index, character in enumerate(text):
        if character not in _ROLE_PARTICLES:
            continue
        for length in range(2, 5):
            word = text[max(0, index - length):index]
            if len(word) == length and word.isalnum():
                roles.setdefault(word, set()).add(_ROLE_PARTICLES[character])
    return roles


def _japanese_roles_swapped(left: str, right: str) -> bool:
    """A word that both wordings mark with a particle, with another role in each (who does what to whom)."""
    first = _roles_in(_japanese_lists_sorted(left))
    second = _roles_in(_japanese_lists_sorted(right))
    return any(word in second and not roles & second[word] for word, roles in first.items())


def roles_swapped(left: str, right: str) -> bool:
    """The same words in other roles ("Mira beat Leon" / "Leon beat Mira", "tea over coffee" / "coffee over
    tea", "はるとがそうたに勝った" / "そうたがはるとに勝った"). A list reordered, one phrase moved ("Every Saturday the
    tournament starts at 19:00" / "The tournament starts at 19:00 every Saturday") or a time put first is not."""
    if _JAPANESE.search(left) or _JAPANESE.search(right):
        return _japanese_roles_swapped(left, right)
    return _latin_roles_swapped(left, right)


def difference(left: Wording, right: Wording) -> str:
    """What makes two wordings two statements whatever their similarity ('' when text alone sees nothing): they
    name different people, one gives a value (or a name) the other does not, or one says "not"."""
    if names_differ(left.text, right.text):
        return "they name different people"
    if left.values != right.values:
        return "they give different values"
    lower_case = lower_case_words(left.text, right.text)
    # A name inside a sentence that the other wording does not mention (one opening a sentence may be any
    # capitalised word).
    left_inside = names_in(left.text, lower_case, inside_only=True)
    right_inside = names_in(right.text, lower_case, inside_only=True)
    if _unmatched(left_inside, latin_words(right.text)) or _unmatched(right_inside, latin_words(left.text)):
        return "one names someone or something the other does not"
    if left.negated != right.negated:
        return "one says it is not so"
    if left.wished != right.wished:
        return "one says someone wants or plans it"
    if same_words(left, right) and roles_swapped(left.text, right.text):
        return "the same words say something else in another order"
    return ""


__all__ = ["Wording", "difference", "fold", "normalised", "roles_swapped", "same_words", "word_overlap", "wording"]



# More than half of what a fact says (its content words, the members' names left out: they say whom it is about,
# not what): a paraphrase in the member's language ("I play the cello" → "Paul plays the cello") rests on what was
# said, a claim the model made up or guessed from one word ("what should I play tonight?") does not. Labelled
# wordings in en, nl, de and ja: tests/memory/text/test_rests_on.py. The local vectors were tried as a second way in
# (for a fact worded in another language than the message) and measured unusable: on 31 labelled pairs a made-up
# claim scored up to 0.85 and a translation as low as 0.76. So the remember tool asks for the member's own language.
RESTS_ON_SHARE = 0.5
# Auxiliaries STOPWORDS keeps (they tell two stored facts apart, not whether a fact was said): "Felix hat am 12 März
# Geburtstag" rests on "mein Geburtstag ist am 12 März".
_AUXILIARIES = frozenset("hat habe haben hast heeft hebben heb wird werden wordt worden".split())


def _inflection_of(word: str, heard: frozenset[str]) -> bool:
    """`matches`, or the same stem with another ending of up to two letters (wohnt / wohne, speelt / spelen)."""
    if matches(word, set(heard)):
        return True
    return any(len(prefix := os.path.commonprefix([word, other])) >= 4 and len(word) - len(prefix) <= 2
               and len(other) - len(prefix) <= 2 for other in heard)


def rests_on(content: str, said: list[str], names: list[str] = ()) -> bool:
    """Whether a fact's wording rests on what members said (their messages): more than RESTS_ON_SHARE of its content
    words, `names` left out, occur there (an inflection counts), and every value it gives (a number, a date, a
    channel) too — a made-up date is the classic slip of a model."""
    fact, heard = wording(content), wording("\n".join(said))
    named = wording(" ".join(names)).words
    words = {word for word in fact.words if word not in _AUXILIARIES and not matches(word, set(named))}
    if not words and not fact.values:
        return False
    if fact.values - heard.values:
        return False
    if not words:
        return True
    found = sum(_inflection_of(word, heard.words) for word in words)
    return found / len(words) > RESTS_ON_SHARE
