"""Hand-written retrieval data: natural questions over many months, in four languages (issue 22).

What it is
----------
SERVERS holds four fictional Discord communities, each its own server in its own language, with the
memory a bot would hold for it and the questions its members would type in chat:

- ``en``: Tidepool Tavern, an English Monster Hunter / cosy games / art server (bot: Barnacle);
- ``nl``: Polderpixels, a Dutch and Flemish gaming and drawing server (bot: Klompje);
- ``de``: Feierabendzocker, a German after-work gaming and pen-and-paper server (bot: Brezel);
- ``ja``: ゆるゲー部, a Japanese laid-back gaming server (bot: ポン太).

Each fact has a ``date``: the day it was stated or last known true. Facts span 14+ months of a
community's life: rules (and their old versions), channels, roles and staff (and who left), the bot,
regular events (and the ones that moved: hunt night from Friday to Saturday in 2025-09), repeated
events with a different winner or theme each month, one-off events past and planned, lore, running
jokes, decisions, and member profiles (pronouns, places, jobs, pets, birthdays, mains, languages).
Near-miss distractors are there on purpose: several nurses next to a vet nurse and a nursing
student, shared birthdays, several cat and dog owners, one tournament a month, old and new rules.

Unlike ``bench/retrieval_data.py`` (paraphrases only), these questions are what members really type:
most share a word with their answer ("when is the next movie night?"), a good part paraphrase it,
and four kinds are mixed:

- ``single``: one fact answers it;
- ``multi``: two or three facts together answer it (all listed in ``answers``);
- ``temporal``: the question has a time expression ("last month", "vorig jaar", "letzten Sommer",
  "先月"); ``window`` is the date range that expression means on ``asked_on``, every answer's date is
  inside it, and ``distractors`` lists facts on the same topic whose dates are outside it;
- ``member``: about one member, by name, or by "my"/"me" when ``asker`` is set.

Non-temporal questions are asked after the last fact of their server, so the newest version of a
changed fact is the right answer (and the older one a distractor a search may return).

How it was built
----------------
Every fact and question was written by hand; nothing is generated. ``check()`` verifies the
invariants and prints, per server, the counts, the category shares and the word-overlap shares.
Content words are lowercased word tokens (accents folded) minus a small stop-word list per language,
with a light plural/inflection strip; member names count as words. For Japanese, shared character
bigrams of kanji/katakana runs count instead (plus Latin-letter and digit tokens). A question
*overlaps* when it shares at least one such unit with its answers' contents; it is a *paraphrase*
when it shares none even under a stricter comparison (harder stemming, compound-word containment,
single kanji, and the answers' keys too).

Run ``python3 bench/retrieval_natural_data.py``.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from typing import NamedTuple


class Fact(NamedTuple):
    key: str
    content: str
    date: str  # ISO date: when the fact was stated or last known true
    scope: str = "server"  # "server" or "member"
    member: str | None = None  # handle in the server's "members" when scope == "member"


class Question(NamedTuple):
    text: str
    answers: tuple[str, ...]
    category: str  # "single" | "multi" | "temporal" | "member"
    asked_on: str  # ISO date; relative time expressions are relative to it
    asker: str | None = None  # handle of the member asking, for "my"/"me" questions
    distractors: tuple[str, ...] = ()  # temporal: same-topic facts whose date is outside the window
    window: tuple[str, str] | None = None  # temporal: first and last day the time expression means


def _s(key: str, when: str, content: str) -> Fact:
    return Fact(key=key, content=content, date=when, scope="server", member=None)


def _m(member: str, key: str, when: str, content: str) -> Fact:
    return Fact(key=key, content=content, date=when, scope="member", member=member)


def _keys(answers: str | tuple[str, ...]) -> tuple[str, ...]:
    return (answers,) if isinstance(answers, str) else tuple(answers)


def _window(spec: str) -> tuple[str, str]:
    """ "2025" (a year), "2026-06" (a month), "2026-05-16" (a day) or "2025-06-01:2025-08-31"."""
    if ":" in spec:
        first, last = spec.split(":")
        return first, last
    if len(spec) == 4:
        return f"{spec}-01-01", f"{spec}-12-31"
    if len(spec) == 7:
        year, month = int(spec[:4]), int(spec[5:])
        following = date(year + month // 12, month % 12 + 1, 1)
        return f"{spec}-01", (following - timedelta(days=1)).isoformat()
    return spec, spec


def _q(category: str, text: str, answers: str | tuple[str, ...], asked_on: str, asker: str | None = None) -> Question:
    return Question(text=text, answers=_keys(answers), category=category, asked_on=asked_on, asker=asker)


def _t(
    text: str,
    answers: str | tuple[str, ...],
    asked_on: str,
    window: str,
    distractors: str | tuple[str, ...],
    asker: str | None = None,
) -> Question:
    return Question(
        text=text,
        answers=_keys(answers),
        category="temporal",
        asked_on=asked_on,
        asker=asker,
        distractors=_keys(distractors),
        window=_window(window),
    )


# =====================================================================================================
# en: Tidepool Tavern
# =====================================================================================================

_EN_MEMBERS: dict[str, tuple[str, str]] = {
    "ngozi": ("200000000000000101", "Ngozi"),
    "paul": ("200000000000000102", "Paul"),
    "haruto": ("200000000000000103", "Haruto"),
    "sofia": ("200000000000000104", "Sofía"),
    "liam": ("200000000000000105", "Liam"),
    "priyanka": ("200000000000000106", "Priyanka"),
    "mateus": ("200000000000000107", "Mateus"),
    "aoife": ("200000000000000108", "Aoife"),
    "jess": ("200000000000000109", "Jess"),
    "dev": ("200000000000000110", "Dev"),
    "marcus": ("200000000000000111", "Marcus"),
    "yuna": ("200000000000000112", "Yuna"),
    "kasia": ("200000000000000113", "Kasia"),
    "omar": ("200000000000000114", "Omar"),
    "beth": ("200000000000000115", "Beth"),
    "tomasz": ("200000000000000116", "Tomasz"),
    "leilani": ("200000000000000117", "Leilani"),
    "ravi": ("200000000000000118", "Ravi"),
    "freya": ("200000000000000119", "Freya"),
    "chen": ("200000000000000120", "Chen"),
    "ollie": ("200000000000000121", "Ollie"),
    "amelie": ("200000000000000122", "Amélie"),
    "kwame": ("200000000000000123", "Kwame"),
    "rosa": ("200000000000000124", "Rosa"),
    "jonas": ("200000000000000125", "Jonas"),
    "sam": ("200000000000000126", "Sam"),
    "mei": ("200000000000000127", "Mei"),
    "diego": ("200000000000000128", "Diego"),
}

_EN_FACTS: list[Fact] = [
    # --- The server ---------------------------------------------------------------------------------
    _s(
        "server_opened",
        "2025-03-01",
        "Tidepool Tavern opened on 1 March 2025, after Ngozi's old Monster Hunter guild server fell apart.",
    ),
    _s(
        "server_focus",
        "2025-03-02",
        "The server is mostly Monster Hunter, cosy games and art, with a growing D&D corner.",
    ),
    _s("owner", "2025-03-01", "Ngozi founded the server and is still the only admin."),
    _s(
        "member_count_2025",
        "2025-10-15",
        "We hit 500 members in mid-October 2025 and celebrated with a Nitro giveaway.",
    ),
    _s("member_count_2026", "2026-09-02", "Tidepool passed 1,000 members on 2 September 2026."),
    _s("icon_old", "2025-03-01", "The original server icon was a pixel-art tankard with a crab sitting on the rim."),
    _s(
        "icon_new",
        "2026-03-01",
        "For the first anniversary the server icon became Yuna's redrawn Sheldon peeking out of a tankard.",
    ),
    # --- Rules (some in two versions) --------------------------------------------------------------------
    _s("rule_spoilers_old", "2025-03-04", "Spoilers for new releases go in spoiler tags for two weeks after launch."),
    _s(
        "rule_spoilers",
        "2025-11-02",
        "Spoiler tags are now required for a full month after something comes out, not two weeks.",
    ),
    _s(
        "rule_self_promo_old",
        "2025-03-10",
        "Self-promo is allowed once a week in #plugs, but only after you've been here a month.",
    ),
    _s(
        "rule_self_promo",
        "2026-04-15",
        "Since mid-April 2026 posting in #plugs needs the Regular role instead of a month on the server.",
    ),
    _s(
        "rule_nsfw",
        "2025-03-04",
        "No NSFW anywhere on the server, and that includes profile pictures, banners and bios.",
    ),
    _s(
        "rule_ai_art",
        "2025-06-20",
        "AI-generated images can't be posted in #gallery or entered into any art challenge.",
    ),
    _s(
        "rule_politics",
        "2025-03-04",
        "Keep real-world politics out of here; mods will lock those threads without warning.",
    ),
    _s("rule_english", "2025-03-04", "Public channels are English only so the mods can follow along, except #babel."),
    _s(
        "rule_voice_recording",
        "2025-08-12",
        "Don't record or clip voice chat unless everyone in the channel has said yes.",
    ),
    _s(
        "rule_mod_pings",
        "2025-05-01",
        "Only ping @Tidekeepers for real emergencies; everything else goes through ModMail.",
    ),
    _s("rule_warnings_old", "2025-03-04", "Three warnings within six months get you a one-week timeout."),
    _s(
        "rule_warnings",
        "2026-01-10",
        "From January 2026, three warnings within ninety days mean a 30-day ban instead of a timeout.",
    ),
    _s("rule_age", "2025-03-04", "You have to be 18 or older to be on Tidepool, no exceptions."),
    _s(
        "rule_rmt",
        "2025-07-03",
        "Selling accounts, carries or in-game currency for real money gets you banned on the spot.",
    ),
    _s("rule_alts", "2025-04-22", "Alt accounts are fine as long as you tell a mod which main account they belong to."),
    _s(
        "rule_vent_cw",
        "2025-10-05",
        "Posts in #rough-day about self-harm or eating disorders need a content warning at the top.",
    ),
    _s(
        "rule_dm_ads",
        "2025-03-18",
        "Sending people unsolicited DMs with server invites or shop links is an instant ban.",
    ),
    _s("rule_automod", "2025-09-14", "Automod deletes messages that are all caps or have more than fifteen emojis."),
    _s(
        "rule_nicknames",
        "2025-12-01",
        "Nicknames have to be pingable, so start them with at least three normal keyboard characters.",
    ),
    _s(
        "rule_appeals",
        "2025-05-20",
        "Ban appeals go through the form in #start-here and are reviewed on the first Monday of the month.",
    ),
    # --- Channels ----------------------------------------------------------------------------------------
    _s(
        "channel_start_here",
        "2025-03-04",
        "Read the rules in #start-here and react with the shell emoji to unlock everything else.",
    ),
    _s("channel_tavern", "2025-03-04", "#the-tavern is the main general chat, where most of the chaos happens."),
    _s(
        "channel_lfg",
        "2025-03-20",
        "#lfg is for finding people to play with, and posts there auto-delete after 24 hours.",
    ),
    _s("channel_gallery", "2025-03-04", "#gallery is for finished art only, one post per piece."),
    _s("channel_sketchbook", "2025-03-04", "Works in progress go in #sketchbook, where people can ask for feedback."),
    _s(
        "channel_plugs",
        "2025-03-10",
        "#plugs is the one channel where you can advertise your streams, shops or commissions.",
    ),
    _s("channel_babel", "2025-04-02", "#babel is the multilingual channel where any language is welcome."),
    _s(
        "channel_rough_day",
        "2025-03-04",
        "#rough-day is the vent channel; answer with support there, not unasked advice.",
    ),
    _s(
        "channel_critters",
        "2025-03-04",
        "Pet photos go in #critters, and every photo gets its own thread for comments.",
    ),
    _s("channel_galley", "2025-05-09", "#galley is the food channel, mostly recipes and midnight snack photos."),
    _s(
        "channel_bot_bugs",
        "2025-06-01",
        "Report Barnacle bugs in #barnacle-bugs with a screenshot and the exact command you typed.",
    ),
    _s("channel_lighthouse", "2025-03-04", "Server news goes out in #lighthouse, where only staff can post."),
    _s(
        "channel_minis",
        "2025-08-18",
        "#brush-and-glue is the miniature painting channel, split off from #sketchbook in August 2025.",
    ),
    _s("channel_inkwell", "2025-03-04", "#inkwell is for writers: fanfic, poetry and the weekly writing prompt."),
    _s(
        "channel_tech_help",
        "2025-03-04",
        "#tech-help covers PC builds, drivers and router trouble, not Barnacle problems.",
    ),
    _s("channel_bilge", "2025-03-04", "#bilge is the meme channel, and reposts from other servers are fine there."),
    _s(
        "captains_quarters",
        "2025-03-04",
        "Boosters get a gold name and access to the hidden #captains-quarters channel.",
    ),
    _s(
        "voice_channels",
        "2025-03-04",
        "Our voice channels are Deck for general hangouts, Crow's Nest for focus, and Cinema for movies.",
    ),
    _s(
        "crows_nest",
        "2025-03-04",
        "Crow's Nest is push-to-talk only and meant for studying or working quietly together.",
    ),
    _s(
        "counting_record_old",
        "2025-12-19",
        "The #counting record reached 5,067 in December 2025 before Paul broke the streak.",
    ),
    _s(
        "counting_record",
        "2026-10-30",
        "The #counting record is now 8,214, set in October 2026 until Ollie counted twice in a row.",
    ),
    _s("hall_of_fame_old", "2025-05-15", "Messages with five or more star reactions get copied into #hall-of-fame."),
    _s("hall_of_fame", "2026-03-03", "The #hall-of-fame threshold went up from five stars to eight in March 2026."),
    _s(
        "minecraft_archived",
        "2026-02-01",
        "#minecraft was archived in February 2026 when the server shut down, but it's still readable.",
    ),
    # --- Staff and roles ---------------------------------------------------------------------------------
    _s("mods_2025", "2025-03-04", "The moderators, called Tidekeepers, are Liam, Aoife, Haruto and Dev."),
    _s(
        "dev_stepped_down",
        "2026-02-10",
        "Dev stepped down as a Tidekeeper in February 2026 when his hospital rota got brutal.",
    ),
    _s("mods_2026", "2026-02-14", "Since Dev left, the Tidekeepers are Liam, Aoife, Haruto and Kasia."),
    _s("head_mod", "2025-06-01", "Aoife is head mod and makes the final call on ban appeals."),
    _s("event_crew", "2025-04-10", "The Event Crew is Jess, Mateus and Priyanka, who run game nights and contests."),
    _s(
        "event_crew_2026",
        "2026-05-02",
        "Omar joined the Event Crew in May 2026, so it's Jess, Mateus, Priyanka and Omar now.",
    ),
    _s(
        "role_regular",
        "2025-04-01",
        "The Regular role is handed out automatically when you reach level 15 with Barnacle.",
    ),
    _s(
        "role_deckhand",
        "2025-09-01",
        "Deckhands are trusted helpers with a teal name who can time people out for up to an hour.",
    ),
    _s("deckhands", "2025-09-01", "The current Deckhands are Rosa, Kwame and Freya."),
    _s("role_pronouns", "2025-03-04", "Pronoun roles are self-assigned with the reaction menu in #roles."),
    _s("role_pings", "2025-05-01", "Hunt Ping, Movie Ping and Art Ping are opt-in roles you can grab in #roles."),
    _s("role_driftwood", "2025-03-08", "The Driftwood role marks the 23 people who joined in the very first week."),
    _s("role_inkslinger", "2025-07-01", "Finish three monthly art challenges and you get the Inkslinger role."),
    # --- Barnacle, the bot -------------------------------------------------------------------------------
    _s("bot_name", "2025-03-06", "Barnacle is our bot; mention it or start a message with 'barnacle,' to talk to it."),
    _s("bot_prefix_old", "2025-03-06", "Barnacle's commands start with an exclamation mark, like !roll or !remind."),
    _s("bot_slash", "2025-10-01", "Barnacle dropped the ! prefix in October 2025 and only takes slash commands now."),
    _s("bot_quiet_hours", "2025-06-15", "Barnacle stays quiet in #the-tavern between 2am and 8am UK time."),
    _s("bot_birthdays", "2025-04-12", "Barnacle posts birthday wishes in #the-tavern at 10:00 UK time on the day."),
    _s(
        "bot_xp", "2025-03-06", "Barnacle gives 15 XP per message, with a one-minute cooldown so spamming doesn't help."
    ),
    _s("bot_host_old", "2025-03-06", "Barnacle runs on a Raspberry Pi 5 in Tomasz's hallway cupboard."),
    _s("bot_host", "2026-06-20", "In June 2026 Barnacle moved off the Pi to a Hetzner VPS paid for from the Ko-fi."),
    _s("bot_forget", "2025-11-20", "Typing /forget-me makes Barnacle delete everything it remembers about you."),
    _s("bot_dice", "2025-03-06", "Barnacle's /roll understands dice notation like 4d6kh3 for rolling stats."),
    _s("bot_reminders", "2025-07-07", "You can keep up to 25 active reminders with Barnacle at once."),
    _s(
        "bot_outage_2025",
        "2025-12-27",
        "Barnacle was offline from 24 to 27 December 2025 because the Pi's SD card died.",
    ),
    _s(
        "bot_outage_2026",
        "2026-08-05",
        "Barnacle was down for six hours on 4 August 2026 after an update broke its database migration.",
    ),
    _s("bot_avatar", "2025-05-30", "Barnacle's avatar is a barnacle with googly eyes, drawn by Yuna."),
    _s("bot_tone", "2025-03-06", "Barnacle should keep answers short and friendly, with two emojis at most."),
    _s(
        "bot_memory",
        "2025-11-20",
        "Barnacle only remembers things a mod approves or that members explicitly ask it to keep.",
    ),
    # --- Regular events ----------------------------------------------------------------------------------
    _s("hunt_night_old", "2025-03-12", "Monster Hunter Wilds hunt night is every Friday at 20:00 UK time in Deck."),
    _s("hunt_vote", "2025-08-30", "The hunt night poll ended 23 to 9 for moving from Fridays to Saturdays."),
    _s("hunt_night", "2025-09-06", "Hunt night is on Saturdays now, same time, 20:00 UK, starting in September 2025."),
    _s("hunt_leader", "2025-03-12", "Haruto leads hunt night and posts the quest list in #lfg the day before."),
    _s("dive_night", "2025-04-16", "Helldivers 2 dive night is Wednesdays at 21:00 UK time, and Omar leads it."),
    _s("movie_night", "2025-04-05", "Movie night is every second Sunday at 19:30 UK time in the Cinema voice channel."),
    _s("movie_picks", "2025-04-05", "The film is picked by a Thursday poll in #lighthouse, and the host breaks ties."),
    _s("book_club", "2025-05-01", "The Inkwell book club meets on the last Thursday of each month at 20:00 UK time."),
    _s(
        "art_challenge_rules",
        "2025-04-01",
        "A new art challenge theme drops on the 1st of each month, and entries close on the 28th.",
    ),
    _s(
        "dnd_campaign",
        "2025-04-08",
        "The Sunken Crown is Marcus's D&D campaign, Tuesdays at 20:00 UK time on Foundry VTT.",
    ),
    _s("dnd_oneshots", "2025-06-01", "Sam runs a beginner-friendly D&D one-shot on the first Sunday of every month."),
    _s(
        "shanty_karaoke",
        "2025-05-30",
        "Shanty karaoke is on the last Friday of the month in Deck, and yes, other songs are allowed.",
    ),
    _s("coworking", "2025-04-01", "There's a silent co-working call in Crow's Nest every weekday at 09:00 UK time."),
    _s(
        "stardew_farm",
        "2025-03-20",
        "Our Stardew co-op farm is called Barnacle Bay, played by Ngozi, Paul, Sam and Beth.",
    ),
    _s("jackbox_old", "2025-03-22", "Jackbox night is Thursdays at 20:00 UK time, hosted by Mateus."),
    _s(
        "jackbox",
        "2026-01-15",
        "Jackbox moved to every other Monday in January 2026 because Thursdays kept clashing with book club.",
    ),
    _s("language_exchange", "2025-04-02", "Language exchange hour happens in #babel on Sundays at 15:00 UK time."),
    _s(
        "events_calendar",
        "2025-04-10",
        "Every event is on the Tidepool Google Calendar linked at the top of #lighthouse.",
    ),
    _s(
        "minecraft_opened",
        "2025-04-10",
        "The community Minecraft server opened in April 2025 on 1.21 with a light Create modpack.",
    ),
    _s(
        "minecraft_closed",
        "2026-01-25",
        "We voted to shut the Minecraft server down at the end of January 2026 because almost nobody played.",
    ),
    _s("kofi", "2026-05-10", "A Ko-fi for server costs opened in May 2026, and Ngozi posts the balance every month."),
    # --- The Cove Cup, once a month -------------------------------------------------------------------------
    _s(
        "cove_cup",
        "2025-07-01",
        "The Cove Cup is a monthly Mario Kart World tournament on the first Saturday at 19:00 UK time, run by Jess.",
    ),
    _s("cup_2025_07", "2025-07-05", "Haruto won the very first Cove Cup, beating Ollie by two points."),
    _s("cup_2025_08", "2025-08-02", "Ollie took the August Cove Cup after Haruto fell off Rainbow Road twice."),
    _s("cup_2025_09", "2025-09-06", "Priyanka won the Cove Cup, her first tournament win of any kind."),
    _s("cup_2025_10", "2025-10-04", "Diego won the October Cove Cup by a single point."),
    _s("cup_2025_11", "2025-11-01", "Haruto won the Cove Cup again, his second title."),
    _s("cup_2025_12", "2025-12-06", "The festive items-only Cove Cup was won by Beth, who claims she never practised."),
    _s("cup_2026_01", "2026-01-03", "Kwame won the first Cove Cup of 2026."),
    _s("cup_2026_02", "2026-02-07", "The February Cove Cup was cancelled because only four people signed up."),
    _s("cup_2026_03", "2026-03-07", "Sofía won the March Cove Cup, her first win after eight tries."),
    _s("cup_2026_04", "2026-04-04", "Ollie won the Cove Cup for the second time."),
    _s("cup_2026_05", "2026-05-02", "Mateus won the May Cove Cup using the smallest kart in the game out of spite."),
    _s("cup_2026_06", "2026-06-06", "Leilani won the Cove Cup racing at 8am her time with a coffee in hand."),
    _s("cup_2026_07", "2026-07-04", "Haruto won the July Cove Cup, which makes three titles for him."),
    _s("cup_2026_08", "2026-08-01", "Chen won the August Cove Cup from Singapore at two in the morning."),
    _s("cup_2026_09", "2026-09-05", "Priyanka won the Cove Cup again, a year after her first win."),
    _s("cup_2026_10", "2026-10-03", "Dev won the October Cove Cup straight off a night shift."),
    _s("cup_2026_11", "2026-11-07", "Kasia won the November Cove Cup the first time she entered."),
    # --- Art challenge themes and winners ------------------------------------------------------------------
    _s("art_2025_05", "2025-05-01", "May's art challenge theme is tidepools."),
    _s(
        "art_winner_2025_05",
        "2025-05-29",
        "Yuna won the tidepools challenge with a crab reading the newspaper in a rock pool.",
    ),
    _s("art_2025_06", "2025-06-01", "The June art challenge theme is 'monsters at rest'."),
    _s("art_2025_07", "2025-07-01", "July's art challenge: draw your palico doing a summer job."),
    _s("art_2025_09", "2025-09-01", "The art challenge theme for September is 'lost lighthouses'."),
    _s(
        "art_2025_10",
        "2025-10-01",
        "October's art challenge is Inktober-style, with one prompt a day instead of one theme.",
    ),
    _s("art_2025_12", "2025-12-01", "December's art challenge theme is 'cosy winter kitchens'."),
    _s("art_2026_02", "2026-02-01", "The art theme for February is 'a love letter to a villain'."),
    _s("art_2026_05", "2026-05-01", "May's theme for the art challenge is underwater cities."),
    _s(
        "art_winner_2026_05",
        "2026-05-29",
        "Sofía won the underwater cities challenge with a drowned cathedral full of jellyfish.",
    ),
    _s("art_2026_08", "2026-08-01", "August's art challenge theme is 'heatwave'."),
    _s("art_2026_11", "2026-11-01", "The November art challenge theme is 'things left behind'."),
    # --- Book club picks -----------------------------------------------------------------------------------
    _s("book_2025_05", "2025-05-29", "The first book club pick was Project Hail Mary, and everyone cried about Rocky."),
    _s("book_2025_06", "2025-06-26", "June's book club read was Piranesi."),
    _s("book_2025_09", "2025-09-25", "Book club read A Psalm for the Wild-Built in September."),
    _s(
        "book_2025_12",
        "2025-12-18",
        "The December book club met a week early because of Christmas, and half of us never finished Mistborn.",
    ),
    _s("book_2026_03", "2026-03-26", "March's book club book was The Fifth Season."),
    _s("book_2026_06", "2026-06-25", "The book club read Tomorrow, and Tomorrow, and Tomorrow in June."),
    _s("book_2026_10", "2026-10-29", "October's book club pick was Mexican Gothic, chosen by Rosa."),
    _s("book_2026_11", "2026-11-02", "November's book club read is Babel by R. F. Kuang."),
    # --- Movie nights ----------------------------------------------------------------------------------------
    _s("movie_2025_10", "2025-10-26", "The Halloween movie night was The Thing from 1982, picked by a landslide."),
    _s(
        "movie_2025_12", "2025-12-21", "We watched The Muppet Christmas Carol for the Christmas movie night, obviously."
    ),
    _s("movie_2026_02", "2026-02-08", "February's movie night showed Spirited Away, with Haruto doing live trivia."),
    _s(
        "movie_2026_10",
        "2026-10-25",
        "For the 2026 Halloween movie night we watched The Witch, and Ollie hid under a blanket.",
    ),
    # --- One-off and yearly events -------------------------------------------------------------------------
    _s("halloween_2025", "2025-10-31", "Beth won the 2025 Halloween avatar contest as a crocheted Rathalos."),
    _s("halloween_2026", "2026-10-31", "Ollie won the 2026 Halloween avatar contest dressed as his cat Nacho."),
    _s(
        "santa_2025",
        "2025-11-01",
        "Secret Santa 2025 sign-ups are open until 20 November; the budget is £20 and gifts get opened on 20 December.",
    ),
    _s("santa_2025_done", "2025-12-20", "Amélie organised Secret Santa 2025, and 31 people took part."),
    _s("santa_2026", "2026-11-01", "Secret Santa 2026 sign-ups close on 22 November, and the budget went up to £25."),
    _s(
        "jam_rules",
        "2025-07-15",
        "The Tidepool Jam runs for the last two weeks of August, with a theme voted the week before.",
    ),
    _s("jam_2025", "2025-08-31", "Diego and Yuna won the 2025 Tidepool Jam with a hermit crab house-swapping game."),
    _s(
        "jam_2026",
        "2026-08-30",
        "Tomasz and Amélie won the Tidepool Jam with a text adventure about a lighthouse keeper.",
    ),
    _s(
        "meetup_london",
        "2025-09-13",
        "Our first meetup was in London on 13 September 2025: twelve of us at a board game café.",
    ),
    _s(
        "meetup_manchester",
        "2026-05-16",
        "The Manchester meetup picnic got rained off, so we ended up at a pub quiz instead.",
    ),
    _s(
        "meetup_dublin",
        "2026-10-12",
        "The next meetup is planned for Dublin in April 2027, organised by Liam and Aoife.",
    ),
    _s("charity_2025", "2025-11-22", "The November 2025 charity stream raised £1,840 for Mind."),
    _s("charity_2026", "2026-06-27", "The summer charity stream raised £2,310 for Cats Protection."),
    _s("anniversary_2026", "2026-03-01", "For the first anniversary we ran a 24-hour voice relay in Deck."),
    _s("emoji_contest_2025", "2025-06-10", "The first emoji contest gave us :carted:, drawn by Ravi."),
    _s(
        "emoji_contest_2026",
        "2026-03-08",
        "Mei's crab holding a teacup won the anniversary emoji contest and became :tea_crab:.",
    ),
    _s(
        "spam_raid",
        "2025-07-19",
        "On 19 July 2025 a bot raid flooded the server with scam links, which is why the shell-react gate exists.",
    ),
    _s("pineapple_poll", "2025-06-22", "The great pineapple pizza poll ended 61 to 39 against pineapple."),
    _s("bot_birthday_hide", "2025-04-12", "Use /birthday hide if you'd rather Barnacle didn't announce your birthday."),
    _s(
        "hunt_fest_2026",
        "2026-07-18",
        "The July 2026 Hunt Fest was a twelve-hour relay through every monster in the game, led by Haruto.",
    ),
    _s(
        "giveaway_2026",
        "2026-09-04",
        "To celebrate 1,000 members we gave away ten months of Nitro and a Wilds artbook.",
    ),
    _s("mascot", "2025-05-20", "The mascot is Sheldon, a hermit crab picked in a May 2025 vote and drawn by Yuna."),
    # --- Lore and running jokes ----------------------------------------------------------------------------
    _s("lore_tidepool", "2025-03-15", "In server lore the tavern stands on a tidepool that only appears at low tide."),
    _s(
        "joke_soggy",
        "2026-05-20",
        "Calling a plan 'soggy' means it fell apart, ever since the rained-off Manchester picnic.",
    ),
    _s(
        "joke_carted",
        "2025-03-20",
        "'Carted again' is what we say when anyone fails at anything, not just in Monster Hunter.",
    ),
    _s(
        "joke_hunt_tuesday",
        "2025-06-03",
        "Liam once announced hunt night on a Tuesday by mistake, so 'hunt Tuesday' means someone's confused.",
    ),
    _s(
        "joke_kettle",
        "2025-08-09",
        "Anyone who says 'brb kettle' has four minutes to come back or owes the chat a meme.",
    ),
    _s("joke_crabs", "2025-04-25", "When a mod ends a long argument, everyone spams the crab emoji."),
    _s(
        "joke_typo",
        "2025-03-02",
        "The pinned 'welcom aboard' typo by Ngozi is protected, and nobody is allowed to fix it.",
    ),
    _s("joke_devcart", "2025-07-28", "Dev has carted to Rathalos so often that there's a :devcart: emote."),
    _s(
        "joke_one_more_hunt",
        "2025-10-11",
        "Paul keeps a spreadsheet of every 'one more hunt' promise and how long it actually took.",
    ),
    # --- Members ---------------------------------------------------------------------------------------------
    _m("paul", "paul_pronouns", "2025-03-08", "Paul uses he/him pronouns."),
    _m("paul", "paul_location", "2025-03-08", "Paul lives in Bristol, so he's on UK time like most of us."),
    _m("paul", "paul_cat", "2025-03-15", "Paul has a black cat called Pudding who screams at 5am for breakfast."),
    _m("paul", "paul_job", "2025-05-02", "Paul teaches maths at a secondary school and marks homework during hunts."),
    _m("paul", "paul_main", "2025-03-12", "Paul mains hammer and refuses to learn any other weapon."),
    _m("paul", "paul_birthday", "2025-04-19", "Paul's birthday is 22 October."),
    _m("ngozi", "ngozi_location", "2025-03-02", "Ngozi lives in Manchester and insists the rain there is exaggerated."),
    _m("ngozi", "ngozi_job", "2025-03-02", "Ngozi is a data analyst for the NHS, nowhere near a ward."),
    _m(
        "ngozi",
        "ngozi_languages",
        "2025-04-02",
        "Ngozi speaks English and Igbo and has been learning Korean since 2024.",
    ),
    _m("ngozi", "ngozi_birthday", "2025-03-03", "Ngozi's birthday is 3 March, two days after the server's."),
    _m(
        "ngozi",
        "ngozi_stardew",
        "2025-03-20",
        "Ngozi has over 900 hours in Stardew Valley and still hasn't finished the museum.",
    ),
    _m("haruto", "haruto_location_old", "2025-06-14", "Haruto lives in Osaka, so hunt night starts at 4am for him."),
    _m("haruto", "haruto_location", "2025-10-20", "Haruto moved from Osaka to London in October 2025 for a new job."),
    _m("haruto", "haruto_job", "2025-10-20", "Haruto works as a UI designer at a games studio."),
    _m("haruto", "haruto_main", "2025-03-12", "Haruto plays long sword and has the fastest solo times on the server."),
    _m("haruto", "haruto_dog", "2025-04-05", "Haruto has a shiba inu named Kinako who is terrified of the hoover."),
    _m("haruto", "haruto_languages", "2025-04-02", "Haruto speaks Japanese and English and often helps out in #babel."),
    _m(
        "haruto",
        "haruto_starter",
        "2025-11-15",
        "Haruto's sourdough starter is called Gerald and has its own role on the server.",
    ),
    _m("sofia", "sofia_location", "2025-04-11", "Sofía lives in Seville, an hour ahead of UK time."),
    _m("sofia", "sofia_job_old", "2025-04-11", "Sofía works in a bookshop and takes art commissions on the side."),
    _m(
        "sofia",
        "sofia_job",
        "2026-01-19",
        "Sofía quit the bookshop in January 2026 to do illustration commissions full time.",
    ),
    _m("sofia", "sofia_languages", "2025-04-11", "Sofía speaks Spanish and English, and understands most Catalan."),
    _m("sofia", "sofia_budgies", "2025-06-02", "Sofía has two budgies named Salt and Pepper."),
    _m("sofia", "sofia_birthday", "2025-06-09", "Sofía's birthday is 9 June."),
    _m("liam", "liam_location", "2025-03-04", "Liam lives in Cork and never lets us forget it's the real capital."),
    _m("liam", "liam_job", "2025-03-20", "Liam is a sound engineer at a theatre, so he's working most Friday nights."),
    _m("liam", "liam_main", "2025-03-12", "Liam plays hunting horn, mostly to keep everyone buffed."),
    _m("liam", "liam_dog", "2026-04-18", "Liam adopted a rescue greyhound called Biscuit in April 2026."),
    _m("liam", "liam_birthday", "2025-11-30", "Liam's birthday is 30 November."),
    _m("priyanka", "priyanka_location", "2025-04-10", "Priyanka lives in Toronto, five hours behind the UK."),
    _m("priyanka", "priyanka_nickname", "2025-04-10", "Priyanka prefers to be called Pri by everyone except her mum."),
    _m("priyanka", "priyanka_job", "2025-05-14", "Priyanka is a pharmacist at a hospital pharmacy."),
    _m(
        "priyanka",
        "priyanka_baking",
        "2025-05-14",
        "Priyanka bakes ridiculous layer cakes and posts every one of them in #galley.",
    ),
    _m(
        "priyanka",
        "priyanka_birthday",
        "2025-04-10",
        "Priyanka's birthday is 14 February, and she is tired of the Valentine's jokes.",
    ),
    _m("priyanka", "priyanka_languages", "2025-04-10", "Priyanka speaks English, Hindi and Gujarati."),
    _m("mateus", "mateus_location", "2025-04-10", "Mateus is from São Paulo but lives in Lisbon now."),
    _m("mateus", "mateus_main_old", "2025-03-12", "Mateus mains dual blades and never stops moving."),
    _m(
        "mateus",
        "mateus_main",
        "2026-02-20",
        "Mateus switched from dual blades to gunlance in February 2026 and won't shut up about it.",
    ),
    _m("mateus", "mateus_job", "2025-05-09", "Mateus is a chef at a seafood restaurant."),
    _m("mateus", "mateus_languages", "2025-04-10", "Mateus speaks Portuguese, English and decent Spanish."),
    _m("mateus", "mateus_birthday", "2025-08-05", "Mateus was born on 5 August."),
    _m("aoife", "aoife_pronouns", "2025-03-04", "Aoife uses she/they pronouns."),
    _m("aoife", "aoife_location", "2025-03-04", "Aoife lives in Galway, right by the sea."),
    _m("aoife", "aoife_job", "2025-03-04", "Aoife is a vet nurse at a small animal clinic."),
    _m("aoife", "aoife_cat", "2025-03-15", "Aoife has a one-eyed cat named Captain who sits on her keyboard."),
    _m("aoife", "aoife_whistle", "2025-07-02", "Aoife plays tin whistle and posts little covers of game music."),
    _m("aoife", "aoife_birthday", "2025-03-17", "Aoife's birthday is on St Patrick's Day, 17 March."),
    _m("jess", "jess_location_old", "2025-03-06", "Jess lives in Leeds, near Hyde Park."),
    _m("jess", "jess_location", "2026-03-20", "Jess moved up to Glasgow in March 2026 to live with her partner."),
    _m("jess", "jess_job", "2025-03-06", "Jess fixes bikes at a repair shop."),
    _m("jess", "jess_minis", "2025-08-18", "Jess paints Warhammer minis and started #brush-and-glue."),
    _m("jess", "jess_birthday", "2025-10-02", "Jess's birthday is 2 October."),
    _m("dev", "dev_location", "2025-03-04", "Dev lives in Leicester with three housemates."),
    _m("dev", "dev_job_old", "2025-05-10", "Dev is in his final year of medical school."),
    _m("dev", "dev_job", "2025-08-06", "Dev started as a junior doctor in August 2025."),
    _m("dev", "dev_languages", "2025-04-02", "Dev speaks English and Punjabi."),
    _m("dev", "dev_main", "2025-03-12", "Dev mains bow and carts more than anyone else on the server."),
    _m("dev", "dev_birthday", "2025-03-04", "Dev's birthday is 11 January."),
    _m("marcus", "marcus_location", "2025-04-08", "Marcus lives in Chicago, six hours behind the UK."),
    _m("marcus", "marcus_job", "2025-04-08", "Marcus teaches history at a high school."),
    _m("marcus", "marcus_pet", "2025-05-02", "Marcus has a bearded dragon named Sir Reginald."),
    _m("marcus", "marcus_birthday", "2025-07-08", "Marcus's birthday is 8 July."),
    _m("marcus", "marcus_terrain", "2025-09-10", "Marcus 3D prints the terrain for The Sunken Crown table."),
    _m("yuna", "yuna_pronouns", "2025-03-10", "Yuna uses she/her pronouns."),
    _m("yuna", "yuna_location", "2025-03-10", "Yuna lives in Seoul and mostly watches event VODs the next morning."),
    _m("yuna", "yuna_job", "2025-03-10", "Yuna is a freelance animator."),
    _m("yuna", "yuna_languages", "2025-04-02", "Yuna speaks Korean and English and a little Japanese."),
    _m("yuna", "yuna_tools", "2025-05-30", "Yuna draws everything in Clip Studio Paint on a very old iPad."),
    _m("yuna", "yuna_birthday", "2025-12-24", "Yuna's birthday is 24 December, so she gets combined presents."),
    _m("kasia", "kasia_location", "2025-04-20", "Kasia is Polish and lives in Edinburgh."),
    _m("kasia", "kasia_cat_old", "2025-04-20", "Kasia has a grey cat called Pierogi."),
    _m(
        "kasia",
        "kasia_cats",
        "2026-07-12",
        "Kasia adopted a second cat, Kluska, in July 2026, so Pierogi has a sister now.",
    ),
    _m("kasia", "kasia_job", "2025-04-20", "Kasia is doing a PhD in marine biology, on seagrass."),
    _m("kasia", "kasia_birthday", "2025-05-06", "Kasia's birthday is 6 May."),
    _m("kasia", "kasia_languages", "2025-04-20", "Kasia speaks Polish, English and decent German."),
    _m("omar", "omar_location", "2025-04-16", "Omar lives in Birmingham and will defend its canals to anyone."),
    _m("omar", "omar_job", "2025-04-16", "Omar drives a delivery van and listens to audiobooks all day."),
    _m("omar", "omar_languages", "2025-04-16", "Omar speaks Arabic and English."),
    _m(
        "omar",
        "omar_helldivers",
        "2025-04-16",
        "Omar plays more Helldivers 2 than Monster Hunter and always brings the orbital laser.",
    ),
    _m("omar", "omar_birthday", "2025-04-19", "Omar's birthday is 19 April."),
    _m(
        "omar",
        "omar_ramadan",
        "2026-02-16",
        "Omar usually skips evening events during Ramadan, so dive night pauses for a month.",
    ),
    _m("beth", "beth_job", "2025-03-12", "Beth is an A&E nurse in Cardiff and works a lot of nights."),
    _m("beth", "beth_pets", "2025-03-15", "Beth has two guinea pigs called Bubble and Squeak."),
    _m("beth", "beth_birthday", "2025-10-28", "Beth's birthday is 28 October."),
    _m("beth", "beth_welsh", "2025-06-20", "Beth is learning Welsh on Duolingo and has a 400-day streak."),
    _m(
        "beth",
        "beth_crochet",
        "2025-10-31",
        "Beth crochets little Monster Hunter monsters and sells some at craft fairs.",
    ),
    _m("tomasz", "tomasz_location", "2025-03-06", "Tomasz lives in Sheffield, at the top of a very steep hill."),
    _m("tomasz", "tomasz_job", "2025-03-06", "Tomasz is a network engineer for a broadband provider."),
    _m("tomasz", "tomasz_linux", "2025-03-06", "Tomasz runs Linux on everything, including his fridge display."),
    _m("tomasz", "tomasz_birthday", "2025-12-01", "Tomasz's birthday is 1 December."),
    _m("tomasz", "tomasz_beer", "2025-08-15", "Tomasz brews his own beer and names every batch after a monster."),
    _m(
        "leilani",
        "leilani_location",
        "2025-05-01",
        "Leilani lives in Honolulu, so our evening events happen during her morning.",
    ),
    _m("leilani", "leilani_job", "2025-05-01", "Leilani is a marine biologist who studies coral bleaching."),
    _m("leilani", "leilani_surf", "2025-05-01", "Leilani surfs before work and sometimes plays ukulele in Deck."),
    _m("leilani", "leilani_birthday", "2025-09-12", "Leilani's birthday is 12 September."),
    _m("ravi", "ravi_location", "2025-05-20", "Ravi lives in Melbourne and joins hunts on Sunday mornings."),
    _m("ravi", "ravi_job", "2025-05-20", "Ravi is a primary school teacher and a very patient hunter."),
    _m("ravi", "ravi_main", "2025-05-20", "Ravi mains insect glaive and spends most fights in the air."),
    _m("ravi", "ravi_birthday", "2025-10-02", "Ravi's birthday is 2 October."),
    _m("ravi", "ravi_cockatoo", "2025-06-10", "Ravi has a cockatoo called Mango who shouts 'carted' at the TV."),
    _m("freya", "freya_location", "2025-09-01", "Freya lives in Oslo, an hour ahead of the UK."),
    _m("freya", "freya_languages", "2025-09-01", "Freya speaks Norwegian and English, plus enough Swedish to argue."),
    _m("freya", "freya_job", "2025-09-01", "Freya is studying architecture and is always behind on a model."),
    _m("freya", "freya_climbing", "2025-10-10", "Freya goes bouldering three times a week."),
    _m("freya", "freya_vegan", "2025-05-09", "Freya is vegan and keeps a pinned vegan snack list in #galley."),
    _m("freya", "freya_birthday", "2025-09-01", "Freya's birthday is 20 January."),
    _m("chen", "chen_location", "2025-06-01", "Chen lives in Singapore, eight hours ahead of the UK in winter."),
    _m("chen", "chen_job", "2025-06-01", "Chen is an accountant and vanishes every tax season."),
    _m("chen", "chen_languages", "2025-06-01", "Chen speaks English, Mandarin and Hokkien."),
    _m("chen", "chen_main", "2025-06-01", "Chen mains charge blade and writes long guides about it."),
    _m("chen", "chen_birthday", "2026-03-03", "Chen's birthday is 3 March."),
    _m("ollie", "ollie_pronouns", "2025-03-04", "Ollie uses he/they pronouns."),
    _m("ollie", "ollie_cat", "2025-03-15", "Ollie has a ginger cat named Nacho who knocks everything off desks."),
    _m("ollie", "ollie_job", "2025-03-04", "Ollie is a barista and has strong opinions about oat milk."),
    _m("ollie", "ollie_location", "2025-03-04", "Ollie lives in Brighton, five minutes from the pier."),
    _m("ollie", "ollie_birthday", "2025-08-15", "Ollie's birthday is 15 August."),
    _m("amelie", "amelie_location", "2025-04-02", "Amélie lives in Lyon and complains about British bread a lot."),
    _m("amelie", "amelie_job", "2025-04-02", "Amélie translates video games from English into French for a living."),
    _m("amelie", "amelie_french", "2025-04-02", "Amélie is French and kindly corrects everyone's French in #babel."),
    _m("amelie", "amelie_writing", "2025-05-05", "Amélie writes fanfic and runs the weekly prompt in #inkwell."),
    _m("amelie", "amelie_birthday", "2025-04-02", "Amélie's birthday is 27 February."),
    _m("kwame", "kwame_job", "2025-09-01", "Kwame is an ICU nurse in London and mostly works day shifts."),
    _m("kwame", "kwame_languages", "2025-09-01", "Kwame speaks English and Twi."),
    _m("kwame", "kwame_dj", "2025-10-03", "Kwame DJs afrobeats sets in Deck on Friday nights."),
    _m("kwame", "kwame_birthday", "2025-06-25", "Kwame's birthday is 25 June."),
    _m("kwame", "kwame_main", "2025-09-01", "Kwame mains lance and takes protecting the squishies very seriously."),
    _m("rosa", "rosa_location", "2025-09-01", "Rosa lives in Mexico City, six or seven hours behind the UK."),
    _m("rosa", "rosa_dog", "2025-09-01", "Rosa has a chihuahua named Frijol who barks at every notification sound."),
    _m("rosa", "rosa_job", "2025-09-01", "Rosa is a civil engineer working on a metro line."),
    _m("rosa", "rosa_languages", "2025-09-01", "Rosa speaks Spanish and English and keeps an eye on #babel."),
    _m("rosa", "rosa_birthday", "2025-11-01", "Rosa's birthday is 1 November, right in the middle of Día de Muertos."),
    _m("jonas", "jonas_location", "2025-05-03", "Jonas lives in Berlin, an hour ahead of us."),
    _m("jonas", "jonas_job", "2025-05-03", "Jonas drives trams for a living."),
    _m("jonas", "jonas_celeste", "2025-05-03", "Jonas speedruns Celeste and streams his attempts on Twitch."),
    _m("jonas", "jonas_birthday", "2025-06-09", "Jonas's birthday is 9 June."),
    _m(
        "jonas",
        "jonas_languages",
        "2025-05-03",
        "Jonas speaks German and English and is learning Dutch for his partner.",
    ),
    _m("sam", "sam_pronouns", "2025-03-08", "Sam uses they/them pronouns."),
    _m("sam", "sam_location", "2025-03-08", "Sam lives in Vancouver, eight hours behind the UK."),
    _m("sam", "sam_job", "2025-03-08", "Sam works as a librarian and always has a book recommendation ready."),
    _m("sam", "sam_rabbit", "2025-04-04", "Sam has a lop-eared rabbit named Toast."),
    _m("sam", "sam_birthday", "2025-04-30", "Sam's birthday is 30 April."),
    _m("mei", "mei_location", "2025-06-15", "Mei lives in Hong Kong and is usually up late for events."),
    _m("mei", "mei_job", "2025-06-15", "Mei is a dentist, so don't ask her about your teeth in #the-tavern."),
    _m("mei", "mei_gunpla", "2025-06-15", "Mei builds Gunpla and posts progress shots in #sketchbook."),
    _m("mei", "mei_birthday", "2025-07-08", "Mei's birthday is 8 July."),
    _m("mei", "mei_languages", "2025-06-15", "Mei speaks Cantonese, English and Mandarin."),
    _m("diego", "diego_location", "2025-06-20", "Diego lives in Buenos Aires."),
    _m(
        "diego", "diego_job", "2025-06-20", "Diego is a software developer and wrote about half of Barnacle's commands."
    ),
    _m("diego", "diego_bass", "2025-06-20", "Diego plays bass in a ska band called Los Percebes."),
    _m(
        "diego",
        "diego_languages",
        "2025-06-20",
        "Diego speaks Spanish and English, and his Portuguese is a running joke.",
    ),
    _m("diego", "diego_birthday", "2025-10-22", "Diego's birthday is 22 October."),
    _m("diego", "diego_main", "2025-06-20", "Diego mains switch axe and swears it's the best weapon in the game."),
]

_EN_QUESTIONS: list[Question] = [
    # --- single: one server fact ---------------------------------------------------------------------
    _q("single", "when is the next movie night?", "movie_night", "2026-11-21"),
    _q("single", "what time does hunt night start", "hunt_night", "2026-11-21"),
    _q("single", "whens dive night", "dive_night", "2026-11-22"),
    _q("single", "i can only see start-here, how do i unlock the rest", "channel_start_here", "2026-11-22"),
    _q("single", "where do i post finished art?", "channel_gallery", "2026-11-23"),
    _q("single", "can i post ai art in the gallery", "rule_ai_art", "2026-11-23"),
    _q("single", "is there a minimum age here", "rule_age", "2026-11-24"),
    _q("single", "who owns this place", "owner", "2026-11-24"),
    _q("single", "who's the head mod", "head_mod", "2026-11-25"),
    _q("single", "what do i do if i want to get unbanned", "rule_appeals", "2026-11-25"),
    _q("single", "can i join with a second profile", "rule_alts", "2026-11-26"),
    _q("single", "how do i show they/them on my profile", "role_pronouns", "2026-11-26"),
    _q("single", "what do you get for boosting", "captains_quarters", "2026-11-27"),
    _q("single", "whats the mascot's name", "mascot", "2026-11-27"),
    _q("single", "what does it mean when people call a plan soggy", "joke_soggy", "2026-11-28"),
    _q("single", "why does everyone say carted all the time", "joke_carted", "2026-11-28"),
    _q("single", "what's 'hunt tuesday' about lol", "joke_hunt_tuesday", "2026-11-29"),
    _q("single", "what does brb kettle mean", "joke_kettle", "2026-11-29"),
    _q("single", "why do people spam crabs at the end of an argument", "joke_crabs", "2026-11-30"),
    _q("single", "can someone fix the typo in the pinned welcome msg", "joke_typo", "2026-11-30"),
    _q("single", "how many reminders can i set", "bot_reminders", "2026-12-01"),
    _q("single", "how do i roll 4d6 drop lowest for my charcter", "bot_dice", "2026-12-01"),
    _q("single", "why won't the bot talk to me at 3am", "bot_quiet_hours", "2026-12-02"),
    _q("single", "what time do the birthday messages go out", "bot_birthdays", "2026-12-02"),
    _q("single", "where do i report a barnacle bug", "channel_bot_bugs", "2026-12-03"),
    _q("single", "how much xp do you get per message", "bot_xp", "2026-12-03"),
    _q("single", "what's our stardew farm called", "stardew_farm", "2026-12-04"),
    _q("single", "when's the reading group", "book_club", "2026-12-04"),
    _q("single", "what's the cutoff for submitting drawings", "art_challenge_rules", "2026-12-05"),
    _q("single", "when can i sing with you lot", "shanty_karaoke", "2026-12-05"),
    _q("single", "who runs the d&d campaign", "dnd_campaign", "2026-12-06"),
    _q("single", "is there a d&d game for total beginners", "dnd_oneshots", "2026-12-06"),
    _q("single", "what day is jackbox now", "jackbox", "2026-11-21"),
    _q("single", "can i put our calls on my youtube", "rule_voice_recording", "2026-11-22"),
    _q("single", "where can i rant when everything sucks", "channel_rough_day", "2026-11-23"),
    _q("single", "which language are we supposed to type in", "rule_english", "2026-11-24"),
    _q("single", "where do the shitposts go", "channel_bilge", "2026-11-25"),
    _q("single", "where do i find official updates", "channel_lighthouse", "2026-11-26"),
    _q("single", "do lfg posts stay up forever", "channel_lfg", "2026-11-27"),
    _q("single", "what are the rules for nicknames", "rule_nicknames", "2026-11-28"),
    _q("single", "what happens if i sell gold for real money", "rule_rmt", "2026-11-29"),
    _q("single", "how many stars does a message need for hall of fame", "hall_of_fame", "2026-11-30"),
    _q("single", "what's the counting record", "counting_record", "2026-12-01"),
    _q("single", "is the minecraft sever still running", "minecraft_closed", "2026-12-02"),
    _q("single", "which vcs do we have", "voice_channels", "2026-12-03"),
    _q("single", "can i subscribe to a schedule somewhere", "events_calendar", "2026-12-04"),
    _q("single", "can i donate somewhere", "kofi", "2026-12-05"),
    _q("single", "where's the next meetup", "meetup_dublin", "2026-12-06"),
    _q("single", "who is sheldon", "mascot", "2026-11-21"),
    _q("single", "why do we have to react with a shell to get in", "spam_raid", "2026-11-22"),
    _q("single", "did pineapple pizza win the poll?", "pineapple_poll", "2026-11-23"),
    _q("single", "my graphics card keeps crashing, where do i ask", "channel_tech_help", "2026-11-24"),
    _q("single", "how many people are on here now", "member_count_2026", "2026-11-25"),
    _q("single", "when did this place start", "server_opened", "2026-11-26"),
    _q("single", "can i tell someone the ending of a game that just came out", "rule_spoilers", "2026-11-27"),
    _q("single", "is lewd stuff ok in my pfp", "rule_nsfw", "2026-11-28"),
    _q("single", "can we talk about elections here", "rule_politics", "2026-11-29"),
    _q("single", "can i yell in all capitals", "rule_automod", "2026-11-30"),
    _q("single", "how do i get hold of staff privately", "rule_mod_pings", "2026-12-01"),
    _q("single", "where can i show off my dog", "channel_critters", "2026-12-02"),
    _q("single", "where should i put my unfinished drawings", "channel_sketchbook", "2026-12-03"),
    _q("single", "who made our little bot's face", "bot_avatar", "2026-12-04"),
    _q("single", "where is the bot hosted these days", "bot_host", "2026-12-05"),
    _q("single", "when do we watch films together", "movie_night", "2026-12-06"),
    _q("single", "does barnacle still use ! commands", "bot_slash", "2026-11-21"),
    _q("single", "who organises the game nights", "event_crew_2026", "2026-11-22"),
    _q("single", "who are the mods right now", "mods_2026", "2026-11-23"),
    _q("single", "what's a deckhand", "role_deckhand", "2026-11-24"),
    _q("single", "what do i need for the regular role", "role_regular", "2026-11-25"),
    _q("single", "how do i get pinged when hunts start", "role_pings", "2026-11-26"),
    _q("single", "how long do we get for the summer coding contest", "jam_rules", "2026-11-27"),
    _q("single", "how do we decide what to watch together", "movie_picks", "2026-11-28"),
    _q("single", "how do i stop barnacle remembering stuff about me", "bot_forget", "2026-11-29"),
    _q("single", "where do people share poems and stories", "channel_inkwell", "2026-11-30"),
    _q("single", "whats the self promo rule these days", "rule_self_promo", "2026-12-01"),
    _q("single", "can i hide my bday from the bot", "bot_birthday_hide", "2026-12-02"),
    # --- member: about one member, by name or by "my"/"me" --------------------------------------------
    _q("member", "barnacle what's my timezone again", "leilani_location", "2026-11-21", asker="leilani"),
    _q("member", "when's my birthday, do you know?", "paul_birthday", "2026-11-21", asker="paul"),
    _q("member", "do you remember my cat's name", "ollie_cat", "2026-11-22", asker="ollie"),
    _q("member", "what pronouns did i set", "sam_pronouns", "2026-11-22", asker="sam"),
    _q("member", "what do you have down as my job", "kwame_job", "2026-11-23", asker="kwame"),
    _q("member", "which weapon am i on these days", "mateus_main", "2026-11-23", asker="mateus"),
    _q("member", "how many cats have i got now", "kasia_cats", "2026-11-24", asker="kasia"),
    _q("member", "what languages do i speak", "freya_languages", "2026-11-24", asker="freya"),
    _q("member", "what did i name my bread yeast thing", "haruto_starter", "2026-11-25", asker="haruto"),
    _q("member", "when is my bday", "dev_birthday", "2026-11-25", asker="dev"),
    _q("member", "which city did i say i'm in", "tomasz_location", "2026-11-26", asker="tomasz"),
    _q("member", "what do i do for a living again", "rosa_job", "2026-11-26", asker="rosa"),
    _q("member", "what did i tell you about my diet", "freya_vegan", "2026-11-27", asker="freya"),
    _q("member", "what am i addicted to playing", "ngozi_stardew", "2026-11-27", asker="ngozi"),
    _q("member", "what do you know about my pets", "beth_pets", "2026-11-28", asker="beth"),
    _q("member", "do you know my profession", "liam_job", "2026-11-28", asker="liam"),
    _q("member", "what did i tell you my band is called", "diego_bass", "2026-11-29", asker="diego"),
    _q("member", "remind me what my bird says", "ravi_cockatoo", "2026-11-29", asker="ravi"),
    _q("member", "what's paul's cat called", "paul_cat", "2026-11-30"),
    _q("member", "wher does aoife live", "aoife_location", "2026-11-30"),
    _q("member", "what does beth do for work", "beth_job", "2026-12-01"),
    _q("member", "what weapon does haruto main", "haruto_main", "2026-12-01"),
    _q("member", "does priyanka go by a nickname", "priyanka_nickname", "2026-12-02"),
    _q("member", "what are aoife's pronouns", "aoife_pronouns", "2026-12-02"),
    _q("member", "when is yuna's birthday", "yuna_birthday", "2026-12-03"),
    _q("member", "what pet does marcus have", "marcus_pet", "2026-12-03"),
    _q("member", "what time is it for chen right now", "chen_location", "2026-12-04"),
    _q("member", "what's leilani's job?", "leilani_job", "2026-12-04"),
    _q("member", "what does jonas stream", "jonas_celeste", "2026-12-05"),
    _q("member", "what instrument does diego play", "diego_bass", "2026-12-05"),
    _q("member", "what does mei build", "mei_gunpla", "2026-12-06"),
    _q("member", "does omar come to evening events during ramadan", "omar_ramadan", "2026-12-06"),
    _q("member", "is freya vegan?", "freya_vegan", "2026-11-21"),
    _q("member", "where does kwame work", "kwame_job", "2026-11-22"),
    _q("member", "what does tomasz name his beers after", "tomasz_beer", "2026-11-23"),
    _q("member", "what languages does chen speak", "chen_languages", "2026-11-24"),
    _q("member", "what does sam do irl", "sam_job", "2026-11-25"),
    _q("member", "what does amelie do for a living", "amelie_job", "2026-11-26"),
    _q("member", "what's liam's new dog called", "liam_dog", "2026-11-27"),
    _q("member", "is dev a doctor yet", "dev_job", "2026-11-28"),
    _q("member", "what's the name of haruto's shiba", "haruto_dog", "2026-11-29"),
    _q("member", "who is sir reginald", "marcus_pet", "2026-11-30"),
    _q("member", "whose bird is mango", "ravi_cockatoo", "2026-12-01"),
    _q("member", "who owns nacho", "ollie_cat", "2026-12-02"),
    _q("member", "what does sofia do for work now", "sofia_job", "2026-12-03"),
    _q("member", "where's rosa from", "rosa_location", "2026-12-04"),
    _q("member", "what does beth crochet", "beth_crochet", "2026-12-05"),
    _q("member", "what is kasia's phd on", "kasia_job", "2026-12-06"),
    _q("member", "what does yuna draw with", "yuna_tools", "2026-11-21"),
    _q("member", "what kind of food does mateus cook at work", "mateus_job", "2026-11-22"),
    _q("member", "how far behind us is marcus", "marcus_location", "2026-11-23"),
    _q("member", "whose pet is a lizard", "marcus_pet", "2026-11-24"),
    _q("member", "who's the tooth doctor here", "mei_job", "2026-11-25"),
    _q("member", "who climbs rocks for fun", "freya_climbing", "2026-11-26"),
    _q("member", "who knows a lot about reefs", "leilani_job", "2026-11-27"),
    _q("member", "who can help me with my bicycle", "jess_job", "2026-11-28"),
    _q("member", "which of us is learning welsh", "beth_welsh", "2026-11-29"),
    _q("member", "who wrote most of barnacle's commands", "diego_job", "2026-11-30"),
    _q("member", "which of us does irish flute stuff", "aoife_whistle", "2026-12-01"),
    _q("member", "who do i ask about taxes", "chen_job", "2026-12-02"),
    # --- multi: two or three facts together --------------------------------------------------------------
    _q("multi", "who on here is a nurse", ("beth_job", "kwame_job", "aoife_job"), "2026-11-21"),
    _q("multi", "which mods have cats", ("mods_2026", "aoife_cat", "kasia_cats"), "2026-11-22"),
    _q("multi", "whose birthday is 22 october", ("paul_birthday", "diego_birthday"), "2026-11-23"),
    _q("multi", "who has a birthday on 9 june", ("sofia_birthday", "jonas_birthday"), "2026-11-24"),
    _q("multi", "who lives in canada", ("priyanka_location", "sam_location"), "2026-11-25"),
    _q("multi", "which of us are teachers", ("paul_job", "marcus_job", "ravi_job"), "2026-11-26"),
    _q("multi", "what time is hunt night and who leads it", ("hunt_night", "hunt_leader"), "2026-11-27"),
    _q("multi", "how do i get regular and what does it unlock", ("role_regular", "rule_self_promo"), "2026-11-28"),
    _q("multi", "where do wips go vs finished art", ("channel_sketchbook", "channel_gallery"), "2026-11-29"),
    _q(
        "multi",
        "how many times has haruto won the cove cup",
        ("cup_2025_07", "cup_2025_11", "cup_2026_07"),
        "2026-11-30",
    ),
    _q("multi", "what has yuna drawn for the server", ("bot_avatar", "mascot", "icon_new"), "2026-12-01"),
    _q("multi", "who can help me practise japanese", ("haruto_languages", "yuna_languages"), "2026-12-02"),
    _q("multi", "what's the rule on dm ads and self promo", ("rule_dm_ads", "rule_self_promo"), "2026-12-03"),
    _q("multi", "what tabletop stuff runs here", ("dnd_campaign", "dnd_oneshots"), "2026-12-04"),
    _q("multi", "who wrote barnacle and where does it run", ("diego_job", "bot_host"), "2026-12-05"),
    _q("multi", "which deckhand speaks spanish", ("deckhands", "rosa_languages"), "2026-12-06"),
    _q(
        "multi",
        "who in the event crew lives outside the uk",
        ("event_crew_2026", "priyanka_location", "mateus_location"),
        "2026-11-21",
    ),
    _q("multi", "is there a vc for studying together in the morning", ("crows_nest", "coworking"), "2026-11-22"),
    _q("multi", "who has birds", ("sofia_budgies", "ravi_cockatoo"), "2026-11-23"),
    _q("multi", "who won the game jams so far", ("jam_2025", "jam_2026"), "2026-11-24"),
    _q("multi", "how much have the charity streams raised altogether", ("charity_2025", "charity_2026"), "2026-11-25"),
    _q("multi", "whose birthday is 3 march", ("ngozi_birthday", "chen_birthday"), "2026-11-26"),
    _q("multi", "which of us are sea scientists", ("kasia_job", "leilani_job"), "2026-11-27"),
    _q("multi", "who was born on 8 july", ("marcus_birthday", "mei_birthday"), "2026-11-28"),
    _q("multi", "what happens after three warnings and can i appeal", ("rule_warnings", "rule_appeals"), "2026-11-29"),
    _q(
        "multi",
        "how did the mod team change when dev left",
        ("dev_stepped_down", "mods_2025", "mods_2026"),
        "2026-11-30",
    ),
    _q("multi", "where do barnacle bugs go vs pc problems", ("channel_bot_bugs", "channel_tech_help"), "2026-12-01"),
    _q("multi", "whats the difference between regulars and deckhands", ("role_regular", "role_deckhand"), "2026-12-02"),
    _q("multi", "who has a dog", ("haruto_dog", "liam_dog", "rosa_dog"), "2026-12-03"),
    _q("multi", "who are the deckhands and what can they do", ("deckhands", "role_deckhand"), "2026-12-04"),
    _q("multi", "where do i post minis and who runs that channel", ("channel_minis", "jess_minis"), "2026-12-05"),
    _q("multi", "which game nights happen every week", ("hunt_night", "dive_night", "dnd_campaign"), "2026-12-06"),
    _q("multi", "who here speaks german", ("kasia_languages", "jonas_languages"), "2026-11-21"),
    _q("multi", "who's on nights at the hospital and who's on days", ("beth_job", "kwame_job"), "2026-11-22"),
    # --- temporal: the time expression picks the fact -------------------------------------------------------
    _t("who won the cove cup last month?", "cup_2026_06", "2026-07-10", "2026-06", ("cup_2026_07", "cup_2026_05")),
    _t("who won the mario kart cup in october 2025", "cup_2025_10", "2026-11-25", "2025-10", "cup_2026_10"),
    _t("was there even a cove cup last month", "cup_2026_02", "2026-03-15", "2026-02", ("cup_2026_03", "cup_2026_01")),
    _t("who won the cup last december", "cup_2025_12", "2026-06-01", "2025-12", ("cup_2025_11", "cup_2026_01")),
    _t(
        "who took first place in the racing tournament yesterday",
        "cup_2026_04",
        "2026-04-05",
        "2026-04-04",
        ("cup_2026_03", "cup_2026_05"),
    ),
    _t("who won the cup two weeks ago", "cup_2026_11", "2026-11-21", "2026-11-04:2026-11-10", ("cup_2026_10",)),
    _t(
        "who won the cove cups in summer 2025",
        ("cup_2025_07", "cup_2025_08"),
        "2026-11-26",
        "2025-06-01:2025-08-31",
        ("cup_2026_07", "cup_2026_08"),
    ),
    _t("what was the art theme in may last year", "art_2025_05", "2026-05-12", "2025-05", "art_2026_05"),
    _t("what's this month's art theme", "art_2026_05", "2026-05-12", "2026-05", "art_2025_05"),
    _t("what was the art theme last december", "art_2025_12", "2026-03-03", "2025-12", ("art_2026_02", "art_2025_10")),
    _t("who won the art challenge last may", "art_winner_2026_05", "2026-11-21", "2026-05", "art_winner_2025_05"),
    _t("what did book club read last month", "book_2026_06", "2026-07-03", "2026-06", ("book_2026_03", "book_2025_06")),
    _t("what did we read for book club back in december", "book_2025_12", "2026-01-20", "2025-12", ("book_2025_09",)),
    _t(
        "which book did the club do two months ago",
        "book_2026_10",
        "2026-12-01",
        "2026-10",
        ("book_2026_11", "book_2026_06"),
    ),
    _t("who won the halloween avatar contest last year", "halloween_2025", "2026-09-15", "2025", "halloween_2026"),
    _t(
        "who won the costume thing this halloween",
        "halloween_2026",
        "2026-11-03",
        "2026-10-01:2026-11-03",
        "halloween_2025",
    ),
    _t("what movie did we watch for halloween last year", "movie_2025_10", "2026-11-02", "2025", "movie_2026_10"),
    _t("which festive film was on last year", "movie_2025_12", "2026-08-20", "2025", ("movie_2026_02",)),
    _t(
        "how much did the charity stream raise last summer",
        "charity_2026",
        "2026-11-28",
        "2026-06-01:2026-08-31",
        "charity_2025",
    ),
    _t("what was the secret santa budget last year", "santa_2025", "2026-11-22", "2025", "santa_2026"),
    _t("when do secret santa signups close this year", "santa_2026", "2026-11-10", "2026", "santa_2025"),
    _t("who won the game jam in 2025", "jam_2025", "2026-11-30", "2025", "jam_2026"),
    _t(
        "what day was hunt night back in march last year",
        "hunt_night_old",
        "2026-04-20",
        "2025-03",
        ("hunt_night", "hunt_vote"),
    ),
    _t(
        "did hunt night change days last autumn",
        "hunt_night",
        "2026-03-10",
        "2025-09-01:2025-11-30",
        ("hunt_night_old", "hunt_vote"),
    ),
    _t(
        "what was the counting record last christmas", "counting_record_old", "2026-06-14", "2025-12", "counting_record"
    ),
    _t("how many stars did hall of fame need last year", "hall_of_fame_old", "2026-08-01", "2025", "hall_of_fame"),
    _t("who was moderating last year", "mods_2025", "2026-09-01", "2025", "mods_2026"),
    _t("what was barnacle running on in 2025", "bot_host_old", "2026-11-21", "2025", "bot_host"),
    _t(
        "why was barnacle down over christmas last year",
        "bot_outage_2025",
        "2026-11-25",
        "2025-12-20:2025-12-31",
        "bot_outage_2026",
    ),
    _t("what broke barnacle in august", "bot_outage_2026", "2026-09-02", "2026-08", "bot_outage_2025"),
    _t("what did barnacle commands start with in march 2025", "bot_prefix_old", "2026-11-24", "2025-03", "bot_slash"),
    _t(
        "where was the meetup last may",
        "meetup_manchester",
        "2026-11-22",
        "2026-05",
        ("meetup_london", "meetup_dublin"),
    ),
    _t(
        "where did we all get together irl in the autumn last year",
        "meetup_london",
        "2026-11-22",
        "2025-09-01:2025-11-30",
        ("meetup_manchester",),
    ),
    _t("how was the irl hangout yesterday", "meetup_manchester", "2026-05-17", "2026-05-16", ("meetup_london",)),
    _t(
        "how many members did we have back in october last year",
        "member_count_2025",
        "2026-10-20",
        "2025-10",
        "member_count_2026",
    ),
    _t("which emoji won the contest last march", "emoji_contest_2026", "2026-09-10", "2026-03", "emoji_contest_2025"),
    _t(
        "what was the plugs rule before april",
        "rule_self_promo_old",
        "2026-06-01",
        "2025-03-01:2026-03-31",
        "rule_self_promo",
    ),
    _t(
        "how long did spoilers need tags in spring 2025",
        "rule_spoilers_old",
        "2026-11-23",
        "2025-03-01:2025-05-31",
        "rule_spoilers",
    ),
    _t("what were the warning rules in 2025", "rule_warnings_old", "2026-11-22", "2025", "rule_warnings"),
    _t("what night was jackbox back in 2025", "jackbox_old", "2026-11-24", "2025", "jackbox"),
    _t("who was on the event crew last year", "event_crew", "2026-10-01", "2025", "event_crew_2026"),
    _t("where did jess live last year", "jess_location_old", "2026-08-20", "2025", "jess_location"),
    _t("what weapon did mateus main in 2025", "mateus_main_old", "2026-11-23", "2025", "mateus_main"),
    _t("what was sofía's job last year", "sofia_job_old", "2026-11-23", "2025", "sofia_job"),
    _t("did kasia already have two cats in 2025?", "kasia_cat_old", "2026-11-21", "2025", "kasia_cats"),
    _t(
        "where was haruto living in summer 2025",
        "haruto_location_old",
        "2026-11-21",
        "2025-06-01:2025-08-31",
        "haruto_location",
    ),
    _t("what was dev studying last spring", "dev_job_old", "2026-02-10", "2025-03-01:2025-05-31", "dev_job"),
]

# =====================================================================================================
# nl: Polderpixels
# =====================================================================================================

_NL_MEMBERS: dict[str, tuple[str, str]] = {
    "sanne": ("200000000000000201", "Sanne"),
    "daan": ("200000000000000202", "Daan"),
    "fleur": ("200000000000000203", "Fleur"),
    "youssef": ("200000000000000204", "Youssef"),
    "lotte": ("200000000000000205", "Lotte"),
    "thijs": ("200000000000000206", "Thijs"),
    "anouk": ("200000000000000207", "Anouk"),
    "mehmet": ("200000000000000208", "Mehmet"),
    "kiran": ("200000000000000209", "Kiran"),
    "jelle": ("200000000000000210", "Jelle"),
    "esther": ("200000000000000211", "Esther"),
    "joost": ("200000000000000212", "Joost"),
}

_NL_FACTS: list[Fact] = [
    # --- De server en de regels ------------------------------------------------------------------------
    _s(
        "server_opgericht",
        "2025-02-01",
        "Polderpixels is op 1 februari 2025 begonnen door Sanne, als opvolger van een oude WhatsApp-groep.",
    ),
    _s("eigenaar", "2025-02-01", "Sanne is de oprichter en nog steeds de enige admin van de server."),
    _s("regel_taal", "2025-02-01", "We praten hier Nederlands, Vlaams uiteraard ook; Engels alleen in #international."),
    _s("regel_spoilers", "2025-02-01", "Spoilers gaan tot twee weken na de release in spoilertags."),
    _s(
        "regel_zelfpromo_oud",
        "2025-02-03",
        "Reclame voor je eigen stream of shop mag in #zelfpromo, maximaal één keer per week.",
    ),
    _s(
        "regel_zelfpromo",
        "2026-03-02",
        "Sinds maart 2026 mag zelfpromo alleen nog op vrijdag, en nog steeds alleen in #zelfpromo.",
    ),
    _s("regel_nsfw", "2025-02-01", "Geen NSFW op de server, ook niet in je profielfoto, banner of status."),
    _s("regel_leeftijd", "2025-02-01", "Je moet minstens 16 jaar oud zijn om lid te worden."),
    _s(
        "regel_waarschuwingen",
        "2025-02-01",
        "Drie waarschuwingen binnen drie maanden betekent een time-out van een week.",
    ),
    _s(
        "regel_opnemen",
        "2025-06-10",
        "Voicechat opnemen of clippen mag alleen als iedereen in het kanaal ermee akkoord is.",
    ),
    _s(
        "regel_politiek",
        "2025-02-01",
        "Discussies over politiek horen niet op deze server; de mods sluiten zulke draadjes.",
    ),
    # --- Kanalen -----------------------------------------------------------------------------------------
    _s("kanaal_welkom", "2025-02-01", "In #welkom klik je op de klomp-emoji om de rest van de server te kunnen zien."),
    _s("kanaal_kroeg", "2025-02-01", "#de-kroeg is het algemene kanaal waar alles door elkaar heen gaat."),
    _s("kanaal_beestenboel", "2025-02-01", "Foto's van je huisdieren post je in #beestenboel."),
    _s("kanaal_kookhoek", "2025-02-14", "In #kookhoek deel je recepten en foto's van wat je gekookt hebt."),
    _s("kanaal_klaagmuur", "2025-02-01", "#klaagmuur is om stoom af te blazen; geef daar geen ongevraagd advies."),
    _s(
        "kanaal_mededelingen",
        "2025-02-01",
        "Belangrijke mededelingen staan in #mededelingen, waar alleen de mods kunnen posten.",
    ),
    _s("kanaal_bugs", "2025-03-01", "Als Klompje raar doet, meld het dan in #klompje-bugs met een screenshot."),
    _s("kanaal_tekenhoek", "2025-02-01", "#tekenhoek is voor je tekeningen, ook als ze nog lang niet af zijn."),
    # --- Klompje, de bot ---------------------------------------------------------------------------------
    _s(
        "bot_naam",
        "2025-02-02",
        "Onze bot heet Klompje en reageert als je hem tagt of je bericht met 'klompje' begint.",
    ),
    _s("bot_stil", "2025-04-01", "Klompje zegt niks in #de-kroeg tussen één en zeven uur 's nachts."),
    _s("bot_jarig", "2025-02-02", "Klompje feliciteert jarige leden om 9 uur 's ochtends in #de-kroeg."),
    _s("bot_vergeet", "2025-09-15", "Met /vergeet-mij wist Klompje alles wat hij over jou heeft onthouden."),
    _s("bot_host_oud", "2025-02-02", "Klompje draait op een oude laptop op de zolder bij Daan."),
    _s(
        "bot_storing",
        "2025-12-28",
        "Klompje lag eind december 2025 drie dagen plat omdat Daans laptop oververhit raakte.",
    ),
    _s("bot_host", "2026-01-12", "Sinds januari 2026 draait Klompje op een VPS bij TransIP, betaald uit de donaties."),
    # --- Team ----------------------------------------------------------------------------------------------
    _s("mods_oud", "2025-02-01", "De moderators zijn Daan, Lotte en Thijs."),
    _s("thijs_gestopt", "2026-02-18", "Thijs is in februari 2026 gestopt als mod omdat hij net vader is geworden."),
    _s("mods", "2026-02-20", "Sinds eind februari 2026 zijn Daan, Lotte en Kiran de mods."),
    # --- Vaste avonden -------------------------------------------------------------------------------------
    _s("spelavond_oud", "2025-02-20", "De bordspelavond op Board Game Arena is elke donderdag om 20:00."),
    _s("spelavond_poll", "2025-09-28", "De poll over de spelavond eindigde 18 tegen 7 voor de woensdag."),
    _s("spelavond", "2025-10-01", "Vanaf oktober 2025 is de bordspelavond op woensdag, nog altijd om 20:00."),
    _s("filmavond", "2025-03-07", "Filmavond is om de week op vrijdag om 20:30 in het voicekanaal Bioscoop."),
    _s("pubquiz", "2025-03-01", "Elke eerste zondag van de maand is er om 20:00 een pubquiz in de voicechat."),
    _s("pubquiz_maker_oud", "2025-03-01", "Thijs maakt de vragen voor de pubquiz en is daarbij genadeloos."),
    _s("pubquiz_maker", "2026-03-01", "Sinds maart 2026 maakt Esther de pubquizvragen, omdat Thijs het te druk heeft."),
    _s(
        "minecraft", "2025-05-01", "Onze Minecraft-server heet Polderland, draait op 1.21 en Daan beheert de whitelist."
    ),
    _s(
        "tekenchallenge",
        "2025-03-01",
        "Elke maand is er een tekenchallenge; het thema komt op de eerste van de maand in #tekenhoek.",
    ),
    # --- De pubquiz, elke maand een winnaar --------------------------------------------------------------
    _s("quiz_2025_04", "2025-04-06", "Lotte won de aprilquiz met één punt voorsprong op Jelle."),
    _s("quiz_2025_05", "2025-05-04", "Jelle won in mei de pubquiz dankzij een vraag over koeien."),
    _s(
        "quiz_2025_06",
        "2025-06-01",
        "De pubquiz van juni werd gewonnen door team De Bitterballen, oftewel Youssef en Kiran.",
    ),
    _s("quiz_2025_09", "2025-09-07", "Esther won de septemberquiz, terwijl ze net uit een nachtdienst kwam."),
    _s("quiz_2025_11", "2025-11-02", "Jelle won de pubquiz weer, zijn tweede overwinning."),
    _s("quiz_2026_01", "2026-01-04", "De eerste pubquiz van 2026 werd gewonnen door Anouk."),
    _s("quiz_2026_03", "2026-03-01", "Daan won de pubquiz in maart, de eerste quiz die Esther in elkaar had gezet."),
    _s("quiz_2026_06", "2026-06-07", "Fleur won de junipubquiz met een foutloze muziekronde."),
    _s("quiz_2026_09", "2026-09-06", "Jelle won de pubquiz van september en staat nu op drie overwinningen."),
    _s("quiz_2026_10", "2026-10-04", "Mehmet won de oktoberquiz, zijn allereerste keer bovenaan."),
    # --- Tekenchallenge-thema's -----------------------------------------------------------------------------
    _s("teken_2025_05", "2025-05-01", "Het thema van de tekenchallenge in mei is molens."),
    _s("teken_2025_10", "2025-10-01", "Het oktoberthema van de tekenchallenge is spookhuizen."),
    _s("teken_2026_05", "2026-05-01", "De tekenchallenge van mei heeft als thema grachtenpanden."),
    _s("teken_2026_10", "2026-10-01", "Het thema voor oktober is 'verlaten pretparken'."),
    # --- Feestdagen, meetups, mijlpalen --------------------------------------------------------------------
    _s(
        "koningsdag_2025",
        "2025-04-26",
        "Op Koningsdag 2025 hielden we een online vrijmarkt voor Steam-keys en zelfgemaakte stickers.",
    ),
    _s(
        "koningsdag_2026", "2026-04-27", "Koningsdag 2026 vierden we met een oranje Mario Kart-toernooi, dat Kiran won."
    ),
    _s(
        "sinterklaas_2025_info",
        "2025-11-10",
        "Voor de Sinterklaas-surprise van 2025 is het budget €10 en we trekken lootjes op 15 november.",
    ),
    _s("sinterklaas_2025", "2025-12-05", "Anouk won op pakjesavond 2025 de prijs voor het beste gedicht."),
    _s(
        "sinterklaas_2026",
        "2026-10-20",
        "Voor Sinterklaas 2026 gaat het budget naar €15; lootjes trekken is op 14 november.",
    ),
    _s("meetup_utrecht", "2025-09-20", "De eerste meetup was in Utrecht: twaalf man in een bordspellencafé."),
    _s("meetup_gent", "2026-06-13", "De tweede meetup was in Gent, geregeld door Fleur en Joost."),
    _s("meetup_plan", "2026-10-05", "De volgende meetup wordt in maart 2027 in Rotterdam; Daan zoekt nog een locatie."),
    _s("leden_2025", "2025-08-15", "In augustus 2025 gingen we over de 200 leden."),
    _s("leden_2026", "2026-07-01", "Sinds juli 2026 hebben we meer dan 500 leden."),
    _s("donaties", "2025-12-01", "Donaties voor de serverkosten kunnen via de Tikkie-link in #mededelingen."),
    # --- Grappen en lore -------------------------------------------------------------------------------------
    _s(
        "grap_het_gaat_door",
        "2025-02-15",
        "'Het gaat door!' roepen we als iets eindelijk doorgaat, naar Jelles Elfstedentocht-grap.",
    ),
    _s(
        "grap_stroopwafel", "2025-03-10", "Een stroopwafel-emoji onder een bericht betekent dat je het ermee eens bent."
    ),
    _s(
        "hagelslag_poll",
        "2025-05-18",
        "De grote hagelslagpoll eindigde 70 tegen 30: boter onder je hagelslag hoort erbij.",
    ),
    _s("mascotte", "2025-03-20", "Onze mascotte is een reiger in een gele regenjas, getekend door Fleur."),
    _s("mascotte_naam", "2025-04-02", "De reiger heet Henk, na een stemming in #de-kroeg."),
    # --- Leden ---------------------------------------------------------------------------------------------
    _m("sanne", "sanne_woonplaats", "2025-02-01", "Sanne woont in Utrecht, op loopafstand van de Dom."),
    _m("sanne", "sanne_werk", "2025-02-01", "Sanne is verpleegkundige op de kinderafdeling van het ziekenhuis."),
    _m("sanne", "sanne_hond", "2025-02-10", "Sanne heeft een border collie die Pip heet."),
    _m("sanne", "sanne_jarig", "2025-05-12", "Sanne is jarig op 12 mei."),
    _m("daan", "daan_woonplaats", "2025-02-01", "Daan woont in Rotterdam en is fanatiek Feyenoord-supporter."),
    _m("daan", "daan_werk", "2025-02-01", "Daan is backend-developer bij een verzekeraar."),
    _m("daan", "daan_hond", "2025-03-03", "Daan heeft een teckel die Worst heet."),
    _m("daan", "daan_jarig", "2025-08-03", "Daan is op 3 augustus jarig."),
    _m("fleur", "fleur_woonplaats", "2025-02-05", "Fleur woont in Gent, dus verwacht veel Vlaamse woorden."),
    _m("fleur", "fleur_werk", "2025-02-05", "Fleur is illustrator en neemt commissions aan via haar Ko-fi."),
    _m("fleur", "fleur_kat", "2025-02-10", "Fleur heeft een zwarte kat die Spekkie heet."),
    _m("fleur", "fleur_jarig", "2025-02-28", "Fleur is op 29 februari geboren en viert het meestal op 28 februari."),
    _m("youssef", "youssef_studie", "2025-02-20", "Youssef studeert bouwkunde in Delft."),
    _m(
        "youssef", "youssef_talen", "2025-02-20", "Youssef spreekt Nederlands, Marokkaans-Arabisch en een beetje Frans."
    ),
    _m("youssef", "youssef_game", "2025-03-15", "Youssef speelt vooral EA FC en verliest bijna nooit."),
    _m("youssef", "youssef_jarig", "2025-05-12", "Youssef is jarig op 12 mei."),
    _m("lotte", "lotte_woonplaats", "2025-02-01", "Lotte woont in Groningen en fietst overal heen, ook bij storm."),
    _m("lotte", "lotte_werk", "2025-02-01", "Lotte geeft Engels op een middelbare school."),
    _m("lotte", "lotte_kat_oud", "2025-03-12", "Lotte heeft één kat, een oude cyperse die Miep heet."),
    _m(
        "lotte",
        "lotte_katten",
        "2026-05-20",
        "Sinds mei 2026 heeft Lotte twee katten, want naast Miep is er nu ook Saar.",
    ),
    _m("thijs", "thijs_woonplaats", "2025-02-01", "Thijs woont in Eindhoven, vlak bij het PSV-stadion."),
    _m("thijs", "thijs_werk", "2025-02-01", "Thijs is ingenieur bij een chipfabrikant."),
    _m("thijs", "thijs_treinen", "2025-06-01", "Thijs bouwt een modelspoorbaan op zolder."),
    _m("thijs", "thijs_vader", "2026-02-15", "Thijs is in februari 2026 vader geworden van een dochtertje, Fenna."),
    _m("anouk", "anouk_werk", "2025-02-12", "Anouk is bakker en staat elke dag om vier uur op."),
    _m("anouk", "anouk_kat", "2025-02-12", "Anouk heeft een enorme Maine Coon die Knoest heet."),
    _m("anouk", "anouk_woonplaats", "2025-02-12", "Anouk woont in Den Haag, vlak bij Scheveningen."),
    _m("anouk", "anouk_jarig", "2025-08-03", "Anouk is jarig op 3 augustus."),
    _m("mehmet", "mehmet_werk", "2025-04-01", "Mehmet is vrachtwagenchauffeur en rijdt vaak naar Duitsland."),
    _m("mehmet", "mehmet_talen", "2025-04-01", "Mehmet spreekt Turks, Nederlands en best aardig Duits."),
    _m("mehmet", "mehmet_woonplaats", "2025-04-01", "Mehmet woont in Arnhem, met zijn ouders en twee zussen."),
    _m("mehmet", "mehmet_game", "2025-04-10", "Mehmet speelt Euro Truck Simulator, zelfs na een hele dag op de weg."),
    _m("kiran", "kiran_werk", "2025-03-01", "Kiran werkt als apothekersassistent in Almere."),
    _m("kiran", "kiran_game", "2025-03-01", "Kiran speelt Valorant en maint Sage."),
    _m("kiran", "kiran_roti", "2025-06-20", "Kiran is Surinaams-Hindostaans en maakt volgens iedereen de beste roti."),
    _m("kiran", "kiran_voornaamwoorden", "2025-03-01", "Kiran gebruikt die/hen als voornaamwoorden."),
    _m("jelle", "jelle_woonplaats", "2025-02-15", "Jelle woont in een dorp bij Leeuwarden en spreekt thuis Fries."),
    _m("jelle", "jelle_werk", "2025-02-15", "Jelle werkt op de melkveehouderij van zijn ouders."),
    _m("jelle", "jelle_schaatsen", "2025-12-10", "Jelle schaatst elke winter op natuurijs zodra het kan."),
    _m("jelle", "jelle_jarig", "2025-02-15", "Jelle is jarig op 11 januari."),
    _m("esther", "esther_werk", "2025-03-20", "Esther is IC-verpleegkundige in Zwolle en draait veel nachtdiensten."),
    _m("esther", "esther_haken", "2025-03-20", "Esther haakt Pokémon-knuffels en verkoopt ze soms op de markt."),
    _m("esther", "esther_konijnen", "2025-04-15", "Esther heeft twee konijnen, Bert en Ernie."),
    _m("esther", "esther_jarig", "2025-09-30", "Esther is jarig op 30 september."),
    _m("joost", "joost_woonplaats", "2025-05-01", "Joost woont in Leuven en studeert daar geschiedenis."),
    _m("joost", "joost_warhammer", "2025-05-01", "Joost speelt Warhammer en beschildert al zijn legers zelf."),
    _m("joost", "joost_jarig", "2025-09-30", "Joost is jarig op 30 september."),
    _m("joost", "joost_talen", "2025-05-01", "Joost spreekt Nederlands, Frans en Engels."),
]

_NL_QUESTIONS: list[Question] = [
    # --- single ------------------------------------------------------------------------------------------
    _q("single", "wanneer is de spelavond tegenwoordig?", "spelavond", "2026-10-22"),
    _q("single", "hoe krijg ik toegang tot de rest van de server", "kanaal_welkom", "2026-10-22"),
    _q("single", "mag je hier engels praten?", "regel_taal", "2026-10-23"),
    _q("single", "waar laat ik kiekjes van mijn poes zien", "kanaal_beestenboel", "2026-10-23"),
    _q("single", "hoe oud moet je zijn voor deze server", "regel_leeftijd", "2026-10-24"),
    _q("single", "wie is hier de baas", "eigenaar", "2026-10-24"),
    _q("single", "hoe laat begint filmavond", "filmavond", "2026-10-25"),
    _q("single", "hoe zorg ik dat klompje alles over mij vergeet", "bot_vergeet", "2026-10-25"),
    _q("single", "waarom zegt de bot midden in de nacht niks", "bot_stil", "2026-10-26"),
    _q("single", "wat betekent het als iemand 'het gaat door' roept", "grap_het_gaat_door", "2026-10-26"),
    _q("single", "wat betekent die stroopwafel onder m'n bericht", "grap_stroopwafel", "2026-10-27"),
    _q("single", "hoe heet die reiger eigenlijk", "mascotte_naam", "2026-10-27"),
    _q("single", "waar mag ik even zeuren over mijn dag", "kanaal_klaagmuur", "2026-10-28"),
    _q("single", "waar zet ik mijn schetsjes", "kanaal_tekenhoek", "2026-10-28"),
    _q("single", "mag ik m'n twitch promoten?", "regel_zelfpromo", "2026-10-29"),
    _q("single", "met hoeveel zijn we inmiddels", "leden_2026", "2026-10-29"),
    _q("single", "wie zijn nu de mods", "mods", "2026-10-30"),
    _q("single", "wanneer is de volgende meetup", "meetup_plan", "2026-10-30"),
    _q("single", "hoe kan ik bijdragen aan de kosten", "donaties", "2026-10-31"),
    _q("single", "wie regelt de whitelist van de minecraft servr", "minecraft", "2026-10-31"),
    # --- member --------------------------------------------------------------------------------------
    _q("member", "waar woont fleur", "fleur_woonplaats", "2026-10-22"),
    _q("member", "hoe heet de hond van daan", "daan_hond", "2026-10-23"),
    _q("member", "wat voor werk doet esther", "esther_werk", "2026-10-24"),
    _q("member", "wanneer ben ik jarig?", "youssef_jarig", "2026-10-25", asker="youssef"),
    _q("member", "welke voornaamwoorden gebruik ik ook alweer", "kiran_voornaamwoorden", "2026-10-26", asker="kiran"),
    _q("member", "welke game speelt kiran", "kiran_game", "2026-10-27"),
    _q("member", "welke talen spreekt mehmet allemaal", "mehmet_talen", "2026-10-28"),
    _q("member", "hoe heten de konijnen van esther", "esther_konijnen", "2026-10-29"),
    _q("member", "wat bouwt thijs op zolder", "thijs_treinen", "2026-10-30"),
    _q("member", "wat voor beest heb ik ook alweer", "anouk_kat", "2026-10-31", asker="anouk"),
    _q("member", "wie van ons werkt in een bakkerij", "anouk_werk", "2026-11-01"),
    _q("member", "wat doet jelle in de winter", "jelle_schaatsen", "2026-11-01"),
    _q("member", "wie maakt de lekkerste roti", "kiran_roti", "2026-11-02"),
    _q("member", "wat doe ik ook alweer voor de kost", "mehmet_werk", "2026-11-02", asker="mehmet"),
    _q("member", "wie hier kan er fries", "jelle_woonplaats", "2026-11-03"),
    # --- multi -------------------------------------------------------------------------------------------
    _q("multi", "wie van jullie zijn verpleegkundige", ("sanne_werk", "esther_werk"), "2026-10-22"),
    _q("multi", "wie zijn er allemaal jarig op 12 mei", ("sanne_jarig", "youssef_jarig"), "2026-10-23"),
    _q("multi", "wie zijn er op 30 september jarig", ("esther_jarig", "joost_jarig"), "2026-10-24"),
    _q("multi", "wie hebben er katten", ("fleur_kat", "anouk_kat", "lotte_katten"), "2026-10-25"),
    _q("multi", "wie wonen er in belgië", ("fleur_woonplaats", "joost_woonplaats"), "2026-10-26"),
    _q("multi", "wie heeft er een blaffer in huis", ("sanne_hond", "daan_hond"), "2026-10-27"),
    _q("multi", "wie spreken er frans", ("youssef_talen", "joost_talen"), "2026-10-28"),
    _q(
        "multi",
        "hoe vaak heeft jelle de pubquiz gewonnen",
        ("quiz_2025_05", "quiz_2025_11", "quiz_2026_09"),
        "2026-10-29",
    ),
    _q("multi", "wanneer zijn de quiz en de spelletjesavond", ("pubquiz", "spelavond"), "2026-10-30"),
    # --- temporal ------------------------------------------------------------------------------------------
    _t("wie won de pubquiz vorige maand", "quiz_2026_09", "2026-10-15", "2026-09", ("quiz_2026_10", "quiz_2026_06")),
    _t("wie had in juni vorig jaar de pubquiz gewonnen", "quiz_2025_06", "2026-07-02", "2025-06", "quiz_2026_06"),
    _t("wie won gisteren de quiz?", "quiz_2026_03", "2026-03-02", "2026-03-01", ("quiz_2026_01",)),
    _t("wie won de quiz twee weken geleden", "quiz_2026_10", "2026-10-18", "2026-10-01:2026-10-07", ("quiz_2026_09",)),
    _t(
        "welke avond was de spelavond begin 2025",
        "spelavond_oud",
        "2026-10-25",
        "2025-01-01:2025-04-30",
        ("spelavond", "spelavond_poll"),
    ),
    _t(
        "wat was het thema van de tekenchallenge in mei vorig jaar",
        "teken_2025_05",
        "2026-05-10",
        "2025-05",
        "teken_2026_05",
    ),
    _t("wat is het thema deze maand", "teken_2026_10", "2026-10-12", "2026-10", "teken_2025_10"),
    _t(
        "wat was het budget voor sinterklaas vorig jaar",
        "sinterklaas_2025_info",
        "2026-10-25",
        "2025",
        "sinterklaas_2026",
    ),
    _t("wat deden we vorig jaar op koningsdag", "koningsdag_2025", "2026-10-25", "2025", "koningsdag_2026"),
    _t("waar was de meetup afgelopen zomer", "meetup_gent", "2026-10-25", "2026-06-01:2026-08-31", ("meetup_utrecht",)),
    _t("waar draaide klompje vorig jaar op", "bot_host_oud", "2026-10-26", "2025", "bot_host"),
    _t("wie zaten er vorig jaar in het team", "mods_oud", "2026-10-28", "2025", "mods"),
    _t("hoeveel katten had lotte vorig jaar", "lotte_kat_oud", "2026-10-28", "2025", "lotte_katten"),
    _t("wie bedacht er in 2025 de quizvragen", "pubquiz_maker_oud", "2026-10-28", "2025", "pubquiz_maker"),
    _t(
        "hoe zat het met zelfpromo voor maart",
        "regel_zelfpromo_oud",
        "2026-06-01",
        "2025-02-01:2026-02-28",
        "regel_zelfpromo",
    ),
]

# =====================================================================================================
# de: Feierabendzocker
# =====================================================================================================

_DE_MEMBERS: dict[str, tuple[str, str]] = {
    "lukas": ("200000000000000301", "Lukas"),
    "mia": ("200000000000000302", "Mia"),
    "emre": ("200000000000000303", "Emre"),
    "hannah": ("200000000000000304", "Hannah"),
    "felix": ("200000000000000305", "Felix"),
    "sophie": ("200000000000000306", "Sophie"),
    "tobi": ("200000000000000307", "Tobi"),
    "ayse": ("200000000000000308", "Ayşe"),
    "kai": ("200000000000000309", "Kai"),
    "jana": ("200000000000000310", "Jana"),
    "nils": ("200000000000000311", "Nils"),
    "katrin": ("200000000000000312", "Katrin"),
}

_DE_FACTS: list[Fact] = [
    # --- Server und Regeln --------------------------------------------------------------------------------
    _s(
        "server_gründung",
        "2025-01-10",
        "Die Feierabendzocker gibt es seit dem 10. Januar 2025, angefangen als Discord für eine DSA-Runde.",
    ),
    _s("admin", "2025-01-10", "Lukas hat den Server gegründet und ist bis heute der einzige Admin."),
    _s("regel_sprache", "2025-01-10", "Auf dem Server wird Deutsch geschrieben, Englisch geht nur in #international."),
    _s(
        "regel_spoiler_alt", "2025-01-10", "Spoiler zu neuen Spielen und Serien kommen eine Woche lang in Spoiler-Tags."
    ),
    _s("regel_spoiler", "2026-01-15", "Seit Januar 2026 gilt die Spoiler-Pflicht zwei Wochen statt nur einer."),
    _s(
        "regel_werbung",
        "2025-01-10",
        "Eigenwerbung für Streams, Shops oder YouTube nur in #eigenwerbung und höchstens einmal pro Woche.",
    ),
    _s("regel_nsfw", "2025-01-10", "NSFW ist überall verboten, auch im Profilbild und im Status."),
    _s("regel_alter", "2025-01-10", "Man muss mindestens 16 Jahre alt sein, um hier mitzumachen."),
    _s("regel_aufnahme", "2025-05-05", "Sprachchats dürfen nur aufgenommen werden, wenn alle im Channel zustimmen."),
    _s("regel_verwarnungen_alt", "2025-01-10", "Nach drei Verwarnungen gibt es einen Timeout von 24 Stunden."),
    _s(
        "regel_verwarnungen",
        "2025-10-01",
        "Seit Oktober 2025 führen drei Verwarnungen innerhalb eines halben Jahres direkt zum Bann.",
    ),
    _s(
        "regel_politik",
        "2025-01-10",
        "Politische Diskussionen gehören nicht hierher und werden von den Mods geschlossen.",
    ),
    # --- Kanäle --------------------------------------------------------------------------------------------
    _s(
        "kanal_willkommen",
        "2025-01-10",
        "In #willkommen reagierst du mit der Brezel, dann werden die anderen Kanäle freigeschaltet.",
    ),
    _s("kanal_stammtisch", "2025-01-10", "#stammtisch ist der allgemeine Chat für alles Mögliche."),
    _s("kanal_viecher", "2025-01-10", "Fotos von euren Haustieren gehören in #viecher."),
    _s("kanal_kochecke", "2025-02-01", "In #kochecke teilt ihr Rezepte und Fotos vom Essen."),
    _s("kanal_kummerkasten", "2025-01-10", "#kummerkasten ist zum Auskotzen da; bitte keine ungefragten Ratschläge."),
    _s(
        "kanal_ankündigungen",
        "2025-01-10",
        "Neuigkeiten vom Team stehen in #ankündigungen, dort dürfen nur Mods schreiben.",
    ),
    _s("kanal_bugs", "2025-02-15", "Wenn Brezel spinnt, meldet es bitte in #brezel-bugs mit Screenshot."),
    _s("kanal_sprachkanäle", "2025-01-10", "Die Sprachkanäle heißen Wohnzimmer, Bibliothek und Kino."),
    _s(
        "kanal_bibliothek",
        "2025-01-10",
        "Im Sprachkanal Bibliothek ist Push-to-Talk Pflicht, er ist zum Lernen und Arbeiten gedacht.",
    ),
    # --- Brezel, der Bot --------------------------------------------------------------------------------------
    _s(
        "bot_name",
        "2025-01-12",
        "Unser Bot heißt Brezel und antwortet, wenn man ihn erwähnt oder die Nachricht mit 'Brezel' anfängt.",
    ),
    _s("bot_ruhezeit", "2025-03-01", "Zwischen 0 und 7 Uhr hält Brezel im #stammtisch die Klappe."),
    _s("bot_geburtstag", "2025-01-12", "Brezel gratuliert um 8 Uhr morgens im #stammtisch zum Geburtstag."),
    _s("bot_vergessen", "2025-08-20", "Mit /vergiss-mich löscht Brezel alles, was er über dich gespeichert hat."),
    _s("bot_host_alt", "2025-01-12", "Brezel läuft auf einem Raspberry Pi in der Abstellkammer von Nils in Kiel."),
    _s(
        "bot_ausfall",
        "2025-07-14",
        "Im Juli 2025 war Brezel zwei Tage offline, weil in Kiel der Strom ausgefallen war.",
    ),
    _s(
        "bot_host",
        "2026-04-08",
        "Seit April 2026 läuft Brezel auf einem Hetzner-Server in Falkenstein, bezahlt über Spenden.",
    ),
    _s("spenden", "2026-04-08", "Spenden für die Serverkosten gehen über den Ko-fi-Link in #ankündigungen."),
    # --- Team und Rollen ----------------------------------------------------------------------------------------
    _s("mods_alt", "2025-01-10", "Die Mods sind Mia, Emre und Felix."),
    _s(
        "felix_aufgehört",
        "2025-11-03",
        "Felix hat im November 2025 als Mod aufgehört, weil ihm nach dem Umzug die Zeit fehlt.",
    ),
    _s("mods", "2025-11-05", "Seit November 2025 sind Mia, Emre und Jana die Mods."),
    _s("rolle_helfer", "2025-04-01", "Helfer haben einen grünen Namen und dürfen Leute bis zu einer Stunde muten."),
    _s("helfer", "2025-04-01", "Die Helfer sind Katrin und Ayşe."),
    _s("rolle_pronomen", "2025-01-10", "Pronomen-Rollen kann man sich in #rollen selbst geben."),
    _s("rolle_stammgast", "2025-01-12", "Ab Level 10 bei Brezel bekommt man automatisch die Rolle Stammgast."),
    # --- Feste Termine ------------------------------------------------------------------------------------------
    _s("dsa_alt", "2025-01-20", "Die DSA-Runde spielt dienstags um 19:30 auf Foundry, Spielleitung hat Kai."),
    _s("dsa", "2026-02-10", "Die DSA-Runde ist seit Februar 2026 donnerstags statt dienstags, weiterhin um 19:30."),
    _s(
        "spieleabend",
        "2025-02-01",
        "Jeden Freitag um 20 Uhr ist Spieleabend im Wohnzimmer, meistens Gartic Phone oder Codenames.",
    ),
    _s("minecraft", "2025-03-01", "Der Minecraft-Server läuft auf 1.21 mit Create, die Whitelist macht Nils."),
    _s(
        "minecraft_reset",
        "2026-01-05",
        "Die Minecraft-Welt wurde im Januar 2026 zurückgesetzt, die alte Welt gibt es als Download.",
    ),
    _s(
        "rl_turnier",
        "2025-03-01",
        "Das Rocket-League-Turnier ist immer am letzten Samstag im Monat um 20 Uhr, in Zweierteams.",
    ),
    # --- Das Rocket-League-Turnier, Monat für Monat --------------------------------------------------------------
    _s("rl_2025_03", "2025-03-29", "Emre und Tobi haben das erste Rocket-League-Turnier gewonnen."),
    _s(
        "rl_2025_04",
        "2025-04-26",
        "Im April gewannen Sophie und Kai das Turnier, obwohl Kai vorher nie gespielt hatte.",
    ),
    _s("rl_2025_06", "2025-06-28", "Das Juni-Turnier ging an Hannah und Nils."),
    _s("rl_2025_08", "2025-08-30", "Emre und Tobi holten sich im August ihren zweiten Turniersieg."),
    _s("rl_2025_10", "2025-10-25", "Im Oktober gewannen Jana und Lukas das Rocket-League-Turnier."),
    _s(
        "rl_2025_12",
        "2025-12-27",
        "Das Weihnachtsturnier gewannen Ayşe und Felix mit einem Tor in der letzten Sekunde.",
    ),
    _s("rl_2026_02", "2026-02-28", "Im Februar 2026 fiel das Turnier aus, weil sich nur drei Teams angemeldet hatten."),
    _s("rl_2026_04", "2026-04-25", "Sophie und Kai haben das Aprilturnier gewonnen, wie schon im Vorjahr."),
    _s("rl_2026_06", "2026-06-27", "Im Juni gewannen Tobi und Mia das Turnier."),
    _s("rl_2026_08", "2026-08-29", "Das Augustturnier ging an Katrin und Emre."),
    _s("rl_2026_09", "2026-09-26", "Im September gewannen Nils und Hannah, zum zweiten Mal zusammen."),
    _s("rl_2026_10", "2026-10-31", "Das Halloween-Turnier Ende Oktober gewannen Jana und Ayşe."),
    # --- Wichteln, Treffen, Meilensteine --------------------------------------------------------------------------
    _s(
        "wichteln_2025",
        "2025-11-05",
        "Beim Wichteln 2025 liegt das Budget bei 20 Euro, Anmeldung bis zum 20. November.",
    ),
    _s(
        "wichteln_2025_ergebnis",
        "2025-12-20",
        "Beim Wichteln 2025 haben 26 Leute mitgemacht, organisiert hat es Hannah.",
    ),
    _s(
        "wichteln_2026",
        "2026-11-02",
        "Fürs Wichteln 2026 wurde das Budget auf 25 Euro erhöht, Anmeldung bis 22. November.",
    ),
    _s("adventskalender", "2025-12-01", "Im Dezember 2025 gab es einen Adventskalender mit 24 Steam-Keys zu gewinnen."),
    _s("treffen_köln", "2025-08-16", "Das erste Treffen war im August 2025 in Köln, mit elf Leuten im Brauhaus."),
    _s("treffen_hamburg", "2026-06-20", "Das zweite Treffen fand im Juni 2026 in Hamburg statt, mit Hafenrundfahrt."),
    _s("treffen_plan", "2026-10-10", "Das nächste Treffen soll im Frühjahr 2027 in Leipzig sein, Hannah plant es."),
    _s("mitglieder_2025", "2025-09-01", "Im September 2025 haben wir die 300 Mitglieder geknackt."),
    _s("mitglieder_2026", "2026-08-15", "Seit August 2026 sind wir über 600 Mitglieder."),
    # --- Insider und Maskottchen -------------------------------------------------------------------------------------
    _s("maskottchen", "2025-02-20", "Unser Maskottchen ist eine Brezel mit Kopfhörern, gezeichnet von Hannah."),
    _s("kartoffelsalat", "2025-06-08", "Die Kartoffelsalat-Umfrage ging 58 zu 42 für Essig und Öl statt Mayo aus."),
    _s("witz_servus", "2025-03-15", "Wer 'Servus' schreibt, bekommt von Brezel ein bayerisches Fähnchen als Reaktion."),
    _s(
        "witz_kaffee",
        "2025-05-22",
        "Wer 'kurz Kaffee holen' schreibt und nach zehn Minuten nicht zurück ist, muss ein Katzenbild posten.",
    ),
    _s(
        "witz_patzerwürfel",
        "2025-09-18",
        "Kai würfelt bei DSA so oft eine 20, dass sein W20 nur noch Patzerwürfel heißt.",
    ),
    # --- Mitglieder ----------------------------------------------------------------------------------------------
    _m("lukas", "lukas_wohnort", "2025-01-10", "Lukas wohnt in Köln-Ehrenfeld."),
    _m("lukas", "lukas_job", "2025-01-10", "Lukas ist Fachinformatiker bei einer Versicherung."),
    _m("lukas", "lukas_katze", "2025-01-15", "Lukas hat eine getigerte Katze namens Frau Müller."),
    _m("lukas", "lukas_geburtstag", "2025-06-04", "Lukas hat am 4. Juni Geburtstag."),
    _m("mia", "mia_wohnort", "2025-01-10", "Mia wohnt in Wien und ist die einzige Österreicherin im Team."),
    _m("mia", "mia_job", "2025-01-10", "Mia ist Krankenpflegerin auf einer Intensivstation."),
    _m("mia", "mia_hund", "2025-02-02", "Mia hat einen Dackel namens Strudel."),
    _m("mia", "mia_geburtstag", "2025-01-10", "Mia hat am 14. März Geburtstag."),
    _m("emre", "emre_wohnort", "2025-01-10", "Emre wohnt in Berlin-Neukölln."),
    _m("emre", "emre_job", "2025-01-10", "Emre ist Kfz-Mechatroniker und repariert nebenbei Fahrräder."),
    _m("emre", "emre_sprachen", "2025-01-10", "Emre spricht Deutsch und Türkisch."),
    _m("emre", "emre_geburtstag", "2025-06-04", "Emres Geburtstag ist am 4. Juni."),
    _m("hannah", "hannah_wohnort", "2025-01-20", "Hannah wohnt in Leipzig und geht jeden Sonntag auf den Flohmarkt."),
    _m("hannah", "hannah_job", "2025-01-20", "Hannah unterrichtet als Grundschullehrerin eine dritte Klasse."),
    _m("hannah", "hannah_katzen", "2025-01-20", "Hannah hat zwei Katzen, Tick und Trick."),
    _m(
        "hannah",
        "hannah_zeichnen",
        "2025-02-20",
        "Hannah zeichnet mit Procreate auf dem iPad, nimmt aber keine Auftragsarbeiten an.",
    ),
    _m(
        "felix",
        "felix_wohnort_alt",
        "2025-04-12",
        "Felix wohnt in Freiburg im Breisgau und fährt überall mit dem Rad hin.",
    ),
    _m("felix", "felix_wohnort", "2025-10-20", "Felix ist im Oktober 2025 für einen neuen Job nach Zürich gezogen."),
    _m("felix", "felix_job", "2025-10-20", "Felix arbeitet jetzt bei einer Bank in Zürich."),
    _m("felix", "felix_geburtstag", "2025-01-10", "Felix hat am 2. Februar Geburtstag."),
    _m("sophie", "sophie_wohnort", "2025-03-01", "Sophie wohnt in Hamburg-Altona."),
    _m("sophie", "sophie_studium", "2025-03-01", "Sophie studiert Meeresbiologie und jobbt nebenbei im Aquarium."),
    _m("sophie", "sophie_kater", "2025-03-05", "Sophie hat einen schwarzen Kater namens Kohle."),
    _m("sophie", "sophie_pronomen", "2025-03-01", "Sophie benutzt die Pronomen sie/ihr."),
    _m("tobi", "tobi_wohnort", "2025-01-10", "Tobi wohnt in München und ist großer Bayern-Fan."),
    _m("tobi", "tobi_job", "2025-01-10", "Tobi ist Altenpfleger und arbeitet oft nachts."),
    _m("tobi", "tobi_geburtstag", "2025-01-10", "Tobi hat am 30. Oktober Geburtstag."),
    _m("tobi", "tobi_rl", "2025-01-10", "Tobi spielt Rocket League seit 2016 und ist Champion II."),
    _m("ayse", "ayse_wohnort", "2025-04-01", "Ayşe wohnt in Frankfurt am Main."),
    _m("ayse", "ayse_job", "2025-04-01", "Ayşe ist Zahnärztin in einer Gemeinschaftspraxis."),
    _m("ayse", "ayse_sprachen", "2025-04-01", "Ayşe spricht Deutsch, Türkisch und Englisch."),
    _m("ayse", "ayse_geburtstag", "2025-04-01", "Ayşe hat am 30. Oktober Geburtstag."),
    _m(
        "kai", "kai_pronomen", "2025-01-20", "Kai möchte keine Pronomen, sondern einfach mit Namen angesprochen werden."
    ),
    _m("kai", "kai_job", "2025-01-20", "Kai arbeitet in der Stadtbibliothek Bremen."),
    _m("kai", "kai_dsa", "2025-01-20", "Kai spielt seit über zehn Jahren DSA und hat alle Regionalbände im Regal."),
    _m("kai", "kai_geburtstag", "2025-01-20", "Kai hat am 21. Dezember Geburtstag."),
    _m("jana", "jana_wohnort", "2025-02-01", "Jana wohnt bei Dresden auf dem Land."),
    _m("jana", "jana_job", "2025-02-01", "Jana ist Tierärztin und hat ständig Notdienst."),
    _m("jana", "jana_pferd", "2025-02-01", "Jana hat ein Pferd namens Lotti und zwei Hühner."),
    _m("jana", "jana_geburtstag", "2025-02-01", "Jana hat am 9. September Geburtstag."),
    _m("nils", "nils_wohnort", "2025-01-10", "Nils wohnt in Kiel und segelt jedes Wochenende."),
    _m("nils", "nils_job", "2025-01-10", "Nils ist Netzwerktechniker bei den Stadtwerken."),
    _m("nils", "nils_geburtstag", "2025-01-10", "Nils hat am 9. September Geburtstag."),
    _m("katrin", "katrin_wohnort", "2025-04-01", "Katrin wohnt in Stuttgart und schwäbelt im Sprachchat."),
    _m("katrin", "katrin_backen", "2025-04-01", "Katrin backt jeden Sonntag und postet die Fotos in #kochecke."),
    _m("katrin", "katrin_job", "2025-04-01", "Katrin ist Krankenpflegerin in der Notaufnahme."),
    _m("katrin", "katrin_geburtstag", "2025-04-01", "Katrin hat am 14. März Geburtstag."),
]

_DE_QUESTIONS: list[Question] = [
    # --- single ------------------------------------------------------------------------------------------
    _q("single", "wann ist spieleabend?", "spieleabend", "2026-11-05"),
    _q("single", "ich sehe nur einen channel, was muss ich tun", "kanal_willkommen", "2026-11-05"),
    _q("single", "darf man hier englisch schreiben?", "regel_sprache", "2026-11-06"),
    _q("single", "wo poste ich bilder von meinem hund", "kanal_viecher", "2026-11-06"),
    _q("single", "ab wie viel jahren darf man hier mitmachen", "regel_alter", "2026-11-07"),
    _q("single", "wer ist hier der chef", "admin", "2026-11-07"),
    _q("single", "wie bringe ich brezel dazu, alles über mich zu vergessen", "bot_vergessen", "2026-11-08"),
    _q("single", "warum antwortet der bot nachts nicht", "bot_ruhezeit", "2026-11-08"),
    _q("single", "was hat es mit dem patzerwürfel auf sich", "witz_patzerwürfel", "2026-11-09"),
    _q("single", "wie sieht unser maskottchen aus", "maskottchen", "2026-11-09"),
    _q("single", "wie kann ich für die serverkosten spenden", "spenden", "2026-11-10"),
    _q("single", "wo kann ich mal meinen frust loswerden", "kanal_kummerkasten", "2026-11-10"),
    _q("single", "wen muss ich fragen, um beim klötzchenspiel mitzubauen", "minecraft", "2026-11-11"),
    _q("single", "wo darf ich auf meinen twitch-kanal hinweisen", "regel_werbung", "2026-11-11"),
    _q("single", "wie groß ist die community mittlerweile", "mitglieder_2026", "2026-11-12"),
    _q("single", "wer sind grad die mods", "mods", "2026-11-12"),
    _q("single", "wo melde ich fehler vom bot", "kanal_bugs", "2026-11-13"),
    _q("single", "wo ist das nächste treffen", "treffen_plan", "2026-11-13"),
    _q("single", "welcher sprachkanal ist zum lernen", "kanal_bibliothek", "2026-11-14"),
    _q("single", "was heißt 'kurz kaffee holen' bei euch", "witz_kaffee", "2026-11-14"),
    _q("single", "wann spielt die dsa-runde inzwischen", "dsa", "2026-11-15"),
    # --- member --------------------------------------------------------------------------------------
    _q("member", "wo wohnt sophie", "sophie_wohnort", "2026-11-05"),
    _q("member", "wie heißt mias hund", "mia_hund", "2026-11-06"),
    _q("member", "was arbeitet ayşe", "ayse_job", "2026-11-07"),
    _q("member", "wann hab ich geburtstag?", "tobi_geburtstag", "2026-11-08", asker="tobi"),
    _q("member", "welche pronomen benutze ich nochmal", "sophie_pronomen", "2026-11-09", asker="sophie"),
    _q("member", "wie heißen meine fellnasen nochmal", "hannah_katzen", "2026-11-10", asker="hannah"),
    _q("member", "welchen rang hat tobi in rocket league", "tobi_rl", "2026-11-11"),
    _q("member", "was macht nils am wochenende", "nils_wohnort", "2026-11-12"),
    _q("member", "welche sprachen spricht emre", "emre_sprachen", "2026-11-13"),
    _q("member", "was für tiere hat jana", "jana_pferd", "2026-11-14"),
    _q("member", "wer ist bei uns der hobbybäcker", "katrin_backen", "2026-11-15"),
    _q("member", "wo arbeitet kai", "kai_job", "2026-11-15"),
    _q("member", "wie spreche ich kai richtig an", "kai_pronomen", "2026-11-16"),
    _q("member", "was mach ich beruflich nochmal", "jana_job", "2026-11-16", asker="jana"),
    _q("member", "in welcher stadt lebt felix inzwischen", "felix_wohnort", "2026-11-16"),
    # --- multi -------------------------------------------------------------------------------------------
    _q("multi", "wer von euch arbeitet in der pflege", ("mia_job", "katrin_job", "tobi_job"), "2026-11-05"),
    _q("multi", "wer hat am 4. juni geburtstag", ("lukas_geburtstag", "emre_geburtstag"), "2026-11-06"),
    _q("multi", "wer hat alles am 30. oktober geburtstag", ("tobi_geburtstag", "ayse_geburtstag"), "2026-11-07"),
    _q("multi", "wer hat hier katzen", ("lukas_katze", "hannah_katzen", "sophie_kater"), "2026-11-08"),
    _q("multi", "wer hat am 9. september geburtstag", ("jana_geburtstag", "nils_geburtstag"), "2026-11-09"),
    _q("multi", "wer feiert am 14. märz", ("mia_geburtstag", "katrin_geburtstag"), "2026-11-10"),
    _q("multi", "wer spricht türkisch", ("emre_sprachen", "ayse_sprachen"), "2026-11-11"),
    _q("multi", "wie oft haben emre und tobi das turnier gewonnen", ("rl_2025_03", "rl_2025_08"), "2026-11-12"),
    _q("multi", "welche mods haben einen hund", ("mods", "mia_hund"), "2026-11-13"),
    _q("multi", "welche abende sind fest für pen and paper und partyspiele", ("dsa", "spieleabend"), "2026-11-14"),
    # --- temporal ------------------------------------------------------------------------------------------
    _t(
        "wer hat letzten monat das rocket league turnier gewonnen",
        "rl_2026_10",
        "2026-11-10",
        "2026-10",
        ("rl_2026_09", "rl_2025_10"),
    ),
    _t("wer hat im juni letzten jahres das turnier gewonnen", "rl_2025_06", "2026-07-05", "2025-06", "rl_2026_06"),
    _t(
        "wer hat vorgestern das turnier gewonnen",
        "rl_2026_04",
        "2026-04-27",
        "2026-04-25",
        ("rl_2025_04", "rl_2026_02"),
    ),
    _t("was war mit dem turnier im februar", "rl_2026_02", "2026-03-10", "2026-02", ("rl_2025_12",)),
    _t("wer hat letztes jahr das weihnachtsturnier geholt", "rl_2025_12", "2026-11-16", "2025", ("rl_2026_10",)),
    _t("an welchem tag war dsa anfang 2025", "dsa_alt", "2026-11-16", "2025-01-01:2025-03-31", "dsa"),
    _t("wie hoch war das wichtelbudget letztes jahr", "wichteln_2025", "2026-11-16", "2025", "wichteln_2026"),
    _t(
        "wo haben wir uns letzten sommer im echten leben gesehen",
        "treffen_hamburg",
        "2026-11-16",
        "2026-06-01:2026-08-31",
        ("treffen_köln",),
    ),
    _t("worauf lief brezel letztes jahr", "bot_host_alt", "2026-11-16", "2025", "bot_host"),
    _t("wer war anfang 2025 im modteam", "mods_alt", "2026-11-16", "2025-01-01:2025-03-31", "mods"),
    _t(
        "wo hat felix im frühling letzten jahres gewohnt",
        "felix_wohnort_alt",
        "2026-11-16",
        "2025-03-01:2025-05-31",
        "felix_wohnort",
    ),
    _t(
        "wie lange galt die spoilerregel vor einem jahr",
        "regel_spoiler_alt",
        "2026-01-20",
        "2024-12-01:2025-02-28",
        "regel_spoiler",
    ),
    _t(
        "wie viele waren wir im herbst vor einem jahr",
        "mitglieder_2025",
        "2026-11-16",
        "2025-09-01:2025-11-30",
        "mitglieder_2026",
    ),
    _t(
        "was passierte anfang 2025 nach drei verwarnungen",
        "regel_verwarnungen_alt",
        "2026-11-16",
        "2025-01-01:2025-03-31",
        "regel_verwarnungen",
    ),
]

# =====================================================================================================
# ja: ゆるゲー部
# =====================================================================================================

_JA_MEMBERS: dict[str, tuple[str, str]] = {
    "yuki": ("200000000000000401", "ゆうき"),
    "sakura": ("200000000000000402", "さくら"),
    "kenta": ("200000000000000403", "健太"),
    "aoi": ("200000000000000404", "あおい"),
    "riku": ("200000000000000405", "リク"),
    "misaki": ("200000000000000406", "みさき"),
    "haru": ("200000000000000407", "ハル"),
    "nana": ("200000000000000408", "なな"),
    "sota": ("200000000000000409", "そうた"),
    "koharu": ("200000000000000410", "こはる"),
    "takumi": ("200000000000000411", "たくみ"),
    "emi": ("200000000000000412", "エミ"),
}

_JA_FACTS: list[Fact] = [
    # --- サーバーとルール ---------------------------------------------------------------------------------
    _s("server_start", "2025-04-01", "ゆるゲー部は2025年4月1日に健太が立ち上げたサーバーです。"),
    _s("admin", "2025-04-01", "管理人は健太で、管理者権限を持ってるのも健太だけ。"),
    _s("rule_netabare_old", "2025-04-01", "ネタバレは発売から1週間、スポイラータグ必須でお願いします。"),
    _s("rule_netabare", "2026-01-10", "2026年1月からネタバレ期間が1週間から2週間に延びました。"),
    _s("rule_senden", "2025-04-01", "配信やショップの宣伝は#宣伝チャンネルだけ、週1回までならOK。"),
    _s("rule_age", "2025-04-01", "参加できるのは18歳以上のみです。"),
    _s("rule_vc_rec", "2025-06-01", "VCの録音やクリップは、その場にいる全員がOKしたときだけ。"),
    _s("rule_warn", "2025-04-01", "警告が3回たまるとキックになります。"),
    _s("rule_nsfw", "2025-04-01", "NSFWは全面禁止。アイコンやステータスメッセージもダメです。"),
    _s("rule_seiji", "2025-04-01", "政治や宗教の話題はトラブルになりやすいので禁止。"),
    # --- チャンネル -----------------------------------------------------------------------------------------
    _s(
        "ch_hajimeni",
        "2025-04-01",
        "#はじめにでルールを読んでおにぎりの絵文字を押すと、ほかのチャンネルが見えるようになる。",
    ),
    _s("ch_zatsudan", "2025-04-01", "#雑談はなんでも話していいメインのチャンネル。"),
    _s("ch_uchinoko", "2025-04-01", "ペットの写真は#うちの子に貼ってね。"),
    _s("ch_meshitero", "2025-04-05", "#飯テロは手料理や夜食の写真を貼るチャンネル。"),
    _s("ch_guchi", "2025-04-01", "#ぐち部屋は愚痴を吐き出す場所なので、アドバイスは求められたときだけ。"),
    _s("ch_oshirase", "2025-04-01", "運営からのお知らせは#お知らせに出ます。書き込めるのはモデレーターだけ。"),
    _s("ch_bug", "2025-05-01", "ポン太の不具合は#ポン太バグ報告にスクショ付きで報告してください。"),
    _s("ch_vc", "2025-04-01", "VCは「まったりVC」「作業VC」「ゲームVC」の3つがある。"),
    _s("ch_sagyou", "2025-04-01", "作業VCはミュート推奨で、勉強や作業しながらつなぐための部屋。"),
    _s("ch_oekaki", "2025-04-01", "#お絵描きには完成した絵でも落書きでも気軽に貼ってOK。"),
    # --- ポン太（bot） -------------------------------------------------------------------------------------
    _s("bot_name", "2025-04-02", "ポン太はメンションするか「ポン太」って呼びかけると返事するbot。"),
    _s("bot_quiet", "2025-05-10", "ポン太は深夜2時から朝7時まで#雑談では静かにしてる。"),
    _s("bot_birthday", "2025-04-02", "誕生日の人には、ポン太が朝9時に#雑談でお祝いメッセージを送る。"),
    _s("bot_forget", "2025-10-01", "「/わすれて」と打つと、ポン太が覚えてるあなたの情報を全部消します。"),
    _s("bot_host_old", "2025-04-02", "ポン太はハルの家にある古いノートPCで動いてる。"),
    _s("bot_down", "2025-08-12", "2025年8月の猛暑でハルのPCが熱暴走して、ポン太が2日間止まった。"),
    _s("bot_host", "2026-03-15", "2026年3月からポン太はさくらのVPSに引っ越しました。費用は寄付から。"),
    _s("kifu", "2026-03-15", "サーバー代の寄付はKo-fiから。リンクは#お知らせに貼ってあります。"),
    # --- 運営とロール ---------------------------------------------------------------------------------------
    _s("mods_old", "2025-04-01", "モデレーターはあおい、リク、ハルの3人。"),
    _s("haru_intai", "2025-11-28", "ハルは転職で忙しくなって、2025年11月末にモデレーターを引退した。"),
    _s("mods", "2025-12-01", "2025年12月からのモデレーターはあおい、リク、こはるの3人。"),
    _s("role_joren", "2025-04-02", "ポン太のレベルが10になると「常連」ロールが自動でもらえる。"),
    _s("role_helper", "2025-06-01", "お手伝いロールの人は名前が緑色で、1時間までのタイムアウトができる。"),
    # --- 定期イベント ---------------------------------------------------------------------------------------
    _s("splat_old", "2025-04-05", "スプラのプラベは毎週金曜の22時からゲームVCで。"),
    _s("splat_poll", "2025-08-28", "プラベの曜日アンケートは、土曜派が21票で勝ちました。"),
    _s("splat", "2025-09-06", "2025年9月からスプラのプラベは土曜21時スタートに変わった。"),
    _s("mh_shuukai", "2025-04-10", "モンハンの集会は毎週水曜21時から、リーダーはたくみ。"),
    _s("mk_info", "2025-05-01", "マリカ大会は毎月第1日曜の20時から、主催はそうた。"),
    _s("oekaki_info", "2025-04-01", "お絵描き企画は毎月1日にお題が発表されて、締め切りは月末。"),
    # --- マリカ大会の優勝者 ---------------------------------------------------------------------------------
    _s("mk_2025_06", "2025-06-01", "6月のマリカ大会はリクが優勝、初代チャンピオンに。"),
    _s("mk_2025_07", "2025-07-06", "7月のマリカ大会はエミが優勝して、リクは2位だった。"),
    _s("mk_2025_09", "2025-09-07", "9月のマリカ大会の優勝はたくみ。"),
    _s("mk_2025_11", "2025-11-02", "11月のマリカ大会では、なながまさかの初優勝。"),
    _s("mk_2026_01", "2026-01-04", "新年一発目のマリカ大会は健太が優勝した。"),
    _s("mk_2026_03", "2026-03-01", "3月のマリカ大会でリクが2回目の優勝。"),
    _s("mk_2026_05", "2026-05-03", "5月のマリカ大会はこはるが優勝、レポート締め切りの前日なのに。"),
    _s("mk_2026_07", "2026-07-05", "7月の大会はゆうきが最終レースで逆転優勝した。"),
    _s("mk_2026_09", "2026-09-06", "9月のマリカ大会はエミが2回目の優勝。"),
    _s("mk_2026_10", "2026-10-04", "10月のマリカ大会はハロウィン仕様で、優勝は主催のそうた本人。"),
    # --- お絵描き企画のお題 ---------------------------------------------------------------------------------
    _s("oekaki_2025_06", "2025-06-01", "6月のお絵描きのお題は「雨の日」。"),
    _s("oekaki_2025_08", "2025-08-01", "8月のお題は「夏祭り」です。"),
    _s("oekaki_2025_12", "2025-12-01", "12月のお絵描き企画のお題は「こたつ」。"),
    _s("oekaki_2026_06", "2026-06-01", "6月のお絵描きお題は紫陽花に決定！"),
    _s("oekaki_2026_10", "2026-10-01", "10月のお題は「おばけ屋敷」、みんな気合い入ってる。"),
    # --- 毎年のイベント、オフ会、節目 ------------------------------------------------------------------------
    _s("horror_2025", "2025-08-16", "2025年の夏はホラゲ実況リレーをやって、みんなで8時間つないだ。"),
    _s("horror_2026", "2026-08-15", "2026年夏のホラゲ実況リレーは12時間に延長、最後まで起きてたのはエミだけ。"),
    _s("bounenkai_2025", "2025-12-27", "2025年の忘年会は12月27日にVCでやって、30人くらい集まった。"),
    _s("bounenkai_2026", "2026-11-05", "2026年の忘年会は12月26日の土曜、今年は東京でオフラインの予定。"),
    _s("offkai_osaka", "2025-11-15", "初めてのオフ会は2025年11月に大阪で、たこ焼きパーティーをした。"),
    _s("offkai_tokyo", "2026-05-16", "2回目のオフ会は2026年5月に東京で、秋葉原のボドゲカフェに集合した。"),
    _s("offkai_plan", "2026-10-20", "次のオフ会は2027年の春に福岡でやる予定。幹事はたくみ。"),
    _s("members_2025", "2025-10-01", "2025年10月にメンバーが300人を突破した。"),
    _s("members_2026", "2026-08-20", "2026年8月でメンバーは500人を超えました。"),
    # --- ネタ、マスコット -----------------------------------------------------------------------------------
    _s("onigiri_poll", "2025-07-20", "おにぎりの具アンケートは鮭が1位、ツナマヨが僅差で2位だった。"),
    _s(
        "neta_oyasumi", "2025-06-15", "リクがVC中に寝落ちすると、みんなで「おやすみリク」ってスタンプを押すのがお約束。"
    ),
    _s("neta_kentaru", "2025-09-10", "健太が#お知らせに晩ご飯の写真を誤爆して以来、誤爆することを「健太る」と言う。"),
    _s("dendou_old", "2025-04-20", "草のリアクションが10個ついたメッセージは#殿堂入りに転載される。"),
    _s("dendou", "2026-04-01", "2026年4月から、殿堂入りに必要な草リアクションが10個から15個に増えた。"),
    _s("mascot", "2025-05-05", "マスコットはヘッドホンをつけたたぬきの「ぽんぽこ」で、描いたのはなな。"),
    # --- メンバー -------------------------------------------------------------------------------------------
    _m("yuki", "yuki_place", "2025-04-03", "ゆうきは札幌に住んでて、冬はずっと雪かきしてる。"),
    _m("yuki", "yuki_job", "2025-04-03", "ゆうきは高校で数学の先生をしている。"),
    _m("yuki", "yuki_birthday", "2025-04-03", "ゆうきの誕生日は8月10日。"),
    _m("yuki", "yuki_buki", "2025-04-05", "ゆうきはスプラだとチャージャー使い。"),
    _m("sakura", "sakura_place", "2025-04-01", "さくらは福岡出身で、今は東京で一人暮らし。"),
    _m("sakura", "sakura_job", "2025-04-01", "さくらはWebデザイナーとして働いてる。"),
    _m("sakura", "sakura_cat", "2025-04-08", "さくらの猫は三毛猫のみかん。"),
    _m("sakura", "sakura_birthday", "2025-04-01", "さくらの誕生日は3月27日。"),
    _m("kenta", "kenta_place", "2025-04-01", "健太は大阪に住んでて、VCではずっと関西弁。"),
    _m("kenta", "kenta_job", "2025-04-01", "健太はシステムエンジニアで、ポン太を作った本人。"),
    _m("kenta", "kenta_birthday", "2025-04-01", "健太の誕生日は8月10日。"),
    _m("kenta", "kenta_mh", "2025-04-01", "健太はモンハンではハンマーしか使わない。"),
    _m("aoi", "aoi_place", "2025-04-01", "あおいは名古屋に住んでて、味噌カツの布教に熱心。"),
    _m("aoi", "aoi_job", "2025-04-01", "あおいは保育園で保育士をしている。"),
    _m("aoi", "aoi_cat_old", "2025-04-10", "あおいは黒猫のクロを飼ってる。"),
    _m("aoi", "aoi_cats", "2026-06-10", "あおいは2026年6月に子猫のシロを迎えて、猫が2匹になった。"),
    _m("riku", "riku_place", "2025-04-02", "リクは仙台で一人暮らしをしている大学生。"),
    _m("riku", "riku_study", "2025-04-02", "リクは大学で情報工学を勉強中。"),
    _m("riku", "riku_birthday", "2025-04-02", "リクの誕生日は12月3日。"),
    _m("riku", "riku_buki", "2025-04-05", "リクはスプラでローラーばっかり使ってる。"),
    _m("misaki", "misaki_job", "2025-04-10", "みさきは病院の看護師で、夜勤が多い。"),
    _m("misaki", "misaki_place", "2025-04-10", "みさきは横浜に住んでいる。"),
    _m("misaki", "misaki_dog", "2025-04-10", "みさきはトイプードルのココを飼ってる。"),
    _m("misaki", "misaki_birthday", "2025-04-10", "みさきの誕生日は5月5日、こどもの日。"),
    _m("haru", "haru_place", "2025-04-01", "ハルは京都の町家に住んでいる。"),
    _m("haru", "haru_job_old", "2025-04-01", "ハルはゲーム会社でデバッガーとして働いている。"),
    _m("haru", "haru_job", "2025-11-20", "ハルは2025年11月に転職して、今はインディーゲームのプログラマー。"),
    _m("haru", "haru_birthday", "2025-04-01", "ハルの誕生日は2月14日のバレンタイン。"),
    _m("nana", "nana_job", "2025-04-20", "ななはフリーランスのイラストレーター。"),
    _m("nana", "nana_place", "2025-04-20", "ななは沖縄に住んでる。"),
    _m("nana", "nana_birthday", "2025-04-20", "ななの誕生日は7月7日の七夕。"),
    _m("nana", "nana_tool", "2025-05-05", "ななはiPadとCLIP STUDIO PAINTで絵を描いてる。"),
    _m("sota", "sota_place", "2025-04-15", "そうたは広島在住の熱烈なカープファン。"),
    _m("sota", "sota_job", "2025-04-15", "そうたは市役所で働く公務員。"),
    _m("sota", "sota_birthday", "2025-04-15", "そうたの誕生日は12月3日。"),
    _m("sota", "sota_dog", "2025-05-01", "そうたは柴犬のこむぎを飼っている。"),
    _m("koharu", "koharu_study", "2025-05-01", "こはるは看護学生で、今は病院実習で忙しい。"),
    _m("koharu", "koharu_place", "2025-05-01", "こはるは神戸に住んでいる。"),
    _m("koharu", "koharu_birthday", "2025-05-01", "こはるの誕生日は5月5日。"),
    _m("koharu", "koharu_kankoku", "2025-05-01", "こはるは韓国語を勉強中で、K-POPの話になると止まらない。"),
    _m("takumi", "takumi_place", "2025-04-10", "たくみは福岡に住んでいる。"),
    _m("takumi", "takumi_job", "2025-04-10", "たくみは居酒屋の店長をやってる。"),
    _m("takumi", "takumi_cat", "2025-04-12", "たくみはスコティッシュフォールドのむぎを飼っている。"),
    _m("takumi", "takumi_mh", "2025-04-10", "たくみはモンハンでは太刀一筋。"),
    _m("emi", "emi_place", "2025-06-01", "エミはカナダのバンクーバー在住で、日本との時差は16〜17時間。"),
    _m("emi", "emi_lang", "2025-06-01", "エミは日本語と英語のバイリンガル。"),
    _m("emi", "emi_job", "2025-06-01", "エミはカフェでバリスタをしている。"),
    _m("emi", "emi_birthday", "2025-06-01", "エミの誕生日は10月31日、ハロウィン生まれ。"),
]

_JA_QUESTIONS: list[Question] = [
    # --- single ------------------------------------------------------------------------------------------
    _q("single", "プラベって今は何曜日だっけ？", "splat", "2026-11-08"),
    _q("single", "ほかのチャンネル見えないんだけど、どうすればいい？", "ch_hajimeni", "2026-11-08"),
    _q("single", "未成年でも入っていい？", "rule_age", "2026-11-09"),
    _q("single", "ペットの写真ってどこに貼ればいい？", "ch_uchinoko", "2026-11-09"),
    _q("single", "このサーバーの管理人って誰？", "admin", "2026-11-10"),
    _q("single", "ポン太に自分の情報を消してもらうには？", "bot_forget", "2026-11-10"),
    _q("single", "寝る時間帯にうちのロボが黙ってるのはなぜ？", "bot_quiet", "2026-11-11"),
    _q("single", "「健太る」ってどういう意味？", "neta_kentaru", "2026-11-11"),
    _q("single", "うちのゆるキャラって何て子？", "mascot", "2026-11-12"),
    _q("single", "運営費をカンパしたいんだけどどうすれば？", "kifu", "2026-11-12"),
    _q("single", "作業用のVCってある？", "ch_sagyou", "2026-11-13"),
    _q("single", "嫌なことあったとき、どこで聞いてもらえる？", "ch_guchi", "2026-11-13"),
    _q("single", "モンハンの集会っていつやってる？", "mh_shuukai", "2026-11-14"),
    _q("single", "今のモデレータって誰？", "mods", "2026-11-14"),
    _q("single", "次のオフ会ってどこでやるの？", "offkai_plan", "2026-11-15"),
    _q("single", "殿堂入りって草いくつ必要？", "dendou", "2026-11-15"),
    _q("single", "作ったごはん自慢したいんだけど、どこがいい？", "ch_meshitero", "2026-11-16"),
    _q("single", "イカのゲームの集まりって何時から？", "splat", "2026-11-16"),
    _q("single", "うちって何人くらいいるの？", "members_2026", "2026-11-17"),
    _q("single", "宣伝してもいいチャンネルある？", "rule_senden", "2026-11-17"),
    _q("single", "お絵描き企画の締め切りっていつ？", "oekaki_info", "2026-11-18"),
    _q("single", "何度注意されたら追い出される？", "rule_warn", "2026-11-18"),
    _q("single", "みんなの声を保存して動画にしてもいい？", "rule_vc_rec", "2026-11-19"),
    # --- member --------------------------------------------------------------------------------------
    _q("member", "さくらんちのにゃんこ、名前なに？", "sakura_cat", "2026-11-08"),
    _q("member", "健太ってどこ住み？", "kenta_place", "2026-11-09"),
    _q("member", "みさきって何の仕事してるんだっけ", "misaki_job", "2026-11-10"),
    _q("member", "私の誕生日っていつだっけ？", "nana_birthday", "2026-11-11", asker="nana"),
    _q("member", "俺ってスプラで何使ってることになってる？", "riku_buki", "2026-11-12", asker="riku"),
    _q("member", "リクって大学で何勉強してるの？", "riku_study", "2026-11-13"),
    _q("member", "エミのとこって日本と何時間ずれてる？", "emi_place", "2026-11-14"),
    _q("member", "ハルの今の仕事って何？", "haru_job", "2026-11-15"),
    _q("member", "ななの作業環境って何？", "nana_tool", "2026-11-16"),
    _q("member", "そうたんちのわんこ、名前なんだっけ", "sota_dog", "2026-11-17"),
    _q("member", "こはるって看護の勉強してるんだっけ？", "koharu_study", "2026-11-18"),
    _q("member", "あおいって子猫を迎えたんだっけ？", "aoi_cats", "2026-11-19"),
    _q("member", "僕の職業ってなんて覚えてる？", "sota_job", "2026-11-20", asker="sota"),
    _q("member", "たくみの猫ってスコティッシュ？", "takumi_cat", "2026-11-08"),
    _q("member", "ゆうきって先生なんだっけ？", "yuki_job", "2026-11-09"),
    _q("member", "みさきのとこの犬ってトイプー？", "misaki_dog", "2026-11-10"),
    _q("member", "沖縄住みの人って誰だっけ", "nana_place", "2026-11-11"),
    _q("member", "関西弁でしゃべってるのって誰？", "kenta_place", "2026-11-12"),
    _q("member", "私ってどの街にいるんだっけ", "misaki_place", "2026-11-13", asker="misaki"),
    _q("member", "居酒屋やってるのって誰？", "takumi_job", "2026-11-14"),
    # --- multi -------------------------------------------------------------------------------------------
    _q("multi", "看護系の人って誰がいる？", ("misaki_job", "koharu_study"), "2026-11-08"),
    _q("multi", "8月10日が誕生日の人は？", ("yuki_birthday", "kenta_birthday"), "2026-11-09"),
    _q("multi", "12月3日生まれって誰？", ("riku_birthday", "sota_birthday"), "2026-11-10"),
    _q("multi", "5月5日が誕生日なのは誰と誰？", ("misaki_birthday", "koharu_birthday"), "2026-11-11"),
    _q("multi", "猫飼ってる人教えて", ("sakura_cat", "aoi_cats", "takumi_cat"), "2026-11-12"),
    _q("multi", "わんこがいるのは誰と誰？", ("misaki_dog", "sota_dog"), "2026-11-13"),
    _q("multi", "マリカ大会でリクは何回優勝した？", ("mk_2025_06", "mk_2026_03"), "2026-11-14"),
    _q("multi", "エミって何回マリカで勝ってる？", ("mk_2025_07", "mk_2026_09"), "2026-11-15"),
    _q("multi", "福岡に縁がある人って誰？", ("sakura_place", "takumi_place"), "2026-11-16"),
    _q("multi", "スプラのブキ、ゆうきとリクは何使ってる？", ("yuki_buki", "riku_buki"), "2026-11-17"),
    _q("multi", "ポン太を作った人と、今どこで動いてるか教えて", ("kenta_job", "bot_host"), "2026-11-18"),
    _q("multi", "オフ会って今までどこでやった？", ("offkai_osaka", "offkai_tokyo"), "2026-11-19"),
    # --- temporal ------------------------------------------------------------------------------------------
    _t("先月のマリカ大会って誰が優勝した？", "mk_2026_09", "2026-10-12", "2026-09", ("mk_2026_10", "mk_2025_09")),
    _t("去年の7月のマリカ大会の優勝者は？", "mk_2025_07", "2026-07-20", "2025-07", "mk_2026_07"),
    _t("昨日のマリカ大会、誰が勝った？", "mk_2026_05", "2026-05-04", "2026-05-03", ("mk_2026_03",)),
    _t("2か月前のマリカ大会の優勝って誰だっけ", "mk_2026_01", "2026-03-10", "2026-01", ("mk_2026_03", "mk_2025_11")),
    _t("去年の6月のお絵描きのお題なんだった？", "oekaki_2025_06", "2026-06-05", "2025-06", "oekaki_2026_06"),
    _t("今月のお題は？", "oekaki_2026_06", "2026-06-05", "2026-06", "oekaki_2025_06"),
    _t("去年の夏のホラゲリレーって何時間やった？", "horror_2025", "2026-11-10", "2025-06-01:2025-08-31", "horror_2026"),
    _t("去年の忘年会って何人来た？", "bounenkai_2025", "2026-11-10", "2025", "bounenkai_2026"),
    _t("今年の忘年会っていつ？", "bounenkai_2026", "2026-11-10", "2026", "bounenkai_2025"),
    _t(
        "2025年の春ってプラベ何曜日だった？",
        "splat_old",
        "2026-11-10",
        "2025-03-01:2025-05-31",
        ("splat", "splat_poll"),
    ),
    _t("去年ポン太ってどこで動いてた？", "bot_host_old", "2026-11-10", "2025", "bot_host"),
    _t("去年の春のモデレーターって誰だった？", "mods_old", "2026-11-10", "2025-03-01:2025-05-31", "mods"),
    _t("去年のオフ会ってどこでやった？", "offkai_osaka", "2026-11-10", "2025", "offkai_tokyo"),
    _t("ハルって去年の春は何の仕事してた？", "haru_job_old", "2026-11-10", "2025-03-01:2025-05-31", "haru_job"),
    _t("去年の時点であおいって猫何匹飼ってた？", "aoi_cat_old", "2026-11-10", "2025", "aoi_cats"),
    _t("去年は殿堂入りに草が何個必要だった？", "dendou_old", "2026-11-10", "2025", "dendou"),
]

# =====================================================================================================
# The servers, and the check
# =====================================================================================================

SERVERS: dict[str, dict] = {
    "en": {
        "name": "Tidepool Tavern",
        "language": "english",
        "facts": _EN_FACTS,
        "members": _EN_MEMBERS,
        "questions": _EN_QUESTIONS,
    },
    "nl": {
        "name": "Polderpixels",
        "language": "dutch",
        "facts": _NL_FACTS,
        "members": _NL_MEMBERS,
        "questions": _NL_QUESTIONS,
    },
    "de": {
        "name": "Feierabendzocker",
        "language": "german",
        "facts": _DE_FACTS,
        "members": _DE_MEMBERS,
        "questions": _DE_QUESTIONS,
    },
    "ja": {
        "name": "ゆるゲー部",
        "language": "japanese",
        "facts": _JA_FACTS,
        "members": _JA_MEMBERS,
        "questions": _JA_QUESTIONS,
    },
}

MINIMUM_SIZES: dict[str, tuple[int, int]] = {"en": (320, 180), "nl": (80, 40), "de": (80, 40), "ja": (80, 40)}
CATEGORIES = ("single", "multi", "temporal", "member")
MIN_CATEGORY_SHARE = 0.15
MIN_OVERLAP_SHARE = 0.60
MIN_PARAPHRASE_SHARE = 0.20
MIN_SPAN_MONTHS = 14

STOPWORDS: dict[str, set[str]] = {
    "en": set("""
        a about above after again against all am an and any are as at be because been before being below
        between both but by can could did do does doing down during each few for from further had has have
        having he her here hers herself him himself his how i if in into is it its itself just me more most
        my myself no nor not now of off on once only or other our ours ourselves out over own same she
        should so some such than that the their theirs them themselves then there these they this those
        through to too under until up very was we were what when where which while who whom why will with
        would you your yours yourself yourselves us got get gets s t d ll m re ve don doesn didn isn wasn
        aren weren won wouldn shouldn couldn whats wheres whos hows whens im hey hi pls plz please btw lol ok
        okay anyone someone anybody somebody u ur rn yeah again also still even any else one ones lot
        """.split()),
    "nl": set("""
        de het een en van in op te dat die dit deze is zijn was waren ben bent heb hebt heeft hebben had
        met voor aan om bij naar uit als maar of dan ook nog al wel niet geen er hier daar wat wie waar
        wanneer hoe welke welk waarom ik je jij u hij zij ze wij we jullie mij me mijn m'n jouw jou zijn
        haar hun ons onze men zo toch even eigenlijk alweer weer nou hoor hè he ja nee zal zou kan kun
        kunnen mag moet moeten wil wordt worden werd doe doen doet gaat gaan iets iemand alles over tot
        na door ook s t jullie elkaar zich hen die dus eens nu
        """.split()),
    "de": set("""
        der die das den dem des ein eine einen einem einer eines und oder aber auch noch schon nur mal
        doch ja nein nicht kein keine keinen ist sind war waren bin bist hat habe hab hast haben hatte
        wird werden wurde kann können darf dürfen muss müssen soll will wollen mit von zu zum zur für auf
        an am im in bei nach aus über um wie was wer wo wann warum welche welcher welches welchen ich du
        er sie es wir ihr mich mir dich dir ihn ihm uns euch sein seine ihre ihren mein meine meinen
        dein deine man hier da dort so dann denn eigentlich nochmal gerade gibt es s laut dazu alles
        etwas jemand einfach eigentlich heute jetzt bitte hallo über für unser unsere unseren euer eure
        andere anderen euch mal bei beim
        """.split()),
    "ja": {"a", "the", "is", "of", "and", "to", "in"},
}

_STRICT_SUFFIXES: dict[str, tuple[str, ...]] = {
    "en": ("ies", "ing", "ed", "es", "er", "s"),
    "nl": ("tjes", "jes", "en", "s", "e", "t"),
    "de": ("ern", "en", "er", "es", "e", "n", "s", "t"),
}
_LIGHT_SUFFIXES: dict[str, tuple[str, ...]] = {
    "en": ("s",),
    "nl": ("en", "s"),
    "de": ("en", "e", "n", "s"),
}
_JA_RUN = re.compile(r"[\u4e00-\u9fff\u3005\u30a1-\u30fa\u30fc]+")
_JA_COMMON_KANJI = set("年月日時分人何今回")
_TIME_WORDS: dict[str, re.Pattern] = {
    "en": re.compile(
        r"\b(last|ago|yesterday|this|next|back in|before|spring|summer|autumn|winter|christmas|halloween|"
        r"january|february|march|april|may|june|july|august|september|october|november|december|20\d\d)\b"
    ),
    "nl": re.compile(
        r"\b(vorige|vorig|afgelopen|geleden|gisteren|eergisteren|deze maand|dit jaar|begin|voor|zomer|winter|"
        r"januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december|20\d\d)\b"
    ),
    "de": re.compile(
        r"\b(letzten|letztes|letzte|vorigen|voriges|vor|gestern|vorgestern|diesen|dieses|anfang|sommer|herbst|"
        r"winter|frühjahr|frühling|januar|februar|märz|april|mai|juni|juli|august|september|oktober|"
        r"november|dezember|20\d\d)\b"
    ),
    "ja": re.compile(r"(先月|今月|去年|今年|昨日|先週|前|春|夏|秋|冬|年末|20\d\d年|\d+月)"),
}


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_FOLDED_STOPWORDS: dict[str, set[str]] = {lang: {_fold(word) for word in words} for lang, words in STOPWORDS.items()}


def _stem(word: str, suffixes: tuple[str, ...]) -> str:
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not (suffix == "s" and word.endswith("ss")):
            return word[: -len(suffix)]
    return word


def _latin_tokens(text: str, lang: str) -> list[str]:
    stopwords = _FOLDED_STOPWORDS[lang]
    return [token for token in re.findall(r"[^\W_]+", _fold(text)) if token not in stopwords]


def content_units(text: str, lang: str) -> set[str]:
    """What the overlap share compares: content words (lightly stemmed), or kanji/katakana bigrams."""
    if lang == "ja":
        folded = unicodedata.normalize("NFKC", text).lower()
        units = {run[i : i + 2] for run in _JA_RUN.findall(folded) for i in range(len(run) - 1)}
        units |= {t for t in re.findall(r"[a-z0-9]+", folded) if t not in _FOLDED_STOPWORDS["ja"]}
        return units
    return {_stem(token, _LIGHT_SUFFIXES[lang]) for token in _latin_tokens(text, lang)}


def _strict_units(text: str, lang: str) -> set[str]:
    if lang == "ja":
        folded = unicodedata.normalize("NFKC", text).lower()
        singles = {ch for run in _JA_RUN.findall(folded) for ch in run if "\u4e00" <= ch <= "\u9fff"}
        return content_units(text, lang) | (singles - _JA_COMMON_KANJI)
    units = set()
    for token in _latin_tokens(text, lang):
        stem = _stem(token, _STRICT_SUFFIXES[lang])
        if lang == "en" and stem.endswith("e") and len(stem) > 3:
            stem = stem[:-1]
        units.add(stem)
    return units


def _strictly_shared(asked: set[str], answer: set[str], lang: str) -> set[str]:
    shared = asked & answer
    if lang != "ja":  # compound words: "turnier" inside "monatsturnier", "promo" inside "selfpromo"
        shared |= {a for a in asked for b in answer if min(len(a), len(b)) >= 5 and (a in b or b in a)}
    return shared


def _key_text(key: str) -> str:
    return re.sub(r"[_.\-]+", " ", key)


def _months_between(first: date, last: date) -> int:
    return (last.year - first.year) * 12 + last.month - first.month


def _check_server(code: str, server: dict, problems: list[str], snowflakes: set[str]) -> dict:
    lang = code

    def say(message: str) -> None:
        problems.append(f"[{code}] {message}")

    facts: list[Fact] = server["facts"]
    members: dict[str, tuple[str, str]] = server["members"]
    questions: list[Question] = server["questions"]
    by_key: dict[str, Fact] = {}
    dates: dict[str, date] = {}

    for handle, (snowflake, display) in members.items():
        if not re.fullmatch(r"[a-z][a-z0-9_]*", handle):
            say(f"bad member handle {handle!r}")
        if not re.fullmatch(r"\d{17,20}", snowflake) or snowflake in snowflakes:
            say(f"bad or repeated snowflake {snowflake!r}")
        snowflakes.add(snowflake)
        if not display.strip():
            say(f"member {handle!r} has no display name")

    contents: set[str] = set()
    for fact in facts:
        if fact.key in by_key:
            say(f"duplicate key {fact.key!r}")
        by_key[fact.key] = fact
        if not re.fullmatch(r"[\w.\-]{1,64}", fact.key) or fact.key != fact.key.lower():
            say(f"bad key {fact.key!r}")
        try:
            dates[fact.key] = date.fromisoformat(fact.date)
        except ValueError:
            say(f"fact {fact.key!r} has a bad date {fact.date!r}")
            continue
        folded = _fold(fact.content)
        if folded in contents:
            say(f"duplicate content in {fact.key!r}")
        contents.add(folded)
        if not fact.content.strip() or len(fact.content) > 1000:
            say(f"fact {fact.key!r} is empty or too long")
        if fact.content.rstrip()[-1] not in ".!?。！？」":
            say(f"fact {fact.key!r} does not end like a sentence")
        if lang == "ja":
            for before in re.findall(r"(\S+) ", fact.content):  # spaces only after a #channel or Latin text
                if not (before.startswith("#") or before[-1].isascii()):
                    say(f"ja fact {fact.key!r} has a space between Japanese words")
            if not 8 <= len(fact.content) <= 80:
                say(f"ja fact {fact.key!r} has {len(fact.content)} characters")
        elif not 4 <= len(fact.content.split()) <= 25:
            say(f"fact {fact.key!r} has {len(fact.content.split())} words")
        if fact.scope == "member":
            if fact.member not in members:
                say(f"fact {fact.key!r} is about unknown member {fact.member!r}")
        elif fact.scope != "server" or fact.member is not None:
            say(f"fact {fact.key!r} has scope {fact.scope!r} and member {fact.member!r}")

    last_fact = max(dates.values())
    span = _months_between(min(dates.values()), last_fact)
    if span < MIN_SPAN_MONTHS:
        say(f"facts span only {span} months")

    counts = {category: 0 for category in CATEGORIES}
    overlap = paraphrase = 0
    texts: set[str] = set()
    for question in questions:
        where = f"question {question.text!r}"
        if question.category not in counts:
            say(f"{where} has category {question.category!r}")
            continue
        counts[question.category] += 1
        if _fold(question.text) in texts:
            say(f"duplicate {where}")
        texts.add(_fold(question.text))
        length = len(question.text) if lang == "ja" else len(question.text.split())
        if not ((5 <= length <= 45) if lang == "ja" else (3 <= length <= 20)):
            say(f"{where} has length {length}")
        try:
            asked_on = date.fromisoformat(question.asked_on)
        except ValueError:
            say(f"{where} has a bad asked_on {question.asked_on!r}")
            continue
        if question.asker is not None and question.asker not in members:
            say(f"{where} is asked by unknown member {question.asker!r}")
        if not question.answers or len(set(question.answers)) != len(question.answers):
            say(f"{where} has no or repeated answers")
        missing = [key for key in question.answers + question.distractors if key not in by_key]
        if missing:
            say(f"{where} names unknown keys {missing}")
            continue
        answers = [by_key[key] for key in question.answers]
        if any(dates[fact.key] > asked_on for fact in answers):
            say(f"{where} is asked before one of its answers was known")
        for fact in answers:
            if _fold(question.text).strip(" ?!.") == _fold(fact.content).strip(" ?!.。"):
                say(f"{where} copies its answer")

        if question.category == "single" and len(answers) != 1:
            say(f"{where} is single but has {len(answers)} answers")
        if question.category == "multi" and not 2 <= len(answers) <= 3:
            say(f"{where} is multi but has {len(answers)} answers")
        if question.category == "member":
            if not any(fact.scope == "member" for fact in answers):
                say(f"{where} is a member question without a member fact")
            names = {_fold(members[fact.member][1]) for fact in answers if fact.member} | {
                fact.member for fact in answers if fact.member
            }
            named = any(name in _fold(question.text) for name in names)
            if not named and question.asker is not None and all(fact.member != question.asker for fact in answers):
                say(f"{where} is about the asker, but no answer is about {question.asker!r}")
        if question.category == "temporal":
            if question.window is None or not question.distractors:
                say(f"{where} is temporal without a window or distractors")
                continue
            first, last = (date.fromisoformat(day) for day in question.window)
            if first > asked_on or first > last:
                say(f"{where} has window {question.window} on {question.asked_on}")
            if not _TIME_WORDS[lang].search(_fold(question.text) if lang != "ja" else question.text):
                say(f"{where} has no time expression")
            for fact in answers:
                if not first <= dates[fact.key] <= last:
                    say(f"{where}: answer {fact.key!r} ({fact.date}) is outside {question.window}")
            answer_units = set().union(*(content_units(f.content, lang) for f in answers))
            answer_prefixes = {f.key.split("_")[0] for f in answers}
            for key in question.distractors:
                distractor = by_key[key]
                if key in question.answers:
                    say(f"{where}: {key!r} is both answer and distractor")
                if first <= dates[key] <= last:
                    say(f"{where}: distractor {key!r} ({distractor.date}) is inside {question.window}")
                on_topic = (
                    key.split("_")[0] in answer_prefixes or content_units(distractor.content, lang) & answer_units
                )
                if not on_topic:
                    say(f"{where}: distractor {key!r} is not on the answer's topic")
        else:
            if question.window is not None:
                say(f"{where} has a window but is not temporal")
            if asked_on < last_fact:
                say(f"{where} is not temporal but asked on {question.asked_on}, before the last fact ({last_fact})")

        asked = content_units(question.text, lang)
        answer_text = " ".join(fact.content for fact in answers)
        if asked & content_units(answer_text, lang):
            overlap += 1
        strict_answer = _strict_units(answer_text + " " + " ".join(_key_text(f.key) for f in answers), lang)
        if not _strictly_shared(_strict_units(question.text, lang), strict_answer, lang):
            paraphrase += 1

    total = len(questions)
    min_facts, min_questions = MINIMUM_SIZES[code]
    if len(facts) < min_facts or total < min_questions:
        say(f"{len(facts)} facts and {total} questions, need {min_facts} and {min_questions}")
    shares = {category: round(counts[category] / total, 3) for category in CATEGORIES}
    for category, share in shares.items():
        if share < MIN_CATEGORY_SHARE:
            say(f"category {category!r} is only {share:.1%} of the questions")
    overlap_share, paraphrase_share = overlap / total, paraphrase / total
    if overlap_share < MIN_OVERLAP_SHARE:
        say(f"only {overlap_share:.1%} of the questions share a content word with their answer")
    if paraphrase_share < MIN_PARAPHRASE_SHARE:
        say(f"only {paraphrase_share:.1%} of the questions are paraphrases")
    first_day = min(dates.values())
    return {
        "name": server["name"],
        "language": server["language"],
        "facts": len(facts),
        "member_facts": sum(f.scope == "member" for f in facts),
        "members": len(members),
        "dates": f"{first_day} .. {last_fact} ({span} months)",
        "questions": total,
        "categories": counts,
        "category_shares": shares,
        "overlap_share": round(overlap_share, 3),
        "paraphrase_share": round(paraphrase_share, 3),
        "multi_answer_questions": sum(len(q.answers) > 1 for q in questions),
        "asked_by_member": sum(q.asker is not None for q in questions),
    }


def check() -> dict:
    """Validate every server's data and return (and print) the per-server summary; raise on problems."""
    problems: list[str] = []
    snowflakes: set[str] = set()
    report = {code: _check_server(code, server, problems, snowflakes) for code, server in SERVERS.items()}
    for code, summary in report.items():
        print(f"{code}: {summary}")
    if problems:
        raise AssertionError("retrieval_natural_data problems:\n" + "\n".join(problems))
    print("ok")
    return report


if __name__ == "__main__":
    check()
