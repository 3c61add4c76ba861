"""The noise of a scenario (scenario_data.NoiseSpec): many facts on other topics, generated, never listed.

Noise facts come from a pool of distinct wordings per language and length band, drawn with repetition: a server
of 5,000 noise facts holds each wording several times. The pool keeps the wordings few enough to embed once with
the built-in local model (Semantic: about a tenth of a second per wording), whatever the number of facts. Every
wording is checked against the scenario: it shares no content word (scenario_data.content_units) with the message
or the needed facts, and a member wording is about a member who is neither the speaker nor mentioned (OTHERS).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .scenario_data import Scenario, content_units

# Members who are only ever noise: never a scenario's speaker or mention (their ids are outside PEOPLE's).
OTHERS = [(f"30000000000000{index:04d}", name) for index, name in enumerate(
    ["Quinn", "Rowan", "Ezra", "Wren", "Talia", "Bodhi", "Milo", "Juno", "Soren", "Nadia", "Idris", "Vera"], 1)]

# (key word, subject); verbs; objects; endings. Topics far from what the scenarios talk about (houseplants,
# bread, bicycles, knitting, birds, tea), and every wording is checked against each scenario anyway.
_VOCABULARY = {
    "en": (
        [("pottery", "The pottery circle"), ("balcony", "A balcony gardener"), ("bakery", "The sourdough crowd"),
         ("knitting", "The knitting circle"), ("birding", "A birdwatcher from the coast"), ("teatime", "The tea nerds"),
         ("bicycle", "A weekend cyclist"), ("jigsaw", "The jigsaw fans"), ("woodwork", "A hobby carpenter"),
         ("aquarium", "The aquarium keepers")],
        ["repotted", "glazed", "sanded", "untangled", "photographed", "labelled", "polished", "varnished",
         "rearranged", "weighed"],
        ["a crooked bookshelf", "seven clay mugs", "an old tandem frame", "a jar of pickled beets",
         "a basket of yarn", "two stubborn fern pots", "a walnut spoon rack", "a leaky greenhouse",
         "a tray of seedlings", "a dusty accordion"],
        ["before the drizzle started.", "on a slow afternoon.", "with a borrowed sander.", "and lost a screw.",
         "while the kettle boiled.", "at the flea stall.", "beside a flickering porch bulb.",
         "and called it a success.", "twice, to be sure.", "with surprising patience."],
    ),
    "nl": (
        [("pottenbakken", "De pottenbakkers"), ("moestuin", "Een volkstuinder"), ("brood", "De zuurdesemclub"),
         ("breien", "De breiclub"), ("vogels", "Een vogelaar"), ("fiets", "Een zondagsfietser")],
        ["verpotte", "schuurde", "ontwarde", "fotografeerde", "lakte", "verplaatste"],
        ["een scheve boekenplank", "drie kleien bekers", "een oud tandemframe", "een pot zuurkool",
         "een mand wol", "twee koppige varens"],
        ["voordat de motregen begon.", "op een rustige middag.", "met een geleende schuurmachine.",
         "terwijl de waterkoker kookte.", "na de boerenmarkt.", "met verrassend veel geduld."],
    ),
    "de": (
        [("toepfern", "Die Töpfergruppe"), ("balkon", "Eine Balkongärtnerin"), ("sauerteig", "Die Sauerteigrunde"),
         ("stricken", "Der Strickkreis"), ("vogel", "Ein Vogelbeobachter"), ("fahrrad", "Ein Sonntagsradler")],
        ["topfte um", "schliff", "entwirrte", "fotografierte", "lackierte", "stellte um"],
        ["ein schiefes Bücherregal", "drei Tonbecher", "einen alten Tandemrahmen", "ein Glas Rote Bete",
         "einen Korb Wolle", "zwei sture Farne"],
        ["bevor der Nieselregen anfing.", "an einem ruhigen Nachmittag.", "mit einer geliehenen Schleifmaschine.",
         "während der Wasserkocher lief.", "nach dem Bauernmarkt.", "mit erstaunlicher Geduld."],
    ),
    "ja": (
        [("陶芸", "陶芸サークルが"), ("家庭菜園", "ベランダ菜園勢が"), ("パン", "パン焼き勢が"),
         ("編み物", "編み物部が"), ("野鳥", "野鳥好きが"), ("自転車", "週末サイクリストが")],
        ["植え替えた", "磨いた", "ほどいた", "撮影した", "塗り直した", "並べ替えた"],
        ["傾いた本棚を", "粘土のマグ三つを", "古いタンデム自転車を", "ぬか漬けの壺を", "毛糸のかごを",
         "しぶといシダの鉢を"],
        ["小雨が降る前に。", "のんびりした午後に。", "借りた工具で。", "お湯が沸くあいだに。", "朝市のあとで。",
         "驚くほど根気よく。"],
    ),
}
POOL_SIZE = {"en": 120, "nl": 40, "de": 40, "ja": 40}
# Long wordings cost the local model about 0.3 s each to embed (short ones 0.02 s): fewer of them.
LONG_POOL_SIZE, LONG = 12, 200


@dataclass(frozen=True)
class Wording:
    key: str
    content: str
    member: tuple[str, str] | None = None  # (id, name) of the OTHERS member it is about


def _sentence(rng: random.Random, language: str, member: tuple[str, str] | None) -> tuple[str, str]:
    subjects, verbs, objects, endings = _VOCABULARY[language]
    tag, subject = rng.choice(subjects)
    verb, thing, ending = rng.choice(verbs), rng.choice(objects), rng.choice(endings)
    if member is not None:
        subject = member[1] + ("が" if language == "ja" else "")
    if language == "ja":
        return tag, f"{subject}{thing}{verb}、{ending}"
    if language == "de" and " " in verb:  # a separable verb: "topfte ... um"
        first, particle = verb.split(" ", 1)
        return tag, f"{subject} {first} {thing} {particle}, {ending}"
    return tag, f"{subject} {verb} {thing} {ending}"


def _wording(rng: random.Random, language: str, length: tuple[int, int], member: tuple[str, str] | None) -> Wording:
    low, high = length
    tag, content = _sentence(rng, language, member)
    while len(content) < low:
        content = f"{content} {_sentence(rng, language, None)[1]}"
    if len(content) > high:
        content = content[:high].rsplit(" ", 1)[0] if " " in content[:high] else content[:high]
    key = f"{tag}_{member[1].lower()}" if member is not None else f"{tag}_note"
    return Wording(key, content, member)


def wording_pool(language: str, length: tuple[int, int], scope: str, seed: int = 20) -> list[Wording]:
    """The distinct wordings noise of this language, length band and scope ("server" | "member") draws from; the
    same for every scenario that asks for them (one seed), so their vectors are computed once."""
    language = language if language in _VOCABULARY else "en"
    rng = random.Random(f"{seed}-{language}-{length}-{scope}")
    size = LONG_POOL_SIZE if length[0] >= LONG else POOL_SIZE[language]
    pool: dict[str, Wording] = {}
    for _ in range(size * 20):
        if len(pool) >= size:
            break
        member = rng.choice(OTHERS) if scope == "member" else None
        wording = _wording(rng, language, length, member)
        pool.setdefault(f"{wording.key}: {wording.content}", wording)
    return list(pool.values())


@dataclass(frozen=True)
class NoiseFact:
    key: str
    content: str
    kind: str
    age_seconds: float
    importance: float | None
    member: tuple[str, str] | None


def noise_facts(scenario: Scenario, count: int | None = None) -> list[NoiseFact]:
    """`count` (default: the scenario's) noise facts for the scenario, the same every time."""
    spec = scenario.noise
    count = spec.count if count is None else count
    avoided = content_units(scenario.message) | set().union(
        *(content_units(fact.content) | content_units(fact.key.replace("_", " "))
          for fact in scenario.facts if fact.key in scenario.needed))
    scopes = {"server": ["server"], "member": ["member"], "mixed": ["server", "member"]}[spec.scope]
    pools = {scope: [wording for wording in wording_pool(scenario.language, spec.length, scope)
                     if not content_units(wording.content) & avoided] for scope in scopes}
    rng = random.Random(scenario.name)
    low, high = spec.age_days
    facts = []
    for _ in range(count):
        wording = rng.choice(pools[rng.choice(scopes)])
        facts.append(NoiseFact(wording.key, wording.content, rng.choice(spec.kinds),
                               rng.uniform(low * 86400, high * 86400),
                               round(rng.uniform(0.1, 0.7), 2) if rng.random() < 0.5 else None, wording.member))
    return facts
