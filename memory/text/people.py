"""Who a fact's text names: whether two wordings are about different people ("Mira uses she/her pronouns" /
"Priya uses she/her pronouns", "Fleur" / "Fleur's sister"), in English, Dutch, German and Japanese, without a
list of names. Duplicate detection (at write, in consolidation rounds, in the dry runs) never pairs two such facts.

The rule errs towards "different people": it only keeps two facts apart, so a wrong call costs a row, never a
statement. Measured on bench/dedupe_data.py (bench/dedupe.py prints how often it fires on each kind of pair).

* Latin scripts: a name is a capitalised word that is not a function word, a day or a month, and not written in
  lower case anywhere in either text (so "Weekly" at the head of a sentence, beside "the weekly tournament", is no
  name). German capitalises every noun: a capitalised word after an article ("das Turnier") is a noun. Two texts
  name different people when each names a person the other does not (a substitution; a person is a name where a
  person's name stands, see named_in), or when one speaks of someone's relative or flatmate and the other does not.
* Japanese has no capitals: names are hiragana runs of two to four characters where a name stands (at the start
  before a particle, or after a particle), and two texts name different people when each has such a name that the
  other does not contain.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .dates import date_value

# Words that may open a sentence capitalised without naming anyone (articles, pronouns, quantifiers, common
# sentence openers), in English, Dutch and German; lower case. A word written in lower case in either text is
# no name anyway, so this list only needs the words that open a sentence.
FUNCTION_WORDS = frozenset("""
a an the this that these those there here it its he she they we you i his her their our your my me us them
is are was were be been has have had do does did can could will would should may might must shall
and or but so if when while after before since until because as at in on of for from to by with without
about into over under after every each all any some no not never nobody none nothing everyone everybody
anyone anybody someone somebody members member people everything only also just please heads note ps fyi
what who where why how which whose whoever new old last next first
de het een deze dit die dat daar hier er ik jij je u hij zij ze wij we jullie hun haar zijn mijn ons onze
is zijn was waren heeft hebben had kan kunnen wil willen moet moeten mag mogen zal zullen
en of maar dus als want om op in aan van voor met bij na tot uit over onder elke elk iedere ieder alle geen
niet nooit niemand iedereen wie wat waar waarom hoe welke ook alleen wel nog toch even sinds vanaf reclame
der die das den dem des ein eine einen einem einer eines kein keine keinen jeder jede jedes jeden alle
ich du er sie es wir ihr ihm ihn ihnen uns euch mein meine dein deine sein seine unser unsere
ist sind war waren hat haben hatte kann können will wollen muss müssen darf dürfen soll sollen wird werden
und oder aber also wenn weil als wie wer was wo warum welche auch nur noch schon bitte mal seit ab bei
mit von vom zu zum zur im am an auf aus für über unter nach vor nicht nie niemand jeder wer
""".split())
# A capitalised word after one of these is a noun (German), not a name.
GERMAN_DETERMINERS = frozenset(
    "der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner jeder jede jedes "
    "jeden jedem mein meine dein deine sein seine ihr ihre unser unsere am im zum zur vom beim ins ans".split())
# Someone else than the person named: "Fleur's sister", "Ines's roommate", "あおいのお姉さん".
RELATIVES = frozenset("""
brother brothers sister sisters mother mom mum father dad parent parents son daughter kid kids child children
cousin uncle aunt grandma grandpa grandmother grandfather wife husband partner girlfriend boyfriend fiance
fiancee roommate roommates flatmate housemate friend friends neighbour neighbor colleague coworker twin
broer broertje zus zusje moeder vader ouders zoon dochter neef oom tante opa oma vrouw man vriend vriendin
huisgenoot collega buurman buurvrouw
bruder schwester mutter vater eltern sohn tochter cousine onkel tante opa oma frau mann freund freundin
mitbewohner mitbewohnerin kollege kollegin nachbar nachbarin zwilling
""".split())
JAPANESE_RELATIVES = ("お姉さん", "お兄さん", "お母さん", "お父さん", "姉", "兄", "弟", "妹", "母", "父", "友達", "彼氏",
                      "旦那", "嫁", "息子", "娘", "ルームメイト", "相方", "同居人", "いとこ")
# Particles a Japanese name stands next to: はるとが, ゆいの, けんたとさくら.
JAPANESE_PARTICLES = "がはのとにもやへ"
_HIRAGANA_RUN = re.compile(r"[\u3041-\u309f]+")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_LATIN = "A-Za-z\u00c0-\u024f"
_TOKEN = re.compile(f"[0-9{_LATIN}]+(?:['’][{_LATIN}]+)*|[.!?:;。！？]")
_SENTENCE_END = frozenset(".!?:;。！？")


def fold(word: str) -> str:
    """A name as compared: lower case, a possessive's ending left off ("Aiko's", "Svenjas", "Felix'")."""
    word = unicodedata.normalize("NFKC", word).casefold()
    return re.sub(r"['’]s?$", "", word)


def matches(word: str, others: set[str]) -> bool:
    """The word, or an inflection of it (Saturday / Saturdays, Svenja / Svenjas), is among `others`."""
    return any(word == other or (min(len(word), len(other)) >= 4 and abs(len(word) - len(other)) <= 2
                                 and (word.startswith(other) or other.startswith(word))) for other in others)


# A name right after one of these stands for a person: "hosted by Noor", "with Leon", "voor Lotte", "für Felix".
PERSON_PREPOSITIONS = frozenset("by with for from after door met voor van von mit für durch bei".split())
CONJUNCTIONS = frozenset("and or & en of und oder".split())


@dataclass(frozen=True)
class Named:
    """A capitalised word of a text that is no function word, date, noun after an article or word also written in
    lower case, and whether it stands where a person's name stands."""

    name: str
    person: bool
    opens: bool  # it opens a sentence, where any word is capitalised


def named_in(text: str, lower_case: set[str]) -> list[Named]:
    """The names of a text in a Latin script, in order (`lower_case`: the words either text writes in lower case).
    A name stands for a person when it opens a sentence, follows "by", "with", "for"... (or "and" after a person),
    is someone's ("Aiko's") or comes before a verb ("Priya speaks"): "Mercy" in "Tomasz mains Mercy" is a name, not
    a person, so "Mercy" / "Ana" stays a contradiction instead of two people."""
    tokens = _TOKEN.findall(unicodedata.normalize("NFKC", text))
    found: list[Named] = []
    previous = "."
    for index, token in enumerate(tokens):
        if token in _SENTENCE_END:
            previous = token
            continue
        opens = previous in _SENTENCE_END
        before = previous.casefold()
        previous = token
        folded = fold(token)
        if (not token[:1].isupper() or folded in FUNCTION_WORDS or folded in RELATIVES or date_value(folded)
                or matches(folded, lower_case) or before in GERMAN_DETERMINERS):
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else "."
        person = (opens or before in PERSON_PREPOSITIONS or (before in CONJUNCTIONS and found and found[-1].person)
                  or token.endswith(("'s", "’s", "'", "’"))
                  or (following[:1].islower() and fold(following) not in FUNCTION_WORDS))
        found.append(Named(folded, person, opens))
    return found


def names_in(text: str, lower_case: set[str], *, inside_only: bool = False) -> set[str]:
    """The names of a text (people's and things'), with `inside_only` only those inside a sentence (a word that
    opens one is capitalised whatever it is)."""
    return {named.name for named in named_in(text, lower_case) if not (inside_only and named.opens)}


def latin_words(text: str) -> set[str]:
    """Every word of a text in a Latin script (or the Latin words of a Japanese one), folded as names are."""
    return {fold(token) for token in _TOKEN.findall(unicodedata.normalize("NFKC", text))
            if token not in _SENTENCE_END}


def lower_case_words(*texts: str) -> set[str]:
    return {fold(token) for text in texts for token in _TOKEN.findall(unicodedata.normalize("NFKC", text))
            if token[:1].islower()}


def _relatives(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    found = {fold(word) for word in re.findall(r"[^\W_]+(?:['’][^\W_]+)?", folded)} & RELATIVES
    return found | {word for word in JAPANESE_RELATIVES if word in folded}


def _japanese_people(text: str) -> set[str]:
    """Names in a Japanese text: hiragana runs of two to four characters where a name stands, at the start before a
    particle (ゆいの誕生日), or after a particle that follows a word (大会ははるとが優勝, モデレーターはあおい), a list's
    names split at と (けんたとさくら)."""
    found: set[str] = set()
    text = unicodedata.normalize("NFKC", text)
    for run in _HIRAGANA_RUN.finditer(text):
        body, start, end = run.group(), run.start(), run.end()
        after_particle = start > 0 and text[start - 1] not in "、。!? " and body[0] in JAPANESE_PARTICLES
        if after_particle:
            body = body[1:]
        elif start > 0 and text[start - 1] not in "、。!? ":
            continue  # the ending of a word (してる, から): no name
        before_particle = len(body) > 1 and body[-1] in JAPANESE_PARTICLES
        at_end = end == len(text) or text[end] in "、。!?"
        if before_particle:
            body = body[:-1]
        elif not (after_particle and at_end):
            continue
        found.update(name for name in re.split("[がとにの]", body) if 2 <= len(name) <= 4)
    return found


@dataclass(frozen=True)
class Mentions:
    """Who one text names, computed once per text (a consolidation round compares each fact with several)."""

    text: str
    named: tuple[Named, ...]  # its names, but for words the text itself writes in lower case
    lower_case: frozenset[str]
    relatives: frozenset[str]
    japanese: frozenset[str]


def mentions(text: str) -> Mentions:
    lower_case = frozenset(lower_case_words(text))
    japanese = frozenset(_japanese_people(text)) if _JAPANESE.search(text) else frozenset()
    return Mentions(text=unicodedata.normalize("NFKC", text), named=tuple(named_in(text, set(lower_case))),
                    lower_case=lower_case, relatives=frozenset(_relatives(text)), japanese=japanese)


def people_differ(left: Mentions, right: Mentions) -> bool:
    """Whether two texts are about different people: each names a person the other does not (a substitution: "Mira
    uses she/her" / "Priya uses she/her"), or one speaks of someone's relative or friend and the other does not
    ("Fleur" / "Fleur's sister")."""
    if left.relatives != right.relatives:
        return True
    if {name for name in left.japanese if name not in right.text} and \
            {name for name in right.japanese if name not in left.text}:
        return True
    # A word the other text writes in lower case is no name in either ("Weekly" / "the weekly tournament").
    left_named = [named for named in left.named if not matches(named.name, set(right.lower_case))]
    right_named = [named for named in right.named if not matches(named.name, set(left.lower_case))]
    left_all, right_all = {named.name for named in left_named}, {named.name for named in right_named}
    left_only = {named.name for named in left_named if named.person and not matches(named.name, right_all)}
    right_only = {named.name for named in right_named if named.person and not matches(named.name, left_all)}
    return bool(left_only and right_only)


def _people(mentioned: Mentions, other: Mentions) -> set[str]:
    return {named.name for named in mentioned.named if named.person and not matches(named.name, set(other.lower_case))}


def about_other_people(left: Mentions, right: Mentions) -> bool:
    """people_differ, and no person in common: the people are what the facts are about ("Mira uses she/her" /
    "Priya uses she/her"), not a value of something else that changed ("Alex and Nova are the moderators" / "Alex
    and Sam are the moderators", which contradict each other)."""
    if not people_differ(left, right):
        return False
    if left.relatives != right.relatives:
        return True
    shared = {name for name in _people(left, right) if matches(name, _people(right, left))}
    return not shared and not (left.japanese & right.japanese)


def names_differ(left: str, right: str) -> bool:
    """people_differ of two texts."""
    return people_differ(mentions(left), mentions(right))
