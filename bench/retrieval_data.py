"""A hand-written retrieval-quality data set: one Discord community's memory, and questions about it.

What it is
----------
FACTS holds the memory of "Lantern Hollow", a fictional cosy gaming and creative Discord server, as
(key, content) pairs of the kind a bot or the moderators would store: server rules, channels, events
and their times, roles and staff, members' pets, timezones, languages, birthdays, FFXIV mains,
hobbies, jobs and pronouns, server lore, the bot's behaviour, in-jokes, past events and tech set-ups.
There are 36 members, each with several facts, so a name alone never pins down the answer. Near-miss
distractors are there on purpose: two nurses, several cats and birds, three French speakers, two
healers, old and current raid times, the bot's host next to the Minecraft host, and so on.

QUESTIONS holds what members would ask in chat, each with the indexes into FACTS that answer it
(usually one, sometimes two). It is meant to compare word search (PostgreSQL full text, stemmed
English), vector search (multilingual-e5-small) and hybrid search on the same memory.

How it was built
----------------
Everything was written by hand, fact by fact and question by question; nothing is generated from
templates. Each question was paraphrased away from its answer, the way people talk in chat
("what kind of animal does mira keep" for "Mira has a rescue ferret called Biscuit who steals
socks"), so that plain word overlap cannot find the answer and the comparison measures meaning:

- facts are one sentence of 6-25 words; keys are short snake_case and unique, and questions name
  their answers by key (resolved to indexes when the module loads);
- questions are 3-15 words, lower or mixed case, sometimes without a question mark;
- for at least 70% of the questions, the question shares no content word with its answer's key and
  content, apart from a member's name (content words: lowercased `[a-z0-9]+` tokens, minus the
  STOPWORDS below, minus a trailing "s"); the rest share at most one content word;
- about 10% of the questions are ones word search should handle, because members do ask like that:
  an exact rare term ("soup", "moustiques", "valorant") carries them.

`check()` verifies all of this (including a stricter stemmer that also strips -ing/-ed/-es/-e, so
"studying"/"study" or "named"/"name" count as the same word) and reports the overlap shares.
Run `python -m bench.retrieval_data` (or `python3 bench/retrieval_data.py`).
"""

from __future__ import annotations

import re

FACTS: list[tuple[str, str]] = [
    # --- The server, its rules and how to get in -------------------------------------------------
    ("server_origin", "Lantern Hollow started in October 2020 as a group chat for one Stardew Valley co-op farm."),
    ("server_old_name", "Until December 2020 the server was called Cozy Corner, before Mira renamed it."),
    ("server_founded_date", "The server officially opened on 14 October 2020 with eleven members."),
    ("member_milestone", "We passed 2,000 members in August 2024 and celebrated with a week of giveaways."),
    ("server_language", "English is the default language in every channel except #le-coin and #rincon."),
    ("welcome_gate", "New arrivals react with the lantern emoji in #welcome to unlock the other channels."),
    ("minimum_age", "Everyone here must be at least 16 years old, as stated on the welcome screen."),
    ("rule_spoilers", "Spoilers for anything released in the last thirty days go inside spoiler tags."),
    ("rule_nsfw", "No NSFW content anywhere, including avatars, banners and custom status text."),
    ("rule_self_promo", "Self-promotion is only allowed in #shop-window, once per week per member."),
    ("rule_ai_art", "AI-generated images may not be posted in #art-gallery or entered into art contests."),
    ("rule_politics", "Political and religious debates are off-topic here and get moved to threads or deleted."),
    ("rule_alt_accounts", "Alternate accounts need a moderator's approval before they join."),
    ("rule_rmt", "Selling in-game items or gold for real money results in a permanent ban."),
    ("rule_mod_ping", "Only ping @Moderators for emergencies like raids or doxxing; otherwise use ModMail."),
    ("rule_warnings", "Three warnings within ninety days lead to an automatic seven-day timeout."),
    ("ban_appeals", "Ban appeals use the form pinned in #welcome and are reviewed every Sunday."),
    ("rule_dm_ads", "Sending unsolicited DMs with invite links to other servers is an instant ban."),
    ("rule_voice_recording", "Recording voice channels requires consent from everyone present."),
    ("rule_caps", "Messages written entirely in capitals and longer than a line get removed by the automod."),
    # --- Channels --------------------------------------------------------------------------------
    ("channel_hearth", "#hearth is the general chat where most everyday conversation happens."),
    ("channel_workbench", "#workbench is for works in progress, from knitting projects to 3D prints."),
    ("channel_quest_board", "#quest-board is for finding teammates, and posts there vanish after 48 hours."),
    ("channel_lantern_post", "Official announcements go in #lantern-post, where only staff can write."),
    ("channel_pet_pics", "#pet-pics allows images only; comments belong in the threads under each photo."),
    ("channel_library", "#the-library hosts the book club and all general reading chat."),
    ("channel_campfire", "Campfire is the main voice channel for hanging out late at night."),
    ("channel_quiet_room", "The Quiet Room voice channel is push-to-talk only and meant for studying."),
    ("channel_le_coin", "#le-coin is the French-speaking channel that Ines started in 2022."),
    ("channel_rincon", "#rincon is the Spanish-speaking channel, moderated informally by Lucia and Hugo."),
    ("channel_wick_bugs", "Problems with the Wick bot should be reported in #wick-bugs with a screenshot."),
    ("channel_kitchen", "#kitchen is for recipes and food photos; pineapple pizza takes are tolerated there."),
    ("channel_jukebox", "#jukebox is for sharing songs, and the Radio voice channel plays lo-fi around the clock."),
    (
        "channel_minecraft_archive",
        "The old #minecraft-2021 channel was archived in January 2023 but can still be read.",
    ),
    ("channel_velvet_lounge", "#velvet-lounge is a hidden channel that only server boosters can see."),
    ("channel_counting", "#counting has reached 14,302 as its highest number so far."),
    ("channel_vent", "#rainy-day is the venting channel; replies there should be supportive, not unasked advice."),
    ("channel_shop_window", "#shop-window is where members can advertise their Etsy shops, commissions and streams."),
    ("channel_glowboard", "#glowboard collects messages that received at least seven star reactions."),
    ("channel_mod_mail", "Messaging the ModMail bot opens a private ticket that all moderators can see."),
    ("channel_tech_support", "#tech-support is for hardware, driver and network problems, not for bot bugs."),
    # --- The bot, Wick ---------------------------------------------------------------------------
    ("bot_name", "The community bot is named Wick and replies when mentioned or called by name."),
    ("bot_slash_commands", "Wick dropped its old exclamation-mark prefix and now only uses slash commands."),
    ("bot_quiet_hours", "Wick stays silent in #hearth from 01:00 to 07:00 CET so nights stay calm."),
    ("bot_birthday_posts", "Wick posts birthday greetings in #hearth at 09:00 CET on each member's day."),
    ("bot_tone", "Wick should answer warmly and briefly, with no more than two emojis per reply."),
    ("bot_no_member_memes", "Wick must never make memes about real members without their consent."),
    ("bot_reply_language", "Wick replies in French inside #le-coin and in English everywhere else."),
    ("bot_xp", "Wick awards 10 XP per message, with a one-minute cooldown against spam."),
    ("bot_level_roles", "Level 10 grants the Lamplighter role and level 25 grants Keeper of Flames."),
    ("bot_hosting", "Wick runs on a Hetzner VPS in Falkenstein that Oskar pays for."),
    ("bot_author", "Dmitri wrote the first version of Wick in Python over one long weekend in 2021."),
    ("bot_forget_command", "Members can make Wick erase everything it stored about them with /forget."),
    ("bot_counting_reset", "Wick resets #counting to zero when someone counts twice in a row."),
    ("bot_reminders_cap", "Each member can keep at most twenty active reminders with Wick."),
    ("bot_ferret_joke", "Wick once insisted for a week that Mira's ferret was a cat, which became a running joke."),
    ("bot_dice", "Wick's /roll command understands dice notation like 2d6+3 for the D&D tables."),
    ("bot_rate_limit", "Wick answers at most five questions per minute in one channel to avoid flooding."),
    (
        "bot_memory_policy",
        "Wick only remembers facts that moderators approve or that members explicitly ask it to keep.",
    ),
    ("bot_avatar", "Wick's avatar is a small blue flame with eyes, redrawn by Hana in 2023."),
    ("bot_status_page", "Wick's status page lives at status.lanternhollow.net and pings the bot every minute."),
    ("bot_backup", "Wick's database is backed up nightly to a Backblaze B2 bucket."),
    (
        "bot_wednesday_frog",
        "Every Wednesday someone posts the 'it is Wednesday my dudes' frog, and Wick reacts with a lantern.",
    ),
    # --- Roles and staff ---------------------------------------------------------------------------
    ("moderator_team", "The current moderators are Saoirse, Tobias, Amara and Kenji."),
    ("server_owner", "Mira owns the server and is the only member with full administrator rights."),
    ("head_mod", "Saoirse is the head moderator and has the final say on ban appeals."),
    ("event_team", "The Event Team is Priya, Jonah and Felix, who plan community events."),
    ("role_artisan", "The Artisan role goes to anyone who has shared five finished pieces in #art-gallery."),
    ("role_helper", "Helpers have a green name and may time out members for up to an hour."),
    ("helpers_list", "The current helpers are Wren, Matteo and Beatriz, picked after a vote in 2024."),
    ("role_booster_perks", "Server boosters get a pink name colour and access to #velvet-lounge."),
    ("role_pronoun_menu", "Pronoun roles are self-assigned through the reaction menu in #roles."),
    ("role_ping_opt_in", "Raid Ping, Movie Ping and Art Ping are opt-in roles for event notifications."),
    ("former_mod_bram", "Bram stepped down as moderator in June 2024 to finish his thesis."),
    ("trial_mod_noor", "Noor is a trial moderator until the end of March 2025."),
    ("mod_coverage", "Between them, the moderators cover everything from Tokyo evenings to Toronto nights."),
    ("role_lamplighter_colour", "The Lamplighter role shows up as a warm amber colour in the member list."),
    ("role_founding_ember", "The Founding Ember role marks the eleven people who were here on opening day."),
    # --- Regular events ------------------------------------------------------------------------------
    ("raid_schedule", "Raid nights are Thursdays at 21:00 CET in Final Fantasy XIV, on the Light data centre."),
    ("raid_old_schedule", "Before spring 2023 the raids ran on Wednesdays at 20:00 CET."),
    ("static_name", "The FFXIV static is called Lanterns of the Deep and has eight regular players."),
    ("raid_leader", "Kenji leads the raid static and calls out the mechanics in voice."),
    ("raid_substitutes", "If a static player is missing, Astrid or Finn usually fill in as substitutes."),
    ("raid_no_shows", "Anyone who signs up for the raid and misses three times without notice loses their spot."),
    ("movie_night", "Movie night is every other Friday at 20:30 CET in the Campfire voice channel."),
    ("movie_rules", "Movies are chosen by poll, and horror picks are only allowed in October."),
    ("book_club_schedule", "Book club meets on the first Sunday of each month at 17:00 CET."),
    ("book_club_current", "This month's book club pick is Piranesi by Susanna Clarke."),
    ("book_club_previous", "Last month the book club read The House in the Cerulean Sea."),
    ("art_challenge", "The monthly art challenge theme is announced on the 1st and entries close on the 25th."),
    ("art_challenge_theme", "The current art challenge theme is 'lighthouses at dusk'."),
    ("jackbox_night", "Jackbox game night runs Saturdays at 19:00 UTC, hosted by Jonah."),
    ("minecraft_version", "The community Minecraft server runs 1.20.4 with the Create modpack."),
    ("minecraft_reset", "The Minecraft world is wiped every January after a farewell screenshot tour."),
    ("minecraft_address", "The Minecraft server address is mc.lanternhollow.net, and whitelist requests go to Tobias."),
    ("minecraft_host", "The Minecraft server runs on Tobias's old ThinkPad in his basement."),
    ("game_jam", "The Cozy Game Jam lasts two weeks every July, with a theme voted by members."),
    ("game_jam_2024", "Hana and Lars won the 2024 Cozy Game Jam with a snail delivery game."),
    ("game_jam_2023", "The 2023 jam theme was 'small hours', and Kofi's lighthouse puzzle took first place."),
    ("anniversary_party", "The anniversary party is held on the Saturday closest to 14 October."),
    ("secret_santa_dates", "Secret Santa sign-ups open on 1 November and gifts are revealed on 20 December."),
    ("secret_santa_budget", "The Secret Santa spending limit is 25 euros or the local equivalent."),
    ("karaoke_night", "Karaoke night is the last Saturday of the month in the Radio voice channel."),
    ("speedrun_race", "The monthly Celeste speedrun race starts at 18:00 UTC on the second Sunday."),
    ("study_sessions", "Pomodoro study sessions run on weekdays at 10:00 CET in the Quiet Room."),
    ("mario_kart_rules", "Mario Kart tournaments use 150cc with items on and no mirror mode."),
    ("stardew_farm", "The Stardew Valley co-op farm is called Fernwick Farm and has four players."),
    ("dnd_main_campaign", "The Tuesday D&D campaign, The Ashen Lanterns, is run by Calum on Foundry VTT."),
    ("dnd_session_time", "D&D sessions start at 19:30 UK time and usually last three hours."),
    ("dnd_beginner_table", "A beginner-friendly D&D table meets every other Monday, run by Zofia."),
    ("charity_stream", "The March 2024 charity stream raised 3,410 euros for an animal shelter in Utrecht."),
    ("photo_contest", "The summer photo contest is about skies, and voting happens in August."),
    ("event_calendar", "All upcoming events are listed in a shared Google Calendar linked in #lantern-post."),
    ("cozy_sundays", "Cozy Sundays are unstructured co-working calls where people craft or draw with music on."),
    ("pokemon_league", "The Pokemon Showdown league plays Gen 9 OU, with matches due by each Sunday night."),
    ("chess_ladder", "The Lichess club ladder is managed by Dmitri, with a blitz arena every Wednesday."),
    ("trivia_night", "Trivia night happens on the third Wednesday, and Felix writes most of the questions."),
    ("anime_watch_party", "The anime watch party is currently going through Frieren, two episodes per week."),
    # --- Past events -----------------------------------------------------------------------------------
    ("halloween_2023", "Felix won the 2023 Halloween costume contest dressed as a moth lamp."),
    ("halloween_2024", "The 2024 Halloween contest was won by Yuki with a handmade jellyfish umbrella costume."),
    ("wick_outage_2023", "In May 2023 Wick was down for three days because the VPS disk filled with logs."),
    ("ultimate_clear", "The static cleared The Unending Coil ultimate on 9 February 2024 after eleven weeks."),
    ("meetup_utrecht", "The first in-person meetup was in Utrecht in September 2023, with nine members."),
    ("meetup_ghent", "The next meetup is planned for Ghent in May 2025, organised by Bram."),
    ("pizza_poll", "The pineapple pizza poll of 2022 ended 52 to 48 in favour of pineapple."),
    ("former_raid_leader", "Before Kenji, Rafael led the raids until he joined another Free Company in 2023."),
    ("emote_contest_2022", "The 2022 emote contest gave us the crying lantern emote, designed by Pip."),
    (
        "spam_wave_2022",
        "In November 2022 a spam bot wave hit the server, after which the lantern-emoji gate was added.",
    ),
    ("minecraft_2021_build", "The 2021 Minecraft world's best-known build was a floating library made by Zofia."),
    ("dev_qna_2023", "In 2023 a developer of the game Unpacking did a Q&A with us on the Campfire stage."),
    ("lore_keeper_title", "The 'Keeper of Flames' title comes from a 2021 story event written by Calum."),
    # --- In-jokes ------------------------------------------------------------------------------------
    ("joke_biscuit_watching", "Saying 'Biscuit is watching' means someone is about to do something chaotic."),
    ("mascot", "The server mascot is a goose called Sir Honksalot, first drawn by Hana."),
    ("joke_soup", "Calling a plan 'soup' is server slang for it having fallen apart."),
    ("joke_tuesday", "'It's always Tuesday somewhere' started after Kenji mixed up timezones for a whole month."),
    ("joke_lamp_lit", "Replying 'lamp lit' means you agree with a message."),
    ("joke_one_more_run", "Felix keeps a spreadsheet of every time someone says 'one more run'."),
    ("joke_frog_emoji", "The frog emoji marks a message as a certified bad idea."),
    ("oskar_starter", "Oskar's sourdough starter is named Gosta and has its own role on the server."),
    ("joke_pinned_typo", "The pinned message 'welcom to the hollow' is a typo by Mira that nobody may fix."),
    # --- Lore ------------------------------------------------------------------------------------------
    ("lore_first_lantern", "In server lore, Mira lit the first lantern to guide lost players home."),
    ("lore_map", "Hana drew a map of the Hollow with one district for each channel."),
    ("lore_wick_ghost", "According to the lore, Wick is the ghost of a candle that refused to go out."),
    ("lore_murmur_river", "The river on the Hollow map is named the Murmur, after Calum's first campaign."),
    # --- Members: Mira ---------------------------------------------------------------------------------
    ("mira_pet", "Mira has a rescue ferret called Biscuit who steals socks."),
    ("mira_timezone", "Mira is in Amsterdam, on Central European Time like most of the staff."),
    ("mira_languages", "Mira speaks Dutch and English and is slowly learning Japanese."),
    ("mira_birthday", "Mira's birthday is on 3 April, and she always bakes her own cake."),
    ("mira_main", "Mira mains White Mage in FFXIV and refuses to play anything else."),
    ("mira_hobby", "Mira does bookbinding and sells hand-sewn notebooks at local craft fairs."),
    ("mira_pronouns", "Mira uses she/her pronouns and is fine with being called Mir."),
    ("mira_drink", "Mira drinks an absurd amount of oat milk lattes, usually four a day."),
    ("mira_setup", "Mira streams from a MacBook Air with a Blue Yeti microphone."),
    # --- Tobias ----------------------------------------------------------------------------------------
    ("tobias_pet", "Tobias has a grumpy tabby cat named Pickle who sits on his keyboard."),
    ("tobias_location", "Tobias lives in Leipzig and works night shifts as a nurse."),
    ("tobias_language", "Tobias is German and switches to German mid-sentence when he gets excited."),
    ("tobias_birthday", "Tobias was born on 19 November and hates surprise parties."),
    ("tobias_main", "Tobias plays Dark Knight in the static and is the main tank."),
    ("tobias_hobby", "Tobias builds mechanical keyboards and owns more than fifteen of them."),
    ("tobias_setup", "Tobias runs Arch Linux on everything and will tell you about it."),
    # --- Ines ------------------------------------------------------------------------------------------
    ("ines_pet", "Ines has a lop-eared rabbit named Clafoutis who lives free-roam in her flat."),
    ("ines_location", "Ines lives in Lyon and teaches at a primary school."),
    ("ines_languages", "Ines is a native French speaker and also speaks Portuguese from her mother's side."),
    ("ines_birthday", "Ines celebrates her birthday on 7 July, usually with a picnic."),
    ("ines_main", "Ines plays Dancer in FFXIV, mostly for glamour screenshots."),
    ("ines_hobby", "Ines throws pottery on a wheel at a studio near the Saone."),
    ("ines_diet", "Ines is vegetarian and posts her weeknight recipes in #kitchen."),
    # --- Kenji -----------------------------------------------------------------------------------------
    ("kenji_pet", "Kenji has a shiba inu called Mochi who is afraid of umbrellas."),
    ("kenji_timezone", "Kenji is in Osaka, on JST (UTC+9), so raids end past 5 am for him."),
    ("kenji_languages", "Kenji speaks Japanese and English, and he is learning Spanish on Duolingo."),
    ("kenji_birthday", "Kenji's birthday is 28 January, right after the Lunar New Year rush."),
    ("kenji_main", "Kenji mains Paladin and tanks every single raid."),
    ("kenji_hobby", "Kenji shoots film photography with a Pentax K1000 he found at a flea market."),
    ("kenji_job", "Kenji works as a sound designer for a mobile game studio."),
    # --- Saoirse ---------------------------------------------------------------------------------------
    ("saoirse_pronouns", "Saoirse uses she/they pronouns, listed in her Discord profile."),
    ("saoirse_location", "Saoirse lives in Galway, on the west coast of Ireland."),
    ("saoirse_languages", "Saoirse speaks Irish and English and posts an Irish word of the day."),
    ("saoirse_pet", "Saoirse adopted a retired greyhound named Rua who sleeps twenty hours a day."),
    ("saoirse_hobby", "Saoirse plays the fiddle in a pub session on Tuesday nights."),
    ("saoirse_main", "Saoirse heals on Sage in the static."),
    ("saoirse_birthday", "Saoirse's birthday is 2 September, the same week as the harvest festival."),
    # --- Dmitri ----------------------------------------------------------------------------------------
    ("dmitri_location", "Dmitri lives in Tallinn and works as a backend developer."),
    ("dmitri_languages", "Dmitri speaks Russian, Estonian and English fluently."),
    ("dmitri_allergy", "Dmitri is badly allergic to cats, so he has no pets at all."),
    ("dmitri_editor", "Dmitri writes all his code in Neovim with a 900-line config."),
    ("dmitri_chess", "Dmitri has a Lichess blitz rating of about 2100."),
    ("dmitri_birthday", "Dmitri was born on 30 May and asks for no fuss about it."),
    # --- Lucia -----------------------------------------------------------------------------------------
    ("lucia_location", "Lucia is from Valencia and works in a second-hand bookshop."),
    ("lucia_languages", "Lucia speaks Spanish, Catalan and English, and a little Italian."),
    ("lucia_pet", "Lucia has a 40-year-old tortoise named Tortellini inherited from her grandmother."),
    ("lucia_hobby", "Lucia paints watercolour landscapes and posts them on Sundays."),
    ("lucia_birthday", "Lucia's birthday falls on 12 December, close to the Secret Santa reveal."),
    ("lucia_pronouns", "Lucia uses she/her pronouns in English and ella in Spanish."),
    # --- Oskar -----------------------------------------------------------------------------------------
    ("oskar_location", "Oskar lives in Gothenburg and commutes by bike all year round."),
    ("oskar_hobby", "Oskar bakes sourdough every weekend and posts crumb shots in #kitchen."),
    ("oskar_main", "Oskar plays Machinist and always tops the damage meter."),
    ("oskar_languages", "Oskar speaks Swedish and English, plus some German from school."),
    ("oskar_birthday", "Oskar's birthday is 22 February, and he wants cardamom buns for it."),
    ("oskar_job", "Oskar works as an electrician for the Gothenburg tram company."),
    # --- Priya -----------------------------------------------------------------------------------------
    ("priya_location", "Priya grew up in Bengaluru and now lives in London."),
    ("priya_diet", "Priya is vegetarian and cannot stand coriander."),
    ("priya_hobby", "Priya has trained in Bharatanatyam dance since she was six."),
    ("priya_birthday", "Priya's birthday is 5 October, a week before the server anniversary."),
    ("priya_languages", "Priya speaks Kannada, Hindi and English."),
    ("priya_role", "Priya leads the Event Team and keeps the shared calendar up to date."),
    ("priya_game", "Priya's favourite game is Spiritfarer, which she has finished four times."),
    # --- Jonah -----------------------------------------------------------------------------------------
    ("jonah_location", "Jonah is in Toronto, on Eastern Time, and often joins events on his lunch break."),
    ("jonah_pet", "Jonah has a golden retriever named Waffles who loves the snow."),
    ("jonah_hobby", "Jonah collects board games and owns over 200 of them."),
    ("jonah_birthday", "Jonah's birthday is 14 March, which is also Pi Day."),
    ("jonah_job", "Jonah is a high school chemistry teacher."),
    ("jonah_pronouns", "Jonah uses he/him pronouns and goes by Jo in voice."),
    ("jonah_setup", "Jonah streams game nights with OBS from a Ryzen 7 5800X desktop."),
    # --- Amara -----------------------------------------------------------------------------------------
    ("amara_location", "Amara moved from Lagos to Manchester in 2019."),
    ("amara_languages", "Amara speaks Yoruba and English, and some Pidgin with her cousins."),
    ("amara_hobby", "Amara crochets amigurumi and once made a plush Sir Honksalot."),
    ("amara_main", "Amara plays Scholar as the static's second healer."),
    ("amara_birthday", "Amara's birthday is 11 August, and she likes a quiet one."),
    ("amara_job", "Amara is studying to become a pharmacist."),
    # --- Felix -----------------------------------------------------------------------------------------
    ("felix_location", "Felix lives in Vienna, two floors above a bakery."),
    ("felix_hobby", "Felix is an avid birdwatcher and has logged 312 species."),
    ("felix_main", "Felix plays Bard and times the raid buffs to the second."),
    ("felix_birthday", "Felix's birthday is 1 June, and he always asks for Sachertorte."),
    ("felix_pet", "Felix keeps two budgies named Strudel and Kipferl."),
    ("felix_languages", "Felix speaks German and English and is fluent in Austrian sarcasm."),
    # --- Yuki ------------------------------------------------------------------------------------------
    ("yuki_pronouns", "Yuki uses they/them pronouns in every language they speak."),
    ("yuki_location", "Yuki lives in Sapporo and never misses the snow festival."),
    ("yuki_vtuber", "Yuki streams as a VTuber named Hoshiko on Twitch three nights a week."),
    ("yuki_art", "Yuki draws chibi commissions, and their queue usually opens in spring."),
    ("yuki_birthday", "Yuki's birthday lands on 25 December, so they get one combined present."),
    ("yuki_languages", "Yuki speaks Japanese natively and English fairly well."),
    # --- Bram ------------------------------------------------------------------------------------------
    ("bram_location", "Bram lives in Ghent, Belgium, near the Gravensteen castle."),
    ("bram_study", "Bram is writing a PhD thesis on seagrass meadows in the North Sea."),
    ("bram_languages", "Bram speaks Dutch, French and English."),
    ("bram_pet", "Bram has an aquarium with cherry shrimp and a single grumpy pufferfish."),
    ("bram_birthday", "Bram's birthday is 9 January, just after the Minecraft reset."),
    ("bram_game", "Bram mostly plays Factorio and has sunk 1,800 hours into it."),
    # --- Noor ------------------------------------------------------------------------------------------
    ("noor_location", "Noor lives in Rotterdam and grew up in Amman."),
    ("noor_languages", "Noor speaks Arabic, Dutch and English."),
    ("noor_hobby", "Noor practises Arabic calligraphy with a bamboo qalam."),
    ("noor_birthday", "Noor's birthday is 16 April, two weeks after Mira's."),
    ("noor_game", "Noor is obsessed with Hades II and streams her runs on Sunday mornings."),
    ("noor_pronouns", "Noor uses she/her pronouns, shown in her role list."),
    # --- Theo ------------------------------------------------------------------------------------------
    ("theo_location", "Theo lives in Bordeaux and works at a wine cooperative."),
    ("theo_languages", "Theo is a native French speaker and is learning Korean."),
    ("theo_hobby", "Theo plays bass in a punk band called Les Moustiques."),
    ("theo_main", "Theo plays Warrior in FFXIV as the static's off-tank."),
    ("theo_birthday", "Theo's birthday is 18 October, the same week as the anniversary party."),
    ("theo_diet", "Theo cannot eat gluten, so meetup food needs a gluten-free option for him."),
    # --- Hana ------------------------------------------------------------------------------------------
    ("hana_location", "Hana moved from Seoul to Berlin for an illustration degree."),
    ("hana_languages", "Hana speaks Korean, German and English."),
    ("hana_art", "Hana does most of the server's art, including the mascot and the banner."),
    ("hana_tools", "Hana draws in Clip Studio Paint on an iPad Pro."),
    ("hana_birthday", "Hana's birthday is 29 February, so she celebrates on 28 February in other years."),
    ("hana_pet", "Hana has a black cat named Kimchi who photobombs her streams."),
    # --- Rafael ----------------------------------------------------------------------------------------
    ("rafael_location", "Rafael lives in Sao Paulo and works in logistics."),
    ("rafael_languages", "Rafael speaks Brazilian Portuguese and English."),
    ("rafael_status", "Rafael still hangs out in #hearth even though he raids with another Free Company now."),
    ("rafael_hobby", "Rafael skateboards and films edits with his friends."),
    ("rafael_birthday", "Rafael's birthday is 2 November, right after Halloween."),
    # --- Elif ------------------------------------------------------------------------------------------
    ("elif_location", "Elif lives in Istanbul, on the Asian side of the city."),
    ("elif_languages", "Elif speaks Turkish and English and is learning Greek."),
    ("elif_pet", "Elif has a street cat she adopted called Simit."),
    ("elif_hobby", "Elif goes bouldering three times a week."),
    ("elif_birthday", "Elif's birthday is 23 April, a public holiday in Turkey."),
    ("elif_game", "Elif mains Jigglypuff in Smash Bros and refuses to apologise."),
    # --- Calum -----------------------------------------------------------------------------------------
    ("calum_location", "Calum lives in Edinburgh, a short walk from Arthur's Seat."),
    ("calum_dm", "Calum has been a Dungeon Master for twelve years and writes his own settings."),
    ("calum_pet", "Calum has a border collie named Bramble who herds the cats next door."),
    ("calum_birthday", "Calum's birthday is 30 November, St Andrew's Day."),
    ("calum_job", "Calum works as a librarian at the university."),
    ("calum_drink", "Calum refuses coffee and only drinks Irn-Bru or strong tea."),
    # --- Zofia -----------------------------------------------------------------------------------------
    ("zofia_location", "Zofia lives in Krakow, in a flat above a pierogi place."),
    ("zofia_languages", "Zofia speaks Polish, English and some Ukrainian."),
    ("zofia_hobby", "Zofia embroiders folk patterns on denim jackets."),
    ("zofia_birthday", "Zofia's birthday is 8 May, and she throws a garden party every year."),
    ("zofia_job", "Zofia is an architecture student in her final year."),
    # --- Matteo ----------------------------------------------------------------------------------------
    ("matteo_location", "Matteo lives in Bologna and is proud of it."),
    ("matteo_languages", "Matteo speaks Italian and English, with loud hand gestures in voice."),
    ("matteo_cooking", "Matteo makes fresh tortellini by hand and judges everyone's carbonara."),
    ("matteo_main", "Matteo mains Red Mage and resurrects people mid-fight."),
    ("matteo_birthday", "Matteo's birthday is 27 June, and he cooks dinner for his whole family on it."),
    ("matteo_role", "Matteo is a helper and mostly watches #hearth during European afternoons."),
    # --- Wren ------------------------------------------------------------------------------------------
    ("wren_pronouns", "Wren uses they/them pronouns and is fine with any name spelling."),
    ("wren_location", "Wren is in Portland, Oregon, on Pacific Time."),
    ("wren_pet", "Wren keeps two fancy rats named Salt and Pepper."),
    ("wren_hobby", "Wren knits colourwork sweaters and posts progress in #workbench."),
    ("wren_birthday", "Wren's birthday is 13 August, two days after Amara's."),
    ("wren_job", "Wren works as a barista and roasts their own coffee at home."),
    ("wren_setup", "Wren plays everything on a Steam Deck from the couch."),
    # --- Kofi ------------------------------------------------------------------------------------------
    ("kofi_location", "Kofi grew up in Accra and now lives in Leeds."),
    ("kofi_languages", "Kofi speaks Twi and English, and some French from school."),
    ("kofi_speedrun", "Kofi holds the server's best Celeste Any% time at 29 minutes 41 seconds."),
    ("kofi_birthday", "Kofi's birthday is 6 March, Ghana's Independence Day."),
    ("kofi_job", "Kofi is a junior game developer working in Unity."),
    # --- Astrid ----------------------------------------------------------------------------------------
    ("astrid_location", "Astrid lives in Oslo and works in a climbing gym."),
    ("astrid_languages", "Astrid speaks Norwegian, English and some Swedish."),
    ("astrid_hobby", "Astrid goes cross-country skiing every weekend in winter."),
    ("astrid_main", "Astrid plays Reaper in FFXIV and never misses a positional."),
    ("astrid_birthday", "Astrid's birthday is 21 January, in the darkest part of the year."),
    ("astrid_pet", "Astrid has a Norwegian forest cat named Troll."),
    # --- Lars ------------------------------------------------------------------------------------------
    ("lars_location", "Lars lives in Copenhagen with his partner and two kids."),
    ("lars_languages", "Lars speaks Danish and English and understands most Swedish."),
    ("lars_gamedev", "Lars makes small games in Godot and shares devlogs in #workbench."),
    ("lars_birthday", "Lars's birthday is 4 September, and he always takes the day off."),
    ("lars_bike", "Lars takes his two kids to school by cargo bike every morning."),
    # --- Mei -------------------------------------------------------------------------------------------
    ("mei_location", "Mei lives in Taipei, on UTC+8, and is usually up early."),
    ("mei_languages", "Mei speaks Mandarin, Taiwanese Hokkien and English."),
    ("mei_hobby", "Mei plays classical piano and streams Ghibli covers."),
    ("mei_drink", "Mei's bubble tea order is always brown sugar milk tea, half sweet, less ice."),
    ("mei_birthday", "Mei's birthday is 10 October, Taiwan's national day."),
    # --- Quinn -----------------------------------------------------------------------------------------
    ("quinn_pronouns", "Quinn uses they/them pronouns and dislikes being called mate."),
    ("quinn_location", "Quinn is in Melbourne, on Australian Eastern Time."),
    ("quinn_pet", "Quinn has an axolotl called Gloop who lives in a tank by the window."),
    ("quinn_hobby", "Quinn surfs at Torquay most weekends, even in winter."),
    ("quinn_birthday", "Quinn's birthday is 19 February, at the height of the Australian summer."),
    # --- Ravi ------------------------------------------------------------------------------------------
    ("ravi_location", "Ravi lives in Singapore and works for a shipping company."),
    ("ravi_pc", "Ravi built a water-cooled PC with an RTX 4080 and a Ryzen 9 7950X."),
    ("ravi_help", "Ravi answers most hardware questions in #tech-support."),
    ("ravi_birthday", "Ravi's birthday is 15 July, which he spends at a hawker centre."),
    ("ravi_languages", "Ravi speaks English, Tamil and some Malay."),
    ("ravi_game", "Ravi plays Valorant and is hardstuck in Platinum."),
    # --- Beatriz ---------------------------------------------------------------------------------------
    ("beatriz_location", "Beatriz lives in Lisbon, in the old Alfama district."),
    ("beatriz_languages", "Beatriz speaks Portuguese, English and Spanish."),
    ("beatriz_singing", "Beatriz sings fado and wins karaoke night almost every month."),
    ("beatriz_birthday", "Beatriz's birthday is 24 June, during the Santos Populares festivities."),
    ("beatriz_role", "Beatriz is a helper and looks after most of the #pet-pics threads."),
    ("beatriz_pet", "Beatriz has a chubby corgi named Pastel."),
    # --- Finn ------------------------------------------------------------------------------------------
    ("finn_location", "Finn lives in Helsinki and works for a ferry operator."),
    ("finn_languages", "Finn speaks Finnish, Swedish and English."),
    ("finn_main", "Finn plays Ninja and fills in when the static is short."),
    ("finn_sauna", "Finn goes to the sauna every day and swims in the sea in winter."),
    ("finn_birthday", "Finn's birthday is 8 December, two days after Finnish Independence Day."),
    # --- Juniper ---------------------------------------------------------------------------------------
    ("juniper_location", "Juniper is in Wellington, on New Zealand time, usually half a day ahead."),
    ("juniper_pet", "Juniper has a budgie called Pavlova who can whistle the Zelda theme."),
    ("juniper_hobby", "Juniper makes tiny polymer clay food charms."),
    ("juniper_birthday", "Juniper's birthday is 31 October, so her parties are always costume parties."),
    ("juniper_job", "Juniper is a vet nurse at a clinic in Wellington."),
    # --- Nadia -----------------------------------------------------------------------------------------
    ("nadia_location", "Nadia lives in Montreal, in the Plateau neighbourhood."),
    ("nadia_languages", "Nadia is bilingual in French and English."),
    ("nadia_hobby", "Nadia plays roller derby as a jammer for a Montreal league."),
    ("nadia_birthday", "Nadia's birthday is 20 March, the first day of spring."),
    ("nadia_game", "Nadia speedruns Hollow Knight and helps Kofi organise races."),
    # --- Hugo ------------------------------------------------------------------------------------------
    ("hugo_location", "Hugo lives in Buenos Aires, on UTC-3."),
    ("hugo_languages", "Hugo speaks Spanish and English, and is learning Portuguese from Rafael."),
    ("hugo_football", "Hugo supports Boca Juniors and muted #hearth during the last Superclasico."),
    ("hugo_main", "Hugo mains Gunbreaker and wants to join the static."),
    ("hugo_birthday", "Hugo's birthday is 7 September, three days after Lars's."),
    ("hugo_drink", "Hugo drinks mate all day and has strong opinions about yerba brands."),
    # --- Tariq -----------------------------------------------------------------------------------------
    ("tariq_location", "Tariq lives in Cairo, in the Heliopolis district."),
    ("tariq_languages", "Tariq speaks Arabic and English, and reads some French."),
    ("tariq_hobby", "Tariq does astrophotography with a Celestron telescope on his roof."),
    ("tariq_birthday", "Tariq's birthday is 12 May, and he usually spends it stargazing."),
    ("tariq_job", "Tariq is a civil engineer working on metro projects."),
    # --- Pip -------------------------------------------------------------------------------------------
    ("pip_pronouns", "Pip uses they/them pronouns and goes by Pip everywhere."),
    ("pip_location", "Pip lives in Cardiff, near the bay."),
    ("pip_languages", "Pip speaks Welsh and English at home."),
    ("pip_pet", "Pip has a leopard gecko named Crumpet."),
    ("pip_art", "Pip designs most of the server's custom emotes."),
    ("pip_birthday", "Pip's birthday is 1 March, St David's Day."),
]

NAMES: set[str] = {
    "mira", "tobias", "ines", "kenji", "saoirse", "dmitri", "lucia", "oskar", "priya", "jonah", "amara",
    "felix", "yuki", "bram", "noor", "theo", "hana", "rafael", "elif", "calum", "zofia", "matteo", "wren",
    "kofi", "astrid", "lars", "mei", "quinn", "ravi", "beatriz", "finn", "juniper", "nadia", "hugo",
    "tariq", "pip",
}

_INDEX: dict[str, int] = {key: index for index, (key, _content) in enumerate(FACTS)}


def _at(*keys: str) -> list[int]:
    return [_INDEX[key] for key in keys]


QUESTIONS: list[tuple[str, list[int]]] = [
    # --- Members -----------------------------------------------------------------------------------
    ("what kind of animal does mira keep?", _at("mira_pet")),
    ("who owns biscuit", _at("mira_pet")),
    ("where's mira based", _at("mira_timezone")),
    ("what does mira heal as in ff14", _at("mira_main")),
    ("what's mira's side hustle", _at("mira_hobby")),
    ("what's mira's caffeine fix", _at("mira_drink")),
    ("when should we celebrate tobias?", _at("tobias_birthday")),
    ("what do we call tobias's kitty", _at("tobias_pet")),
    ("what does tobias do at the hospital", _at("tobias_location")),
    ("how many keebs has tobias got", _at("tobias_hobby")),
    ("which os is tobias on", _at("tobias_setup")),
    ("who has pickle", _at("tobias_pet")),
    ("what's ines's bunny called?", _at("ines_pet")),
    ("what's ines's job", _at("ines_location")),
    ("what is ines into making with clay", _at("ines_hobby")),
    ("what hour is it for kenji right now", _at("kenji_timezone")),
    ("when does kenji level up irl", _at("kenji_birthday")),
    ("what's the name of kenji's pup", _at("kenji_pet")),
    ("what camera does kenji use", _at("kenji_hobby")),
    ("how does kenji pay the bills", _at("kenji_job")),
    ("what is kenji studying on the owl app", _at("kenji_languages")),
    ("how should i refer to saoirse", _at("saoirse_pronouns")),
    ("which country is saoirse in", _at("saoirse_location")),
    ("what instrument is saoirse good at", _at("saoirse_hobby")),
    ("what breed is saoirse's dog?", _at("saoirse_pet")),
    ("anyone here from galway?", _at("saoirse_location")),
    ("who sneezes around kitties", _at("dmitri_allergy")),
    ("what does dmitri type his software in", _at("dmitri_editor")),
    ("what's dmitri's elo", _at("dmitri_chess")),
    ("who's in tallinn", _at("dmitri_location")),
    ("who knows about neovim", _at("dmitri_editor")),
    ("what reptile does lucia have", _at("lucia_pet")),
    ("what art does lucia make", _at("lucia_hobby")),
    ("who owns tortellini", _at("lucia_pet")),
    ("which city is oskar in", _at("oskar_location")),
    ("which ff14 job is oskar", _at("oskar_main")),
    ("what does oskar do irl for money", _at("oskar_job")),
    ("what do we call oskar's bread culture", _at("oskar_starter")),
    ("what can't priya eat", _at("priya_diet")),
    ("priya's traditional indian art form?", _at("priya_hobby")),
    ("what title has priya replayed over and over", _at("priya_game")),
    ("when's priya's cake day", _at("priya_birthday")),
    ("who is jonah's doggo", _at("jonah_pet")),
    ("what subject does jonah teach", _at("jonah_job")),
    ("how big is jonah's tabletop collection", _at("jonah_hobby")),
    ("what software does jonah broadcast with", _at("jonah_setup")),
    ("where did amara grow up", _at("amara_location")),
    ("what does amara make with yarn", _at("amara_hobby")),
    ("what's amara's future career", _at("amara_job")),
    ("how many birds has felix seen", _at("felix_hobby")),
    ("what are felix's parakeets called", _at("felix_pet")),
    ("how do i refer to yuki", _at("yuki_pronouns")),
    ("what's yuki's virtual avatar character", _at("yuki_vtuber")),
    ("can i hire yuki for a cute piece", _at("yuki_art")),
    ("is yuki a christmas baby", _at("yuki_birthday")),
    ("what is hoshiko", _at("yuki_vtuber")),
    ("what's bram researching", _at("bram_study")),
    ("what fish does bram have", _at("bram_pet")),
    ("what's bram addicted to", _at("bram_game")),
    ("who's the factorio addict", _at("bram_game")),
    ("what kind of pen does noor use for her lettering", _at("noor_hobby")),
    ("what's noor's hometown", _at("noor_location")),
    ("what's theo's mother tongue", _at("theo_languages")),
    ("what instrument does theo rock", _at("theo_hobby")),
    ("can theo have regular pasta", _at("theo_diet")),
    ("who is in moustiques", _at("theo_hobby")),
    ("what tablet and app does hana illustrate with", _at("hana_tools")),
    ("who's the leap day kid", _at("hana_birthday")),
    ("what does rafael do for fun", _at("rafael_hobby")),
    ("did rafael leave the server entirely", _at("rafael_status")),
    ("what sport does elif do", _at("elif_hobby")),
    ("who's elif's kitty", _at("elif_pet")),
    ("who's into bouldering", _at("elif_hobby")),
    ("who plays jigglypuff", _at("elif_game")),
    ("what does calum do at the uni", _at("calum_job")),
    ("calum's beverage of choice", _at("calum_drink")),
    ("when does calum get cake", _at("calum_birthday")),
    ("what does zofia stitch", _at("zofia_hobby")),
    ("what's zofia studying", _at("zofia_job")),
    ("who is the pasta snob here", _at("matteo_cooking")),
    ("what rodents live with wren", _at("wren_pet")),
    ("what's wren making with needles", _at("wren_hobby")),
    ("is wren on the american west coast", _at("wren_location")),
    ("which uk city is kofi in", _at("kofi_location")),
    ("any twi speaker here", _at("kofi_languages")),
    ("what engine does kofi use professionally", _at("kofi_job")),
    ("does kofi share his bday with a national holiday", _at("kofi_birthday")),
    ("astrid's favourite snowy sport", _at("astrid_hobby")),
    ("astrid's fluffy feline breed?", _at("astrid_pet")),
    ("what engine does lars use", _at("lars_gamedev")),
    ("does lars have children", _at("lars_location", "lars_bike")),
    ("how does mei take her boba", _at("mei_drink")),
    ("what instrument is mei into", _at("mei_hobby")),
    ("is mei ahead of europe", _at("mei_location")),
    ("what water critter does quinn own", _at("quinn_pet")),
    ("who is gloop", _at("quinn_pet")),
    ("which beach does quinn ride waves at", _at("quinn_hobby")),
    ("what gpu does ravi have", _at("ravi_pc")),
    ("who should i bug about my computer not turning on", _at("ravi_help")),
    ("what rank is ravi in valorant", _at("ravi_game")),
    ("who's the best vocalist in vc", _at("beatriz_singing")),
    ("what breed is beatriz's dog", _at("beatriz_pet")),
    ("does finn take cold dips", _at("finn_sauna")),
    ("what bird does juniper have", _at("juniper_pet")),
    ("what are juniper's little crafts", _at("juniper_hobby")),
    ("what does juniper do for a living", _at("juniper_job")),
    ("is juniper a spooky season baby", _at("juniper_birthday")),
    ("what contact sport does nadia do", _at("nadia_hobby")),
    ("which club does hugo cheer for", _at("hugo_football")),
    ("how far behind greenwich is hugo", _at("hugo_location")),
    ("what does hugo sip constantly", _at("hugo_drink")),
    ("what does tariq point his camera at", _at("tariq_hobby")),
    ("what's tariq's profession", _at("tariq_job")),
    ("what kind of lizard does pip have", _at("pip_pet")),
    ("is pip bilingual", _at("pip_languages")),
    ("how many hours behind europe is jonah", _at("jonah_location")),
    # --- Staff and roles -------------------------------------------------------------------------------
    ("who's the boss around here", _at("server_owner")),
    ("who are the mods rn", _at("moderator_team")),
    ("who do i talk to about getting unbanned", _at("ban_appeals", "head_mod")),
    ("who has the last word among staff", _at("head_mod")),
    ("who organises the fun stuff like game nights", _at("event_team", "priya_role")),
    ("what do i need to do to become an artisan", _at("role_artisan")),
    ("how long can a junior staffer mute someone", _at("role_helper")),
    ("what do i get for putting nitro on us", _at("role_booster_perks")),
    ("how do i show she/her on my profile", _at("role_pronoun_menu")),
    ("how do i get alerted when stuff is starting", _at("role_ping_opt_in")),
    ("why did bram quit being staff", _at("former_mod_bram")),
    ("who is on probation as staff", _at("trial_mod_noor")),
    ("who are the original members", _at("role_founding_ember")),
    ("who came up with the sobbing lamp icon", _at("emote_contest_2022", "pip_art")),
    # --- Events --------------------------------------------------------------------------------------
    ("which weekday do we do the big fights in ff14", _at("raid_schedule")),
    ("what day were the ff14 fights back in 2022", _at("raid_old_schedule")),
    ("who's the shotcaller in our ff14 group", _at("raid_leader")),
    ("who used to call the shots before kenji", _at("former_raid_leader")),
    ("who steps in if a fight-night regular is absent", _at("raid_substitutes")),
    ("how is our ff14 team known", _at("static_name")),
    ("when did we beat UCOB", _at("ultimate_clear")),
    ("when did we down the coil", _at("ultimate_clear")),
    ("when do we watch films together in vc", _at("movie_night")),
    ("when are scary films ok for film night", _at("movie_rules")),
    ("what day are the reading group calls", _at("book_club_schedule")),
    ("what are we reading right now", _at("book_club_current")),
    ("what novel did we finish before this one", _at("book_club_previous")),
    ("whats the deadline for submitting to the drawing prompt", _at("art_challenge")),
    ("what should i draw for this month's prompt", _at("art_challenge_theme")),
    ("who's in charge of the quiplash evenings", _at("jackbox_night")),
    ("which release is our block game on", _at("minecraft_version")),
    ("ip for the block game pls", _at("minecraft_address")),
    ("when does the block game start over from scratch", _at("minecraft_reset")),
    ("what hardware is the block game on", _at("minecraft_host")),
    ("what time of year is the dev contest", _at("game_jam")),
    ("who topped last summer's dev contest", _at("game_jam_2024")),
    ("when's the server's birthday bash", _at("anniversary_party")),
    ("when do we unwrap the xmas swap presents", _at("secret_santa_dates")),
    ("how pricey can my christmas swap present be", _at("secret_santa_budget")),
    ("when do we sing together", _at("karaoke_night")),
    ("when do we do the celeste runs", _at("speedrun_race")),
    ("who's quickest at celeste", _at("kofi_speedrun")),
    ("is there a group for doing homework together", _at("study_sessions", "channel_quiet_room")),
    ("what engine class for the racing cup", _at("mario_kart_rules")),
    ("what did we name our shared pelican town save", _at("stardew_farm")),
    ("who dms the weekly tabletop game", _at("dnd_main_campaign")),
    ("is there a tabletop rpg group for newbies", _at("dnd_beginner_table")),
    ("how much cash did the fundraiser bring in", _at("charity_stream")),
    ("is there a schedule i can subscribe to", _at("event_calendar")),
    ("is there a hangout for just quietly making art", _at("cozy_sundays")),
    ("what tier do the pocket monster battles use", _at("pokemon_league")),
    ("who makes the quiz stuff", _at("trivia_night")),
    ("which series is the weeb club on right now", _at("anime_watch_party")),
    ("how far into frieren are we", _at("anime_watch_party")),
    ("piranesi discussion when", _at("book_club_current")),
    # --- Past events -----------------------------------------------------------------------------------
    ("who went as a bug light at the spooky party", _at("halloween_2023")),
    ("which city hosted our original irl hangout", _at("meetup_utrecht")),
    ("where's the upcoming irl hangout", _at("meetup_ghent")),
    ("which side won the hawaiian pie vote", _at("pizza_poll")),
    ("what caused that long assistant blackout", _at("wick_outage_2023")),
    ("why was the entry check introduced", _at("spam_wave_2022")),
    ("what was zofia's famous creation in the block game", _at("minecraft_2021_build")),
    ("which studio came to answer our questions", _at("dev_qna_2023")),
    # --- Server, rules and channels --------------------------------------------------------------------
    ("what are we supposed to type in here, which tongue", _at("server_language")),
    ("how did this community begin", _at("server_origin")),
    ("what was this place's previous title", _at("server_old_name")),
    ("when was this place created", _at("server_founded_date")),
    ("how big is the community now", _at("member_milestone")),
    ("i can only see one room how do i get access", _at("welcome_gate")),
    ("can my 13 yo little brother hop in", _at("minimum_age")),
    ("can i discuss the ending of a brand new game openly", _at("rule_spoilers")),
    ("can my pfp be spicy", _at("rule_nsfw")),
    ("where can i plug my online store", _at("channel_shop_window", "rule_self_promo")),
    ("are machine-made pictures ok for the drawing challenge", _at("rule_ai_art")),
    ("can we talk about elections", _at("rule_politics")),
    ("can i hop in with a second profile", _at("rule_alt_accounts")),
    ("can i trade gil for paypal", _at("rule_rmt")),
    ("what happens if i get too many strikes", _at("rule_warnings")),
    ("can i message strangers to advertise my community", _at("rule_dm_ads")),
    ("am i allowed to clip our vc for my yt", _at("rule_voice_recording")),
    ("what happens if i yell in text", _at("rule_caps")),
    ("where can i post my half finished stuff", _at("channel_workbench")),
    ("where do i look for a party to game with", _at("channel_quest_board")),
    ("where does the team share big news", _at("channel_lantern_post")),
    ("can i type text in the critter picture room", _at("channel_pet_pics")),
    ("where do the francophones hang out", _at("channel_le_coin")),
    ("where do the people from spain and argentina chat", _at("channel_rincon")),
    ("where should i post when the assistant glitches out", _at("channel_wick_bugs")),
    ("where did the previous block game room disappear to", _at("channel_minecraft_archive")),
    ("where can i let off steam when i'm sad", _at("channel_vent")),
    ("what's the record in the tally game", _at("channel_counting")),
    ("how do i reach the staff without posting publicly", _at("channel_mod_mail", "rule_mod_ping")),
    # --- The bot ---------------------------------------------------------------------------------------
    ("who foots the bill for keeping our robot online", _at("bot_hosting")),
    ("who made our assistant originally", _at("bot_author")),
    ("what do i unlock after chatting a lot", _at("bot_level_roles")),
    ("at what hour does the assistant wish people happy bday", _at("bot_birthday_posts")),
    ("why won't the assistant answer me at 3am", _at("bot_quiet_hours")),
    ("does our assistant answer in other tongues", _at("bot_reply_language")),
    ("how do i get the assistant to wipe what it knows about me", _at("bot_forget_command")),
    ("is there a max on how many nudges the assistant will schedule for me", _at("bot_reminders_cap")),
    ("can the assistant throw a d20 for me", _at("bot_dice")),
    ("who redrew the assistant's profile picture", _at("bot_avatar")),
    ("how can i tell if the assistant has crashed", _at("bot_status_page")),
    ("what animal mix-up did the assistant get wrong", _at("bot_ferret_joke")),
    ("what's the deal with the assistant being a spirit", _at("lore_wick_ghost")),
    ("where is the assistant's data saved each night", _at("bot_backup")),
    # --- Lore and in-jokes -----------------------------------------------------------------------------
    ("what's that bird character we use everywhere", _at("mascot")),
    ("what is honksalot", _at("mascot")),
    ("who is gosta", _at("oskar_starter")),
    ("what does it mean when someone says soup", _at("joke_soup")),
    ("which mod got the days of the week confused", _at("joke_tuesday")),
    ("how do people show they're on board with a post", _at("joke_lamp_lit")),
    ("what's the green amphibian reaction about", _at("joke_frog_emoji")),
    ("who illustrated the fantasy atlas of our town", _at("lore_map")),
]

STOPWORDS: set[str] = {
    # Function words (close to the usual English stopword lists).
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
    "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has",
    "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if",
    "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
    "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out",
    "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
    "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to",
    "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves",
    "us", "got", "get", "gets",
    # Pieces of contractions once the apostrophe is gone ("what's", "can't", "i'm").
    "s", "t", "d", "ll", "m", "re", "ve", "don", "doesn", "didn", "isn", "wasn", "aren", "weren", "won",
    "wouldn", "shouldn", "couldn", "whats", "wheres", "whos", "hows", "im",
    # Chat filler.
    "hey", "hi", "pls", "plz", "please", "btw", "lol", "ok", "okay", "anyone", "someone", "anybody",
    "somebody", "u", "ur", "rn", "yeah",
}


def content_words(text: str) -> set[str]:
    """The comparison the rules use: lowercase tokens, minus stopwords and names, minus a trailing "s"."""
    words = set()
    for token in re.findall(r"[a-z0-9]+", text.lower()):
        if token in STOPWORDS or token in NAMES:
            continue
        if token.endswith("s") and len(token) > 1:
            token = token[:-1]
        if token and token not in STOPWORDS:
            words.add(token)
    return words


def _strict_stem(word: str) -> str:
    """A cruder stemmer, to catch "studying"/"study", "named"/"name", "replies"/"reply" as well."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    else:
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _fact_text(index: int) -> str:
    key, content = FACTS[index]
    return key.replace("_", " ") + " " + content


def check() -> dict:
    """Verify the data set's rules and report how much the questions overlap with their answers."""
    problems: list[str] = []
    if len(FACTS) < 320:
        problems.append(f"only {len(FACTS)} facts")
    if len(QUESTIONS) < 110:
        problems.append(f"only {len(QUESTIONS)} questions")
    keys = [key for key, _content in FACTS]
    if len(set(keys)) != len(keys):
        problems.append("duplicate keys")
    contents = [content.lower() for _key, content in FACTS]
    if len(set(contents)) != len(contents):
        problems.append("duplicate facts")
    if len({question.lower() for question, _answers in QUESTIONS}) != len(QUESTIONS):
        problems.append("duplicate questions")
    for key, content in FACTS:
        if not re.fullmatch(r"[a-z0-9_]{1,64}", key):
            problems.append(f"bad key {key!r}")
        if not 6 <= len(content.split()) <= 25:
            problems.append(f"fact {key!r} has {len(content.split())} words")
    zero = zero_strict = at_most_one = at_most_one_strict = 0
    for question, answers in QUESTIONS:
        if not answers or any(not 0 <= index < len(FACTS) for index in answers):
            problems.append(f"bad indexes for {question!r}")
            continue
        if not 3 <= len(question.split()) <= 15:
            problems.append(f"question {question!r} has {len(question.split())} words")
        asked = content_words(question)
        answer_words = set().union(*(content_words(_fact_text(index)) for index in answers))
        shared = asked & answer_words
        shared_strict = {_strict_stem(w) for w in asked} & {_strict_stem(w) for w in answer_words}
        zero += not shared
        zero_strict += not shared_strict
        at_most_one += len(shared) <= 1
        at_most_one_strict += len(shared_strict) <= 1
        if len(shared) > 1 or len(shared_strict) > 1:
            problems.append(f"{question!r} shares {sorted(shared | shared_strict)}")
    total = len(QUESTIONS)
    report = {
        "facts": len(FACTS),
        "questions": total,
        "members": len(NAMES),
        "two_answer_questions": sum(len(answers) == 2 for _question, answers in QUESTIONS),
        "no_overlap_share": round(zero / total, 3),
        "overlap_share": round(1 - zero / total, 3),
        "no_overlap_share_strict": round(zero_strict / total, 3),
        "at_most_one_shared_share": round(at_most_one / total, 3),
    }
    if zero / total < 0.7 or zero_strict / total < 0.7:
        problems.append("fewer than 70% of the questions share no content word with their answer")
    if at_most_one < total or at_most_one_strict < total:
        problems.append("some questions share more than one content word with their answer")
    report["problems"] = problems
    report["ok"] = not problems
    return report


if __name__ == "__main__":
    print(check())
