"""Hand-written context scenarios (issue 20): does the memory block handed to the model hold the fact needed?

What it is
----------
Each Scenario is one short moment in a Discord server: a few facts written out by hand (the one or two the
reply needs, and near-miss distractors beside them), a NoiseSpec describing many unrelated facts the
harness generates around them, a speaker, the members mentioned, and the message. The harness stores the
facts (aged by `age_days`), builds the memory block for the message under each of the six memory types with
`max_items` and `max_chars`, and scores the scenario by whether every key in `needed` is in the block.
Keys in `distractors` are listed facts that are close to the answer but not it (other members' birthdays,
the older of two contradicting facts); they may be in the block too, they are named only so a report can
say what crowded the answer out.

Categories (each at least six scenarios):
- `pinned`: a staff-pinned rule must be in the block whatever the noise, some with `max_items=1`, and some
  with a message that does not mention the rule at all;
- `speaker`: a fact about the speaker among many member facts of others ("when is my birthday?");
- `mentioned`: a fact about a member mentioned in the message (the speaker's own similar fact is a
  distractor);
- `newer_wins`: two facts disagree (the raid moved, the server address changed); the newer is needed, the
  older may be there too;
- `kind_decay`: a rule, lore or profile fact a year or more old against recent events (the noise is events);
- `budget`: long facts; the needed one must survive the character budget;
- `relevance`: the message's words point at an old fact among newer ones;
- `language`: Dutch, German and Japanese conversations (other categories have some as well).

Noise facts are described, never listed: the harness generates `count` facts aged within `age_days`, of
the given scope and kinds, `length` characters long, in the scenario's language where it can. They must
be unrelated: never about the speaker or a mentioned member, and sharing no content word with the message
or the needed facts (generate them from a vocabulary of other topics).

How it was built
----------------
Every scenario, fact and message was written by hand, one at a time, in the register of a Discord server
(lowercase chat, the odd typo, emoji), with names from several cultures. `check()` validates each
category's own rules (a pinned scenario's needed facts are pinned, a speaker scenario's are about the
speaker, a newer_wins answer is younger than its distractors, ...) and prints the counts per category and
language. Run `python3 tests/scenarios/scenario_data.py`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple


class SFact(NamedTuple):
    key: str
    content: str
    scope: str = "server"  # "server" | "member"
    member: str | None = None  # the Discord user id the fact is about, for scope "member"
    kind: str = "lore"  # "rule" | "lore" | "profile" | "preference" | "event"
    pinned: bool = False
    age_days: int = 30  # days since the fact last changed
    importance: float | None = None  # 0.0-1.0 as the model rated it; None = unscored
    author: str = "staff"  # "staff" | "bot"


class NoiseSpec(NamedTuple):
    count: int
    age_days: tuple[int, int] = (0, 30)  # every noise fact is this many days old, bounds included
    scope: str = "mixed"  # "server" | "member" (about members other than the speaker and the mentioned) | "mixed"
    kinds: tuple[str, ...] = ("event", "lore", "profile", "preference")
    length: tuple[int, int] = (40, 160)  # content characters


class Scenario(NamedTuple):
    name: str
    facts: list[SFact]
    noise: NoiseSpec
    speaker: tuple[str, str]  # (Discord user id, display name)
    mentions: list[tuple[str, str]]
    message: str
    needed: tuple[str, ...]
    category: str
    max_items: int = 20
    max_chars: int = 6000
    language: str = "en"  # "en" | "nl" | "de" | "ja"
    distractors: tuple[str, ...] = ()


CATEGORIES = ("pinned", "speaker", "mentioned", "newer_wins", "kind_decay", "budget", "relevance", "language")
KINDS = ("rule", "lore", "profile", "preference", "event")
LANGUAGES = ("en", "nl", "de", "ja")

# People: (Discord user id, display name).
PAUL = ("200000000000000201", "Paul")
MIRA = ("200000000000000202", "Mira")
PRIYA = ("200000000000000203", "Priya")
LEON = ("200000000000000204", "Leon")
TOMASZ = ("200000000000000205", "Tomasz")
AIKO = ("200000000000000206", "Aiko")
JONAS = ("200000000000000207", "Jonas")
SAM = ("200000000000000208", "Sam")
DANI = ("200000000000000209", "Dani")
KOFI = ("200000000000000210", "Kofi")
INES = ("200000000000000211", "Ines")
RAVI = ("200000000000000212", "Ravi")
NOOR = ("200000000000000213", "Noor")
OSKAR = ("200000000000000214", "Oskar")
HANA = ("200000000000000215", "Hana")
MATEO = ("200000000000000216", "Mateo")
FREYA = ("200000000000000217", "Freya")
YUSUF = ("200000000000000218", "Yusuf")
ELIF = ("200000000000000219", "Elif")
GRETA = ("200000000000000220", "Greta")
CHIDI = ("200000000000000221", "Chidi")
LUCIA = ("200000000000000222", "Lucía")
SANNE = ("200000000000000301", "Sanne")
DAAN = ("200000000000000302", "Daan")
FLEUR = ("200000000000000303", "Fleur")
BRAM = ("200000000000000304", "Bram")
LOTTE = ("200000000000000305", "Lotte")
JOOST = ("200000000000000306", "Joost")
NOA = ("200000000000000307", "Noa")
LUKAS = ("200000000000000401", "Lukas")
LENA = ("200000000000000402", "Lena")
JANNIK = ("200000000000000403", "Jannik")
MARIE = ("200000000000000404", "Marie")
FELIX = ("200000000000000405", "Felix")
HANNAH = ("200000000000000406", "Hannah")
EMRE = ("200000000000000407", "Emre")
HARUTO = ("200000000000000501", "はると")
YUI = ("200000000000000502", "ゆい")
SOTA = ("200000000000000503", "そうた")
MEI = ("200000000000000504", "めい")
REN = ("200000000000000505", "れん")
AOI = ("200000000000000506", "あおい")
KENTA = ("200000000000000507", "けんた")

PEOPLE = {person[0]: person[1] for person in (
    PAUL, MIRA, PRIYA, LEON, TOMASZ, AIKO, JONAS, SAM, DANI, KOFI, INES, RAVI, NOOR, OSKAR, HANA, MATEO, FREYA,
    YUSUF, ELIF, GRETA, CHIDI, LUCIA, SANNE, DAAN, FLEUR, BRAM, LOTTE, JOOST, NOA, LUKAS, LENA, JANNIK, MARIE,
    FELIX, HANNAH, EMRE, HARUTO, YUI, SOTA, MEI, REN, AOI, KENTA,
)}


def about(person: tuple[str, str], key: str, content: str, **fields) -> SFact:
    """A member fact about `person`."""
    return SFact(key, content, scope="member", member=person[0], **fields)


SCENARIOS: list[Scenario] = [
    # ====================================================================================================
    # pinned
    # ====================================================================================================
    Scenario(
        name="pinned_rule_survives_noise",
        facts=[
            SFact("rule_no_support_public", "Questions about orders, refunds or payments go to a ticket in "
                  "#support-desk, never to public channels.", kind="rule", pinned=True, age_days=400, importance=0.7),
            SFact("channel_support_desk", "#support-desk has a button that opens a private ticket with the shop team.",
                  kind="lore", age_days=380),
            SFact("shop_restock", "The merch shop restocked the lantern hoodies last week.", kind="event",
                  age_days=6, author="bot", importance=0.4),
            SFact("shop_discount", "Members with the Firefly role get 10% off in the merch shop.", kind="rule",
                  age_days=45),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=PAUL, mentions=[],
        message="can someone help me with my order here? it never arrived",
        needed=("rule_no_support_public",), category="pinned", max_items=20,
    ),
    Scenario(
        name="pinned_rule_with_one_slot",
        facts=[
            SFact("rule_nsfw", "No NSFW anywhere on the server, and that includes avatars, banners and status text.",
                  kind="rule", pinned=True, age_days=520),
            SFact("avatar_contest_result", "The spooky avatar contest ran from 20 to 31 October; Dani won with a "
                  "skeleton cat.", kind="event", age_days=25, author="bot", importance=0.6),
            SFact("pfp_of_the_week", "#pfp-of-the-week features one member's profile picture every Monday.",
                  kind="lore", age_days=90),
        ],
        noise=NoiseSpec(count=2000, age_days=(0, 14)),
        speaker=JONAS, mentions=[],
        message="lol should i make this my pfp 😂",
        needed=("rule_nsfw",), category="pinned", max_items=1,
        distractors=("avatar_contest_result", "pfp_of_the_week"),
    ),
    Scenario(
        name="pinned_two_rules_both_kept",
        facts=[
            SFact("rule_spoilers", "Spoilers for anything released in the last 30 days must go inside spoiler tags.",
                  kind="rule", pinned=True, age_days=610),
            SFact("rule_english_general", "#general is English only; other languages have their own channels.",
                  kind="rule", pinned=True, age_days=590),
            SFact("zelda_stream", "Sam streamed the new Zelda for six hours on Saturday.", kind="event", age_days=3,
                  author="bot", importance=0.5),
            about(SAM, "spoilers_voice", "Sam asks people not to spoil story games in voice chat either.",
                  kind="preference", age_days=40, author="bot"),
        ],
        noise=NoiseSpec(count=500, age_days=(0, 30)),
        speaker=KOFI, mentions=[],
        message="did anyone finish the new zelda?? the ending omg",
        needed=("rule_spoilers", "rule_english_general"), category="pinned", max_items=3,
    ),
    Scenario(
        name="pinned_rule_rated_unimportant",
        facts=[
            SFact("rule_rmt", "Buying or selling accounts, gold or items for real money gets you banned permanently.",
                  kind="rule", pinned=True, age_days=450, importance=0.2),
            SFact("market_day", "The in-game market day on Sunday had 40 traders and a record number of trades.",
                  kind="event", age_days=4, importance=0.9, author="bot"),
            SFact("charity_auction", "Freya's charity auction of her knitted plushies raised €300 last weekend.",
                  kind="event", age_days=8, importance=0.9, author="bot"),
            SFact("channel_trading", "#trading is for swapping in-game items with other members, one post a day.",
                  kind="rule", age_days=200, importance=0.8),
        ],
        noise=NoiseSpec(count=1500, age_days=(0, 20)),
        speaker=RAVI, mentions=[],
        message="anyone wanna buy my old account? lvl 80 mage, paypal ok",
        needed=("rule_rmt",), category="pinned", max_items=2,
        distractors=("channel_trading", "market_day"),
    ),
    Scenario(
        name="pinned_intro_rule_for_newcomer",
        facts=[
            SFact("rule_introductions", "New members post a short intro in #introductions before chatting anywhere "
                  "else.", kind="rule", pinned=True, age_days=700),
            SFact("youtube_feature", "Forty people joined on Tuesday after the server was featured in a YouTube "
                  "video.", kind="event", age_days=2, author="bot", importance=0.7),
            SFact("lantern_greeting", "Regulars greet newcomers with the lantern emoji.", kind="lore", age_days=150),
        ],
        noise=NoiseSpec(count=5000, age_days=(0, 7)),
        speaker=GRETA, mentions=[],
        message="hi everyone!! just found this place 👋",
        needed=("rule_introductions",), category="pinned", max_items=1,
    ),
    Scenario(
        name="pinned_rule_message_about_something_else",
        facts=[
            SFact("rule_mods_never_ask_passwords", "Moderators will never ask for your password or a login code; "
                  "report anyone who does.", kind="rule", pinned=True, age_days=380, importance=0.5),
            SFact("ramen_recipe", "Mateo posted his ramen recipe in #kitchen on Monday.", kind="event", age_days=5,
                  author="bot"),
            SFact("pizza_poll", "The #kitchen pizza poll ended and margherita won.", kind="event", age_days=12,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=CHIDI, mentions=[],
        message="what's everyone having for dinner tonight",
        needed=("rule_mods_never_ask_passwords",), category="pinned", max_items=3,
    ),
    Scenario(
        name="pinned_rule_nl_dm_reclame",
        facts=[
            SFact("regel_geen_dm_reclame", "Ongevraagd DM'en met reclame of invites voor andere servers betekent een "
                  "directe ban.", kind="rule", pinned=True, age_days=430),
            SFact("pubquiz_winnaar", "De pubquiz van donderdag is gewonnen door team Bitterballen.", kind="event",
                  age_days=3, author="bot"),
            SFact("kanaal_kroeg", "#kroeg is het kanaal voor geklets over alles en niks.", kind="lore",
                  age_days=200),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 21)),
        speaker=DAAN, mentions=[],
        message="iemand stuurde me net een dm met een invite naar z'n server, mag dat eigenlijk?",
        needed=("regel_geen_dm_reclame",), category="pinned", max_items=1, language="nl",
    ),
    Scenario(
        name="pinned_rule_ja_personal_info",
        facts=[
            SFact("ルール_個人情報", "本名・住所・学校名などの個人情報は、自分のものでも書き込まないこと。", kind="rule",
                  pinned=True, age_days=500),
            SFact("オフ会レポ", "先週の土曜に大阪でオフ会があって12人参加した。", kind="event", age_days=5,
                  author="bot", importance=0.6),
            SFact("自己紹介の書き方", "#自己紹介 にはニックネームと好きなゲームを書く流れになってる。", kind="lore",
                  age_days=300),
        ],
        noise=NoiseSpec(count=1200, age_days=(0, 30)),
        speaker=SOTA, mentions=[],
        message="オフ会の写真あげたいんだけど、みんなの顔とか名札写ってても大丈夫？",
        needed=("ルール_個人情報",), category="pinned", max_items=2, language="ja",
        distractors=("オフ会レポ",),
    ),

    # ====================================================================================================
    # speaker
    # ====================================================================================================
    Scenario(
        name="speaker_own_birthday",
        facts=[
            about(PAUL, "birthday_paul", "Paul's birthday is 2 August.", kind="profile", age_days=200, author="bot"),
            about(MIRA, "birthday_mira", "Mira's birthday is 19 February.", kind="profile", age_days=150, author="bot"),
            about(PRIYA, "birthday_priya", "Priya's birthday is 2 April.", kind="profile", age_days=60, author="bot"),
            about(LEON, "birthday_leon", "Leon's birthday is 8 August.", kind="profile", age_days=30, author="bot"),
            about(JONAS, "bday_jonas", "Jonas celebrates his birthday on 30 November.", kind="profile", age_days=10,
                  author="bot"),
            SFact("birthday_announcements", "Birthdays are announced in #party-hats at 09:00 UTC on the day.",
                  kind="lore", age_days=300),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=PAUL, mentions=[],
        message="when is my birthday again? i forgot what i told the bot lol",
        needed=("birthday_paul",), category="speaker", max_items=10,
        distractors=("birthday_mira", "birthday_priya", "birthday_leon", "bday_jonas"),
    ),
    Scenario(
        name="speaker_own_timezone",
        facts=[
            about(MIRA, "tz_mira", "Mira is on Lisbon time (UTC+0, UTC+1 in summer).", kind="profile",
                  age_days=240, author="bot"),
            about(LEON, "tz_leon", "Leon is in Berlin, CET.", kind="profile", age_days=100, author="bot"),
            about(DANI, "tz_dani", "Dani lives in Mexico City, UTC-6.", kind="profile", age_days=50, author="bot"),
            about(NOOR, "tz_noor", "Noor is in Dubai, UTC+4.", kind="profile", age_days=20, author="bot"),
            about(KOFI, "tz_kofi", "Kofi is in Accra, so UTC all year round.", kind="profile", age_days=5,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1500, age_days=(0, 60), scope="member"),
        speaker=MIRA, mentions=[],
        message="what timezone did i tell you i'm in? setting up the event reminders",
        needed=("tz_mira",), category="speaker", max_items=8,
        distractors=("tz_leon", "tz_dani", "tz_noor", "tz_kofi"),
    ),
    Scenario(
        name="speaker_own_cat_among_cat_owners",
        facts=[
            about(AIKO, "pet_aiko", "Aiko has a grey cat called Mochi who hates the vacuum cleaner.", kind="profile",
                  age_days=330, author="bot"),
            about(MIRA, "pet_mira", "Mira has two cats, Pixel and Byte.", kind="profile", age_days=120,
                  author="bot"),
            about(PRIYA, "pet_priya", "Priya's cat Nugget is twelve years old.", kind="profile", age_days=40,
                  author="bot"),
            about(OSKAR, "pet_oskar", "Oskar adopted a black cat named Salmiakki in the spring.", kind="profile",
                  age_days=15, author="bot"),
            SFact("caturday", "#pet-pics had a Caturday theme last weekend.", kind="event", age_days=4,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 90), scope="member"),
        speaker=AIKO, mentions=[],
        message="what's my cat called again? testing if you remember 😼",
        needed=("pet_aiko",), category="speaker", max_items=5,
        distractors=("pet_mira", "pet_priya", "pet_oskar"),
    ),
    Scenario(
        name="speaker_own_pronouns",
        facts=[
            about(SAM, "pronouns_sam", "Sam uses they/them pronouns.", kind="profile", age_days=410,
                  importance=0.8),
            about(MIRA, "pronouns_mira", "Mira uses she/her.", kind="profile", age_days=200),
            about(LEON, "pronouns_leon", "Leon uses he/him.", kind="profile", age_days=90, author="bot"),
            about(NOOR, "pronouns_noor", "Noor uses she/they.", kind="profile", age_days=30, author="bot"),
            about(KOFI, "pronouns_kofi", "Kofi uses he/they.", kind="profile", age_days=7, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=SAM, mentions=[],
        message="do you remember which pronouns i use? new people keep asking",
        needed=("pronouns_sam",), category="speaker", max_items=6,
        distractors=("pronouns_mira", "pronouns_leon", "pronouns_noor", "pronouns_kofi"),
    ),
    Scenario(
        name="speaker_own_main",
        facts=[
            about(TOMASZ, "main_tomasz", "Tomasz mains Mercy in Overwatch and refuses to play tank.", kind="profile",
                  age_days=260, author="bot"),
            about(INES, "main_ines", "Ines mains Tracer.", kind="profile", age_days=80, author="bot"),
            about(JONAS, "main_jonas", "Jonas plays Lúcio or Kiriko, always support.", kind="profile", age_days=45,
                  author="bot"),
            about(YUSUF, "main_yusuf", "Yusuf's Street Fighter 6 main is Juri.", kind="profile", age_days=12,
                  author="bot"),
            SFact("ow_night", "Overwatch night on Thursday had two full teams of five.", kind="event", age_days=2,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 45), scope="member"),
        speaker=TOMASZ, mentions=[],
        message="what hero do i main again, filling in the team sheet",
        needed=("main_tomasz",), category="speaker", max_items=5,
        distractors=("main_ines", "main_jonas", "main_yusuf"),
    ),
    Scenario(
        name="speaker_own_allergy_paraphrased",
        facts=[
            about(KOFI, "allergy_kofi", "Kofi has a severe peanut allergy and carries an EpiPen.", kind="profile",
                  age_days=300, author="bot", importance=0.9),
            about(NOOR, "diet_noor", "Noor is vegetarian.", kind="profile", age_days=100, author="bot"),
            about(OSKAR, "diet_oskar", "Oskar is vegan.", kind="profile", age_days=60, author="bot"),
            about(MATEO, "allergy_mateo", "Mateo is allergic to shellfish.", kind="profile", age_days=20,
                  author="bot"),
            SFact("meetup_snacks", "The summer meetup will have a shared snack table; bring something homemade.",
                  kind="event", age_days=6),
        ],
        noise=NoiseSpec(count=1200, age_days=(0, 60), scope="member"),
        speaker=KOFI, mentions=[],
        message="the meetup ppl are asking everyone what food to avoid, what should i tell them for me?",
        needed=("allergy_kofi",), category="speaker", max_items=5,
        distractors=("diet_noor", "diet_oskar", "allergy_mateo"),
    ),
    Scenario(
        name="speaker_own_job_de",
        facts=[
            about(FELIX, "beruf_felix", "Felix arbeitet als Pfleger auf der Intensivstation, meistens im Nachtdienst.",
                  kind="profile", age_days=280, author="bot"),
            about(LENA, "beruf_lena", "Lena ist Grundschullehrerin in Leipzig.", kind="profile", age_days=100,
                  author="bot"),
            about(HANNAH, "beruf_hannah", "Hannah macht gerade eine Ausbildung zur Pflegefachfrau.", kind="profile",
                  age_days=40, author="bot"),
            about(EMRE, "beruf_emre", "Emre arbeitet als Fachinformatiker bei einem Energieversorger.",
                  kind="profile", age_days=10, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=FELIX, mentions=[],
        message="sag mal, was hab ich dir eigentlich über meinen job erzählt?",
        needed=("beruf_felix",), category="speaker", max_items=5, language="de",
        distractors=("beruf_lena", "beruf_hannah", "beruf_emre"),
    ),
    Scenario(
        name="speaker_own_ping_preference",
        facts=[
            about(ELIF, "pings_elif", "Elif doesn't want raid pings; she checks the calendar herself.",
                  kind="preference", age_days=220, author="bot"),
            about(PRIYA, "pings_priya", "Priya wants to be pinged for every raid signup.", kind="preference",
                  age_days=90, author="bot"),
            about(SAM, "pings_sam", "Sam only wants pings for emergencies.", kind="preference", age_days=30,
                  author="bot"),
            SFact("raid_signups_open", "Signups for Saturday's raid opened in #raid-board on Wednesday.",
                  kind="event", age_days=3, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=ELIF, mentions=[],
        message="are you going to ping me when the next raid signups open?",
        needed=("pings_elif",), category="speaker", max_items=4,
        distractors=("pings_priya", "pings_sam"),
    ),

    # ====================================================================================================
    # mentioned
    # ====================================================================================================
    Scenario(
        name="mentioned_member_timezone",
        facts=[
            about(MIRA, "tz_mira", "Mira lives in Lisbon, UTC+0 (UTC+1 in summer).", kind="profile", age_days=240,
                  author="bot"),
            about(PAUL, "tz_paul", "Paul is in Toronto, UTC-5.", kind="profile", age_days=100, author="bot"),
            about(LEON, "tz_leon", "Leon is on CET.", kind="profile", age_days=50, author="bot"),
            about(NOOR, "tz_noor", "Noor is in Dubai, UTC+4.", kind="profile", age_days=20, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=PAUL, mentions=[MIRA],
        message="hey @Mira are you still up? what time is it over there",
        needed=("tz_mira",), category="mentioned", max_items=5,
        distractors=("tz_paul", "tz_leon", "tz_noor"),
    ),
    Scenario(
        name="mentioned_member_birthday",
        facts=[
            about(PRIYA, "birthday_priya", "Priya's birthday is 2 April.", kind="profile", age_days=200,
                  author="bot"),
            about(JONAS, "birthday_jonas", "Jonas's birthday is 30 November.", kind="profile", age_days=120,
                  author="bot"),
            about(MIRA, "birthday_mira", "Mira's birthday is 19 February.", kind="profile", age_days=60,
                  author="bot"),
            about(DANI, "birthday_dani", "Dani's birthday is on 3 May.", kind="profile", age_days=20, author="bot"),
            SFact("birthday_cards", "For birthdays, Freya collects signatures for a digital card in #party-hats.",
                  kind="lore", age_days=180),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=JONAS, mentions=[PRIYA],
        message="isn't @Priya's bday coming up? when exactly, wanna send her something",
        needed=("birthday_priya",), category="mentioned", max_items=5,
        distractors=("birthday_jonas", "birthday_mira", "birthday_dani"),
    ),
    Scenario(
        name="mentioned_two_members_roles",
        facts=[
            about(LEON, "role_leon", "Leon only plays tanks, usually Reinhardt.", kind="profile", age_days=300,
                  author="bot"),
            about(HANA, "role_hana", "Hana mains support and is the raid's main healer.", kind="profile",
                  age_days=250, author="bot"),
            about(DANI, "role_dani", "Dani plays DPS and has one-tricked Genji since 2022.", kind="profile",
                  age_days=80, author="bot"),
            about(INES, "role_ines", "Ines heals too, but only on weekends.", kind="profile", age_days=15,
                  author="bot"),
            SFact("raid_tonight", "Tonight's raid starts at 21:00 CET.", kind="event", age_days=0, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=DANI, mentions=[LEON, HANA],
        message="@Leon @Hana which one of you is the healer? we need one for tonight",
        needed=("role_leon", "role_hana"), category="mentioned", max_items=6,
        distractors=("role_dani", "role_ines"),
    ),
    Scenario(
        name="mentioned_member_languages",
        facts=[
            about(NOOR, "langs_noor", "Noor speaks Arabic, English and some French.", kind="profile", age_days=350,
                  author="bot"),
            about(RAVI, "langs_ravi", "Ravi speaks Hindi, Tamil and English.", kind="profile", age_days=100,
                  author="bot"),
            about(ELIF, "langs_elif", "Elif is learning Arabic on Duolingo.", kind="profile", age_days=30,
                  author="bot"),
            about(YUSUF, "langs_yusuf", "Yusuf speaks Turkish and German.", kind="profile", age_days=10,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=RAVI, mentions=[NOOR],
        message="can @Noor help me translate this meme? pretty sure it's arabic",
        needed=("langs_noor",), category="mentioned", max_items=4,
        distractors=("langs_ravi", "langs_elif", "langs_yusuf"),
    ),
    Scenario(
        name="mentioned_member_dog_and_vet",
        facts=[
            about(OSKAR, "pet_oskar", "Oskar has an old husky called Fjord.", kind="profile", age_days=280,
                  author="bot"),
            about(OSKAR, "vet_visit_oskar", "Oskar took Fjord to the vet on Monday because of a limp.",
                  kind="event", age_days=3, author="bot"),
            about(RAVI, "pet_ravi", "Ravi's golden retriever Biscuit is three.", kind="profile", age_days=70,
                  author="bot"),
            about(FREYA, "pet_freya", "Freya has two guinea pigs.", kind="profile", age_days=40, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=FREYA, mentions=[OSKAR],
        message="how's @Oskar's doggo doing after the vet?",
        needed=("pet_oskar", "vet_visit_oskar"), category="mentioned", max_items=5,
        distractors=("pet_ravi", "pet_freya"),
    ),
    Scenario(
        name="mentioned_member_not_the_speaker_nurse",
        facts=[
            about(KOFI, "job_kofi", "Kofi is a nurse and works night shifts most weeks.", kind="profile",
                  age_days=260, author="bot"),
            about(MIRA, "job_mira", "Mira is a nurse on day shifts at a small clinic.", kind="profile",
                  age_days=90, author="bot"),
            about(PRIYA, "job_priya", "Priya works night shifts in the ICU.", kind="profile", age_days=20,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=MIRA, mentions=[KOFI],
        message="@Kofi are you on nights again this week? wanna do a late movie",
        needed=("job_kofi",), category="mentioned", max_items=3,
        distractors=("job_mira", "job_priya"),
    ),
    Scenario(
        name="mentioned_member_ja_night_shift",
        facts=[
            about(AOI, "仕事_あおい", "あおいは看護師で夜勤が多いから、平日の夜はだいたいオフライン。", kind="profile",
                  age_days=250, author="bot"),
            about(REN, "仕事_れん", "れんも看護師だけど日勤だけ。", kind="profile", age_days=60, author="bot"),
            SFact("今夜のレイド", "今夜のレイドは21時から。", kind="event", age_days=0, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=SOTA, mentions=[AOI],
        message="@あおい 今夜のレイド来れそう？",
        needed=("仕事_あおい",), category="mentioned", max_items=4, language="ja",
        distractors=("仕事_れん",),
    ),
    Scenario(
        name="mentioned_member_meme_tag_preference",
        facts=[
            about(MIRA, "meme_tags_mira", "Mira doesn't like being tagged in memes; post them without the ping.",
                  kind="preference", age_days=300, author="bot"),
            about(SAM, "meme_tags_sam", "Sam loves being tagged in cat memes.", kind="preference", age_days=50,
                  author="bot"),
            about(PAUL, "memes_paul", "Paul posts memes in #shitposting almost every day.", kind="profile",
                  age_days=10, author="bot"),
        ],
        noise=NoiseSpec(count=1500, age_days=(0, 30)),
        speaker=PAUL, mentions=[MIRA],
        message="@Mira LMAO this is literally you 💀",
        needed=("meme_tags_mira",), category="mentioned", max_items=3,
        distractors=("meme_tags_sam", "memes_paul"),
    ),

    # ====================================================================================================
    # newer_wins
    # ====================================================================================================
    Scenario(
        name="newer_wins_raid_moved_to_saturday",
        facts=[
            SFact("raid_night", "Raid night is every Friday at 21:00 CET.", kind="event", age_days=430),
            SFact("raid_night_saturday", "Since September, raid night is on Saturday at 21:00 CET instead of Friday.",
                  kind="event", age_days=95),
            SFact("raid_board", "Raid signups are in #raid-board.", kind="lore", age_days=300),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=PRIYA, mentions=[],
        message="what day is raid night again?",
        needed=("raid_night_saturday",), category="newer_wins", max_items=5,
        distractors=("raid_night",),
    ),
    Scenario(
        name="newer_wins_minecraft_address_changed",
        facts=[
            SFact("mc_address", "The Minecraft server address is play.hollowcraft.net.", kind="lore", age_days=320),
            SFact("mc_address_new_host", "After the host change the Minecraft server is at mc.lanternhollow.net.",
                  kind="lore", age_days=18),
            SFact("mc_version", "The Minecraft server runs 1.21.4 with Fabric.", kind="lore", age_days=60),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=GRETA, mentions=[],
        message="whats the minecraft server ip? cant connect",
        needed=("mc_address_new_host",), category="newer_wins", max_items=5,
        distractors=("mc_address",),
    ),
    Scenario(
        name="newer_wins_moderator_stepped_down",
        facts=[
            about(LEON, "role_leon", "Leon is a moderator.", kind="profile", age_days=500),
            about(LEON, "role_leon_stepped_down", "Leon stepped down as a moderator in March to focus on his thesis.",
                  kind="profile", age_days=120, author="bot"),
            SFact("current_mods", "The moderators are Hana, Sam and Yusuf.", kind="lore", age_days=110),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=CHIDI, mentions=[LEON],
        message="is @Leon still a mod? need someone to look at a report",
        needed=("role_leon_stepped_down",), category="newer_wins", max_items=5,
        distractors=("role_leon",),
    ),
    Scenario(
        name="newer_wins_speaker_moved_city",
        facts=[
            about(MIRA, "home_mira", "Mira lives in Lisbon.", kind="profile", age_days=600, author="bot"),
            about(MIRA, "home_mira_porto", "Mira moved from Lisbon to Porto in October.", kind="profile",
                  age_days=45, author="bot"),
            about(INES, "home_ines", "Ines lives in Porto too.", kind="profile", age_days=200, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60), scope="member"),
        speaker=MIRA, mentions=[],
        message="which city do you have me down for? doing the meetup map",
        needed=("home_mira_porto",), category="newer_wins", max_items=5,
        distractors=("home_mira",),
    ),
    Scenario(
        name="newer_wins_tournament_winter_time",
        facts=[
            SFact("tourney_time", "The weekly tournament starts at 19:00 UTC on Saturdays.", kind="event",
                  age_days=250),
            SFact("tourney_time_winter", "For the winter months the Saturday tournament starts at 20:00 UTC.",
                  kind="event", age_days=10),
            SFact("tourney_prize", "Tournament winners get the Champion role for a week.", kind="rule",
                  age_days=150),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=TOMASZ, mentions=[],
        message="what time does the tourney start tonight",
        needed=("tourney_time_winter",), category="newer_wins", max_items=4,
        distractors=("tourney_time",),
    ),
    Scenario(
        name="newer_wins_pronouns_updated",
        facts=[
            about(SAM, "pronouns_sam", "Sam uses he/him pronouns.", kind="profile", age_days=700),
            about(SAM, "pronouns_sam_now", "Sam now uses they/them pronouns.", kind="profile", age_days=200),
            SFact("newsletter", "The monthly newsletter is written by Paul and posted on the 1st.", kind="lore",
                  age_days=100),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=PAUL, mentions=[SAM],
        message="what pronouns does @Sam use these days? want to get it right in the newsletter",
        needed=("pronouns_sam_now",), category="newer_wins", max_items=4,
        distractors=("pronouns_sam",),
    ),
    Scenario(
        name="newer_wins_book_club_current_read",
        facts=[
            SFact("book_club_read", "The book club's current read is The Left Hand of Darkness.", kind="event",
                  age_days=38),
            SFact("book_club_read_piranesi", "The book club finished The Left Hand of Darkness and is now reading "
                  "Piranesi.", kind="event", age_days=4, author="bot"),
            SFact("book_club_meetings", "Book club meets on the last Thursday of the month in the Library voice "
                  "channel.", kind="lore", age_days=300),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=INES, mentions=[],
        message="which book are we on for book club rn?",
        needed=("book_club_read_piranesi",), category="newer_wins", max_items=4,
        distractors=("book_club_read",),
    ),
    Scenario(
        name="newer_wins_nl_pubquiz_day",
        facts=[
            SFact("pubquiz_dag", "De pubquiz is elke donderdag om 20:30 in #kroeg.", kind="event", age_days=300),
            SFact("pubquiz_woensdag", "Vanaf deze maand is de pubquiz op woensdag, zelfde tijd.", kind="event",
                  age_days=12),
            SFact("pubquiz_winnaar", "Team Bitterballen heeft de laatste pubquiz gewonnen.", kind="event",
                  age_days=5, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 30)),
        speaker=LOTTE, mentions=[],
        message="is de pubquiz nou op donderdag of op woensdag?",
        needed=("pubquiz_woensdag",), category="newer_wins", max_items=4, language="nl",
        distractors=("pubquiz_dag",),
    ),

    # ====================================================================================================
    # kind_decay
    # ====================================================================================================
    Scenario(
        name="kind_decay_server_origin_lore",
        facts=[
            SFact("lore_origin", "Lantern Hollow started in October 2020 as a group chat for one Stardew Valley "
                  "co-op farm.", kind="lore", age_days=420, importance=0.6),
            SFact("stardew_night", "Stardew co-op night last Sunday finished the community center.", kind="event",
                  age_days=5, author="bot"),
            SFact("birthday_stream_plan", "The server's birthday stream is planned for 14 October.", kind="event",
                  age_days=12),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=GRETA, mentions=[],
        message="how did this server even start? been here a month and never asked",
        needed=("lore_origin",), category="kind_decay", max_items=5,
        distractors=("stardew_night", "birthday_stream_plan"),
    ),
    Scenario(
        name="kind_decay_minimum_age_rule",
        facts=[
            SFact("rule_min_age", "Everyone here must be at least 16 years old.", kind="rule", age_days=500),
            SFact("family_game_night", "Family game night on Friday: members brought partners and kids for Jackbox.",
                  kind="event", age_days=6, author="bot"),
            SFact("holiday_joins", "Lots of new members joined during the school holidays.", kind="event",
                  age_days=20, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=RAVI, mentions=[],
        message="my little brother is 13, can he join too?",
        needed=("rule_min_age",), category="kind_decay", max_items=3,
        distractors=("family_game_night", "holiday_joins"),
    ),
    Scenario(
        name="kind_decay_profile_languages_vs_recent_events",
        facts=[
            about(HANA, "langs_hana", "Hana speaks Japanese and Korean fluently.", kind="profile", age_days=380,
                  author="bot"),
            about(HANA, "stream_hana", "Hana streamed Valorant ranked for five hours yesterday.", kind="event",
                  age_days=1, author="bot"),
            about(HANA, "contest_hana", "Hana won the October drawing contest with a deep-sea piece.", kind="event",
                  age_days=20, author="bot"),
            SFact("kpop_karaoke", "K-pop karaoke night was on Saturday in the Stage channel.", kind="event",
                  age_days=3, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=LUCIA, mentions=[HANA],
        message="@Hana do you speak korean? need help with one lyric",
        needed=("langs_hana",), category="kind_decay", max_items=3,
        distractors=("stream_hana", "contest_hana", "kpop_karaoke"),
    ),
    Scenario(
        name="kind_decay_running_joke_lore",
        facts=[
            SFact("lore_cursed_toaster", "The cursed toaster has been a running joke since Leon's kitchen fire "
                  "stream in 2023.", kind="lore", age_days=600),
            SFact("toaster_meme", "Paul posted a toaster meme in #shitposting on Tuesday.", kind="event",
                  age_days=2, author="bot"),
            SFact("bake_off", "The #kitchen bake-off had eleven entries this week.", kind="event", age_days=4,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 21), kinds=("event",)),
        speaker=CHIDI, mentions=[],
        message="ok why does everyone keep posting toasters in here",
        needed=("lore_cursed_toaster",), category="kind_decay", max_items=3,
        distractors=("toaster_meme",),
    ),
    Scenario(
        name="kind_decay_real_money_trade_rule",
        facts=[
            SFact("rule_rmt", "Selling in-game gold or items for real money gets you banned permanently.",
                  kind="rule", age_days=450),
            SFact("market_event", "The community market event on Sunday had 40 traders.", kind="event", age_days=4,
                  author="bot"),
            SFact("steam_keys", "Freya gave away three Steam keys on Friday.", kind="event", age_days=2,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=YUSUF, mentions=[],
        message="anyone want 50k gold for paypal? going cheap",
        needed=("rule_rmt",), category="kind_decay", max_items=3,
        distractors=("market_event",),
    ),
    Scenario(
        name="kind_decay_profile_pronouns_vs_events",
        facts=[
            about(NOOR, "pronouns_noor", "Noor uses she/they pronouns.", kind="profile", age_days=410),
            about(NOOR, "trivia_noor", "Noor hosted trivia night on Wednesday.", kind="event", age_days=3,
                  author="bot"),
            about(NOOR, "chess_noor", "Noor won the blitz chess tournament last week.", kind="event", age_days=9,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=PAUL, mentions=[NOOR],
        message="what pronouns does @Noor use? writing up the trivia recap",
        needed=("pronouns_noor",), category="kind_decay", max_items=3,
        distractors=("trivia_noor", "chess_noor"),
    ),
    Scenario(
        name="kind_decay_profile_birthday_vs_events",
        facts=[
            about(OSKAR, "birthday_oskar", "Oskar's birthday is 12 March.", kind="profile", age_days=400,
                  author="bot"),
            about(OSKAR, "tetris_oskar", "Oskar streamed his Tetris record attempt on Friday.", kind="event",
                  age_days=3, author="bot"),
            about(OSKAR, "duo_quiz_oskar", "Oskar and Freya won the duo quiz last week.", kind="event", age_days=8,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=FREYA, mentions=[OSKAR],
        message="@Oskar when's your birthday? planning ahead for once",
        needed=("birthday_oskar",), category="kind_decay", max_items=3,
        distractors=("tetris_oskar", "duo_quiz_oskar"),
    ),
    Scenario(
        name="kind_decay_de_recording_rule",
        facts=[
            SFact("regel_aufnahmen", "Sprachkanäle dürfen nur aufgenommen werden, wenn alle Anwesenden zustimmen.",
                  kind="rule", age_days=480),
            SFact("podcast_folge", "Am Samstag lief im Sprachkanal die erste Folge vom Server-Podcast.",
                  kind="event", age_days=3, author="bot"),
            SFact("stammtisch_mittwoch", "Beim Stammtisch am Mittwoch waren zwölf Leute im Sprachkanal.",
                  kind="event", age_days=5, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 30), kinds=("event",)),
        speaker=JANNIK, mentions=[],
        message="darf ich den stammtisch heute aufnehmen? wär witzig für nen clip",
        needed=("regel_aufnahmen",), category="kind_decay", max_items=3, language="de",
        distractors=("podcast_folge", "stammtisch_mittwoch"),
    ),

    # ====================================================================================================
    # budget
    # ====================================================================================================
    Scenario(
        name="budget_long_commission_rule",
        facts=[
            SFact("rule_commissions", "Commissions may only be advertised in #shop-window, once a week per member, "
                  "with prices and turnaround in the post; payment has to go through something with buyer protection "
                  "like Ko-fi or PayPal Goods and Services, staff do not mediate payment disputes, and anyone who "
                  "takes money and vanishes is banned and named in #scam-alerts.", kind="rule", age_days=200),
            SFact("recap_art_fair", "Recap of Saturday's art fair: fourteen artists ran stalls in the #art-fair "
                  "threads, Freya sold out of her knitted frog plushies within an hour, Dani speed-painted the server "
                  "mascot live on stream, the sticker raffle raised €212 for the animal shelter, and staff will run it "
                  "again in spring with a second day because the voice channel hit the 99-person limit twice.",
                  kind="event", age_days=3, author="bot", importance=0.6),
            SFact("recap_meetup_call", "Notes from the meetup planning call: the group booked the back room of Café "
                  "De Zaak in Utrecht for 12 July from 14:00, Mateo is bringing the card games, anyone travelling "
                  "from abroad should post in the #meetup thread by the end of May so Kofi can sort out group train "
                  "tickets from Schiphol, and name badges will use server nicknames, not real names.", kind="event",
                  age_days=9, author="bot", importance=0.6),
            SFact("recap_charity_stream", "Summary of the autumn charity stream: twelve hours, eight streamers, "
                  "€1,240 raised for the local animal shelter, the top donor was an anonymous member who asked for "
                  "the cursed toaster to be drawn into the overlay, Hana's Valorant segment drew the most viewers, "
                  "and the VOD is split into parts in #stream-archive for anyone who missed it.", kind="event",
                  age_days=16, author="bot", importance=0.5),
            SFact("bot_update_notes", "Bot update notes: reminders can now repeat weekly, the /poll command takes up "
                  "to ten options, the daily question moved to 10:00 UTC, and a bug where the birthday message fired "
                  "twice for people in UTC+13 is fixed, thanks to Sam who spent the whole weekend on it.",
                  kind="event", age_days=1, author="bot", importance=0.4),
            SFact("channel_shop_window", "#shop-window is where members advertise their own shops, art and services.",
                  kind="lore", age_days=150),
        ],
        noise=NoiseSpec(count=300, age_days=(0, 30), length=(500, 900)),
        speaker=FREYA, mentions=[],
        message="can i take commissions through the server? how does payment work",
        needed=("rule_commissions",), category="budget", max_items=10, max_chars=1000,
    ),
    Scenario(
        name="budget_short_fact_among_long_recaps",
        facts=[
            SFact("mc_survival_seed", "The survival world's seed is -4172144997902289642.", kind="lore",
                  age_days=120),
            SFact("mc_build_contest_results", "Build contest results: Tomasz's floating library took first place "
                  "with 31 votes, Aiko's cherry-blossom train station came second, the surprise hit was Chidi's "
                  "working redstone piano that plays the server anthem, and every entry stays up at spawn until the "
                  "next contest, so go visit them before the map expands in January.", kind="event", age_days=2,
                  author="bot", importance=0.6),
            SFact("mc_update_notes", "Minecraft server maintenance notes: the host moved to a machine with twice "
                  "the memory, view distance went up from 8 to 12 chunks, the Dynmap is back at map.lanternhollow.net, "
                  "the nether hub lost two rail lines in the move and Oskar is rebuilding them, and backups now run "
                  "every six hours instead of nightly.", kind="event", age_days=6, author="bot", importance=0.5),
            SFact("mc_event_plan", "Plans for the winter event on the Minecraft server: a snowball fight arena at "
                  "spawn, an ice-boat race on the frozen river with a Nitro prize, a gingerbread village build where "
                  "each team gets one plot, and a lantern walk on the last evening where everyone places a lantern "
                  "along the road to the old castle.", kind="event", age_days=4, importance=0.6),
            SFact("mc_etiquette_summary", "Minecraft etiquette, summarised by staff after the latest griefing "
                  "report: build at least a hundred blocks from other bases unless invited, don't take from chests "
                  "that aren't yours even when they look abandoned, replant what you harvest in the shared farms, and "
                  "light up the area around your base so mobs don't spawn near the rail lines.", kind="rule",
                  age_days=30),
        ],
        noise=NoiseSpec(count=500, age_days=(0, 30), length=(400, 800)),
        speaker=OSKAR, mentions=[],
        message="what's the seed for the survival world? want to scout it in single player",
        needed=("mc_survival_seed",), category="budget", max_items=10, max_chars=700,
    ),
    Scenario(
        name="budget_long_meetup_details",
        facts=[
            SFact("summer_meetup_details", "Summer meetup details: Saturday 12 July in Utrecht, meeting at 13:30 "
                  "under the big clock in the central station hall, then lunch at Café De Zaak in the back room we "
                  "booked, board games from 15:00, and dinner at the Indonesian place on the Oudegracht for those "
                  "who stay; it costs about €35 for lunch and dinner together, paid on the day.", kind="event",
                  age_days=40, importance=0.8),
            SFact("winter_event_announcement", "Winter event announcement: from 15 December to 5 January the server "
                  "runs a daily advent quiz in #trivia, a Secret Santa for anyone who signs up in #gift-exchange "
                  "before 1 December with a €15 limit, a cosy screenshot contest for every game, and a New Year's Eve "
                  "voice hangout that starts at 21:00 CET and follows midnight around the world.", kind="event",
                  age_days=5, importance=0.7),
            SFact("raid_schedule_announcement", "Raid schedule for the next patch: normal mode clears on Saturdays "
                  "at 21:00 CET, heroic progression on Sundays at 20:00 CET once the group has cleared normal twice, "
                  "signups close Friday noon in #raid-board, and anyone who signs up and does not show twice in a "
                  "row moves to the bench for the next week.", kind="event", age_days=8, importance=0.7),
            SFact("art_contest_announcement", "The December art contest theme is 'lanterns in the snow'; entries go "
                  "in #art-contest as a single image by 28 December 23:59 UTC, traditional and digital art are both "
                  "welcome, AI images are not allowed, and the winner gets a custom role colour and picks January's "
                  "theme.", kind="event", age_days=2, importance=0.6),
        ],
        noise=NoiseSpec(count=500, age_days=(0, 20), length=(400, 800)),
        speaker=JONAS, mentions=[],
        message="where and when is the summer meetup exactly? need to book a train",
        needed=("summer_meetup_details",), category="budget", max_items=8, max_chars=800,
    ),
    Scenario(
        name="budget_speaker_long_profile",
        facts=[
            about(HANA, "stream_schedule_hana", "Hana streams Valorant on Tuesdays and Thursdays from 19:00 to "
                  "22:00 CET and does art streams on Sunday afternoons, takes all of July off every year, and asks "
                  "that nobody raids her channel during art streams because the chat gets too busy for her to draw.",
                  kind="profile", age_days=150, author="bot"),
            about(MIRA, "profile_mira", "Mira is a nurse in Porto who plays cosy games after day shifts, mostly "
                  "Stardew Valley and Animal Crossing, runs the #pet-pics channel with her two cats Pixel and Byte as "
                  "unofficial mascots, and is learning Korean with Hana's help on Wednesday evenings.",
                  kind="profile", age_days=20, author="bot"),
            about(SAM, "profile_sam", "Sam wrote and hosts the server bot on a Raspberry Pi under their desk, uses "
                  "they/them, streams speedruns of Celeste and Hollow Knight on Saturday mornings, and answers bot "
                  "questions in #bot-bugs but asks people not to DM them about it on weekdays.", kind="profile",
                  age_days=12, author="bot"),
            about(DANI, "profile_dani", "Dani is a left-handed guitarist from Mexico City who one-tricks Genji, "
                  "streams music production on Twitch every Friday night, judges the monthly art contest with Elif, "
                  "and is organising a listening party for the server's first compilation album.", kind="profile",
                  age_days=7, author="bot"),
        ],
        noise=NoiseSpec(count=400, age_days=(0, 30), scope="member", length=(300, 700)),
        speaker=HANA, mentions=[],
        message="what did i tell you about my stream schedule? can't remember if i said tuesdays",
        needed=("stream_schedule_hana",), category="budget", max_items=6, max_chars=600,
    ),
    Scenario(
        name="budget_two_long_facts_needed",
        facts=[
            SFact("tourney_rules", "Saturday tournament rules: single elimination, best of three until the semis "
                  "and best of five after, check in on the bracket page by 18:45 UTC or your slot goes to the waiting "
                  "list, no alt accounts, and disputes go to the tournament organiser in #tourney-help with a "
                  "screenshot, never in the main chat.", kind="rule", age_days=90),
            SFact("tourney_prizes", "Tournament prizes: the winner gets the Champion role for a week and a €10 "
                  "gift card of their choice, second place picks the map pool for the next week, and everyone who "
                  "plays every Saturday in a month gets the Regular role.", kind="rule", age_days=60),
            SFact("recap_last_tourney", "Last Saturday's tournament recap: 28 players, Ines beat Tomasz 3-2 in a "
                  "final that went to the last round, the stream peaked at 140 viewers, Jonas cast the semis with "
                  "Kofi, and the bracket page crashed once at 19:10 so the organisers will move it to a new host "
                  "before next week.", kind="event", age_days=2, author="bot", importance=0.6),
            SFact("tourney_season_plan", "Plans for the tournament season: after eight Saturdays the top sixteen "
                  "players on the points table meet in a season final in late January, points are 10 for a win down "
                  "to 1 for reaching the second round, and the organisers are looking for two more casters.",
                  kind="event", age_days=5, importance=0.6),
            SFact("tourney_caster_signup", "Anyone who wants to cast tournament matches should sign up in "
                  "#tourney-help and do one trial round with Jonas, who runs the stream setup and will share the "
                  "overlay and the bracket tools with new casters before their first Saturday.", kind="event",
                  age_days=4, author="bot"),
        ],
        noise=NoiseSpec(count=500, age_days=(0, 30), length=(300, 700)),
        speaker=LUCIA, mentions=[],
        message="what are the rules and prizes for the saturday tourney? first time joining",
        needed=("tourney_rules", "tourney_prizes"), category="budget", max_items=8, max_chars=750,
    ),
    Scenario(
        name="budget_very_long_voice_guide",
        facts=[
            SFact("voice_channel_guide", "Voice channel guide, as agreed by staff in the spring: Campfire is the "
                  "main hangout and anyone can join at any time; the Quiet Room is push-to-talk only and meant for "
                  "studying or working together, so keep cameras off and chat in its text thread; the Stage is for "
                  "scheduled events only and speakers are invited by the host; the game channels Squad 1 to Squad 4 "
                  "are first come, first served, and whoever is in a full one may lock it for up to three hours; "
                  "music bots may only play in Campfire and Radio, at a volume that does not drown people out; "
                  "recording needs everyone's consent, asked out loud at the start; and anyone who keeps joining and "
                  "leaving to get attention gets a one-day voice timeout.", kind="rule", age_days=180),
            SFact("recap_halloween_voice", "Recap of the Halloween voice night: about sixty people came through "
                  "Campfire over the evening, Sam ran a ghost-story round where everyone added one sentence, the "
                  "Phasmophobia group filled all four Squad channels and swapped players every hour so newcomers "
                  "got a turn, Noor's spooky playlist on Radio got so many requests that she made it a shared "
                  "playlist, the costume webcam parade on the Stage had twenty-two entries with Dani's moth costume "
                  "winning by a landslide, and the last five people stayed until 04:00 CET watching an old horror "
                  "film together in the cinema channel.", kind="event", age_days=5, author="bot", importance=0.6),
            SFact("stage_event_schedule", "Stage events for the coming weeks, as posted by the events team: a "
                  "Q&A with the artists of the server's compilation album on Friday at 20:00 CET, the monthly town "
                  "hall on the first Sunday where staff go through the suggestion box and answer questions live, a "
                  "language exchange evening hosted by Hana and Kofi the Wednesday after, a speedrun showcase with "
                  "Sam on the Saturday before the holidays, and the end-of-year awards where members vote for the "
                  "best meme, best build, most helpful member and the newcomer of the year.", kind="event",
                  age_days=2, importance=0.6),
            SFact("squad_channel_feedback", "Summary of the feedback thread about the Squad channels: several "
                  "members asked for a fifth channel because all four are often full on Friday nights, some want "
                  "the three-hour lock shortened to two, a few said locked channels should show who locked them and "
                  "when, the Rocket League group asked for a channel limited to three people, and staff promised to "
                  "try a fifth Squad channel for a month and then look at the numbers before changing anything "
                  "else.", kind="event", age_days=9, author="bot", importance=0.5),
        ],
        noise=NoiseSpec(count=400, age_days=(0, 30), length=(600, 1000)),
        speaker=YUSUF, mentions=[],
        message="can we lock a squad channel for our group? we're 4 and randoms keep jumping in",
        needed=("voice_channel_guide",), category="budget", max_items=8, max_chars=1500,
    ),
    Scenario(
        name="budget_tight_chars_role_rule",
        facts=[
            SFact("role_artist", "To get the Artist role, post three finished pieces in #art-gallery within a "
                  "month and open a ticket in #support-desk; a moderator checks the posts and adds the role, and it "
                  "unlocks #art-critique and voting in the art contest.", kind="rule", age_days=100),
            SFact("art_gallery_highlights", "This week's #art-gallery highlights: Aiko's watercolour of the harbour "
                  "at dawn, a pixel-art version of the server mascot by Chidi, Freya's crocheted lantern, and a comic "
                  "strip by Paul about the cursed toaster that got more reactions than anything posted this year.",
                  kind="event", age_days=3, author="bot"),
            SFact("art_critique_session", "The first #art-critique session went well: eight artists shared works in "
                  "progress, Dani gave feedback on composition and colour, and everyone agreed to keep critiques kind "
                  "and specific, so the next session is planned for the second Sunday of next month at 16:00 CET.",
                  kind="event", age_days=6, author="bot"),
        ],
        noise=NoiseSpec(count=300, age_days=(0, 30), length=(300, 600)),
        speaker=CHIDI, mentions=[],
        message="how do i get the artist role?",
        needed=("role_artist",), category="budget", max_items=5, max_chars=400,
    ),
    Scenario(
        name="budget_ja_long_offkai",
        facts=[
            SFact("夏オフ会の詳細", "夏のオフ会は7月12日（土）に大阪で開催、13時にHEP FIVEの赤い観覧車の下に集合して、"
                  "昼はお好み焼き、夕方からカラオケの予定。参加する人は6月末までに #オフ会 スレに書き込んでね、会費は当日"
                  "現金で3000円くらい。", kind="event", age_days=35, importance=0.8),
            SFact("冬イベント告知", "冬イベントのお知らせ：12月20日から1月5日まで毎日 #クイズ でアドベントクイズ、"
                  "#プレゼント交換 で予算2000円のプレゼント交換（12月1日締切）、大晦日は21時からVCでカウントダウン"
                  "配信をやります。参加希望の人はリアクションで教えてください。", kind="event", age_days=4),
            SFact("スプラ大会結果", "日曜のスプラ大会の結果：優勝はチーム「たこわさ」、準優勝はけんたのチーム、"
                  "配信の最大同接は85人。決勝の最終ラウンドはカウント1差の大接戦で、次回は来月第2日曜の20時から、"
                  "実況ははるとが担当します。", kind="event", age_days=2, author="bot"),
            SFact("マイクラ更新", "マイクラサーバーのメンテ報告：ホストを移転してメモリが倍になったので描画距離を12"
                  "チャンクに変更、ダイナマップも復活、ネザーの線路が一部消えたのでそうたが修理中、バックアップは6時間"
                  "ごとに取るようになりました。", kind="event", age_days=6, author="bot"),
        ],
        noise=NoiseSpec(count=400, age_days=(0, 30), length=(100, 200)),
        speaker=YUI, mentions=[],
        message="夏のオフ会っていつどこ集合だっけ？新幹線とりたい",
        needed=("夏オフ会の詳細",), category="budget", max_items=6, max_chars=300, language="ja",
    ),

    # ====================================================================================================
    # relevance
    # ====================================================================================================
    Scenario(
        name="relevance_soup_incident_lore",
        facts=[
            SFact("lore_soup_incident", "The Great Soup Incident: in May 2024 Mateo left a pot of lentil soup on "
                  "the stove during a stream and the smoke alarm ended it.", kind="lore", age_days=560),
            SFact("ramen_recipe", "Mateo shared a ramen recipe in #kitchen.", kind="event", age_days=4,
                  author="bot"),
            SFact("pancake_stream", "Mateo's cooking stream on Sunday was all pancakes.", kind="event", age_days=8,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=GRETA, mentions=[],
        message="wait what was the soup incident?? everyone keeps bringing it up",
        needed=("lore_soup_incident",), category="relevance", max_items=5,
        distractors=("ramen_recipe", "pancake_stream"),
    ),
    Scenario(
        name="relevance_modpack_version",
        facts=[
            SFact("mc_modpack", "The modded Minecraft server runs All the Mods 9, pack version 0.2.44.",
                  kind="lore", age_days=200),
            SFact("mc_vanilla_update", "The vanilla Minecraft server updated to 1.21.4.", kind="event",
                  age_days=10, author="bot"),
            SFact("mc_build_theme", "The Minecraft build contest theme this month is castles.", kind="event",
                  age_days=5),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=SAM, mentions=[],
        message="which modpack version do i need for the modded server?",
        needed=("mc_modpack",), category="relevance", max_items=3,
        distractors=("mc_vanilla_update",),
    ),
    Scenario(
        name="relevance_goose_emoji_meaning",
        facts=[
            SFact("lore_goose_emoji", "Reacting with the :goose: emoji means a post is cursed.", kind="lore",
                  age_days=250),
            SFact("lore_lantern_emoji", "Regulars greet newcomers with the lantern emoji.", kind="lore",
                  age_days=20),
            SFact("emoji_poll", "A poll in #suggestions is choosing three new server emoji.", kind="event",
                  age_days=3),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 90)),
        speaker=GRETA, mentions=[],
        message="what does the goose emoji mean?? someone goosed my post",
        needed=("lore_goose_emoji",), category="relevance", max_items=3,
        distractors=("lore_lantern_emoji", "emoji_poll"),
    ),
    Scenario(
        name="relevance_pumpkin_contest_last_year",
        facts=[
            SFact("pumpkin_contest_2025", "Freya won the 2025 pumpkin carving contest with a lantern-shaped "
                  "pumpkin.", kind="event", age_days=390),
            SFact("drawing_contest_october", "Hana won the October drawing contest.", kind="event", age_days=20,
                  author="bot"),
            SFact("cosplay_contest", "Dani won the Halloween cosplay contest.", kind="event", age_days=25,
                  author="bot"),
            SFact("autumn_bake_off", "Mateo won the autumn bake-off.", kind="event", age_days=40, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=PAUL, mentions=[],
        message="who won the pumpkin carving thing last year?",
        needed=("pumpkin_contest_2025",), category="relevance", max_items=3,
        distractors=("drawing_contest_october", "cosplay_contest", "autumn_bake_off"),
    ),
    Scenario(
        name="relevance_reminder_command",
        facts=[
            SFact("bot_remindme", "Use /remindme followed by a time to set a reminder; the bot DMs you when it's "
                  "due.", kind="lore", age_days=280),
            SFact("bot_poll_command", "The bot got a new /poll command last week.", kind="event", age_days=6,
                  author="bot"),
            SFact("bot_downtime", "The bot was offline for an hour on Monday during a host move.", kind="event",
                  age_days=3, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=KOFI, mentions=[],
        message="how do i set a reminder with the bot?",
        needed=("bot_remindme",), category="relevance", max_items=3,
        distractors=("bot_poll_command", "bot_downtime"),
    ),
    Scenario(
        name="relevance_old_server_name",
        facts=[
            SFact("lore_old_name", "Until December 2020 the server was called Cozy Corner.", kind="lore",
                  age_days=900),
            SFact("rename_poll", "A poll to rename #general to #hearth closed on Sunday.", kind="event",
                  age_days=3),
        ],
        noise=NoiseSpec(count=2000, age_days=(0, 120)),
        speaker=CHIDI, mentions=[],
        message="was this server ever called something else? someone said cozy corner",
        needed=("lore_old_name",), category="relevance", max_items=2,
        distractors=("rename_poll",),
    ),
    Scenario(
        name="relevance_seed_with_typo",
        facts=[
            SFact("mc_seed", "The survival world's seed is 5829104467.", kind="lore", age_days=240),
            SFact("mc_nether_rails", "The nether hub got two new rail lines last week.", kind="event",
                  age_days=6, author="bot"),
            SFact("mc_spawn_build", "Aiko finished the cherry-blossom station at spawn.", kind="event", age_days=2,
                  author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 60)),
        speaker=LUCIA, mentions=[],
        message="whats the minecaft seed again lol",
        needed=("mc_seed",), category="relevance", max_items=3,
    ),
    Scenario(
        name="relevance_nl_bitterbal_oorlog",
        facts=[
            SFact("lore_bitterbal_oorlog", "De bitterbal-oorlog van 2024 ging erover of bitterballen of kroketten "
                  "beter zijn; sindsdien is dat onderwerp verboden in #kroeg.", kind="lore", age_days=500),
            SFact("pizza_poll_kroeg", "In #kroeg is vrijdag een nieuwe poll over pizza gestart.", kind="event",
                  age_days=3, author="bot"),
            SFact("snackavond", "Tijdens de snackavond van zaterdag bestelde iedereen bij dezelfde cafetaria.",
                  kind="event", age_days=8, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60)),
        speaker=FLEUR, mentions=[],
        message="wat was die bitterbal-oorlog nou eigenlijk? snap de grap niet",
        needed=("lore_bitterbal_oorlog",), category="relevance", max_items=3, language="nl",
        distractors=("pizza_poll_kroeg", "snackavond"),
    ),

    # ====================================================================================================
    # language
    # ====================================================================================================
    Scenario(
        name="language_nl_own_birthday",
        facts=[
            about(SANNE, "verjaardag_sanne", "Sanne is jarig op 14 februari.", kind="profile", age_days=200,
                  author="bot"),
            about(LOTTE, "verjaardag_lotte", "Lotte is jarig op 4 februari.", kind="profile", age_days=60,
                  author="bot"),
            about(DAAN, "verjaardag_daan", "Daan is op 14 maart jarig.", kind="profile", age_days=20, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=SANNE, mentions=[],
        message="wanneer ben ik ook alweer jarig? volgens mij heb ik dat ooit aan de bot verteld",
        needed=("verjaardag_sanne",), category="language", max_items=5, language="nl",
        distractors=("verjaardag_lotte", "verjaardag_daan"),
    ),
    Scenario(
        name="language_nl_self_promo_rule",
        facts=[
            SFact("regel_zelfpromotie", "Zelfpromotie, zoals je eigen stream of YouTube-kanaal, mag alleen in "
                  "#etalage en maximaal één keer per week.", kind="rule", age_days=400),
            SFact("noa_stream_quiz", "Noa streamde zaterdag de hele pubquiz op Twitch.", kind="event", age_days=2,
                  author="bot"),
            SFact("kanaal_etalage", "In #etalage staan ook de links naar de Etsy-shops van leden.", kind="lore",
                  age_days=90),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 30)),
        speaker=BRAM, mentions=[],
        message="mag ik hier gewoon mn twitch delen? ga zo live",
        needed=("regel_zelfpromotie",), category="language", max_items=3, language="nl",
        distractors=("noa_stream_quiz",),
    ),
    Scenario(
        name="language_nl_mentioned_dog",
        facts=[
            about(FLEUR, "hond_fleur", "Fleur heeft een border collie die Bikkel heet.", kind="profile",
                  age_days=230, author="bot"),
            about(NOA, "katten_noa", "Noa heeft twee katten, Pip en Saar.", kind="profile", age_days=50,
                  author="bot"),
            about(JOOST, "hond_joost", "Joost heeft een beagle, Max.", kind="profile", age_days=30, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=JOOST, mentions=[FLEUR],
        message="@Fleur hoe heet je hond ook alweer? wil hem taggen in #huisdieren",
        needed=("hond_fleur",), category="language", max_items=4, language="nl",
        distractors=("katten_noa", "hond_joost"),
    ),
    Scenario(
        name="language_de_stammtisch_when",
        facts=[
            SFact("stammtisch", "Der Stammtisch ist jeden Mittwoch um 20 Uhr im Sprachkanal Kneipe.", kind="event",
                  age_days=300),
            SFact("filmabend_freitag", "Filmabend ist diesen Freitag um 21 Uhr, es läuft Das Boot.", kind="event",
                  age_days=2),
            SFact("stammtisch_elden_ring", "Beim letzten Stammtisch ging es fast nur um Elden Ring.", kind="event",
                  age_days=6, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 30)),
        speaker=LUKAS, mentions=[],
        message="wann ist nochmal stammtisch? und wo genau?",
        needed=("stammtisch",), category="language", max_items=3, language="de",
        distractors=("stammtisch_elden_ring",),
    ),
    Scenario(
        name="language_de_potato_salad_lore",
        facts=[
            SFact("lore_kartoffelsalat", "Beim Kartoffelsalat-Streit 2024 stritt der halbe Server eine Woche lang "
                  "über Mayo oder Essig und Öl, bis Lena eine Umfrage startete und Essig und Öl knapp gewann.",
                  kind="lore", age_days=520),
            SFact("gulasch_rezept", "Felix hat am Sonntag sein Gulaschrezept in #küche gepostet.", kind="event",
                  age_days=3, author="bot"),
            SFact("grillabend", "Der Grillabend im Sprachkanal war am Samstag, alle haben ihr Essen gezeigt.",
                  kind="event", age_days=9, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60)),
        speaker=MARIE, mentions=[],
        message="was war eigentlich dieser kartoffelsalat-streit? alle machen witze drüber",
        needed=("lore_kartoffelsalat",), category="language", max_items=3, language="de",
        distractors=("gulasch_rezept",),
    ),
    Scenario(
        name="language_de_mentioned_home_town",
        facts=[
            about(LENA, "wohnort_lena", "Lena wohnt seit 2021 in Leipzig-Connewitz.", kind="profile", age_days=330,
                  author="bot"),
            about(JANNIK, "wohnort_jannik", "Jannik wohnt in Dresden.", kind="profile", age_days=40, author="bot"),
            about(EMRE, "wohnort_emre", "Emre ist letztes Jahr nach Halle gezogen.", kind="profile", age_days=25,
                  author="bot"),
            SFact("sommertreffen_ort", "Das Sommertreffen soll irgendwo in Mitteldeutschland stattfinden, der Ort "
                  "steht noch nicht fest.", kind="event", age_days=10),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=EMRE, mentions=[LENA],
        message="@Lena du wohnst doch in Leipzig oder? wir planen grad das Treffen",
        needed=("wohnort_lena",), category="language", max_items=4, language="de",
        distractors=("wohnort_jannik", "wohnort_emre"),
    ),
    Scenario(
        name="language_ja_next_movie_night",
        facts=[
            SFact("映画鑑賞会", "映画鑑賞会は隔週金曜の21時から #映画館 VCで。", kind="event", age_days=200),
            SFact("前回の映画会", "前回の映画会ではジブリの『紅の豚』を観た。", kind="event", age_days=9,
                  author="bot"),
            SFact("スマブラ大会", "今週土曜はスマブラ大会。", kind="event", age_days=2),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30)),
        speaker=YUI, mentions=[],
        message="次の映画会っていつだっけ？",
        needed=("映画鑑賞会",), category="language", max_items=3, language="ja",
        distractors=("前回の映画会",),
    ),
    Scenario(
        name="language_ja_own_timezone",
        facts=[
            about(MEI, "tz_めい", "めいはロンドン在住で、タイムゾーンはGMT（夏はBST）。", kind="profile", age_days=260,
                  author="bot"),
            about(YUI, "tz_ゆい", "ゆいは東京住みでJST。", kind="profile", age_days=50, author="bot"),
            about(KENTA, "tz_けんた", "けんたはシアトル在住、太平洋時間。", kind="profile", age_days=20, author="bot"),
        ],
        noise=NoiseSpec(count=800, age_days=(0, 60), scope="member"),
        speaker=MEI, mentions=[],
        message="ねえ、私のタイムゾーン覚えてる？海外組で予定合わせたくて",
        needed=("tz_めい",), category="language", max_items=4, language="ja",
        distractors=("tz_ゆい", "tz_けんた"),
    ),
    Scenario(
        name="language_ja_account_selling_rule",
        facts=[
            SFact("ルール_rmt", "アカウントやアイテムをリアルマネーで売買するのは即BAN。", kind="rule", age_days=460),
            SFact("フリマ", "日曜のゲーム内フリマ、出店者が30人超えた。", kind="event", age_days=3, author="bot"),
            SFact("ギフト企画", "はるとがSteamのギフトコードを3つ配布した。", kind="event", age_days=5, author="bot"),
        ],
        noise=NoiseSpec(count=1000, age_days=(0, 30), kinds=("event",)),
        speaker=KENTA, mentions=[],
        message="もう使ってないアカウントあるんだけど、ここで売ってもいい？",
        needed=("ルール_rmt",), category="language", max_items=2, language="ja",
        distractors=("フリマ",),
    ),
]

# --------------------------------------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------------------------------------
_NAME = re.compile(r"[a-z0-9_]+")
_KEY = re.compile(r"[\w.\-]{1,64}")
_SNOWFLAKE = re.compile(r"\d{17,20}")
_WORD = re.compile(r"[^\W_]+")
_JA_BIGRAM_CHARS = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ff]+")  # kanji and katakana runs
_KANA = re.compile(r"[\u3040-\u30ff]")
STOPWORDS = frozenset(
    "a an the is are was were be been am of to in on at for and or but with by from as it its this that i me my "
    "you your we our do does did what which who when how why again can some someone any anyone there here rn lol "
    "de het een en van ik je jij is op in dat die wat nou ook mag hoe "
    "der die das ein eine und ist ich du wie wann was wo mal nochmal".split()
)
# A few words that only the language's own chat uses (to catch a message written in the wrong language).
MARKERS = {
    "nl": frozenset("ik je jij het een nou ook alweer mag hoe wat wanneer eigenlijk heet".split()),
    "de": frozenset("ich du der die das ist nochmal wann wo eigentlich darf sag mal doch".split()),
}


def content_units(text: str) -> set[str]:
    """Lower-cased words minus stop words, and character bigrams of kanji/katakana runs (for Japanese)."""
    lowered = text.lower()
    units = {word for word in _WORD.findall(lowered) if word not in STOPWORDS and not _KANA.search(word)}
    for run in _JA_BIGRAM_CHARS.findall(text):
        units |= {run[i:i + 2] for i in range(len(run) - 1)} if len(run) > 1 else {run}
    return units


def _fact_problems(fact: SFact, where: str) -> list[str]:
    problems = []
    if not _KEY.fullmatch(fact.key) or fact.key != fact.key.lower():
        problems.append(f"{where}: bad key {fact.key!r}")
    if not 1 <= len(fact.content) <= 1000:
        problems.append(f"{where}: content of {len(fact.content)} characters")
    if fact.scope == "server":
        if fact.member is not None:
            problems.append(f"{where}: server fact with a member")
    elif fact.scope == "member":
        if fact.member not in PEOPLE:
            problems.append(f"{where}: unknown member {fact.member!r}")
    else:
        problems.append(f"{where}: bad scope {fact.scope!r}")
    if fact.kind not in KINDS:
        problems.append(f"{where}: bad kind {fact.kind!r}")
    if fact.author not in ("staff", "bot"):
        problems.append(f"{where}: bad author {fact.author!r}")
    if fact.pinned and fact.author != "staff":
        problems.append(f"{where}: only staff pin facts")
    if fact.importance is not None and not 0.0 <= fact.importance <= 1.0:
        problems.append(f"{where}: importance {fact.importance}")
    if fact.age_days < 0:
        problems.append(f"{where}: negative age")
    return problems


def _category_problems(scenario: Scenario, where: str) -> list[str]:
    problems = []
    by_key = {fact.key: fact for fact in scenario.facts}
    needed = [by_key[key] for key in scenario.needed if key in by_key]
    others = [fact for fact in scenario.facts if fact.key not in scenario.needed]
    mentioned_ids = {person_id for person_id, _name in scenario.mentions}
    noise = scenario.noise
    category = scenario.category
    if category == "pinned":
        if not all(fact.pinned for fact in needed):
            problems.append(f"{where}: a needed fact is not pinned")
        if noise.count < 500:
            problems.append(f"{where}: a pinned scenario needs real noise")
    elif category == "speaker":
        if not all(fact.scope == "member" and fact.member == scenario.speaker[0] for fact in needed):
            problems.append(f"{where}: a needed fact is not about the speaker")
        if sum(fact.scope == "member" and fact.member != scenario.speaker[0] for fact in others) < 2:
            problems.append(f"{where}: too few member facts about others")
        if noise.scope == "server":
            problems.append(f"{where}: speaker noise must hold member facts")
    elif category == "mentioned":
        if not all(fact.scope == "member" and fact.member in mentioned_ids for fact in needed):
            problems.append(f"{where}: a needed fact is not about a mentioned member")
    elif category == "newer_wins":
        older = [by_key[key].age_days for key in scenario.distractors if key in by_key]
        if not older:
            problems.append(f"{where}: no older fact named")
        elif not all(fact.age_days < min(older) for fact in needed):
            problems.append(f"{where}: the needed fact is not the newer one")
        for key in scenario.distractors:
            if key in by_key and not any(content_units(by_key[key].content) & content_units(fact.content)
                                         for fact in needed):
                problems.append(f"{where}: older fact {key!r} is on another topic")
    elif category == "kind_decay":
        if not all(fact.kind in ("rule", "lore", "profile") and fact.age_days >= 300 for fact in needed):
            problems.append(f"{where}: needed facts must be rules, lore or profiles a year or so old")
        if noise.kinds != ("event",) or noise.age_days[1] > 30:
            problems.append(f"{where}: kind_decay noise is recent events")
        if not any(fact.kind == "event" and fact.age_days <= 30 for fact in others):
            problems.append(f"{where}: no recent event listed")
    elif category == "budget":
        if sum(len(fact.content) for fact in scenario.facts) <= scenario.max_chars:
            problems.append(f"{where}: the listed facts fit the budget anyway")
        if sum(len(fact.content) >= (90 if scenario.language == "ja" else 200) for fact in scenario.facts) < 3:
            problems.append(f"{where}: too few long facts")
        if not any(fact.age_days < min(n.age_days for n in needed) for fact in others):
            problems.append(f"{where}: nothing newer competes for the budget")
    elif category == "relevance":
        oldest_noise = noise.age_days[1]
        if not all(fact.age_days > oldest_noise for fact in needed):
            problems.append(f"{where}: the needed fact is not older than the noise")
        if sum(fact.age_days < min(n.age_days for n in needed) for fact in others) < 1:
            problems.append(f"{where}: no newer listed facts")
        message_units = content_units(scenario.message)
        if not all(message_units & (content_units(fact.content) | content_units(fact.key.replace("_", " ")))
                   for fact in needed):
            problems.append(f"{where}: the message shares no word with the needed fact")
    elif category == "language":
        if scenario.language == "en":
            problems.append(f"{where}: a language scenario in English")
    return problems


def check() -> dict:
    """Validate SCENARIOS and report the counts per category and language."""
    problems: list[str] = []
    names = [scenario.name for scenario in SCENARIOS]
    if len(set(names)) != len(names):
        problems.append("duplicate scenario names")
    for scenario in SCENARIOS:
        where = scenario.name
        if not _NAME.fullmatch(scenario.name):
            problems.append(f"{where}: bad name")
        if scenario.category not in CATEGORIES:
            problems.append(f"{where}: bad category {scenario.category!r}")
        if scenario.language not in LANGUAGES:
            problems.append(f"{where}: bad language {scenario.language!r}")
        keys = [fact.key for fact in scenario.facts]
        if len(set(keys)) != len(keys):
            problems.append(f"{where}: duplicate keys")
        for fact in scenario.facts:
            problems += _fact_problems(fact, f"{where}.{fact.key}")
        if not scenario.needed or any(key not in keys for key in scenario.needed):
            problems.append(f"{where}: needed keys {scenario.needed} not all listed")
        if any(key not in keys for key in scenario.distractors) or set(scenario.distractors) & set(scenario.needed):
            problems.append(f"{where}: distractors must be listed and not needed")
        for person_id, name in [scenario.speaker, *scenario.mentions]:
            if not _SNOWFLAKE.fullmatch(person_id) or PEOPLE.get(person_id) != name:
                problems.append(f"{where}: unknown person {(person_id, name)}")
        mentioned_ids = [person_id for person_id, _name in scenario.mentions]
        if scenario.speaker[0] in mentioned_ids or len(set(mentioned_ids)) != len(mentioned_ids):
            problems.append(f"{where}: the speaker is mentioned, or a mention repeats")
        for _person_id, name in scenario.mentions:
            if f"@{name}" not in scenario.message:
                problems.append(f"{where}: @{name} is not in the message")
        if not scenario.message.strip() or len(scenario.message) > 400:
            problems.append(f"{where}: message length")
        if scenario.language == "ja" and not _KANA.search(scenario.message):
            problems.append(f"{where}: a Japanese scenario without kana in its message")
        message_words = set(_WORD.findall(scenario.message.lower()))
        if scenario.language in MARKERS and not message_words & MARKERS[scenario.language]:
            problems.append(f"{where}: the message does not read as {scenario.language}")
        if scenario.max_items < max(1, len(scenario.needed)):
            problems.append(f"{where}: max_items below the needed facts")
        needed_chars = sum(len(fact.content) for fact in scenario.facts if fact.key in scenario.needed)
        if needed_chars > scenario.max_chars:
            problems.append(f"{where}: the needed facts alone exceed max_chars")
        noise = scenario.noise
        if (noise.count < 0 or not 0 <= noise.age_days[0] <= noise.age_days[1]
                or not 1 <= noise.length[0] <= noise.length[1] <= 1000
                or noise.scope not in ("server", "member", "mixed")
                or not noise.kinds or any(kind not in KINDS for kind in noise.kinds)):
            problems.append(f"{where}: bad noise {noise}")
        problems += _category_problems(scenario, where)

    per_category = Counter(scenario.category for scenario in SCENARIOS)
    per_language = Counter(scenario.language for scenario in SCENARIOS)
    if len(SCENARIOS) < 60:
        problems.append(f"only {len(SCENARIOS)} scenarios")
    for category in CATEGORIES:
        if per_category[category] < 6:
            problems.append(f"only {per_category[category]} {category} scenarios")
    if len(SCENARIOS) - per_language["en"] < 10:
        problems.append("fewer than 10 scenarios in nl, de or ja")
    if sum(scenario.category == "pinned" and scenario.max_items == 1 for scenario in SCENARIOS) < 2:
        problems.append("fewer than two pinned scenarios with max_items=1")
    shares = [bool(content_units(scenario.message) & set().union(
        *(content_units(fact.content) for fact in scenario.facts if fact.key in scenario.needed)))
        for scenario in SCENARIOS]
    return {
        "scenarios": len(SCENARIOS),
        "per_category": dict(per_category),
        "per_language": dict(per_language),
        "per_category_and_language": {category: dict(Counter(s.language for s in SCENARIOS if s.category == category))
                                      for category in CATEGORIES},
        "listed_facts": sum(len(scenario.facts) for scenario in SCENARIOS),
        "noise_facts_described": sum(scenario.noise.count for scenario in SCENARIOS),
        "pinned_with_max_items_1": sum(s.category == "pinned" and s.max_items == 1 for s in SCENARIOS),
        "multi_fact_needed": sum(len(scenario.needed) > 1 for scenario in SCENARIOS),
        "messages_sharing_a_word_with_needed": f"{sum(shares)} of {len(shares)}",
        "problems": problems,
        "ok": not problems,
    }


if __name__ == "__main__":
    import json

    print(json.dumps(check(), ensure_ascii=False, indent=2))
