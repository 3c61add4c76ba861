"""Hand-written pairs of facts for the duplicate check (issue 21): the same statement, or not?

What it is
----------
When the bot remembers a fact, Lorekeeper asks whether an already stored fact says the same thing. If it
does, the new one only reinforces the stored one; if not, the two must be kept apart. PAIRS holds labelled
pairs of facts (each side a key, a one-sentence content, a scope and, for member facts, the member it is
about) written the way a community bot and its moderators store them, in English, Dutch, German and
Japanese, each pair with `same` (True: one statement, merging loses nothing) and the `kind` of pair.

Kinds of `same=True`:
- `exact`: the same words with another case, punctuation, whitespace or character width;
- `word_order`: the same words in another order (Japanese: the same kanji, katakana, letters and digits);
- `paraphrase`: the same claim in other words ("Weekly tourneys happen on Saturdays");
- `shorter_longer`: a shorter or longer wording of the same claim, the longer one adding only filler;
- `other_key`: the same statement stored under another key.

Kinds of `same=False` (a wrong merge loses information, so these are the ones that matter most):
- `other_member`: the same template about another member (scope member, other member id), often word for
  word the same content;
- `other_person`: server facts that name different people ("Mira uses she/her" / "Priya uses she/her"),
  including "Fleur" against "Fleur's sister";
- `other_value`: another day, date, time, number, place, name, version or code, sometimes one character
  apart ("deep sea" / "deep space", "SW-4821-0937-1120" / "...-1210", a prefix "!" / "?");
- `negation`: a negation or a reversal ("likes" / "no longer likes", "A beat B" / "B beat A",
  "tea over coffee" / "coffee over tea", "would like a dog" / "has a dog");
- `other_claim`: the same topic and mostly the same words, another claim ("is a nurse" / "wants to
  become a nurse");
- `added_info`: one side adds real information (a date, a place, a name, a second item).

How it was built
----------------
Every pair was written by hand, one at a time; nothing is generated. The Dutch, German and Japanese pairs
are written as members of such servers write (Japanese without spaces, with katakana loanwords and some
English). Members are handles into MEMBERS (handle -> Discord snowflake and display name), so a harness can
store member facts under real-looking ids.

The pairs marked "added for bench/dedupe.py" (40: different people said in other words, one with names in lower
case, and paraphrases, in the four languages) were written for issue 21 after the rules of memory/text/, before
their similarities were measured; bench/dedupe.py splits the whole set in two halves.

`check()` validates the invariants (sizes and shares, the kinds' own rules: an `exact` pair is equal once
normalised, a `word_order` pair has the same words, a `same=True` pair has one subject, an `other_member`
pair two members, ...) and prints the counts per kind and language, and how much the two sides share
(content-word Jaccard; for Japanese, character bigrams), which shows how hard the negatives are for word
overlap. Run `python3 bench/dedupe_data.py`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import NamedTuple


class Side(NamedTuple):
    key: str
    content: str
    scope: str = "server"  # "server" | "member"
    member: str | None = None  # a handle in MEMBERS for scope "member"


class Pair(NamedTuple):
    a: Side
    b: Side
    same: bool
    kind: str
    lang: str = ""  # "en" | "nl" | "de" | "ja" (set per list below)


SAME_KINDS = ("exact", "word_order", "paraphrase", "shorter_longer", "other_key")
DIFFERENT_KINDS = ("other_member", "other_person", "other_value", "negation", "other_claim", "added_info")
LANGUAGES = ("en", "nl", "de", "ja")


def server(key: str, content: str) -> Side:
    return Side(key=key, content=content, scope="server", member=None)


def member(handle: str, key: str, content: str) -> Side:
    return Side(key=key, content=content, scope="member", member=handle)


MEMBERS: dict[str, tuple[str, str]] = {
    # English-speaking server
    "mira": ("300000000000000101", "Mira"),
    "priya": ("300000000000000102", "Priya"),
    "leon": ("300000000000000103", "Leon"),
    "tomasz": ("300000000000000104", "Tomasz"),
    "aiko": ("300000000000000105", "Aiko"),
    "jonas": ("300000000000000106", "Jonas"),
    "sam": ("300000000000000107", "Sam"),
    "dani": ("300000000000000108", "Dani"),
    "kofi": ("300000000000000109", "Kofi"),
    "ines": ("300000000000000110", "Ines"),
    "ravi": ("300000000000000111", "Ravi"),
    "noor": ("300000000000000112", "Noor"),
    "oskar": ("300000000000000113", "Oskar"),
    "hana": ("300000000000000114", "Hana"),
    "mateo": ("300000000000000115", "Mateo"),
    "freya": ("300000000000000116", "Freya"),
    "yusuf": ("300000000000000117", "Yusuf"),
    "elif": ("300000000000000118", "Elif"),
    # Dutch-speaking server
    "sanne": ("300000000000000201", "Sanne"),
    "daan": ("300000000000000202", "Daan"),
    "fleur": ("300000000000000203", "Fleur"),
    "bram": ("300000000000000204", "Bram"),
    "lotte": ("300000000000000205", "Lotte"),
    "joost": ("300000000000000206", "Joost"),
    "anouk": ("300000000000000207", "Anouk"),
    "thijs": ("300000000000000208", "Thijs"),
    "noa": ("300000000000000209", "Noa"),
    "milan": ("300000000000000210", "Milan"),
    "yara": ("300000000000000211", "Yara"),
    "sem": ("300000000000000212", "Sem"),
    # German-speaking server
    "lukas": ("300000000000000301", "Lukas"),
    "lena": ("300000000000000302", "Lena"),
    "jannik": ("300000000000000303", "Jannik"),
    "marie": ("300000000000000304", "Marie"),
    "felix": ("300000000000000305", "Felix"),
    "hannah": ("300000000000000306", "Hannah"),
    "emre": ("300000000000000307", "Emre"),
    "katharina": ("300000000000000308", "Katharina"),
    "tobias": ("300000000000000309", "Tobias"),
    "svenja": ("300000000000000310", "Svenja"),
    "niklas": ("300000000000000311", "Niklas"),
    "aylin": ("300000000000000312", "Aylin"),
    # Japanese-speaking server
    "haruto": ("300000000000000401", "はると"),
    "yui": ("300000000000000402", "ゆい"),
    "sota": ("300000000000000403", "そうた"),
    "mei": ("300000000000000404", "めい"),
    "ren": ("300000000000000405", "れん"),
    "aoi": ("300000000000000406", "あおい"),
    "kenta": ("300000000000000407", "けんた"),
    "sakura": ("300000000000000408", "さくら"),
    "riku": ("300000000000000409", "りく"),
    "hina": ("300000000000000410", "ひな"),
    "takumi": ("300000000000000411", "たくみ"),
    "miyu": ("300000000000000412", "みゆ"),
}

# --------------------------------------------------------------------------------------------------------
# English
# --------------------------------------------------------------------------------------------------------
EN: list[Pair] = [
    # --- exact: other case, punctuation, whitespace ------------------------------------------------------
    Pair(server("rule_spoilers", "Spoilers go in spoiler tags for 30 days after release."),
         server("rule_spoilers", "spoilers go in spoiler tags for 30 days after release"), True, "exact"),
    Pair(member("mira", "pronouns", "Mira uses she/her pronouns."),
         member("mira", "pronouns", "mira uses she/her pronouns"), True, "exact"),
    Pair(server("movie_night", "Movie night is every second Friday at 20:00 CET in #cinema."),
         server("movie_night", "Movie night is every second Friday at 20:00 CET in #cinema!"), True, "exact"),
    Pair(server("minecraft_version", "The Minecraft server runs on version 1.21.4."),
         server("minecraft_version", "THE MINECRAFT SERVER RUNS ON VERSION 1.21.4"), True, "exact"),
    Pair(member("leon", "timezone", "Leon is in UTC+2."),
         member("leon", "timezone", "leon is in utc+2"), True, "exact"),
    Pair(server("raid_start", "Raid night starts at 21:00 server time."),
         server("raid_start", "Raid night  starts at 21:00 server time."), True, "exact"),
    Pair(server("rule_self_promo", "No self-promo outside #shop-window."),
         server("rule_self_promo", "No self-promo outside #shop-window!!"), True, "exact"),
    Pair(member("priya", "job", "Priya works as an ICU nurse."),
         member("priya", "job", "priya works as an icu nurse"), True, "exact"),
    Pair(server("book_club", "The book club reads one book a month."),
         server("book_club", "The Book Club reads one book a month."), True, "exact"),
    Pair(member("tomasz", "overwatch_main", "Tomasz mains Mercy in Overwatch."),
         member("tomasz", "overwatch_main", "tomasz mains mercy in overwatch."), True, "exact"),
    Pair(server("voice_closing", "Voice channels close at 02:00 on weeknights."),
         server("voice_closing", "Voice channels close at 02:00\non weeknights."), True, "exact"),
    Pair(member("aiko", "cat_name", "Aiko's cat is called Mochi."),
         member("aiko", "cat_name", "Aiko\u2019s cat is called Mochi."), True, "exact"),
    Pair(server("art_contest_deadline", "Art contest entries are due by Sunday, 23:59 UTC."),
         server("art_contest_deadline", "Art contest entries are due by Sunday 23:59 UTC"), True, "exact"),
    Pair(member("kofi", "languages", "Kofi speaks Twi, English and some French."),
         member("kofi", "languages", "Kofi speaks Twi, English, and some French."), True, "exact"),
    Pair(server("server_birthday", "The server's birthday is 14 October."),
         server("server_birthday", "the server's birthday is 14 october"), True, "exact"),
    Pair(member("noor", "diet", "Noor is vegetarian."),
         member("noor", "diet", "  noor is vegetarian!  "), True, "exact"),

    # --- word_order: the same words, reordered -----------------------------------------------------------
    Pair(server("tournament_time", "Every Saturday the weekly tournament starts at 19:00."),
         server("tournament_time", "The weekly tournament starts at 19:00 every Saturday."), True, "word_order"),
    Pair(member("mira", "home_city", "Mira has lived in Lisbon since 2021."),
         member("mira", "home_city", "Since 2021 Mira has lived in Lisbon."), True, "word_order"),
    Pair(server("rule_art_gallery", "In #art-gallery only finished pieces are allowed."),
         server("rule_art_gallery", "Only finished pieces are allowed in #art-gallery."), True, "word_order"),
    Pair(member("jonas", "instruments", "Jonas plays bass and drums in a local band."),
         member("jonas", "instruments", "Jonas plays drums and bass in a local band."), True, "word_order"),
    Pair(server("minecraft_restart", "On Sundays the Minecraft server restarts at 06:00 UTC."),
         server("minecraft_restart", "The Minecraft server restarts at 06:00 UTC on Sundays."), True, "word_order"),
    Pair(member("dani", "languages", "Dani speaks Spanish, Catalan and English."),
         member("dani", "languages", "Dani speaks English, Catalan and Spanish."), True, "word_order"),
    Pair(server("bot_bugs", "For bot problems, ping Wick's maintainer Sam in #bot-bugs."),
         server("bot_bugs", "Ping Wick's maintainer Sam in #bot-bugs for bot problems."), True, "word_order"),
    Pair(member("ravi", "online_hours", "After 22:00 IST Ravi is usually offline."),
         member("ravi", "online_hours", "Ravi is usually offline after 22:00 IST."), True, "word_order"),
    Pair(server("charity_stream", "Twice a year the server holds a charity stream."),
         server("charity_stream", "The server holds a charity stream twice a year."), True, "word_order"),
    Pair(member("hana", "streams", "Hana streams Valorant and Apex on weekends."),
         member("hana", "streams", "On weekends Hana streams Apex and Valorant."), True, "word_order"),
    Pair(server("ban_appeals", "Without a ticket, ban appeals are not reviewed."),
         server("ban_appeals", "Ban appeals are not reviewed without a ticket."), True, "word_order"),
    Pair(member("oskar", "favourite_snack", "Oskar's favourite snack is salted liquorice."),
         member("oskar", "favourite_snack", "Salted liquorice is Oskar's favourite snack."), True, "word_order"),
    Pair(server("sprout_role", "New members get the Sprout role after ten minutes."),
         server("sprout_role", "After ten minutes new members get the Sprout role."), True, "word_order"),
    Pair(member("freya", "commissions", "Freya knits and crochets commissions for Etsy."),
         member("freya", "commissions", "Freya crochets and knits commissions for Etsy."), True, "word_order"),
    Pair(server("staff_meeting", "Staff meet on the first Monday of each month."),
         server("staff_meeting", "On the first Monday of each month staff meet."), True, "word_order"),
    Pair(member("yusuf", "work", "Yusuf is in UTC+3 and works from home."),
         member("yusuf", "work", "Yusuf works from home and is in UTC+3."), True, "word_order"),

    # --- paraphrase: the same claim in other words --------------------------------------------------------
    Pair(server("weekly_tournament", "The weekly tournament is every Saturday."),
         server("weekly_tournament", "Weekly tourneys happen on Saturdays."), True, "paraphrase"),
    Pair(member("mira", "pronouns", "Mira uses she/her pronouns."),
         member("mira", "pronouns", "Mira goes by she/her."), True, "paraphrase"),
    Pair(server("movie_night", "Movie night is every second Friday at 20:00 CET in #cinema."),
         server("movie_night", "Every other Friday we watch a film together in #cinema, starting 8pm CET."),
         True, "paraphrase"),
    Pair(member("leon", "allergy", "Leon is allergic to cats."),
         member("leon", "allergy", "Leon can't be around cats because of an allergy."), True, "paraphrase"),
    Pair(member("priya", "shifts", "Priya works night shifts at the hospital."),
         member("priya", "shifts", "Priya is on nights at the hospital."), True, "paraphrase"),
    Pair(server("announcements_channel", "Only moderators can post in #announcements."),
         server("announcements_channel", "#announcements is read-only for everyone except the mods."),
         True, "paraphrase"),
    Pair(member("tomasz", "drinks", "Tomasz doesn't drink alcohol."),
         member("tomasz", "drinks", "Tomasz is teetotal."), True, "paraphrase"),
    Pair(server("minecraft_maintenance", "The Minecraft server is down for maintenance every Tuesday morning."),
         server("minecraft_maintenance", "Every Tuesday morning the Minecraft world goes offline for upkeep."),
         True, "paraphrase"),
    Pair(member("aiko", "birthday", "Aiko's birthday is on 9 April."),
         member("aiko", "birthday", "Aiko was born on April 9th."), True, "paraphrase"),
    Pair(member("kofi", "learning", "Kofi is learning Japanese."),
         member("kofi", "learning", "Kofi is studying Japanese at the moment."), True, "paraphrase"),
    Pair(server("rule_memes", "Memes go in #shitposting, not in #general."),
         server("rule_memes", "Keep memes out of #general; #shitposting is where they belong."), True, "paraphrase"),
    Pair(member("sam", "pings", "Sam prefers being pinged only for emergencies."),
         member("sam", "pings", "Don't ping Sam unless it's urgent, they prefer it that way."), True, "paraphrase"),
    Pair(member("dani", "guitar", "Dani is a left-handed guitarist."),
         member("dani", "guitar", "Dani plays guitar left-handed."), True, "paraphrase"),
    Pair(server("voice_language", "Voice chat is English only."),
         server("voice_language", "Only English is spoken in the voice channels."), True, "paraphrase"),
    Pair(member("ravi", "dog", "Ravi has a golden retriever named Biscuit."),
         member("ravi", "dog", "Biscuit, Ravi's dog, is a golden retriever."), True, "paraphrase"),
    Pair(member("ines", "horror_games", "Ines hates horror games."),
         member("ines", "horror_games", "Ines can't stand horror games."), True, "paraphrase"),
    Pair(server("founded", "The server was founded in 2019."),
         server("founded", "This community has existed since 2019."), True, "paraphrase"),
    Pair(member("noor", "timezone", "Noor lives in the UTC+4 timezone."),
         member("noor", "timezone", "Noor's clock is four hours ahead of UTC."), True, "paraphrase"),
    Pair(server("giveaway_claim", "Giveaway winners must claim their prize within 48 hours."),
         server("giveaway_claim", "If you win a giveaway you have two days to claim it."), True, "paraphrase"),
    Pair(member("jonas", "role", "Jonas mains support in every game he plays."),
         member("jonas", "role", "Jonas always plays the support role, whatever the game."), True, "paraphrase"),
    Pair(server("ban_appeals", "Ban appeals are handled through ModMail."),
         server("ban_appeals", "To appeal a ban, message ModMail."), True, "paraphrase"),
    Pair(member("hana", "colour_vision", "Hana is colourblind (deuteranopia)."),
         member("hana", "colour_vision", "Hana has deuteranopia, a red-green colour blindness."), True, "paraphrase"),
    Pair(member("oskar", "diet", "Oskar is vegan."),
         member("oskar", "diet", "Oskar doesn't eat any animal products."), True, "paraphrase"),
    Pair(server("bot_prefix", "The bot's command prefix is an exclamation mark."),
         server("bot_prefix", "Bot commands start with !"), True, "paraphrase"),
    Pair(member("freya", "moving", "Freya is moving to Edinburgh this summer."),
         member("freya", "moving", "This summer Freya relocates to Edinburgh."), True, "paraphrase"),
    Pair(member("yusuf", "sf6_main", "Yusuf's main in Street Fighter 6 is Juri."),
         member("yusuf", "sf6_main", "Yusuf mostly plays Juri in SF6."), True, "paraphrase"),
    Pair(server("minimum_age", "Nobody under 16 may join the server."),
         server("minimum_age", "Members must be at least sixteen years old."), True, "paraphrase"),
    Pair(member("elif", "nickname", "Elif prefers to be called Eli."),
         member("elif", "nickname", "Elif goes by Eli."), True, "paraphrase"),
    Pair(server("raid_time", "The raid starts at 21:00 on Saturdays."),
         server("raid_time", "Saturday raids kick off at 9pm."), True, "paraphrase"),
    Pair(member("mateo", "fears", "Mateo is afraid of spiders."),
         member("mateo", "fears", "Mateo has arachnophobia."), True, "paraphrase"),
    Pair(member("mira", "meme_tags", "Mira doesn't like being tagged in memes."),
         member("mira", "meme_tags", "Please don't tag Mira in memes, she dislikes it."), True, "paraphrase"),
    Pair(server("rule_spoilers", "Spoiler tags are required for new releases for one month."),
         server("rule_spoilers", "Anything released in the last month must be spoilered."), True, "paraphrase"),
    Pair(member("leon", "job", "Leon works as a high school chemistry teacher."),
         member("leon", "job", "Leon teaches chemistry at a secondary school."), True, "paraphrase"),
    Pair(member("priya", "cat", "Priya's cat Nugget is 12 years old."),
         member("priya", "cat", "Nugget, Priya's cat, is twelve."), True, "paraphrase"),
    Pair(server("rule_crossposting", "Cross-posting the same message in several channels is not allowed."),
         server("rule_crossposting", "Don't post one message in multiple channels."), True, "paraphrase"),
    Pair(member("tomasz", "league", "Tomasz stopped playing League in 2023."),
         member("tomasz", "league", "Tomasz quit League of Legends in 2023."), True, "paraphrase"),
    Pair(member("sam", "pronouns", "Sam is nonbinary and uses they/them."),
         member("sam", "pronouns", "Sam uses they/them pronouns and identifies as nonbinary."), True, "paraphrase"),
    Pair(member("aiko", "diet", "Aiko can't eat gluten."),
         member("aiko", "diet", "aiko has to eat gluten-free"), True, "paraphrase"),
    Pair(server("rule_caps", "Messages in all caps get deleted by the automod."),
         server("rule_caps", "automod removes anything written entirely in capital letters"), True, "paraphrase"),
    Pair(member("kofi", "sleep", "Kofi goes to bed around 23:00 on weeknights."),
         member("kofi", "sleep", "On school nights Kofi is asleep by about 11pm."), True, "paraphrase"),

    # --- shorter_longer: the same claim, one wording with filler only ------------------------------------
    Pair(server("weekly_tournament", "The weekly tournament is every Saturday."),
         server("weekly_tournament",
             "Just so everyone knows, the weekly tournament takes place every single Saturday."),
         True, "shorter_longer"),
    Pair(member("mira", "pets", "Mira has two cats."),
         member("mira", "pets", "Mira has two cats at home, for the record."), True, "shorter_longer"),
    Pair(server("movie_night_channel", "Movie night is in #cinema."),
         server("movie_night_channel", "For movie night, everyone gathers in #cinema as usual."),
         True, "shorter_longer"),
    Pair(member("kofi", "job", "Kofi is a nurse."),
         member("kofi", "job", "Kofi works as a nurse, for what it's worth."), True, "shorter_longer"),
    Pair(server("general_language", "English only in #general."),
         server("general_language", "Please keep everything in #general in English only, thanks!"),
         True, "shorter_longer"),
    Pair(member("leon", "timezone", "Leon's timezone is Central European Time (CET)."),
         member("leon", "timezone", "Leon is on CET."), True, "shorter_longer"),
    Pair(member("priya", "diet", "Priya is vegetarian."),
         member("priya", "diet", "Priya is a vegetarian, which means no meat."), True, "shorter_longer"),
    Pair(server("ban_appeals", "Ban appeals go through ModMail."),
         server("ban_appeals", "If you were banned and want to appeal, the way to do that is through ModMail."),
         True, "shorter_longer"),
    Pair(member("dani", "birthday", "Dani's birthday is on the 3rd of May."),
         member("dani", "birthday", "Dani bday: 3 May"), True, "shorter_longer"),
    Pair(server("minecraft_edition", "The server's Minecraft world runs on Java Edition."),
         server("minecraft_edition", "Minecraft world: Java Edition."), True, "shorter_longer"),
    Pair(member("hana", "valorant_main", "Hana mains Sage in Valorant."),
         member("hana", "valorant_main", "In Valorant, Sage is the agent Hana basically always mains."),
         True, "shorter_longer"),
    Pair(member("oskar", "origin", "Oskar is from Norway."),
         member("oskar", "origin", "Oskar is originally from Norway, in case anyone asks."), True, "shorter_longer"),
    Pair(server("rule_self_promo", "Self-promotion is only allowed in #shop-window."),
         server("rule_self_promo", "Self-promo: #shop-window only."), True, "shorter_longer"),
    Pair(member("yusuf", "languages", "Yusuf speaks Turkish and German."),
         member("yusuf", "languages", "Yusuf speaks two languages, namely Turkish and German."),
         True, "shorter_longer"),
    Pair(member("mateo", "dog", "Mateo's dog is called Churro."),
         member("mateo", "dog", "Mateo has a dog, and the dog's name is Churro."), True, "shorter_longer"),
    Pair(server("raid_signups", "Raid signups close on Friday at noon."),
         server("raid_signups", "Heads up: signups for the raid close Friday at 12:00 noon."), True, "shorter_longer"),
    Pair(member("ines", "studies", "Ines studies medicine."),
         member("ines", "studies", "Medicine is what Ines is studying at the moment."),
         True, "shorter_longer"),

    # --- other_key: the same statement under another key ---------------------------------------------------
    Pair(member("mira", "pronouns", "Mira uses she/her pronouns."),
         member("mira", "mira_pronouns", "Mira uses she/her."), True, "other_key"),
    Pair(server("movie_night", "Movie night is every second Friday at 20:00 CET."),
         server("cinema_schedule", "Movie night is every second Friday at 20:00 CET."), True, "other_key"),
    Pair(member("leon", "tz", "Leon is on CET."),
         member("leon", "timezone", "Leon's timezone is CET."), True, "other_key"),
    Pair(server("rule_nsfw", "No NSFW content anywhere on the server."),
         server("no_nsfw", "NSFW content is not allowed anywhere on the server."), True, "other_key"),
    Pair(member("priya", "job", "Priya is an ICU nurse."),
         member("priya", "occupation", "Priya works as a nurse in intensive care."), True, "other_key"),
    Pair(member("kofi", "bday", "Kofi's birthday is 21 November."),
         member("kofi", "birthday", "Kofi was born on 21 November."), True, "other_key"),
    Pair(server("minecraft_ip", "The Minecraft server address is play.lanternhollow.net."),
         server("mc_server_address", "Join the Minecraft server at play.lanternhollow.net."), True, "other_key"),
    Pair(member("dani", "favourite_game", "Dani's favourite game is Hollow Knight."),
         member("dani", "fav_game", "Hollow Knight is Dani's favourite game."), True, "other_key"),
    Pair(server("tournament_day", "The weekly tournament is on Saturdays."),
         server("weekly_tourney", "Weekly tournaments are held on Saturday."), True, "other_key"),
    Pair(member("sam", "pronouns", "Sam uses they/them pronouns."),
         member("sam", "sam_they_them", "Sam uses they/them pronouns."), True, "other_key"),
    Pair(member("hana", "valorant_main", "Hana mains Sage in Valorant."),
         member("hana", "valorant_agent", "Hana's main agent in Valorant is Sage."), True, "other_key"),
    Pair(server("art_contest_deadline", "Art contest entries are due Sunday at 23:59 UTC."),
         server("contest_entries_due", "Submit art contest entries by 23:59 UTC on Sunday."), True, "other_key"),
    Pair(member("ravi", "pet", "Ravi has a golden retriever called Biscuit."),
         member("ravi", "dog", "Ravi's dog Biscuit is a golden retriever."), True, "other_key"),
    Pair(member("oskar", "diet", "Oskar is vegan."),
         member("oskar", "vegan", "Oskar eats a vegan diet."), True, "other_key"),
    Pair(server("staff_meeting", "Staff meet on the first Monday of each month."),
         server("staff_meeting_schedule", "Staff meetings are on the first Monday of every month."), True, "other_key"),
    Pair(member("yusuf", "languages", "Yusuf speaks Turkish and German."),
         member("yusuf", "lang", "Yusuf speaks German and Turkish."), True, "other_key"),
    Pair(member("elif", "nickname", "Elif prefers to be called Eli."),
         member("elif", "preferred_name", "Elif prefers to be called Eli."), True, "other_key"),

    # --- other_member: the same template about another member -----------------------------------------
    Pair(member("mira", "pronouns", "Uses she/her pronouns."),
         member("priya", "pronouns", "Uses she/her pronouns."), False, "other_member"),
    Pair(member("leon", "timezone", "Timezone is CET."),
         member("jonas", "timezone", "Timezone is CET."), False, "other_member"),
    Pair(member("priya", "job", "Works as a nurse on night shifts."),
         member("kofi", "job", "Works as a nurse on night shifts."), False, "other_member"),
    Pair(member("aiko", "pets", "Has two cats."),
         member("mira", "pets", "Has two cats."), False, "other_member"),
    Pair(member("dani", "birthday", "Birthday is 3 May."),
         member("hana", "birthday", "Birthday is 3 May."), False, "other_member"),
    Pair(member("tomasz", "overwatch_main", "Mains Mercy in Overwatch."),
         member("yusuf", "overwatch_main", "Mains Mercy in Overwatch."), False, "other_member"),
    Pair(member("sam", "pings", "Prefers not to be pinged after 22:00."),
         member("elif", "pings", "Prefers not to be pinged after 22:00."), False, "other_member"),
    Pair(member("mira", "learning", "Mira is learning Korean."),
         member("noor", "learning", "Noor is learning Korean."), False, "other_member"),
    Pair(member("ravi", "diet", "Ravi is vegetarian."),
         member("ines", "diet", "Ines is vegetarian."), False, "other_member"),
    Pair(member("oskar", "home_city", "Lives in Oslo."),
         member("freya", "home_city", "Lives in Oslo."), False, "other_member"),
    Pair(member("kofi", "allergy", "Is allergic to peanuts."),
         member("mateo", "allergy", "Is allergic to peanuts."), False, "other_member"),
    Pair(member("jonas", "band", "Plays bass in a band."),
         member("leon", "band", "Plays bass in a band."), False, "other_member"),
    Pair(member("hana", "languages", "Speaks Japanese natively."),
         member("aiko", "languages", "Speaks Japanese natively."), False, "other_member"),
    Pair(member("elif", "role", "Is a moderator here."),
         member("dani", "role", "Is a moderator here."), False, "other_member"),
    Pair(member("sam", "speedrun", "Won the March 2025 speedrun race."),
         member("tomasz", "speedrun", "Won the March 2025 speedrun race."), False, "other_member"),
    Pair(member("mira", "studies", "Studies computer science at university."),
         member("ines", "studies", "Studies computer science at university."), False, "other_member"),
    Pair(member("yusuf", "ramadan", "Fasts during Ramadan and is only online after sunset then."),
         member("noor", "ramadan", "Fasts during Ramadan and is only online after sunset then."),
         False, "other_member"),
    Pair(member("priya", "dog", "Has a golden retriever."),
         member("ravi", "dog", "Has a golden retriever."), False, "other_member"),
    Pair(member("freya", "colour_vision", "Is colourblind."),
         member("mateo", "colour_vision", "Is colourblind."), False, "other_member"),
    Pair(member("tomasz", "birthday", "Tomasz's birthday is 12 March."),
         member("oskar", "birthday", "Oskar's birthday is 12 March."), False, "other_member"),
    Pair(member("leon", "timezone", "Is on UTC-5 (New York)."),
         member("sam", "timezone", "Is on UTC-5 (New York)."), False, "other_member"),
    Pair(member("dani", "sleep", "works nights and sleeps until 3pm"),
         member("kofi", "sleep", "works nights and sleeps until 3pm"), False, "other_member"),
    Pair(member("aiko", "pronouns", "Aiko uses she/they."),
         member("hana", "pronouns", "Uses she/they."), False, "other_member"),

    # --- other_person: server facts naming different people -----------------------------------------------
    Pair(server("pronouns_mira", "Mira uses she/her pronouns."),
         server("pronouns_priya", "Priya uses she/her pronouns."), False, "other_person"),
    Pair(server("march_tournament", "Jonas won the March tournament."),
         server("march_tournament", "Sam won the March tournament."), False, "other_person"),
    Pair(server("book_club_host", "Leon runs the book club."),
         server("book_club_host", "Ines runs the book club."), False, "other_person"),
    Pair(server("art_gallery_mod", "Hana is the moderator for #art-gallery."),
         server("art_gallery_mod", "Aiko is the moderator for #art-gallery."), False, "other_person"),
    Pair(server("minecraft_host", "Tomasz hosts the Minecraft server on his own machine."),
         server("minecraft_host", "Oskar hosts the Minecraft server on his own machine."), False, "other_person"),
    Pair(server("logo", "Kofi designed the server's lantern logo."),
         server("logo", "Freya designed the server's lantern logo."), False, "other_person"),
    Pair(server("bot_author", "The bot was written by Sam."),
         server("bot_author", "The bot was written by Yusuf."), False, "other_person"),
    Pair(server("art_contest_judge", "Dani judges the art contest, so she can't enter it."),
         server("art_contest_judge", "Elif judges the art contest, so she can't enter it."), False, "other_person"),
    Pair(server("trivia_hosts", "Ravi and Noor co-host trivia night."),
         server("trivia_hosts", "Ravi and Mateo co-host trivia night."), False, "other_person"),
    Pair(server("lore_toaster", "The cursed toaster running joke started with Mira."),
         server("lore_toaster", "The cursed toaster running joke started with Leon."), False, "other_person"),
    Pair(server("tetris_record", "Oskar holds the server record for the longest Tetris streak."),
         server("tetris_record", "Oskar's brother holds the server record for the longest Tetris streak."),
         False, "other_person"),
    Pair(server("rules_translation", "Aiko translated the rules into Japanese."),
         server("rules_translation", "Hana translated the rules into Japanese."), False, "other_person"),
    Pair(server("meetup_organisers", "Mateo and Dani are organising the summer meetup."),
         server("meetup_organisers", "Mateo and Kofi are organising the summer meetup."), False, "other_person"),
    Pair(server("mascot_name", "The server's frog mascot is named after Tomasz."),
         server("mascot_name", "The server's frog mascot is named after Sam."), False, "other_person"),
    Pair(server("karaoke_stream", "Ines streams the Friday karaoke."),
         server("karaoke_stream", "Ines's roommate streams the Friday karaoke."), False, "other_person"),
    Pair(server("owner", "Freya owns the server."),
         server("owner", "freya's sister owns the server"), False, "other_person"),
    Pair(server("first_booster", "Priya was the first person to boost the server."),
         server("first_booster", "Noor was the first person to boost the server."), False, "other_person"),

    # --- other_value: another day, date, time, number, place, name ----------------------------------------
    Pair(server("weekly_tournament", "The weekly tournament is every Saturday."),
         server("weekly_tournament", "The weekly tournament is every Sunday."), False, "other_value"),
    Pair(member("dani", "birthday", "Dani's birthday is 3 May."),
         member("dani", "birthday", "Dani's birthday is 5 May."), False, "other_value"),
    Pair(server("raid_start", "Raid night starts at 20:00 CET."),
         server("raid_start", "Raid night starts at 21:00 CET."), False, "other_value"),
    Pair(member("mira", "pets", "Mira has 2 cats."),
         member("mira", "pets", "Mira has 3 cats."), False, "other_value"),
    Pair(member("leon", "timezone", "Leon is in UTC+1."),
         member("leon", "timezone", "Leon is in UTC+2."), False, "other_value"),
    Pair(server("minecraft_version", "The Minecraft server runs version 1.21.4."),
         server("minecraft_version", "The Minecraft server runs version 1.21.1."), False, "other_value"),
    Pair(member("priya", "cat", "Priya's cat Nugget is 12 years old."),
         member("priya", "cat", "Priya's cat Nugget is 13 years old."), False, "other_value"),
    Pair(server("rule_self_promo", "Self-promotion is allowed once per week in #shop-window."),
         server("rule_self_promo", "Self-promotion is allowed once per month in #shop-window."), False, "other_value"),
    Pair(server("giveaway_claim", "Giveaway winners have 48 hours to claim their prize."),
         server("giveaway_claim", "Giveaway winners have 24 hours to claim their prize."), False, "other_value"),
    Pair(member("tomasz", "overwatch_main", "Tomasz mains Mercy in Overwatch."),
         member("tomasz", "overwatch_main", "Tomasz mains Ana in Overwatch."), False, "other_value"),
    Pair(server("art_contest_theme", "The art contest theme for June is 'deep sea'."),
         server("art_contest_theme", "The art contest theme for June is 'deep space'."), False, "other_value"),
    Pair(member("kofi", "pronouns", "Kofi uses he/him pronouns."),
         member("kofi", "pronouns", "Kofi uses he/they pronouns."), False, "other_value"),
    Pair(server("minimum_age", "Members must be at least 16 to join."),
         server("minimum_age", "Members must be at least 18 to join."), False, "other_value"),
    Pair(member("hana", "favourite_colour", "Hana's favourite colour is teal."),
         member("hana", "favourite_colour", "Hana's favourite colour is coral."), False, "other_value"),
    Pair(server("movie_night_channel", "Movie night is in #cinema."),
         server("movie_night_channel", "Movie night is in #theatre."), False, "other_value"),
    Pair(member("ravi", "dog", "Ravi's dog is called Biscuit."),
         member("ravi", "dog", "Ravi's dog is called Biscotti."), False, "other_value"),
    Pair(server("rule_warnings", "Three warnings lead to a 7-day timeout."),
         server("rule_warnings", "Three warnings lead to a 1-day timeout."), False, "other_value"),
    Pair(server("meetup", "The server meetup is in Utrecht on 12 July 2025."),
         server("meetup", "The server meetup is in Utrecht on 12 July 2026."), False, "other_value"),
    Pair(member("jonas", "band", "Jonas plays bass in his band."),
         member("jonas", "band", "Jonas plays drums in his band."), False, "other_value"),
    Pair(member("sam", "switch_code", "Sam's Switch friend code is SW-4821-0937-1120."),
         member("sam", "switch_code", "Sam's Switch friend code is SW-4821-0937-1210."), False, "other_value"),
    Pair(server("book_club_meeting", "Book club meets on the last Thursday of the month."),
         server("book_club_meeting", "Book club meets on the first Thursday of the month."), False, "other_value"),
    Pair(member("aiko", "home_city", "Aiko lives in Osaka."),
         member("aiko", "home_city", "Aiko lives in Kyoto."), False, "other_value"),
    Pair(server("boost_goal", "Level 3 needs 14 boosts and the server has 9."),
         server("boost_goal", "Level 3 needs 14 boosts and the server has 11."), False, "other_value"),
    Pair(member("oskar", "steam_name", "Oskar's Steam name is oskarthefox."),
         member("oskar", "steam_name", "Oskar's Steam name is oskar_the_fox."), False, "other_value"),
    Pair(server("bot_prefix", "The bot's command prefix is !"),
         server("bot_prefix", "The bot's command prefix is ?"), False, "other_value"),
    Pair(member("freya", "age", "Freya turned 24 in January."),
         member("freya", "age", "Freya turned 25 in January."), False, "other_value"),
    Pair(server("voice_closing", "Voice channels close at 02:00 on weeknights."),
         server("voice_closing", "Voice channels close at 02:00 on weekends."), False, "other_value"),
    Pair(member("yusuf", "sf6_rank", "Yusuf is Diamond rank in Street Fighter 6."),
         member("yusuf", "sf6_rank", "Yusuf is Platinum rank in Street Fighter 6."), False, "other_value"),
    Pair(server("trivia_night", "Trivia night is every Wednesday at 19:30 UTC."),
         server("trivia_night", "Trivia night is every Wednesday at 19:00 UTC."), False, "other_value"),
    Pair(member("elif", "studies", "Elif is in the second year of her law degree."),
         member("elif", "studies", "Elif is in the third year of her law degree."), False, "other_value"),
    Pair(member("mateo", "league_team", "Mateo plays for the Red Foxes in the community league."),
         member("mateo", "league_team", "Mateo plays for the Red Falcons in the community league."),
         False, "other_value"),
    Pair(server("booster_role", "Server boosters get the Firefly role."),
         server("booster_role", "Server boosters get the Glowworm role."), False, "other_value"),
    Pair(server("charity_total", "The charity stream raised \u20ac1,240 for the animal shelter."),
         server("charity_total", "The charity stream raised \u20ac1,420 for the animal shelter."),
         False, "other_value"),
    Pair(member("noor", "timezone", "noor is UTC+4"),
         member("noor", "timezone", "noor is UTC+5:30"), False, "other_value"),

    # --- negation: negated or reversed -----------------------------------------------------------------
    Pair(member("mira", "horror_movies", "Mira likes horror movies."),
         member("mira", "horror_movies", "Mira no longer likes horror movies."), False, "negation"),
    Pair(member("leon", "role", "Leon is a moderator."),
         member("leon", "role", "Leon is no longer a moderator."), False, "negation"),
    Pair(server("rule_voice_recording", "Recording voice chat is allowed if everyone consents."),
         server("rule_voice_recording", "Recording voice chat is not allowed, even if everyone consents."),
         False, "negation"),
    Pair(member("noor", "drinks", "Noor prefers tea over coffee."),
         member("noor", "drinks", "Noor prefers coffee over tea."), False, "negation"),
    Pair(server("rule_ai_art", "AI art is allowed in #art-gallery."),
         server("rule_ai_art", "AI art is not allowed in #art-gallery."), False, "negation"),
    Pair(server("siblings", "Yusuf is Elif's older brother."),
         server("siblings", "Elif is Yusuf's older sister."), False, "negation"),
    Pair(member("tomasz", "league", "Tomasz still plays League every night."),
         member("tomasz", "league", "Tomasz quit League and doesn't play it any more."), False, "negation"),
    Pair(member("priya", "raid_pings", "Priya wants to be pinged for raid signups."),
         member("priya", "raid_pings", "Priya doesn't want to be pinged for raid signups."), False, "negation"),
    Pair(server("minecraft_whitelist", "The Minecraft server is whitelisted."),
         server("minecraft_whitelist", "The Minecraft server is no longer whitelisted."), False, "negation"),
    Pair(member("kofi", "meetup", "Kofi can make it to the summer meetup."),
         member("kofi", "meetup", "Kofi can't make it to the summer meetup."), False, "negation"),
    Pair(server("deleted_messages", "Staff can see deleted messages in the logs."),
         server("deleted_messages", "Staff cannot see deleted messages in the logs."), False, "negation"),
    Pair(member("dani", "clips", "Dani is okay with being tagged in clips."),
         member("dani", "clips", "Dani is not okay with being tagged in clips."), False, "negation"),
    Pair(server("chess_final", "Mira beat Leon in the chess final."),
         server("chess_final", "Leon beat Mira in the chess final."), False, "negation"),
    Pair(member("hana", "face_cam", "Hana streams with a face cam."),
         member("hana", "face_cam", "Hana never streams with a face cam."), False, "negation"),
    Pair(server("rule_alt_accounts", "Alt accounts are allowed if staff approve them."),
         server("rule_alt_accounts", "Alt accounts are never allowed, approved or not."), False, "negation"),
    Pair(member("sam", "dms", "Sam accepts DMs from anyone."),
         member("sam", "dms", "Sam doesn't accept DMs from anyone."), False, "negation"),
    Pair(member("oskar", "fish", "Oskar eats fish."),
         member("oskar", "fish", "Oskar stopped eating fish."), False, "negation"),
    Pair(server("rule_spoilers_general", "Spoilers are allowed in #general after a week."),
         server("rule_spoilers_general", "Spoilers are never allowed in #general, not even after a week."),
         False, "negation"),
    Pair(member("aiko", "moving", "Aiko is moving to Tokyo."),
         member("aiko", "moving", "Aiko is not moving to Tokyo after all."), False, "negation"),
    Pair(member("ines", "overwatch_main", "Ines used to main Tracer."),
         member("ines", "overwatch_main", "Ines mains Tracer."), False, "negation"),
    Pair(member("mateo", "mornings", "Mateo is a morning person."),
         member("mateo", "mornings", "Mateo is not a morning person at all."), False, "negation"),
    Pair(member("freya", "mentor", "Freya is teaching Mateo to knit."),
         member("freya", "mentor", "Mateo is teaching Freya to knit."), False, "negation"),

    # --- other_claim: same topic, another claim -------------------------------------------------------
    Pair(member("mira", "cat", "Mira adopted a cat named Pixel."),
         member("mira", "cat", "Mira's cat Pixel is scared of the vacuum cleaner."), False, "other_claim"),
    Pair(server("movie_night", "Movie night is every second Friday."),
         server("movie_night", "Movie night picks are voted on in #cinema-polls."), False, "other_claim"),
    Pair(member("leon", "chemistry", "Leon teaches chemistry."),
         member("leon", "chemistry", "Leon studied chemistry in Leiden."), False, "other_claim"),
    Pair(server("weekly_tournament", "The weekly tournament is every Saturday."),
         server("weekly_tournament", "The weekly tournament is capped at 32 players."), False, "other_claim"),
    Pair(member("priya", "job", "Priya is a nurse."),
         member("priya", "job", "Priya wants to become a nurse."), False, "other_claim"),
    Pair(server("minecraft_world", "The Minecraft server restarts every Sunday."),
         server("minecraft_world", "The Minecraft world was reset in January."), False, "other_claim"),
    Pair(member("kofi", "french", "Kofi speaks French."),
         member("kofi", "french", "Kofi teaches French."), False, "other_claim"),
    Pair(member("tomasz", "mercy", "Tomasz mains Mercy in Overwatch."),
         member("tomasz", "mercy", "Tomasz hates playing against Mercy in Overwatch."), False, "other_claim"),
    Pair(server("ban_appeals", "Ban appeals go through ModMail."),
         server("ban_appeals", "Ban appeals are reviewed every Sunday."), False, "other_claim"),
    Pair(member("hana", "twitch", "Hana streams on Twitch."),
         member("hana", "twitch", "Hana moderates a friend's Twitch channel."), False, "other_claim"),
    Pair(member("dani", "birthday", "Dani's birthday is 3 May."),
         member("dani", "birthday", "Dani's birthday party is on 3 May."), False, "other_claim"),
    Pair(server("shop_window", "Self-promotion is allowed in #shop-window."),
         server("shop_window", "Commissions can be requested in #shop-window."), False, "other_claim"),
    Pair(member("ravi", "dog", "Ravi has a golden retriever."),
         member("ravi", "dog", "Ravi wants a golden retriever."), False, "other_claim"),
    Pair(server("art_contest_prize", "The art contest winner gets a custom role."),
         server("art_contest_prize", "The art contest winner picks next month's theme."), False, "other_claim"),
    Pair(member("oskar", "norway", "Oskar is from Norway."),
         member("oskar", "norway", "Oskar is moving to Norway."), False, "other_claim"),
    Pair(member("sam", "bot", "Sam wrote the bot."),
         member("sam", "bot", "Sam hosts the bot."), False, "other_claim"),
    Pair(server("member_count", "The server has 2,000 members."),
         server("member_count", "The server hit 2,000 messages in one day."), False, "other_claim"),
    Pair(member("yusuf", "job", "Yusuf is a pharmacist."),
         member("yusuf", "job", "Yusuf's mother is a pharmacist."), False, "other_claim"),
    Pair(member("jonas", "band", "Jonas plays bass in a band."),
         member("jonas", "band", "Jonas is looking for a band to play bass in."), False, "other_claim"),

    # --- added_info: one side adds real information --------------------------------------------------
    Pair(server("summer_meetup", "The summer meetup is planned."),
         server("summer_meetup", "The summer meetup is planned for 12 July in Utrecht."), False, "added_info"),
    Pair(member("mira", "cat", "Mira has a cat."),
         member("mira", "cat", "Mira has a cat named Pixel."), False, "added_info"),
    Pair(server("movie_night", "Movie night is every second Friday."),
         server("movie_night", "Movie night is every second Friday at 20:00 CET."), False, "added_info"),
    Pair(member("leon", "moving", "Leon is moving."),
         member("leon", "moving", "Leon is moving to Rotterdam in March."), False, "added_info"),
    Pair(server("raid_day", "The raid moved to Saturday."),
         server("raid_day", "The raid moved to Saturday and now starts at 21:00."), False, "added_info"),
    Pair(member("priya", "job", "Priya is a nurse."),
         member("priya", "job", "Priya is a paediatric nurse."), False, "added_info"),
    Pair(server("charity_total", "The charity stream raised money for the animal shelter."),
         server("charity_total", "The charity stream raised \u20ac1,240 for the animal shelter."), False, "added_info"),
    Pair(member("kofi", "languages", "Kofi speaks French."),
         member("kofi", "languages", "Kofi speaks French and Twi."), False, "added_info"),
    Pair(member("tomasz", "overwatch_main", "Tomasz mains Mercy."),
         member("tomasz", "overwatch_main", "Tomasz mains Mercy, and Lifeweaver when Mercy is taken."),
         False, "added_info"),
    Pair(server("art_contest_deadline", "Art contest entries are due Sunday."),
         server("art_contest_deadline", "Art contest entries are due Sunday at 23:59 UTC."), False, "added_info"),
    Pair(member("dani", "birthday", "Dani's birthday is in May."),
         member("dani", "birthday", "Dani's birthday is on 3 May."), False, "added_info"),
    Pair(member("hana", "piano", "Hana is learning the piano."),
         member("hana", "piano", "Hana is learning the piano and has her first recital in June."), False, "added_info"),
    Pair(server("announcements_channel", "Only moderators can post in #announcements."),
         server("announcements_channel", "Only moderators and the bot can post in #announcements."),
         False, "added_info"),
    Pair(member("ravi", "pets", "Ravi has a dog."),
         member("ravi", "pets", "Ravi has a dog and two budgies."), False, "added_info"),
    Pair(member("freya", "knitting", "Freya knits."),
         member("freya", "knitting", "Freya knits and sells her work on Etsy."), False, "added_info"),
    Pair(server("trivia_night", "Trivia night is on Wednesdays."),
         server("trivia_night", "Trivia night is on Wednesdays, hosted by Noor."), False, "added_info"),
    Pair(member("oskar", "diet", "Oskar is vegan."),
         member("oskar", "diet", "Oskar has been vegan since January 2025."), False, "added_info"),
    Pair(member("elif", "languages", "Elif speaks Turkish."),
         member("elif", "languages", "Elif speaks Turkish and is learning Dutch."), False, "added_info"),
    # --- added for bench/dedupe.py (issue 21): different people said in other words, and paraphrases -----
    Pair(server("pronouns", "Mira uses she/her pronouns."),
         server("pronouns", "Priya goes by she/her."), False, "other_person"),
    Pair(server("weekly_tournament_host", "Leon hosts the weekly tournament."),
         server("weekly_tournament_host", "The weekly tournament is hosted by Jonas."), False, "other_person"),
    Pair(server("birthdays", "Aiko's birthday is on 9 April."),
         server("birthdays", "Hana was born on 9 April."), False, "other_person"),
    Pair(server("timezones", "Kofi is in UTC+1."),
         server("timezones", "Ines lives in UTC+1."), False, "other_person"),
    Pair(server("mod_team", "Elif is a moderator."),
         server("mod_team", "Dani is one of the moderators."), False, "other_person"),
    Pair(server("allergies", "Leon is allergic to cats."),
         server("allergies", "Ravi can't be around cats because of an allergy."), False, "other_person"),
    Pair(server("pronouns", "Sam uses they/them pronouns."),
         server("pronouns", "they/them pronouns for Noor, please."), False, "other_person"),
    Pair(server("diet", "Oskar is vegan."),
         server("diet", "Freya is vegan too."), False, "other_person"),
    Pair(server("streamers", "Hana streams Valorant on weekends."),
         server("streamers", "On weekends Mateo streams Valorant."), False, "other_person"),
    Pair(server("bot_maintainer", "Ping Sam for bot problems."),
         server("bot_maintainer", "For bot problems, ping Yusuf."), False, "other_person"),
    Pair(server("karaoke_host", "Ines hosts the Friday karaoke."),
         server("karaoke_host", "The Friday karaoke is hosted by Ines's sister."), False, "other_person"),
    Pair(server("languages", "Kofi speaks Twi and English."),
         server("languages", "Twi and English are what Priya speaks."), False, "other_person"),
    Pair(server("tournament_winner", "the march tournament went to jonas"),
         server("tournament_winner", "sam won the march tournament"), False, "other_person"),
    Pair(member("leon", "pets", "Leon has a dog called Pepper."),
         member("leon", "pets", "Pepper is the name of Leon's dog."), True, "paraphrase"),
    Pair(server("raid_night", "Raid night is on Thursdays."),
         server("raid_night", "We raid every Thursday night."), True, "paraphrase"),
    Pair(member("ines", "language_learning", "Ines is learning Korean."),
         member("ines", "language_learning", "Ines has started studying Korean."), True, "paraphrase"),
    Pair(server("rule_language", "Please keep #general in English."),
         server("rule_language", "#general is English-only."), True, "paraphrase"),
    Pair(member("kofi", "work", "Kofi works from home."),
         member("kofi", "work", "Kofi does his job remotely from home."), True, "paraphrase"),
    Pair(server("server_age", "The server opened in 2020."),
         server("server_age", "This server started in 2020."), True, "paraphrase"),
    Pair(member("yusuf", "coffee", "Yusuf drinks a lot of coffee."),
         member("yusuf", "coffee", "Yusuf is a heavy coffee drinker."), True, "paraphrase"),
    Pair(member("noor", "night_owl", "Noor is a night owl."),
         member("noor", "night_owl", "Noor usually stays up very late."), True, "paraphrase"),
    Pair(server("giveaway_rules", "Giveaways are only for members who have been here a month."),
         server("giveaway_rules", "You need to have been a member for a month to enter giveaways."),
         True, "paraphrase"),
    Pair(member("mateo", "football", "Mateo supports Atlético Madrid."),
         member("mateo", "football", "Mateo is an Atlético Madrid fan."), True, "paraphrase"),
    Pair(server("weekly_tournament", "The weekly tournament is every Saturday."),
         server("weekly_tournament", "Every Saturday we hold the weekly tourney."), True, "paraphrase"),
    Pair(member("freya", "tea", "Freya prefers tea."),
         member("freya", "tea", "Freya would rather have tea."), True, "paraphrase"),
]

# --------------------------------------------------------------------------------------------------------
# Dutch
# --------------------------------------------------------------------------------------------------------
NL: list[Pair] = [
    # exact
    Pair(server("regel_spoilers", "Spoilers altijd in spoilertags, ook in threads."),
         server("regel_spoilers", "spoilers altijd in spoilertags ook in threads"), True, "exact"),
    Pair(member("sanne", "voornaamwoorden", "Sanne gebruikt zij/haar."),
         member("sanne", "voornaamwoorden", "sanne gebruikt zij/haar!"), True, "exact"),
    Pair(server("quizavond", "De quiz is elke donderdag om 20:30."),
         server("quizavond", "De Quiz is elke Donderdag om 20:30"), True, "exact"),
    # word_order
    Pair(server("toernooi_tijd", "Elke zaterdag om 19:00 begint het toernooi."),
         server("toernooi_tijd", "Het toernooi begint elke zaterdag om 19:00."), True, "word_order"),
    Pair(member("daan", "woonplaats", "Daan woont sinds 2022 in Gent."),
         member("daan", "woonplaats", "Sinds 2022 woont Daan in Gent."), True, "word_order"),
    Pair(member("fleur", "talen", "Fleur spreekt Nederlands, Fries en Engels."),
         member("fleur", "talen", "Fleur spreekt Engels, Fries en Nederlands."), True, "word_order"),
    Pair(server("regel_waarschuwingen", "Na drie waarschuwingen volgt een time-out van een week."),
         server("regel_waarschuwingen", "Een time-out van een week volgt na drie waarschuwingen."), True, "word_order"),
    # paraphrase
    Pair(server("toernooi", "Het wekelijkse toernooi is op zaterdag."),
         server("toernooi", "Elke zaterdag hebben we ons toernooi."), True, "paraphrase"),
    Pair(member("bram", "allergie", "Bram is allergisch voor katten."),
         member("bram", "allergie", "Bram krijgt een allergische reactie van katten."), True, "paraphrase"),
    Pair(member("lotte", "werk", "Lotte werkt als verpleegkundige op de IC."),
         member("lotte", "werk", "Lotte is IC-verpleegkundige."), True, "paraphrase"),
    Pair(server("regel_zelfpromotie", "Zelfpromotie mag alleen in #etalage."),
         server("regel_zelfpromotie", "Reclame voor je eigen spullen hoort in #etalage en nergens anders."),
         True, "paraphrase"),
    Pair(member("joost", "rijbewijs", "Joost heeft geen rijbewijs."),
         member("joost", "rijbewijs", "joost heeft nooit z'n rijbewijs gehaald"), True, "paraphrase"),
    Pair(member("anouk", "hand", "Anouk is linkshandig."),
         member("anouk", "hand", "Anouk schrijft met links."), True, "paraphrase"),
    Pair(server("filmavond", "Filmavond is om de week op vrijdag."),
         server("filmavond", "Elke twee weken kijken we op vrijdag samen een film."), True, "paraphrase"),
    # shorter_longer
    Pair(member("thijs", "huisdieren", "Thijs heeft twee honden."),
         member("thijs", "huisdieren", "Thijs heeft thuis twee honden rondlopen."), True, "shorter_longer"),
    Pair(server("minecraft_editie", "De Minecraft-server draait op Java."),
         server("minecraft_editie", "Onze Minecraft-server draait gewoon op de Java-editie, voor wie het wil weten."),
         True, "shorter_longer"),
    Pair(member("noa", "verjaardag", "Noa is jarig op 14 februari."),
         member("noa", "verjaardag", "noa jarig: 14 feb"), True, "shorter_longer"),
    Pair(server("ban_bezwaar", "Bezwaar tegen een ban gaat via modmail."),
         server("ban_bezwaar", "Wil je bezwaar maken tegen een ban, dan moet je daarvoor bij modmail zijn."),
         True, "shorter_longer"),
    # other_key
    Pair(member("milan", "tijdzone", "Milan zit in CET."),
         member("milan", "milan_tijdzone", "Milan zit in de tijdzone CET."), True, "other_key"),
    Pair(server("quizavond", "De pubquiz is op donderdagavond."),
         server("pubquiz_dag", "Donderdagavond is het pubquizavond."), True, "other_key"),
    Pair(member("yara", "voornaamwoorden", "Yara gebruikt die/hen."),
         member("yara", "pronouns", "Yara's voornaamwoorden zijn die/hen."), True, "other_key"),

    # other_member
    Pair(member("sanne", "werk", "Werkt als verpleegkundige."),
         member("lotte", "werk", "Werkt als verpleegkundige."), False, "other_member"),
    Pair(member("daan", "woonplaats", "Woont in Utrecht."),
         member("bram", "woonplaats", "Woont in Utrecht."), False, "other_member"),
    Pair(member("fleur", "huisdieren", "Heeft twee katten."),
         member("noa", "huisdieren", "Heeft twee katten."), False, "other_member"),
    Pair(member("joost", "verjaardag", "Joost is jarig op 3 mei."),
         member("thijs", "verjaardag", "Thijs is jarig op 3 mei."), False, "other_member"),
    # other_person
    Pair(server("voornaamwoorden_sanne", "Sanne gebruikt zij/haar."),
         server("voornaamwoorden_lotte", "Lotte gebruikt zij/haar."), False, "other_person"),
    Pair(server("toernooi_maart", "Daan heeft het toernooi van maart gewonnen."),
         server("toernooi_maart", "Milan heeft het toernooi van maart gewonnen."), False, "other_person"),
    Pair(server("meetup_organisatie", "Bram en Anouk organiseren de zomermeetup."),
         server("meetup_organisatie", "Bram en Yara organiseren de zomermeetup."), False, "other_person"),
    Pair(server("serverlogo", "Fleur heeft het serverlogo getekend."),
         server("serverlogo", "Het zusje van Fleur heeft het serverlogo getekend."), False, "other_person"),
    # other_value
    Pair(server("toernooi", "Het toernooi is op zaterdag."),
         server("toernooi", "Het toernooi is op zondag."), False, "other_value"),
    Pair(member("noa", "verjaardag", "Noa is jarig op 14 februari."),
         member("noa", "verjaardag", "Noa is jarig op 4 februari."), False, "other_value"),
    Pair(server("raid_tijd", "De raid begint om 20:00."),
         server("raid_tijd", "De raid begint om 21:00."), False, "other_value"),
    Pair(member("thijs", "huisdieren", "Thijs heeft twee honden."),
         member("thijs", "huisdieren", "Thijs heeft drie honden."), False, "other_value"),
    Pair(server("meetup_plek", "De meetup is dit jaar in Utrecht."),
         server("meetup_plek", "De meetup is dit jaar in Amersfoort."), False, "other_value"),
    Pair(member("sem", "overwatch_main", "Sem maint Mercy in Overwatch."),
         member("sem", "overwatch_main", "Sem maint Moira in Overwatch."), False, "other_value"),
    Pair(server("minimumleeftijd", "Je moet minstens 16 zijn om hier te mogen chatten."),
         server("minimumleeftijd", "Je moet minstens 18 zijn om hier te mogen chatten."), False, "other_value"),
    # negation
    Pair(member("anouk", "horrorgames", "Anouk vindt horrorgames leuk."),
         member("anouk", "horrorgames", "Anouk vindt horrorgames niet meer leuk."), False, "negation"),
    Pair(server("regel_opnames", "Voice-opnames zijn toegestaan als iedereen akkoord gaat."),
         server("regel_opnames", "Voice-opnames zijn niet toegestaan, ook niet als iedereen akkoord gaat."),
         False, "negation"),
    Pair(member("joost", "rol", "Joost is moderator."),
         member("joost", "rol", "Joost is geen moderator meer."), False, "negation"),
    Pair(member("milan", "meetup", "Milan komt naar de meetup."),
         member("milan", "meetup", "Milan komt toch niet naar de meetup."), False, "negation"),
    # other_claim
    Pair(member("lotte", "werk", "Lotte is verpleegkundige."),
         member("lotte", "werk", "Lotte wil verpleegkundige worden."), False, "other_claim"),
    Pair(server("filmavond", "Filmavond is om de week op vrijdag."),
         server("filmavond", "Welke film we op filmavond kijken, bepalen we met een poll in #bios-polls."),
         False, "other_claim"),
    Pair(member("bram", "duits", "Bram spreekt Duits."),
         member("bram", "duits", "Bram geeft bijles Duits."), False, "other_claim"),
    Pair(member("daan", "kat", "Daan heeft een kat."),
         member("daan", "kat", "Daan wil graag een kat."), False, "other_claim"),
    # added_info
    Pair(server("zomermeetup", "De zomermeetup gaat door."),
         server("zomermeetup", "De zomermeetup gaat door, op 12 juli in Utrecht."), False, "added_info"),
    Pair(member("fleur", "hond", "Fleur heeft een hond."),
         member("fleur", "hond", "Fleur heeft een hond die Bikkel heet."), False, "added_info"),
    Pair(server("quizavond", "De quiz is op donderdag."),
         server("quizavond", "De quiz is op donderdag om 20:30 in #kroeg."), False, "added_info"),
    Pair(member("sem", "verhuizing", "Sem gaat verhuizen."),
         member("sem", "verhuizing", "Sem gaat in maart naar Groningen verhuizen."), False, "added_info"),
    # added for bench/dedupe.py (issue 21): different people said in other words, and paraphrases
    Pair(server("voornaamwoorden", "Sanne gebruikt zij/haar."),
         server("voornaamwoorden", "Voor Lotte graag zij/haar."), False, "other_person"),
    Pair(server("verjaardagen", "Daan is jarig op 3 mei."),
         server("verjaardagen", "Op 3 mei is Bram jarig."), False, "other_person"),
    Pair(server("moderators", "Anouk is moderator."),
         server("moderators", "Joost is een van de moderators."), False, "other_person"),
    Pair(member("lotte", "sport", "Lotte speelt volleybal."),
         member("lotte", "sport", "Lotte zit op volleybal."), True, "paraphrase"),
    Pair(server("regel_taal", "In #algemeen praten we Nederlands."),
         server("regel_taal", "#algemeen is alleen voor Nederlands."), True, "paraphrase"),
]

# --------------------------------------------------------------------------------------------------------
# German
# --------------------------------------------------------------------------------------------------------
DE: list[Pair] = [
    # exact
    Pair(server("regel_spoiler", "Spoiler bitte immer in Spoiler-Tags."),
         server("regel_spoiler", "spoiler bitte immer in spoiler-tags"), True, "exact"),
    Pair(member("lukas", "pronomen", "Lukas benutzt er/ihm."),
         member("lukas", "pronomen", "Lukas benutzt er/ihm!!"), True, "exact"),
    Pair(server("stammtisch", "Der Stammtisch ist jeden Mittwoch um 20 Uhr."),
         server("stammtisch", "Der Stammtisch ist jeden Mittwoch  um 20 Uhr"), True, "exact"),
    # word_order
    Pair(server("turnier_zeit", "Das Turnier findet jeden Samstag um 19 Uhr statt."),
         server("turnier_zeit", "Jeden Samstag um 19 Uhr findet das Turnier statt."), True, "word_order"),
    Pair(member("lena", "wohnort", "Lena wohnt seit 2021 in Leipzig."),
         member("lena", "wohnort", "Seit 2021 wohnt Lena in Leipzig."), True, "word_order"),
    Pair(member("jannik", "sprachen", "Jannik spricht Deutsch, Polnisch und Englisch."),
         member("jannik", "sprachen", "Jannik spricht Englisch, Polnisch und Deutsch."), True, "word_order"),
    Pair(server("regel_verwarnungen", "Nach drei Verwarnungen gibt es einen Timeout von einer Woche."),
         server("regel_verwarnungen", "Einen Timeout von einer Woche gibt es nach drei Verwarnungen."),
         True, "word_order"),
    # paraphrase
    Pair(server("turnier", "Das wöchentliche Turnier ist samstags."),
         server("turnier", "Jeden Samstag steigt bei uns das Turnier."), True, "paraphrase"),
    Pair(member("marie", "allergie", "Marie ist gegen Katzen allergisch."),
         member("marie", "allergie", "Katzen verträgt Marie wegen ihrer Allergie nicht."), True, "paraphrase"),
    Pair(member("felix", "beruf", "Felix arbeitet als Pfleger auf der Intensivstation."),
         member("felix", "beruf", "Felix ist Intensivpfleger."), True, "paraphrase"),
    Pair(server("regel_eigenwerbung", "Eigenwerbung ist nur in #schaufenster erlaubt."),
         server("regel_eigenwerbung",
             "Wer für sein eigenes Zeug werben will, macht das in #schaufenster und sonst nirgends."),
         True, "paraphrase"),
    Pair(member("hannah", "führerschein", "Hannah hat keinen Führerschein."),
         member("hannah", "führerschein", "hannah hat nie ihren führerschein gemacht"), True, "paraphrase"),
    Pair(member("emre", "alkohol", "Emre trinkt keinen Alkohol."),
         member("emre", "alkohol", "Emre ist Antialkoholiker."), True, "paraphrase"),
    Pair(server("filmabend", "Filmabend ist alle zwei Wochen freitags."),
         server("filmabend", "Jeden zweiten Freitag schauen wir zusammen einen Film."), True, "paraphrase"),
    # shorter_longer
    Pair(member("tobias", "haustiere", "Tobias hat zwei Hunde."),
         member("tobias", "haustiere", "Tobias hat zu Hause zwei Hunde, nur so nebenbei."), True, "shorter_longer"),
    Pair(server("minecraft_edition", "Der Minecraft-Server läuft auf der Java-Edition."),
         server("minecraft_edition", "Minecraft-Server: Java-Edition."), True, "shorter_longer"),
    Pair(member("svenja", "geburtstag", "Svenja hat am 14. Februar Geburtstag."),
         member("svenja", "geburtstag", "Svenjas Geburtstag: 14.02."), True, "shorter_longer"),
    Pair(server("bann_einspruch", "Bann-Einsprüche laufen über Modmail."),
         server("bann_einspruch", "Wenn du gegen einen Bann Einspruch einlegen willst, läuft das über Modmail."),
         True, "shorter_longer"),
    # other_key
    Pair(member("niklas", "zeitzone", "Niklas lebt in der MEZ-Zeitzone."),
         member("niklas", "niklas_tz", "Niklas' Zeitzone ist MEZ."), True, "other_key"),
    Pair(server("stammtisch", "Der Stammtisch ist mittwochs."),
         server("stammtisch_termin", "Mittwochs ist Stammtisch."), True, "other_key"),
    Pair(member("aylin", "pronomen", "Aylin benutzt sie/ihr."),
         member("aylin", "pronouns", "Aylins Pronomen sind sie/ihr."), True, "other_key"),

    # other_member
    Pair(member("felix", "beruf", "Arbeitet als Pflegekraft im Nachtdienst."),
         member("katharina", "beruf", "Arbeitet als Pflegekraft im Nachtdienst."), False, "other_member"),
    Pair(member("lena", "wohnort", "Wohnt in Leipzig."),
         member("tobias", "wohnort", "Wohnt in Leipzig."), False, "other_member"),
    Pair(member("marie", "haustiere", "Hat zwei Katzen."),
         member("svenja", "haustiere", "Hat zwei Katzen."), False, "other_member"),
    Pair(member("jannik", "geburtstag", "Jannik hat am 3. Mai Geburtstag."),
         member("niklas", "geburtstag", "Niklas hat am 3. Mai Geburtstag."), False, "other_member"),
    # other_person
    Pair(server("pronomen_lukas", "Lukas benutzt er/ihm."),
         server("pronomen_emre", "Emre benutzt er/ihm."), False, "other_person"),
    Pair(server("märzturnier", "Hannah hat das Märzturnier gewonnen."),
         server("märzturnier", "Katharina hat das Märzturnier gewonnen."), False, "other_person"),
    Pair(server("sommertreffen_orga", "Tobias und Lena organisieren das Sommertreffen."),
         server("sommertreffen_orga", "Tobias und Aylin organisieren das Sommertreffen."), False, "other_person"),
    Pair(server("server_logo", "Felix hat das Server-Logo gezeichnet."),
         server("server_logo", "Felix' Bruder hat das Server-Logo gezeichnet."), False, "other_person"),
    # other_value
    Pair(server("turnier", "Das Turnier ist am Samstag."),
         server("turnier", "Das Turnier ist am Sonntag."), False, "other_value"),
    Pair(member("svenja", "geburtstag", "Svenja hat am 14. Februar Geburtstag."),
         member("svenja", "geburtstag", "Svenja hat am 4. Februar Geburtstag."), False, "other_value"),
    Pair(server("raid_zeit", "Der Raid startet um 20 Uhr."),
         server("raid_zeit", "Der Raid startet um 21 Uhr."), False, "other_value"),
    Pair(member("tobias", "haustiere", "Tobias hat zwei Hunde."),
         member("tobias", "haustiere", "Tobias hat drei Hunde."), False, "other_value"),
    Pair(server("treffen_ort", "Das Treffen ist dieses Jahr in Köln."),
         server("treffen_ort", "Das Treffen ist dieses Jahr in Bonn."), False, "other_value"),
    Pair(member("niklas", "overwatch_main", "Niklas spielt in Overwatch hauptsächlich Mercy."),
         member("niklas", "overwatch_main", "Niklas spielt in Overwatch hauptsächlich Kiriko."), False, "other_value"),
    Pair(server("mindestalter", "Mitglieder müssen mindestens 16 sein."),
         server("mindestalter", "Mitglieder müssen mindestens 18 sein."), False, "other_value"),
    # negation
    Pair(member("hannah", "horrorspiele", "Hannah mag Horrorspiele."),
         member("hannah", "horrorspiele", "Hannah mag keine Horrorspiele mehr."), False, "negation"),
    Pair(server("regel_aufnahmen", "Sprachaufnahmen sind erlaubt, wenn alle zustimmen."),
         server("regel_aufnahmen", "Sprachaufnahmen sind nicht erlaubt, auch wenn alle zustimmen."), False, "negation"),
    Pair(member("emre", "rolle", "Emre ist Moderator."),
         member("emre", "rolle", "Emre ist kein Moderator mehr."), False, "negation"),
    Pair(server("schachfinale", "Katharina hat Jannik im Schachfinale geschlagen."),
         server("schachfinale", "Jannik hat Katharina im Schachfinale geschlagen."), False, "negation"),
    # other_claim
    Pair(member("katharina", "beruf", "Katharina ist Ärztin."),
         member("katharina", "beruf", "Katharina will Ärztin werden."), False, "other_claim"),
    Pair(server("filmabend", "Filmabend ist alle zwei Wochen freitags."),
         server("filmabend", "Über den Film für den Filmabend wird in #kino-umfragen abgestimmt."),
         False, "other_claim"),
    Pair(member("lukas", "französisch", "Lukas spricht Französisch."),
         member("lukas", "französisch", "Lukas unterrichtet Französisch."), False, "other_claim"),
    Pair(member("aylin", "hund", "Aylin hat einen Hund."),
         member("aylin", "hund", "Aylin hätte gern einen Hund."), False, "other_claim"),
    # added_info
    Pair(server("sommertreffen", "Das Sommertreffen findet statt."),
         server("sommertreffen", "Das Sommertreffen findet am 12. Juli in Köln statt."), False, "added_info"),
    Pair(member("marie", "katze", "Marie hat eine Katze."),
         member("marie", "katze", "Marie hat eine Katze namens Krümel."), False, "added_info"),
    Pair(server("stammtisch", "Der Stammtisch ist mittwochs."),
         server("stammtisch", "Der Stammtisch ist mittwochs um 20 Uhr im Sprachkanal Kneipe."), False, "added_info"),
    Pair(member("jannik", "umzug", "Jannik zieht um."),
         member("jannik", "umzug", "Jannik zieht im März nach Hamburg."), False, "added_info"),
    # added for bench/dedupe.py (issue 21): different people said in other words, and paraphrases
    Pair(server("pronomen", "Lukas benutzt er/ihm."),
         server("pronomen", "Für Felix bitte er/ihm."), False, "other_person"),
    Pair(server("geburtstage", "Lena hat am 3. Mai Geburtstag."),
         server("geburtstage", "Am 3. Mai hat Marie Geburtstag."), False, "other_person"),
    Pair(server("moderation", "Emre ist Moderator."),
         server("moderation", "Tobias gehört zu den Moderatoren."), False, "other_person"),
    Pair(member("jannik", "sport", "Jannik spielt Handball im Verein."),
         member("jannik", "sport", "Jannik ist im Handballverein."), True, "paraphrase"),
    Pair(server("regel_sprache", "In #allgemein wird Deutsch gesprochen."),
         server("regel_sprache", "#allgemein ist nur auf Deutsch."), True, "paraphrase"),
]

# --------------------------------------------------------------------------------------------------------
# Japanese
# --------------------------------------------------------------------------------------------------------
JA: list[Pair] = [
    # exact
    Pair(server("ネタバレ", "ネタバレは必ずスポイラータグで隠すこと。"),
         server("ネタバレ", "ネタバレは必ずスポイラータグで隠すこと！"), True, "exact"),
    Pair(member("yui", "誕生日", "ゆいの誕生日は4月9日。"),
         member("yui", "誕生日", "ゆいの誕生日は４月９日"), True, "exact"),
    Pair(server("raid_schedule", "毎週土曜21時からレイド。"),
         server("raid_schedule", "毎週土曜 21時から レイド"), True, "exact"),
    # word_order
    Pair(server("大会", "大会は毎週土曜の19時から。"),
         server("大会", "毎週土曜の19時から大会。"), True, "word_order"),
    Pair(member("sota", "住まい", "そうたは2021年から大阪に住んでる。"),
         member("sota", "住まい", "そうたは大阪に2021年から住んでる。"), True, "word_order"),
    Pair(member("mei", "言語", "めいは日本語と英語と韓国語が話せる。"),
         member("mei", "言語", "めいは韓国語と英語と日本語が話せる。"), True, "word_order"),
    Pair(server("vc_closing", "VCは平日は深夜2時に閉まる。"),
         server("vc_closing", "平日は深夜2時にVCが閉まる。"), True, "word_order"),
    # paraphrase
    Pair(server("大会", "毎週土曜に大会をやってます。"),
         server("大会", "大会は週一、土曜日開催。"), True, "paraphrase"),
    Pair(member("ren", "アレルギー", "れんは猫アレルギー。"),
         member("ren", "アレルギー", "れんは猫に触るとアレルギーが出る。"), True, "paraphrase"),
    Pair(member("aoi", "仕事", "あおいはICUの看護師。"),
         member("aoi", "仕事", "あおいは集中治療室でナースしてる。"), True, "paraphrase"),
    Pair(server("宣伝ルール", "宣伝は #宣伝 チャンネルのみ。"),
         server("宣伝ルール", "宣伝したいときは #宣伝 を使うこと、ほかのチャンネルはNG。"), True, "paraphrase"),
    Pair(member("kenta", "免許", "けんたは車の免許を持ってない。"),
         member("kenta", "免許", "けんたは運転免許を取ったことがない。"), True, "paraphrase"),
    Pair(member("sakura", "お酒", "さくらはお酒を飲まない。"),
         member("sakura", "お酒", "さくらはお酒NG、いつもソフドリ。"), True, "paraphrase"),
    Pair(server("映画会", "映画鑑賞会は隔週金曜。"),
         server("映画会", "2週間に1回、金曜にみんなで映画を観てる。"), True, "paraphrase"),
    # shorter_longer
    Pair(member("riku", "ペット", "りくは犬を2匹飼っている。"),
         member("riku", "ペット", "りく、犬2匹飼い。"), True, "shorter_longer"),
    Pair(server("マイクラ", "マイクラサーバーはJava版。"),
         server("マイクラ", "うちのマイクラサーバーはJava版で動いてるので、そこだけよろしくです。"),
         True, "shorter_longer"),
    Pair(member("hina", "誕生日", "ひなの誕生日は2月14日。"),
         member("hina", "誕生日", "ひな誕：2/14"), True, "shorter_longer"),
    Pair(server("ban_appeal", "BANへの異議申し立てはModmailから。"),
         server("ban_appeal", "BANされて異議を申し立てたい場合は、Modmailに連絡してください。"),
         True, "shorter_longer"),
    # other_key
    Pair(member("takumi", "タイムゾーン", "たくみはJST。"),
         member("takumi", "takumi_tz", "たくみのタイムゾーンはJST。"), True, "other_key"),
    Pair(server("雑談会", "雑談会は毎週水曜。"),
         server("zatsudan_day", "毎週水曜は雑談会の日。"), True, "other_key"),
    Pair(member("miyu", "推し", "みゆの推しは五条悟。"),
         member("miyu", "oshi", "五条悟がみゆの推し。"), True, "other_key"),

    # other_member
    Pair(member("aoi", "仕事", "看護師として夜勤で働いてる。"),
         member("hina", "仕事", "看護師として夜勤で働いてる。"), False, "other_member"),
    Pair(member("sota", "住まい", "大阪に住んでる。"),
         member("kenta", "住まい", "大阪に住んでる。"), False, "other_member"),
    Pair(member("mei", "ペット", "猫を2匹飼ってる。"),
         member("sakura", "ペット", "猫を2匹飼ってる。"), False, "other_member"),
    Pair(member("riku", "誕生日", "りくの誕生日は5月3日。"),
         member("takumi", "誕生日", "たくみの誕生日は5月3日。"), False, "other_member"),
    # other_person
    Pair(server("3月大会", "3月の大会ははるとが優勝。"),
         server("3月大会", "3月の大会はれんが優勝。"), False, "other_person"),
    Pair(server("サーバーアイコン", "サーバーのアイコンはあおいが描いた。"),
         server("サーバーアイコン", "サーバーのアイコンはあおいのお姉さんが描いた。"), False, "other_person"),
    Pair(server("オフ会幹事", "オフ会の幹事はけんたとさくら。"),
         server("オフ会幹事", "オフ会の幹事はけんたとみゆ。"), False, "other_person"),
    Pair(server("イラスト担当", "ひなが #イラスト のモデレーター。"),
         server("イラスト担当", "めいが #イラスト のモデレーター。"), False, "other_person"),
    # other_value
    Pair(server("大会", "大会は毎週土曜。"),
         server("大会", "大会は毎週日曜。"), False, "other_value"),
    Pair(member("hina", "誕生日", "ひなの誕生日は2月14日。"),
         member("hina", "誕生日", "ひなの誕生日は2月4日。"), False, "other_value"),
    Pair(server("raid_time", "レイドは21時スタート。"),
         server("raid_time", "レイドは20時スタート。"), False, "other_value"),
    Pair(member("riku", "ペット", "りくは犬を2匹飼ってる。"),
         member("riku", "ペット", "りくは犬を3匹飼ってる。"), False, "other_value"),
    Pair(server("オフ会場所", "オフ会は大阪で開催。"),
         server("オフ会場所", "オフ会は京都で開催。"), False, "other_value"),
    Pair(member("takumi", "スプラ", "たくみのスプラの持ち武器はわかばシューター。"),
         member("takumi", "スプラ", "たくみのスプラの持ち武器はもみじシューター。"), False, "other_value"),
    Pair(server("年齢制限", "参加できるのは16歳以上。"),
         server("年齢制限", "参加できるのは18歳以上。"), False, "other_value"),
    # negation
    Pair(member("yui", "ホラゲー", "ゆいはホラゲーが好き。"),
         member("yui", "ホラゲー", "ゆいはもうホラゲー好きじゃない。"), False, "negation"),
    Pair(server("録音ルール", "VCの録音は全員の同意があればOK。"),
         server("録音ルール", "VCの録音は全員が同意してもNG。"), False, "negation"),
    Pair(member("ren", "役職", "れんはモデレーター。"),
         member("ren", "役職", "れんはもうモデレーターじゃない。"), False, "negation"),
    Pair(server("決勝", "決勝ではるとがそうたに勝った。"),
         server("決勝", "決勝でそうたがはるとに勝った。"), False, "negation"),
    # other_claim
    Pair(member("aoi", "仕事", "あおいは看護師。"),
         member("aoi", "仕事", "あおいは看護師を目指してる。"), False, "other_claim"),
    Pair(server("映画会", "映画鑑賞会は隔週金曜。"),
         server("映画会", "映画鑑賞会で観る作品は #映画投票 で決める。"), False, "other_claim"),
    Pair(member("sota", "韓国語", "そうたは韓国語が話せる。"),
         member("sota", "韓国語", "そうたは韓国語を教えてる。"), False, "other_claim"),
    Pair(member("miyu", "猫", "みゆは猫を飼ってる。"),
         member("miyu", "猫", "みゆは猫を飼いたがってる。"), False, "other_claim"),
    # added_info
    Pair(server("夏オフ会", "夏のオフ会は開催決定！"),
         server("夏オフ会", "夏のオフ会は7月12日に大阪で開催決定！"), False, "added_info"),
    Pair(member("mei", "ペット", "めいは犬を飼ってる。"),
         member("mei", "ペット", "めいはコタローって名前の柴犬を飼ってる。"), False, "added_info"),
    Pair(server("雑談会", "雑談会は毎週水曜。"),
         server("雑談会", "雑談会は毎週水曜21時から #まったりvc で。"), False, "added_info"),
    Pair(member("kenta", "引っ越し", "けんたは引っ越し予定。"),
         member("kenta", "引っ越し", "けんたは3月に福岡へ引っ越し予定。"), False, "added_info"),
    # added for bench/dedupe.py (issue 21): different people said in other words, and paraphrases
    Pair(server("誕生日", "ゆいの誕生日は4月9日。"),
         server("誕生日", "4月9日はめいの誕生日。"), False, "other_person"),
    Pair(server("モデレーター", "れんはモデレーター。"),
         server("モデレーター", "モデレーターはあおい。"), False, "other_person"),
    Pair(server("配信", "ひなは週末にヴァロを配信してる。"),
         server("配信", "週末はさくらがヴァロ配信。"), False, "other_person"),
    Pair(member("haruto", "ゲーム", "はるとはスプラが得意。"),
         member("haruto", "ゲーム", "はるとはスプラがうまい。"), True, "paraphrase"),
    Pair(server("雑談", "雑談は #雑談 チャンネルで。"),
         server("雑談", "雑談するなら #雑談 へ。"), True, "paraphrase"),
]

PAIRS: list[Pair] = [
    *(pair._replace(lang="en") for pair in EN),
    *(pair._replace(lang="nl") for pair in NL),
    *(pair._replace(lang="de") for pair in DE),
    *(pair._replace(lang="ja") for pair in JA),
]

# --------------------------------------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------------------------------------
# Words that carry no claim, per language (pronouns and negations stay: they are the difference).
STOPWORDS = {
    "en": frozenset("a an the is are was were be been am of to in on at for and or but with by from as it its "
                    "this that these those has have had do does did so just also".split()),
    "nl": frozenset("de het een is zijn was waren van in op aan voor en of maar met door bij als dat die dit "
                    "deze er ook te om".split()),
    "de": frozenset("der die das den dem des ein eine einen einem einer ist sind war waren von in im am an auf "
                    "für und oder aber mit bei als dass es auch zu zum zur um".split()),
}
_KEY = re.compile(r"[\w.\-]{1,64}")
_WORD = re.compile(r"[^\W_]+")
_JA_SIGNIFICANT = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ffA-Za-z0-9]")  # kanji, katakana, letters, digits


def normalised(text: str, lang: str = "en") -> str:
    """Case, punctuation, whitespace and character width folded away: what an `exact` pair shares
    (Japanese is written without spaces, so there they go too)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return ("" if lang == "ja" else " ").join(_WORD.findall(folded))


def tokens(text: str, lang: str) -> Counter:
    """Content units: words minus stop words; for Japanese, character bigrams (no spaces to split on)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if lang == "ja":
        chars = "".join(_WORD.findall(folded))
        return Counter(chars[i:i + 2] for i in range(len(chars) - 1))
    return Counter(word for word in _WORD.findall(folded) if word not in STOPWORDS[lang])


def jaccard(left: Counter, right: Counter) -> float:
    union = set(left) | set(right)
    return len(set(left) & set(right)) / len(union) if union else 1.0


def _side_problems(side: Side, where: str) -> list[str]:
    problems = []
    if not _KEY.fullmatch(side.key) or side.key != side.key.lower() or "__" in side.key:
        problems.append(f"{where}: bad key {side.key!r}")
    if not 1 <= len(side.content) <= 1000 or not side.content.strip():
        problems.append(f"{where}: content length {len(side.content)}")
    if side.scope == "server":
        if side.member is not None:
            problems.append(f"{where}: a server fact names member {side.member!r}")
    elif side.scope == "member":
        if side.member not in MEMBERS:
            problems.append(f"{where}: unknown member {side.member!r}")
    else:
        problems.append(f"{where}: bad scope {side.scope!r}")
    return problems


def _pair_problems(pair: Pair, where: str) -> list[str]:
    a, b = pair.a, pair.b
    problems = _side_problems(a, where + ".a") + _side_problems(b, where + ".b")
    if pair.lang not in LANGUAGES:
        problems.append(f"{where}: bad language {pair.lang!r}")
    if pair.same and pair.kind not in SAME_KINDS or not pair.same and pair.kind not in DIFFERENT_KINDS:
        problems.append(f"{where}: kind {pair.kind!r} with same={pair.same}")
    if a == b:
        problems.append(f"{where}: both sides are identical")
    same_subject = (a.scope, a.member) == (b.scope, b.member)
    if pair.same and not same_subject:
        problems.append(f"{where}: a same=True pair about two subjects")
    if pair.kind == "other_member":
        if a.scope != "member" or b.scope != "member" or a.member == b.member:
            problems.append(f"{where}: other_member needs two members")
    elif not same_subject:
        problems.append(f"{where}: {pair.kind} pairs are about one subject")
    if pair.kind == "other_person" and a.scope != "server":
        problems.append(f"{where}: other_person pairs are server facts")
    equal_normalised = normalised(a.content, pair.lang) == normalised(b.content, pair.lang)
    if pair.kind == "exact":
        if not equal_normalised or a.content == b.content or a.key != b.key:
            problems.append(f"{where}: exact pair is not the same text written differently")
    elif pair.kind == "word_order":
        if pair.lang == "ja":
            same_words = sorted(_JA_SIGNIFICANT.findall(unicodedata.normalize("NFKC", a.content).casefold())) == \
                sorted(_JA_SIGNIFICANT.findall(unicodedata.normalize("NFKC", b.content).casefold()))
        else:
            same_words = sorted(normalised(a.content).split()) == sorted(normalised(b.content).split())
        if not same_words or equal_normalised:
            problems.append(f"{where}: word_order pair does not reorder the same words")
    elif pair.kind == "other_key":
        if a.key == b.key:
            problems.append(f"{where}: other_key pair has one key")
    elif pair.kind in ("paraphrase", "shorter_longer") and equal_normalised:
        problems.append(f"{where}: {pair.kind} pair is an exact repeat")
    if pair.kind == "shorter_longer":
        short, long = sorted((len(normalised(a.content, pair.lang)), len(normalised(b.content, pair.lang))))
        if long < short * 1.25:
            problems.append(f"{where}: shorter_longer sides are about as long")
    sizes = sum(tokens(a.content, pair.lang).values()), sum(tokens(b.content, pair.lang).values())
    if pair.kind == "added_info" and sizes[0] == sizes[1]:
        problems.append(f"{where}: neither side of an added_info pair says more")
    if not pair.same and pair.kind not in ("other_member",) and a.content == b.content:
        problems.append(f"{where}: a different pair with one content")
    return problems


def check() -> dict:
    """Validate PAIRS and report counts per kind and language, and the word overlap of the two sides."""
    problems: list[str] = []
    for index, pair in enumerate(PAIRS):
        problems += _pair_problems(pair, f"pair {index} ({pair.lang} {pair.kind} {pair.a.content[:30]!r})")
    seen = Counter(frozenset((pair.a, pair.b)) for pair in PAIRS)
    problems += [f"pair listed twice: {sorted(side.content for side in sides)}"
                 for sides, count in seen.items() if count > 1]
    total = len(PAIRS)
    same = sum(pair.same for pair in PAIRS)
    by_lang = Counter(pair.lang for pair in PAIRS)
    if total < 320:
        problems.append(f"only {total} pairs")
    if same < 0.4 * total:
        problems.append(f"only {same} of {total} pairs are same=True")
    if by_lang["en"] < 0.6 * total:
        problems.append(f"only {by_lang['en']} of {total} pairs are English")
    for lang in LANGUAGES:
        kinds_here = {pair.kind for pair in PAIRS if pair.lang == lang}
        missing = set(SAME_KINDS + DIFFERENT_KINDS) - kinds_here
        if missing:
            problems.append(f"{lang} lacks kinds {sorted(missing)}")

    per_kind = {kind: Counter(pair.lang for pair in PAIRS if pair.kind == kind)
                for kind in SAME_KINDS + DIFFERENT_KINDS}
    overlap = {}
    for kind in SAME_KINDS + DIFFERENT_KINDS:
        values = [jaccard(tokens(pair.a.content, pair.lang), tokens(pair.b.content, pair.lang))
                  for pair in PAIRS if pair.kind == kind]
        overlap[kind] = round(sum(values) / len(values), 3) if values else None
    different = [pair for pair in PAIRS if not pair.same]
    hard = sum(jaccard(tokens(p.a.content, p.lang), tokens(p.b.content, p.lang)) >= 0.5 for p in different)
    paraphrases = [pair for pair in PAIRS if pair.kind == "paraphrase"]
    low = sum(jaccard(tokens(p.a.content, p.lang), tokens(p.b.content, p.lang)) < 0.3 for p in paraphrases)
    report = {
        "pairs": total,
        "same_true": same,
        "same_share": round(same / total, 3),
        "per_language": dict(by_lang),
        "same_per_language": dict(Counter(pair.lang for pair in PAIRS if pair.same)),
        "per_kind": {kind: dict(counts) | {"all": sum(counts.values())} for kind, counts in per_kind.items()},
        "mean_jaccard_per_kind": overlap,
        "different_pairs_with_jaccard_0.5_or_more": f"{hard} of {len(different)}",
        "different_pairs_equal_once_normalised": sum(normalised(p.a.content, p.lang) == normalised(p.b.content, p.lang)
                                                      for p in different),
        "paraphrases_with_jaccard_below_0.3": f"{low} of {len(paraphrases)}",
        "members": len(MEMBERS),
        "problems": problems,
        "ok": not problems,
    }
    return report


if __name__ == "__main__":
    import json

    print(json.dumps(check(), ensure_ascii=False, indent=2))
