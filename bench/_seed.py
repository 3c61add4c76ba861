"""A bench server with a million facts of realistic text, loaded once with COPY and reused afterwards.

The text is built from templates about gaming communities (events, rules, members, games), whose
slots are drawn from word lists with Zipf-like weights: a few words ("tournament", "minecraft",
"saturday") turn up in a large share of the facts, the tail ("lorcana", "pinochle") in a few
hundred or fewer. Everything is drawn from one seeded random generator, so two seedings give the
same table.

The whole load is one transaction: the secondary indexes are dropped, the rows are copied, the
indexes are rebuilt from their own definitions (much faster than growing them row by row), and
the fact counter is set. If anything fails, PostgreSQL rolls all of it back, indexes included.

Other benchmarks need servers of other sizes next to the million-fact one: `ensure_server_facts`
seeds any server of the Bench team up to a target count (its own seed, and a member pool scaled to
its size). A load smaller than the table it joins keeps the indexes in place: rebuilding the indexes
of a million rows costs more than growing them by a hundred thousand.
"""

from __future__ import annotations

import io
import random
import string
import sys
import time
from datetime import UTC, datetime, timedelta

BENCH_GUILD_ID = "900000000000000001"
BENCH_SERVER_NAME = "Bench Arena"
BENCH_TEAM = "Bench"
BENCH_USER = "bench-owner"
TARGET_FACTS = 1_000_000
CHUNK = 50_000
MEMBER_POOL = 25_000
SEED = 20261130
# The small server of the benches' smoke mode (`--smoke`, make test), a guild of its own: a smoke run never
# grows or changes the bench servers, wherever it runs. Enough facts for five pages of the memory list.
SMOKE_GUILD_ID, SMOKE_SERVER_NAME, SMOKE_FACTS = "900000000000000090", "Bench Smoke", 400

# Word lists, most common first: the weight of rank r is 1 / (r + 1) ** ZIPF_S.
ZIPF_S = 1.1

GAMES = [
    "minecraft", "valorant", "league of legends", "fortnite", "overwatch", "rocket league", "apex legends",
    "counter-strike", "elden ring", "stardew valley", "terraria", "pokemon", "smash bros", "mario kart",
    "among us", "dota", "street fighter", "tekken", "hearthstone", "destiny", "warframe", "genshin impact",
    "final fantasy", "zelda", "hollow knight", "celeste", "tetris", "chess", "halo", "rainbow six",
    "sea of thieves", "phasmophobia", "lethal company", "deep rock galactic", "factorio", "rimworld",
    "civilization", "starcraft", "age of empires", "dark souls", "monster hunter", "splatoon", "pinball",
    "galaga", "pac-man", "doom", "quake", "unreal tournament", "guild wars", "runescape", "eve online",
    "magic the gathering", "dungeons and dragons", "pathfinder", "lorcana", "pinochle", "mahjong",
    "go", "backgammon", "speedrunning",
]
EVENTS = [
    "tournament", "game night", "movie night", "raid", "scrim", "stream", "giveaway", "meetup",
    "watch party", "trivia night", "qualifier", "finals", "lan party", "bracket", "karaoke night",
    "charity stream", "speedrun marathon", "art contest", "book club", "community cup", "league match",
    "coaching session", "patch party", "launch party", "costume contest", "jam session", "workshop",
    "anniversary party", "clan war", "ladder season", "pub quiz", "escape room", "hackathon",
]
DAYS = ["saturday", "friday", "sunday", "weekend", "thursday", "wednesday", "monday", "tuesday", "weekday"]
TIMES = ["8 pm", "7 pm", "9 pm", "6 pm", "noon", "10 pm", "5 pm", "3 pm", "midnight", "11 am", "2 pm"]
TIMEZONES = ["utc", "cet", "est", "pst", "gmt", "cst", "aest", "jst", "ist", "brt", "mst", "nzst"]
MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
]
CHANNELS = [
    "general", "announcements", "off-topic", "memes", "lfg", "events", "voice", "clips", "support",
    "rules", "introductions", "art", "music", "tournaments", "bot-commands", "suggestions", "screenshots",
    "lore", "trading", "patch-notes", "mod-log", "staff", "vent", "pets", "cooking", "fitness",
]
ROLES = [
    "moderator", "admin", "helper", "organizer", "streamer", "caster", "referee", "captain", "newcomer",
    "veteran", "booster", "artist", "developer", "mentor", "coach", "translator", "archivist", "quartermaster",
]
RULES = [
    "no spoilers outside the spoiler channel", "be kind to newcomers", "no spam or self-promotion",
    "no nsfw content anywhere", "english only in general", "use threads for long discussions",
    "no slurs or hate speech", "ask before sending direct messages", "keep memes in the memes channel",
    "no cheating or exploits in community matches", "no politics or religion debates",
    "do not ping the whole server", "credit artists when sharing fan art", "no account trading",
    "use spoiler tags for leaks", "voice channels need push to talk after midnight",
    "no begging for giveaway entries", "keep trading in the trading channel", "no impersonation of staff",
    "report bugs with screenshots", "no loud soundboards in voice", "one warning before a timeout",
]
PUNISHMENTS = ["timeout", "warning", "mute", "kick", "temporary ban", "permanent ban", "role removal"]
PRIZES = [
    "a nitro subscription", "a custom role", "a gift card", "a steam key", "a signed poster", "merch",
    "a gaming mouse", "a mechanical keyboard", "a headset", "a trophy emoji", "bragging rights",
    "a commissioned portrait", "a limited skin code", "a plush toy",
]
PLATFORMS = ["pc", "playstation", "xbox", "switch", "mobile", "steam deck", "mac", "linux"]
REGIONS = ["europe", "north america", "asia", "oceania", "south america", "africa", "middle east"]
LANGUAGES = [
    "english", "german", "spanish", "french", "portuguese", "polish", "dutch", "italian", "turkish",
    "russian", "japanese", "korean", "swedish", "finnish", "greek", "hungarian", "tagalog", "welsh",
]
RANKS = [
    "gold", "silver", "platinum", "diamond", "bronze", "master", "grandmaster", "iron", "ascendant",
    "immortal", "champion", "radiant", "challenger",
]
CHARACTERS = [
    "support", "tank", "healer", "sniper", "jungler", "mage", "rogue", "paladin", "ranger", "bard",
    "engineer", "medic", "scout", "necromancer", "druid", "samurai", "pirate", "alchemist", "valkyrie",
]
NICKNAMES = [
    "sam", "alex", "max", "kai", "jo", "robin", "mika", "nova", "pixel", "echo", "rex", "luna", "ziggy",
    "bean", "sparky", "toast", "biscuit", "ghost", "blaze", "frost", "pebble", "waffles", "noodle",
    "captain", "gremlin", "comet", "falcon", "badger", "otter", "quokka",
]
PRONOUNS = ["he/him", "she/her", "they/them", "she/they", "he/they", "any pronouns"]
PETS = ["cat", "dog", "parrot", "hamster", "rabbit", "lizard", "snake", "ferret", "tortoise", "axolotl"]
FOODS = ["pizza", "ramen", "tacos", "sushi", "burgers", "curry", "pancakes", "dumplings", "lasagna", "pierogi"]
HOBBIES = [
    "drawing", "guitar", "cosplay", "photography", "baking", "knitting", "climbing", "running", "anime",
    "painting miniatures", "3d printing", "gardening", "skateboarding", "origami", "woodworking",
]
TRAITS = [
    "usually online after work", "prefers voice chat over text", "asked to be pinged for events",
    "does not want to be pinged", "streams most evenings", "is studying for exams",
    "is new to the server", "has been here since launch", "likes helping newcomers",
    "is colour blind and prefers high contrast images", "works night shifts", "is learning english",
    "plays with a controller", "is a parent and often away on weekends", "records highlight clips",
    "hosts a podcast", "collects retro consoles", "is hard of hearing and prefers text",
]

# (key stem, whether the key has a number, template). Most common first.
SERVER_TEMPLATES = [
    ("tournament_day", True, "The {game} {event} runs every {day} at {time} {tz} in #{channel}."),
    ("rule", True, "Rule: {rule}. Breaking it means a {punishment}."),
    ("event_prize", True, "The prize for the {game} {event} is {prize}."),
    ("game_night", True, "Game night on {day}s is {game}; {role}s pick the teams."),
    ("channel_purpose", True, "#{channel} is for {game} talk and {event} planning, not for {hobby}."),
    ("server_rules", False, "Server rules: {rule}; also {rule2}."),
    ("staff_role", True, "The {role} team handles {event} sign-ups and reports in #{channel}."),
    ("schedule", True, "{event} schedule: {month} {dom}, {time} {tz}, hosted by the {role}s."),
    ("signup", True, "Sign-ups for the {month} {game} {event} close on {day}; {count} teams max."),
    ("server_language", False, "The server language is {language}; #{channel} allows any language."),
    ("anniversary", True, "The server anniversary is in {month}; last year we held a {event}."),
    ("bracket_format", True, "{game} {event} brackets are double elimination, best of {bo}."),
    ("bot_behaviour", True, "The bot should answer {game} questions in #{channel} and stay out of #{channel2}."),
    ("moderation_policy", True, "After a {punishment}, a {role} posts the reason in #mod-log."),
    ("region", False, "Most members play in {region} on {platform}."),
    ("partnership", True, "We partner with a {game} community for a monthly {event}."),
    ("faq", True, "FAQ: the {event} is free to join; you need the {role} role to host one."),
]
MEMBER_TEMPLATES = [
    ("main_game", True, "{nick} mains {character} in {game} and is {rank} rank."),
    ("timezone", False, "Lives in {region}, timezone {tz}; usually online on {day}s."),
    ("pronouns", False, "Goes by {nick}, pronouns {pronouns}."),
    ("birthday", False, "Birthday is on {month} {dom}."),
    ("platform", True, "Plays {game} on {platform} and {trait}."),
    ("member_role", True, "{nick} is a {role} and helps with the {event} in #{channel}."),
    ("favourite_game", True, "Favourite game is {game}; also enjoys {game2}."),
    ("language", False, "Speaks {language} and {language2}."),
    ("pet", True, "Has a {pet} called {nick2} that shows up in #pets."),
    ("note", True, "{nick} {trait}."),
    ("hobby", True, "Into {hobby} outside of {game}; shares it in #{channel}."),
    ("warning", True, "Got a {punishment} in {month} for ignoring: {rule}."),
    ("food", True, "Favourite food is {food}; brings it up at every {event}."),
    ("achievement", True, "Won the {month} {game} {event} and received {prize}."),
]
RETRACTION_REASONS = [
    "Outdated: the schedule changed.", "The member asked us to forget this.", "Wrong member, mixed up ids.",
    "Duplicate of a newer fact.", "Rule was rewritten.", "Event was cancelled.", "The member left the server.",
    "Incorrect, corrected by a moderator.",
]


SLOTS: dict[str, object] = {
    "game": GAMES, "game2": GAMES, "event": EVENTS, "day": DAYS, "time": TIMES, "tz": (TIMEZONES, str.upper),
    "channel": CHANNELS, "channel2": CHANNELS, "rule": RULES, "rule2": RULES, "punishment": PUNISHMENTS,
    "prize": PRIZES, "role": ROLES, "month": (MONTHS, str.capitalize), "dom": lambda rng: rng.randint(1, 28),
    "hobby": HOBBIES, "language": (LANGUAGES, str.capitalize), "language2": (LANGUAGES, str.capitalize),
    "region": REGIONS, "platform": PLATFORMS, "count": lambda rng: rng.choice((8, 16, 32, 64)),
    "bo": lambda rng: rng.choice((1, 3, 5)), "nick": (NICKNAMES, str.capitalize),
    "nick2": (NICKNAMES, str.capitalize), "character": CHARACTERS, "rank": RANKS, "pronouns": PRONOUNS,
    "pet": PETS, "food": FOODS, "trait": TRAITS,
}


def _cumulative(n: int) -> list[float]:
    total, out = 0.0, []
    for rank in range(n):
        total += 1 / (rank + 1) ** ZIPF_S
        out.append(total)
    return out


class _Generator:
    def __init__(self, now: datetime, seed: int = SEED, member_pool: int = MEMBER_POOL) -> None:
        self.rng = random.Random(seed)
        self.now = now
        self.cum: dict[int, list[float]] = {}
        self.members = [str(self.rng.randrange(10**17, 10**18)) for _ in range(member_pool)]
        self.span_seconds = 730 * 86400  # two years
        self.fields: dict[str, list[str]] = {}

    def pick(self, words: list):
        cum = self.cum.get(len(words))
        if cum is None:
            cum = self.cum[len(words)] = _cumulative(len(words))
        return self.rng.choices(words, cum_weights=cum)[0]

    def slots(self, template: str) -> dict[str, object]:
        """Values for the fields the template names, each drawn from its list."""
        fields = self.fields.get(template)
        if fields is None:
            fields = self.fields[template] = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        return {name: self.slot(name) for name in fields}

    def slot(self, name: str) -> object:
        source = SLOTS[name]
        if isinstance(source, tuple):
            words, transform = source
            return transform(self.pick(words))
        if callable(source):
            return source(self.rng)
        return self.pick(source)

    def row(self, number: int) -> tuple:
        rng = self.rng
        member = rng.random() < 0.30
        stem, numbered, template = self.pick(MEMBER_TEMPLATES if member else SERVER_TEMPLATES)
        content = template.format(**self.slots(template))
        content = content[0].upper() + content[1:]
        key = f"{stem}_{rng.randint(1, 5000)}" if numbered else stem
        member_id = self.pick(self.members) if member else ""
        bot = rng.random() < 0.6
        created = self.now - timedelta(seconds=rng.randrange(self.span_seconds))
        changed = created if rng.random() < 0.7 else created + (self.now - created) * rng.random()
        importance = "" if rng.random() < 0.85 else f"{rng.random():.2f}"
        retracted = ""
        reason = ""
        version = 1 if changed == created else rng.randint(2, 4)
        if rng.random() < 0.02:
            retracted = (changed + (self.now - changed) * rng.random()).isoformat()
            reason = rng.choice(RETRACTION_REASONS)
            version += 1
        return (
            number,
            "member" if member else "server",
            member_id,
            key,
            content,
            f"{rng.uniform(0.3, 1.0):.2f}",
            importance,
            "bot" if bot else "staff",
            "" if bot else None,  # author_user_id: filled by the caller for staff
            self.pick(self.members) if bot else "",
            created.isoformat(),
            changed.isoformat(),
            created.isoformat(),
            retracted,
            reason,
            str(version),
            "server",  # audience: every fact may be read anywhere; ensure_channel_limited narrows a tenth
            "",  # source_channel_id
            "",  # source_thread_id
            KIND_OF_TEMPLATE[stem],  # what the template is about (ensure_kinds does the same on a reused seed)
            "f",  # pinned: staff pin, the seed does not
            "f",  # held_back: no contradiction caught at write waits for an answer
            "1",  # mention_count: each seeded fact said once
        )


COLUMNS = (
    "server_id", "number", "scope", "member_id", "key", "content", "confidence", "importance",
    "author_kind", "author_user_id", "learned_from_member_id", "created_at", "changed_at", "valid_from",
    "retracted_at", "retraction_reason", "version", "audience", "source_channel_id", "source_thread_id", "kind",
    "pinned", "held_back", "mention_count",
)
NULLABLE = {"importance", "author_user_id", "retracted_at"}


def _log(message: str) -> None:
    print(f"seed: {message}", file=sys.stderr, flush=True)


def bench_team_and_user(team_name: str, username: str):
    """A bench team and a user of it without a password (both created when missing); the user is added to the team
    only when not a member yet (membership_add assigns view on every server of the team)."""
    from django.contrib.auth import get_user_model

    from teams.models import Membership, Team
    from teams.services import membership_add, team_create

    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username)
        user.set_unusable_password()
        user.save()
    team = Team.objects.filter(name=team_name).first() or team_create(name=team_name)
    if not Membership.objects.filter(team=team, user=user).exists():
        membership_add(team=team, user=user)
    return team, user


def bench_server_and_user(guild_id: str = BENCH_GUILD_ID, name: str = BENCH_SERVER_NAME):
    """The Bench team, its configure user and one of its servers (created when missing)."""
    from teams.models import Server
    from teams.services import configure_grant, server_create

    team, user = bench_team_and_user(BENCH_TEAM, BENCH_USER)
    server = Server.objects.filter(guild_id=guild_id).first() or server_create(
        team=team, guild_id=guild_id, name=name
    )
    configure_grant(server=server, user=user)
    return server, user


def _secondary_indexes(cursor) -> list[tuple[str, str]]:
    """Indexes of memory_fact that back no constraint, with their CREATE statements."""
    cursor.execute(
        """
        SELECT c.relname, pg_get_indexdef(i.indexrelid)
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'memory_fact'::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
        ORDER BY c.relname
        """
    )
    return cursor.fetchall()


def _analyze_if_statistics_missing() -> None:
    """A migration that rewrites a column (a generated column is dropped and added again) leaves it
    without planner statistics, and autovacuum does not notice a rewrite: analyze then, and say so."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT a.attname FROM pg_attribute a
            WHERE a.attrelid = 'memory_fact'::regclass AND a.attnum > 0 AND NOT a.attisdropped
              AND NOT EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = current_schema()
                              AND s.tablename = 'memory_fact' AND s.attname = a.attname)
            """
        )
        missing = [name for (name,) in cursor.fetchall()]
        if missing:
            _log(f"no planner statistics for memory_fact.{', '.join(missing)}: running ANALYZE memory_fact")
            cursor.execute("ANALYZE memory_fact")


def ensure_bench_facts():
    """Return (server, user); load facts first when the bench server holds fewer than TARGET_FACTS."""
    return ensure_server_facts(BENCH_GUILD_ID, BENCH_SERVER_NAME, TARGET_FACTS)


def ensure_server_facts(guild_id: str, name: str, target: int, *, seed: int | None = None,
                        member_pool: int | None = None, rebuild_indexes: bool | None = None):
    """Return (server, user) for a Bench server holding at least `target` facts, loading the missing ones.

    The million-fact server keeps SEED and MEMBER_POOL; other servers default to a seed of their own
    and one member per 40 facts (at least 100, at most MEMBER_POOL). `rebuild_indexes` None: drop and
    rebuild the secondary indexes only when the load at least doubles memory_fact.
    """
    from django.db import connection, transaction

    from memory.models import Fact, FactCounter

    if seed is None:
        seed = SEED if guild_id == BENCH_GUILD_ID else SEED + target
    if member_pool is None:
        member_pool = min(MEMBER_POOL, max(100, target // 40))
    server, user = bench_server_and_user(guild_id, name)
    existing = Fact.objects.filter(server=server).count()
    if existing >= target:
        _log(f"reusing {existing:,} facts on server {guild_id}")
        _analyze_if_statistics_missing()
        return server, user

    missing = target - existing
    _log(f"server {guild_id} holds {existing:,} facts; loading {missing:,} more"
         + (" (takes minutes)" if missing >= 100_000 else ""))
    started = time.perf_counter()
    generator = _Generator(datetime.now(UTC), seed=seed, member_pool=member_pool)
    user_id = str(user.pk)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '1GB'")
        # Django's foreign keys are DEFERRABLE INITIALLY DEFERRED; checked at commit they would leave
        # trigger events pending, and CREATE INDEX refuses to run then. Check them row by row instead.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SELECT coalesce(max(number), 0) FROM memory_fact WHERE server_id = %s", [server.pk])
        first_number = cursor.fetchone()[0] + 1
        if rebuild_indexes is None:
            cursor.execute("SELECT count(*) FROM memory_fact")
            rebuild_indexes = missing >= cursor.fetchone()[0]
        indexes = _secondary_indexes(cursor) if rebuild_indexes else []
        for index_name, _ in indexes:
            cursor.execute(f'DROP INDEX "{index_name}"')
        _log(f"dropped {len(indexes)} secondary indexes for the load" if rebuild_indexes
             else "loading with the indexes in place")

        rows = (generator.row(first_number + offset) for offset in range(missing))
        _copy_facts(cursor, server.pk, user_id, rows, missing, started)
        for index_name, definition in indexes:
            index_started = time.perf_counter()
            cursor.execute(definition)
            _log(f"rebuilt index {index_name} ({time.perf_counter() - index_started:.0f} s)")
        last_number = first_number + missing - 1
        FactCounter.objects.update_or_create(server=server, defaults={"last_number": last_number})
    _log("committed; running VACUUM ANALYZE memory_fact")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) memory_fact")
        cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('memory_fact')), "
                       "pg_size_pretty(pg_database_size(current_database()))")
        table_size, database_size = cursor.fetchone()
    _log(f"seeded in {time.perf_counter() - started:.0f} s; memory_fact {table_size}, database {database_size}")
    return server, user


def _copy_facts(cursor, server_pk: int, user_id: str, rows, total: int, started: float) -> None:
    """COPY `rows` (the _Generator.row tuples, `total` of them) into memory_fact for the server, CHUNK rows a write."""
    raw = cursor.connection  # the psycopg 3 connection under Django's wrapper
    server_id = str(server_pk)
    with raw.cursor() as raw_cursor, raw_cursor.copy(
        f"COPY memory_fact ({', '.join(COLUMNS)}) FROM STDIN"
    ) as copy:
        buffer = io.StringIO()
        for offset, row in enumerate(rows):
            fields = [server_id]
            for column, value in zip(COLUMNS[1:], row, strict=True):
                if column == "author_user_id":
                    value = user_id if value is None else ""
                fields.append("\\N" if value == "" and column in NULLABLE else str(value))
            buffer.write("\t".join(fields))
            buffer.write("\n")
            if (offset + 1) % CHUNK == 0 or offset + 1 == total:
                copy.write(buffer.getvalue())
                buffer = io.StringIO()
                _log(f"copied {offset + 1:,}/{total:,} rows ({time.perf_counter() - started:.0f} s)")


# Who may see a fact (issue 19): a tenth of every bench server's facts were learned in one of a few private
# channels and are channel-limited; the benches read as a member in PUBLIC_CHANNEL, who may not see them. Which
# facts is fixed by their number (number % 10 == CHANNEL_LIMITED_REMAINDER, the channel by the tens), so every
# seeding, and every server, gets the same share; the generator drew each row at random, so the share is spread
# evenly over time, weight and words.
PUBLIC_CHANNEL = "900000000000000100"
PRIVATE_CHANNELS = ("900000000000000101", "900000000000000102", "900000000000000103", "900000000000000104")
CHANNEL_LIMITED_REMAINDER = 7
_PRIVATE_CHANNEL_OF_NUMBER = (f"(ARRAY[{', '.join(repr(channel) for channel in PRIVATE_CHANNELS)}])"
                              f"[(number / 10) %% {len(PRIVATE_CHANNELS)} + 1]")


def ensure_channel_limited(server) -> int:
    """Make a tenth of the server's facts channel-limited (an idempotent UPDATE on the reused seed, not a
    re-seed) and report the channels (PUBLIC_CHANNEL public, the others private). When rows changed, rebuild
    memory_fact's indexes and VACUUM ANALYZE: the audience columns are in fact_in_force_newest, so the UPDATE
    put a new entry beside every old one, and the page splits left it a third larger (438 MB instead of 332 at
    a million facts) -- large enough that the planner walked fact_newest and the table instead of the covering
    index (5.0 instead of 1.2 ms per 2,000 entries walked). A fresh seed has no such bloat; neither should the
    reused one. Returns how many facts changed (0 on every later run)."""
    from django.db import connection, transaction

    from memory.configuration.directory import ReportedChannel, channels_report

    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""UPDATE memory_fact SET audience = 'channel', source_channel_id = {_PRIVATE_CHANNEL_OF_NUMBER}
                WHERE server_id = %s AND number %% 10 = %s
                  AND (audience <> 'channel' OR source_channel_id <> {_PRIVATE_CHANNEL_OF_NUMBER})""",
            [server.pk, CHANNEL_LIMITED_REMAINDER])
        changed = cursor.rowcount
        channels_report(server=server, channels=[
            ReportedChannel(PUBLIC_CHANNEL, "general", public=True),
            *(ReportedChannel(channel, f"private-{index}") for index, channel in enumerate(PRIVATE_CHANNELS, 1))])
    if changed:
        with connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '1GB'")
            cursor.execute("REINDEX TABLE memory_fact")
            cursor.execute("RESET maintenance_work_mem")
            cursor.execute("VACUUM (ANALYZE) memory_fact")
        _log(f"server {server.guild_id}: {changed:,} facts made channel-limited in "
             f"{time.perf_counter() - started:.0f} s (REINDEX and VACUUM ANALYZE included)")
    return changed


# What each template is about (issue 20): the kind of fact it makes, which decides how fast age lowers its
# recency under Ranked (rules, lore and profiles never by default, preferences slowly, events fast).
KIND_OF_TEMPLATE = {
    "tournament_day": "event", "rule": "rule", "event_prize": "event", "game_night": "event",
    "channel_purpose": "lore", "server_rules": "rule", "staff_role": "lore", "schedule": "event", "signup": "event",
    "server_language": "lore", "anniversary": "lore", "bracket_format": "lore", "bot_behaviour": "rule",
    "moderation_policy": "rule", "region": "lore", "partnership": "lore", "faq": "lore",
    "main_game": "profile", "timezone": "profile", "pronouns": "profile", "birthday": "profile", "platform": "profile",
    "member_role": "profile", "favourite_game": "preference", "language": "profile", "pet": "profile",
    "note": "preference", "hobby": "preference", "warning": "event", "food": "preference", "achievement": "event",
}
assert set(KIND_OF_TEMPLATE) == {stem for stem, _, _ in SERVER_TEMPLATES + MEMBER_TEMPLATES}
_KIND_VALUES = ", ".join(f"('{stem}', '{kind}')" for stem, kind in KIND_OF_TEMPLATE.items())


def ensure_kinds(server) -> int:
    """Give every fact the kind its template says (KIND_OF_TEMPLATE; the key is the template's stem, with a number
    or without): an idempotent UPDATE on the reused seed, not a re-seed. When rows changed, rebuild memory_fact's
    indexes and VACUUM ANALYZE, as ensure_channel_limited does and for the same reason (the UPDATE leaves a new
    entry beside every old one in each index). Returns how many facts changed (0 on every later run)."""
    from django.db import connection, transaction

    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""UPDATE memory_fact SET kind = kinds.kind FROM (VALUES {_KIND_VALUES}) AS kinds (stem, kind)
                WHERE server_id = %s AND regexp_replace(key, '_[0-9]+$', '') = kinds.stem
                  AND memory_fact.kind <> kinds.kind""",
            [server.pk])
        changed = cursor.rowcount
    if changed:
        with connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '1GB'")
            cursor.execute("REINDEX TABLE memory_fact")
            cursor.execute("RESET maintenance_work_mem")
            cursor.execute("VACUUM (ANALYZE) memory_fact")
        _log(f"server {server.guild_id}: {changed:,} facts given their template's kind in "
             f"{time.perf_counter() - started:.0f} s (REINDEX and VACUUM ANALYZE included)")
    return changed


# A member of the million-fact server the page of one member is timed for (issue 25, bench/memory_page.py): 10,000
# facts, 6,000 about them and 4,000 learned from their messages (about the server or other members), drawn by the
# same generator as the rest, and their recent exchanges, each showing some of those facts.
BUSY_MEMBER_ID = "900000000000000500"
BUSY_MEMBER_ABOUT, BUSY_MEMBER_LEARNED, BUSY_MEMBER_EXCHANGES = 6_000, 4_000, 30


def _busy_member_row(generator: _Generator, number: int, *, about: bool, member_id: str) -> tuple:
    """A generator row about the member (a member template) or learned from them (a bot's, not about them), the
    audience the number gives it (ensure_channel_limited's rule, so that UPDATE finds nothing to change later)."""
    while True:
        row = list(generator.row(number))
        if about and row[1] == "member":
            row[2] = member_id
            break
        if not about and row[7] == "bot":
            row[9] = member_id
            break
    if number % 10 == CHANNEL_LIMITED_REMAINDER:
        row[16], row[17] = "channel", PRIVATE_CHANNELS[(number // 10) % len(PRIVATE_CHANNELS)]
    return tuple(row)


def ensure_busy_member(server, member_id: str = BUSY_MEMBER_ID, *, about: int = BUSY_MEMBER_ABOUT,
                       learned: int = BUSY_MEMBER_LEARNED, exchanges: int = BUSY_MEMBER_EXCHANGES) -> int:
    """Give the member `about` facts about them, `learned` learned from their messages and `exchanges` of their own
    on the server, loading only what is missing (COPY, with the indexes in place: 10,000 rows take seconds). Returns
    how many facts it loaded (0 on every later run)."""
    from django.db import connection, transaction
    from django.utils import timezone

    from memory.models import Exchange, Fact, FactCounter

    started = time.perf_counter()
    facts = Fact.objects.filter(server=server)
    missing_about = about - facts.filter(member_id=member_id).count()
    missing_learned = learned - facts.filter(learned_from_member_id=member_id).exclude(member_id=member_id).count()
    loading = max(0, missing_about) + max(0, missing_learned)
    if loading:
        _log(f"server {server.guild_id}: loading {loading:,} facts of member {member_id}")
        generator = _Generator(datetime.now(UTC), seed=SEED + int(member_id) % 1000, member_pool=1000)
        user_id = str(Fact.objects.filter(server=server, author_user__isnull=False).values_list(
            "author_user_id", flat=True).first() or "")
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            counter = FactCounter.objects.select_for_update().get(server=server)
            cursor.execute("SELECT coalesce(max(number), 0) FROM memory_fact WHERE server_id = %s", [server.pk])
            first = max(counter.last_number, cursor.fetchone()[0]) + 1
            kinds = [True] * max(0, missing_about) + [False] * max(0, missing_learned)
            rows = (_busy_member_row(generator, first + offset, about=kind, member_id=member_id)
                    for offset, kind in enumerate(kinds))
            _copy_facts(cursor, server.pk, user_id, rows, loading, started)
            counter.last_number = first + loading - 1
            counter.save(update_fields=["last_number"])
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE memory_fact")
    have = Exchange.objects.filter(server=server, author_id=member_id).count()
    if have < exchanges:
        numbers = list(facts.filter(member_id=member_id).order_by("-number").values_list("number", flat=True)[:200])
        now = timezone.now()
        Exchange.objects.bulk_create([Exchange(
            server=server, created_at=now - timedelta(hours=index + 1), channel_id=PUBLIC_CHANNEL, author_id=member_id,
            author_name="Busy Member", message=f"What do you remember about me? ({index})", memory_type="classic",
            read_allowed=True, shown_numbers=numbers[index % 20 * 10:index % 20 * 10 + 10],
            speaker_numbers=numbers[index % 20 * 10:index % 20 * 10 + 5], memory_block="(seeded)",
        ) for index in range(have, exchanges)])
        _log(f"server {server.guild_id}: {exchanges - have} exchanges of member {member_id} added")
    _log(f"server {server.guild_id}: member {member_id} ready in {time.perf_counter() - started:.1f} s")
    return loading
