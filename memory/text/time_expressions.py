"""Time expressions in a member's question ("last summer", "vorige week", "vor zwei Wochen", "去年の夏") read as the
span of days they name, so a search can prefer facts dated inside it (a preference, never a filter).

English, Dutch, German and Japanese are all tried on every text, case-insensitively. Every rule below is a regular
expression with a reader; the expression that starts first in the text wins (the longest one where two start
together), and the words around it may narrow it ("early", "Anfang", "の初め") or bound it ("before", "seit",
"以降"). A day and month without a year ("22 October", "10月22日") and habits ("every Saturday", "毎週土曜") are
matched only to be passed over: people use them for birthdays and yearly things, not for a stretch of time.
"""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class DateSpan:
    start: date  # inclusive
    end: date  # inclusive
    phrase: str  # the words of the query that said it, exactly as written (the caller drops them from a word search)


def _key(text: str) -> str:
    """How the tables below are looked up: case folded, runs of spaces made one."""
    return " ".join(text.casefold().split())


def _words(keys) -> str:
    """A regex alternation of `keys`, longest first, a space in a key matching any run of spaces."""
    return "|".join(re.escape(key).replace(r"\ ", r"\s+") for key in sorted(set(keys), key=len, reverse=True))


# --- Words --------------------------------------------------------------------------------------------------------
_MONTHS = {name: number for number, names in enumerate((
    ("january", "januari", "januar", "jänner"), ("february", "februari", "februar"), ("march", "maart", "märz"),
    ("april",), ("may", "mei", "mai"), ("june", "juni"), ("july", "juli"), ("august", "augustus"),
    ("september",), ("october", "oktober"), ("november",), ("december", "dezember")), start=1) for name in names}
_WEEKDAYS = {name: number for number, names in enumerate((
    ("monday", "maandag", "montag"), ("tuesday", "dinsdag", "dienstag"), ("wednesday", "woensdag", "mittwoch"),
    ("thursday", "donderdag", "donnerstag"), ("friday", "vrijdag", "freitag"),
    ("saturday", "zaterdag", "samstag", "sonnabend"), ("sunday", "zondag", "sonntag"))) for name in names}
# A season by its first month, meteorological: winter is December to February.
_SEASONS = {"spring": 3, "lente": 3, "voorjaar": 3, "frühling": 3, "frühjahr": 3, "summer": 6, "zomer": 6,
            "sommer": 6, "autumn": 9, "fall": 9, "herfst": 9, "najaar": 9, "herbst": 9, "winter": 12}
_JA_SEASONS = {"春": 3, "夏": 6, "秋": 9, "冬": 12}
# Holidays: Christmas, and New Year's by the year of its December 31st (EVE) or of its January 1st (DAY), which is
# what a year written after it means ("Silvester 2025" is 2025-12-31, "New Year's Day 2025" is 2025-01-01).
_CHRISTMAS, _NEW_YEAR_EVE, _NEW_YEAR_DAY = 1, 2, 3
_HOLIDAYS = {
    **dict.fromkeys(("christmas", "christmas eve", "christmas day", "xmas", "kerst", "kerstmis", "kerstavond",
                     "kerstdagen", "weihnachten", "heiligabend"), _CHRISTMAS),
    **dict.fromkeys(("new year's eve", "new year’s eve", "new years eve", "nye", "oud en nieuw", "oudjaar",
                     "oudejaarsavond", "silvester"), _NEW_YEAR_EVE),
    **dict.fromkeys(("new year's", "new year’s", "new years", "new year", "new year's day", "new year’s day",
                     "nieuwjaar", "nieuwjaarsdag", "neujahr", "neujahrstag"), _NEW_YEAR_DAY)}
_JA_HOLIDAYS = {"クリスマス": _CHRISTMAS, "クリスマスイブ": _CHRISTMAS, "大晦日": _NEW_YEAR_EVE, "年末年始": _NEW_YEAR_EVE,
                "正月": _NEW_YEAR_DAY, "お正月": _NEW_YEAR_DAY, "元旦": _NEW_YEAR_DAY}
_OCCASIONS = {**{name: ("month", number) for name, number in _MONTHS.items()},
              **{name: ("season", month) for name, month in {**_SEASONS, **_JA_SEASONS}.items()},
              **{name: ("holiday", which) for name, which in {**_HOLIDAYS, **_JA_HOLIDAYS}.items()}}
_QUALIFIERS = {
    **dict.fromkeys(("last", "past", "previous", "vorige", "vorig", "afgelopen", "verleden"), "last"),
    **dict.fromkeys(("this", "deze", "dit"), "this"),
    **dict.fromkeys(("next", "coming", "upcoming", "volgende", "volgend", "komende", "komend", "aanstaande"), "next"),
    **{stem + ending: when for stem, when in (("letzt", "last"), ("vorig", "last"), ("vergangen", "last"),
                                             ("dies", "this"), ("nächst", "next"), ("kommend", "next"))
       for ending in ("e", "en", "es", "er", "em")}}
_OFFSETS = {"last": -1, "this": 0, "next": 1}
_UNITS = {**dict.fromkeys(("day", "days", "dag", "dagen", "tag", "tage", "tagen", "日"), "day"),
          **dict.fromkeys(("week", "weeks", "weken", "woche", "wochen", "週", "週間"), "week"), "weekend": "weekend",
          "wochenende": "weekend", **dict.fromkeys(("month", "months", "maand", "maanden", "monat", "monats", "monate",
                                                    "monaten", "か月", "カ月", "ヵ月", "ヶ月", "ケ月", "箇月"), "month"),
          **dict.fromkeys(("year", "years", "jaar", "jaren", "jahr", "jahres", "jahre", "jahren", "年"), "year")}
_COUNTED_UNITS = [word for word, unit in _UNITS.items() if word.isascii() and unit != "weekend"
                  and word not in ("monats", "jahres")]
_CALENDAR_UNITS = ("week", "weekend", "woche", "wochenende", "month", "maand", "monat", "monats", "year", "jaar",
                   "jahr", "jahres")
_NUMBERS = {
    **dict.fromkeys(("a", "an", "one", "een", "één", "ein", "eine", "einem", "einer", "einen"), 1),
    **dict.fromkeys(("two", "twee", "zwei", "a couple of", "a couple", "couple of"), 2),
    **{word: number for number, words in enumerate((
        ("three", "drie", "drei"), ("four", "vier"), ("five", "vijf", "fünf"), ("six", "zes", "sechs"),
        ("seven", "zeven", "sieben"), ("eight", "acht"), ("nine", "negen", "neun"), ("ten", "tien", "zehn"),
        ("eleven", "elf"), ("twelve", "twaalf", "zwölf")), start=3) for word in words}}
_KANJI = {kanji: value for value, kanji in enumerate("一二三四五六七八九", start=1)}
# Fixed words: (unit, offset from today's unit); an offset of None is the weekend now or just past.
_RELATIVE = {
    **dict.fromkeys(("the day before yesterday", "day before yesterday", "eergisteren", "vorgestern", "一昨日",
                     "おととい", "おとつい"), ("day", -2)),
    **dict.fromkeys(("yesterday", "last night", "gisteren", "gisteravond", "gisterochtend", "gistermiddag",
                     "gisternacht", "gestern", "昨日", "きのう", "昨夜", "昨晩", "ゆうべ"), ("day", -1)),
    **dict.fromkeys(("today", "tonight", "this morning", "this afternoon", "this evening", "vandaag", "vanavond",
                     "vanochtend", "vanmorgen", "vanmiddag", "vannacht", "heute", "今日", "きょう", "本日", "今朝",
                     "今夜", "今晩"), ("day", 0)),
    "over the weekend": ("weekend", None),
    "vorwoche": ("week", -1), "vormonat": ("month", -1), "vorjahr": ("year", -1),
    "先々週": ("week", -2), "先週": ("week", -1), "今週": ("week", 0), "来週": ("week", 1), "先週末": ("weekend", -1),
    "今週末": ("weekend", 0), "来週末": ("weekend", 1), "先々月": ("month", -2), "先月": ("month", -1),
    "今月": ("month", 0), "来月": ("month", 1), "一昨年": ("year", -2), "おととし": ("year", -2), "去年": ("year", -1),
    "昨年": ("year", -1), "今年": ("year", 0), "ことし": ("year", 0), "本年": ("year", 0), "来年": ("year", 1)}
_JA_RELATIVE = {word for word in _RELATIVE if not word.isascii()}
# A year said after a month, a season or a holiday ("in mei vorig jaar", "im Herbst vor einem Jahr").
_YEAR_OFFSETS = {
    **dict.fromkeys(("last year", "of last year", "a year ago", "vorig jaar", "van vorig jaar", "verleden jaar",
                     "een jaar geleden", "letzten jahres", "letztes jahr", "vergangenen jahres", "vor einem jahr",
                     "des letzten jahres", "vom letzten jahr"), -1),
    **dict.fromkeys(("this year", "of this year", "dit jaar", "van dit jaar", "dieses jahres", "dieses jahr"), 0),
    **dict.fromkeys(("next year", "volgend jaar", "nächsten jahres", "nächstes jahr"), 1)}
_JA_YEAR_WORDS = {"一昨年": -2, "おととし": -2, "去年": -1, "昨年": -1, "今年": 0, "ことし": 0, "来年": 1,
                  "この": "this", "今": "this", "昨": "last", "来": "next"}
_PREPOSITIONS = ("in", "on", "at", "during", "around", "over", "op", "tijdens", "rond", "rondom", "met", "im",
                 "am", "an", "um", "zu", "während")
_YEAR_LEADS = ("in", "in the year", "during", "of", "from", "the", "tijdens", "in het jaar", "het", "van", "uit",
               "im", "im jahr", "aus", "von", "während", "das jahr")
_THIRDS = {**dict.fromkeys(("early", "beginning of", "the beginning of", "start of", "the start of", "begin",
                            "begin van", "het begin van", "aan het begin van", "anfang", "beginn", "zu beginn",
                            "初め", "はじめ", "始め", "初旬", "上旬", "初頭", "前半", "頭"), 0),
           **dict.fromkeys(("mid", "middle of", "the middle of", "midden", "medio", "half", "halverwege", "mitte",
                            "半ば", "なかば", "中頃", "中ごろ", "中旬"), 1),
           **dict.fromkeys(("late", "end of", "the end of", "eind", "einde", "eind van", "het eind van",
                            "aan het eind van", "ende", "終わり", "おわり", "終り", "末", "下旬", "後半", "暮れ"), 2)}
_BOUNDS = {**dict.fromkeys(("before", "prior to", "voor", "vóór", "vor", "より前", "以前", "前まで"), "before"),
           **dict.fromkeys(("since", "ever since", "sinds", "vanaf", "sedert", "seit", "ab", "から", "以降", "以来"),
                           "since")}

# --- Patterns -----------------------------------------------------------------------------------------------------
_I = re.IGNORECASE
_DIGIT = "[0-9０-９]"
_PREP = rf"(?:(?P<prep>{_words(_PREPOSITIONS)})\s+(?:(?:the|de|het|der|dem|den)\s+)?)?"
_LATIN_MONTH = _words(_MONTHS)
_WHEN = _words(_QUALIFIERS)
_NUMBER = rf"\d{{1,2}}|{_words(_NUMBERS)}"
_ORDINAL = r"(?:st|nd|rd|th|e|ste|de)?"
_JA_NUMBER = rf"{_DIGIT}{{1,2}}|[{''.join(_KANJI)}十]{{1,3}}"
_JA_UNIT = "日|週間|週|[かカヵヶケ箇]月|年"
# A bare number: not inside a word, an id, a mention, a channel, a version or a time.
_NUMBER_BEFORE = r"(?<![0-9A-Za-z\u00c0-\u024f_@#<:/.])(?<!\d-)"
_NUMBER_AFTER = r"(?![0-9A-Za-z\u00c0-\u024f_@>]|[.,:/\-]\d)"
_WORD_AFTER = re.compile(r"\s+[^\W\d_]")
_LOOK_BACK = 40

_RELATIVE_WORDS = re.compile(rf"\b(?:{_words(set(_RELATIVE) - _JA_RELATIVE)})\b|{_words(_JA_RELATIVE)}", _I)
_RELATIVE_UNIT = re.compile(rf"\b{_PREP}(?P<when>{_WHEN})\s+(?P<unit>{_words(_CALENDAR_UNITS)})\b", _I)
_AGO = re.compile(rf"\b(?P<n>{_NUMBER})\s+(?P<unit>{_words(_COUNTED_UNITS)})\s+(?:ago|geleden)\b"
                  rf"|\bvor\s+(?P<n_de>{_NUMBER})\s+(?P<unit_de>{_words(_COUNTED_UNITS)})\b"
                  rf"|(?<!{_DIGIT})(?P<n_ja>{_JA_NUMBER})\s*(?P<unit_ja>{_JA_UNIT})前(?!半)", _I)
_ROLLING = re.compile(rf"\b(?:past|last|afgelopen|laatste|letzten|vergangenen)\s+(?P<n>{_NUMBER})\s+"
                      rf"(?P<unit>{_words(_COUNTED_UNITS)})\b"
                      rf"|(?:過去|ここ|直近|この)(?P<n_ja>{_JA_NUMBER})\s*(?P<unit_ja>{_JA_UNIT})間?", _I)
_OCCASION = re.compile(
    rf"\b{_PREP}(?:(?P<article>the|de|het|der|die|das|den|dem)\s+)?(?:(?P<when>{_WHEN})\s+)?"
    rf"(?P<name>{_words([*_MONTHS, *_SEASONS, *_HOLIDAYS])})\b(?:,?\s+(?:of\s+|van\s+)?(?P<year>\d{{4}})(?!\d)"
    rf"|\s+(?P<offset>{_words(_YEAR_OFFSETS)})\b|(?!\.?,?\s*\d))", _I)
_JA_OCCASION = re.compile(
    rf"(?:(?:(?P<year>{_DIGIT}{{4}})年|(?P<rel>{_words(_JA_YEAR_WORDS)}))の?)?"
    rf"(?:(?<!{_DIGIT})(?P<month>{_DIGIT}{{1,2}})月(?!\s*{_DIGIT}{{1,2}}日)|(?P<season>[春夏秋冬])"
    rf"|(?P<holiday>{_words(_JA_HOLIDAYS)}))")
# Not a weekday followed by a date ("Saturday 22 October") nor one of each month ("the last Thursday of the month").
_WEEKDAY = re.compile(
    rf"\b{_PREP}(?:(?P<when>{_WHEN})\s+)?(?P<day>{_words(_WEEKDAYS)})\b(?!,?\s*(?:the\s+)?\d"
    r"|\s+(?:of|van|des|im|jedes)\s+(?:(?:the|each|every|de|elke|iedere)\s+)?(?:month|maand|monats?)\b)"
    r"|(?:(?P<week>先週|今週|来週)の?)?(?P<day_ja>[月火水木金土日])曜日?", _I)
_YEAR = re.compile(rf"(?<!{_DIGIT})(?P<year_ja>{_DIGIT}{{4}})年(?!代|前(?!半))"
                   rf"|(?:\b(?P<lead>{_words(_YEAR_LEADS)})\s+)?{_NUMBER_BEFORE}(?P<year>\d{{4}}){_NUMBER_AFTER}", _I)
_FULL_DATE = re.compile(
    rf"\b{_PREP}(?P<day>\d{{1,2}}){_ORDINAL}\.?\s*(?:of\s+)?(?P<month>{_LATIN_MONTH})\.?,?\s+(?P<year>\d{{4}})(?!\d)"
    rf"|\b(?P<month_mdy>{_LATIN_MONTH})\.?\s+(?P<day_mdy>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year_mdy>\d{{4}})(?!\d)"
    rf"|{_NUMBER_BEFORE}(?P<year_iso>\d{{4}})(?P<sep>[-/.])(?P<month_iso>\d{{1,2}})(?P=sep)(?P<day_iso>\d{{1,2}})"
    rf"(?!\d|[-/.]\d)"
    rf"|{_NUMBER_BEFORE}(?P<day_dmy>\d{{1,2}})(?P<sep_dmy>[-.])(?P<month_dmy>\d{{1,2}})(?P=sep_dmy)"
    rf"(?P<year_dmy>\d{{4}})(?!\d|[-/.]\d)"
    rf"|(?<!{_DIGIT})(?P<year_ja>{_DIGIT}{{4}})年\s*(?P<month_ja>{_DIGIT}{{1,2}})月\s*(?P<day_ja>{_DIGIT}{{1,2}})日", _I)
# Matched only to be passed over: a day and month without a year, and habits.
_YEARLESS_OR_HABIT = re.compile(
    rf"\b{_PREP}\d{{1,2}}{_ORDINAL}\.?\s*(?:of\s+)?(?:{_LATIN_MONTH})\b"
    rf"|\b(?:{_LATIN_MONTH})\.?\s+\d{{1,2}}{_ORDINAL}(?!\d)"
    r"|(?<![\w.])\d{1,2}\.\d{1,2}\.(?!\d)"
    rf"|\b(?:every|each|elke|elk|iedere|ieder|jede|jeden|jedes|jeder)\s+"
    rf"(?:{_words([*_WEEKDAYS, *_MONTHS, *_SEASONS, *_HOLIDAYS])})\b"
    rf"|(?<!{_DIGIT}){_DIGIT}{{1,2}}月\s*{_DIGIT}{{1,2}}日"
    rf"|毎週の?[月火水木金土日]曜|毎年の?(?:{_DIGIT}{{1,2}}月|[春夏秋冬]|{_words(_JA_HOLIDAYS)})", _I)
_THIRD_BEFORE = re.compile(rf"\b(?:(?:in|at|by|around|rond|tegen|op|im|am|um|gegen)\s+)?"
                           rf"(?P<word>{_words(w for w in _THIRDS if w.isascii())})(?:\s+|-)$", _I)
_THIRD_AFTER = re.compile(rf"の?(?P<word>{_words(w for w in _THIRDS if not w.isascii())})")
_BOUND_BEFORE = re.compile(rf"\b(?P<word>{_words(w for w in _BOUNDS if w[0].isascii())})\s+$", _I)
_BOUND_AFTER = re.compile(rf"(?P<word>{_words(w for w in _BOUNDS if not w[0].isascii())})")


# --- Calendar -----------------------------------------------------------------------------------------------------
def _months_after(first: date, months: int) -> date:
    """The first day of the month `months` after the month of `first`."""
    index = first.year * 12 + first.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _month_end(day: date) -> date:
    return day.replace(day=monthrange(day.year, day.month)[1])


def _unit_span(unit: str, offset: int | None, today: date) -> tuple[date, date]:
    """The day, week (Monday first), weekend, month or year `offset` units from today's."""
    if unit == "day":
        day = today + timedelta(days=offset)
        return day, day
    if unit in ("week", "weekend"):
        if offset is None:  # the weekend now, else the one just past
            offset = 0 if today.weekday() >= 5 else -1
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=offset)
        return monday + timedelta(days=0 if unit == "week" else 5), monday + timedelta(days=6)
    if unit == "month":
        first = _months_after(today.replace(day=1), offset)
        return first, _month_end(first)
    return date(today.year + offset, 1, 1), date(today.year + offset, 12, 31)


def _ago(unit: str, count: int, today: date) -> tuple[date, date]:
    """What "`count` units ago" means: that day; the seven days around that day for weeks; that month; and the
    three months around that month for years (a year ago is about then, not the whole calendar year)."""
    if unit == "day":
        return _unit_span("day", -count, today)
    if unit == "week":
        middle = today - timedelta(weeks=count)
        return middle - timedelta(days=3), middle + timedelta(days=3)
    if unit == "month":
        return _unit_span("month", -count, today)
    first = _months_after(today.replace(day=1), -12 * count - 1)
    return first, _month_end(_months_after(first, 2))


def _rolling(unit: str, count: int, today: date) -> tuple[date, date]:
    """The last `count` units up to today ("the past two weeks")."""
    if unit in ("day", "week"):
        return today - timedelta(days=count * (7 if unit == "week" else 1)), today
    first = _months_after(today.replace(day=1), -count * (12 if unit == "year" else 1))
    return first.replace(day=min(today.day, _month_end(first).day)), today


def _occasion(kind: str, value: int, year: int) -> tuple[date, date]:
    """A month, a season (by its first month) or a holiday of `year`."""
    if kind in ("month", "season"):
        first = date(year, value, 1)
        return first, _month_end(_months_after(first, 2 if kind == "season" else 0))
    if value == _CHRISTMAS:
        return date(year, 12, 24), date(year, 12, 26)
    eve = date(year if value == _NEW_YEAR_EVE else year - 1, 12, 31)
    return eve, eve + timedelta(days=3)


def _occurrence(kind: str, value: int, when: str | int, today: date) -> tuple[date, date]:
    """Which occurrence of a yearly month, season or holiday is meant: of a year given as a number; "last", the
    latest that has ended; "next", the first not yet begun; otherwise the latest that has begun ("in May", "this
    winter"), except "this" before a month, which is this year's."""
    if isinstance(when, int):
        return _occasion(kind, value, when)
    if when == "this" and kind == "month":
        return _occasion(kind, value, today.year)
    spans = [_occasion(kind, value, year) for year in range(today.year - 2, today.year + 3)]
    if when == "next":
        return next(span for span in spans if span[0] > today)
    return [span for span in spans if (span[1] < today if when == "last" else span[0] <= today)][-1]


def _whole_months(first: date, last: date) -> int | None:
    """How many whole months first..last is, None when it is not whole months."""
    if first.day != 1 or (last + timedelta(days=1)).day != 1 or last < first:
        return None
    return (last.year - first.year) * 12 + last.month - first.month + 1


def _third(first: date, last: date, third: int) -> tuple[date, date] | None:
    """The first, middle or last third of a month (1-10, 11-20, 21-end) or of whole months in threes (a year's
    January-April, a season's first month); None for any other span."""
    months = _whole_months(first, last)
    if months == 1:
        first_day, last_day = ((1, 10), (11, 20), (21, last.day))[third]
        return first.replace(day=first_day), first.replace(day=last_day)
    if months and months % 3 == 0:
        begin = _months_after(first, months // 3 * third)
        return begin, _months_after(begin, months // 3) - timedelta(days=1)
    return None


# --- Readers: a match to (first day, last day); None, a KeyError or a ValueError when it names no span after all --
def _year(digits: str) -> int:
    """A year as written, when it is a plausible one (1990-2100); ValueError for any other number."""
    if not 1990 <= int(digits) <= 2100:
        raise ValueError(digits)
    return int(digits)


def _count(word: str) -> int:
    """A count written in digits, in words (two, twee, zwei) or in kanji up to 99 (三, 十二, 二十); KeyError for
    anything else."""
    word = _key(word)
    if word.isdecimal():
        return int(word)
    if word in _NUMBERS:
        return _NUMBERS[word]
    tens, ten, ones = word.partition("十")
    if not ten:
        return _KANJI[word]
    return (_KANJI[tens] if tens else 1) * 10 + (_KANJI[ones] if ones else 0)


def _read_relative_word(match: re.Match, today: date):
    return _unit_span(*_RELATIVE[_key(match[0])], today)


def _read_relative_unit(match: re.Match, today: date):
    return _unit_span(_UNITS[_key(match["unit"])], _OFFSETS[_QUALIFIERS[_key(match["when"])]], today)


def _counted(match: re.Match, suffixes: tuple[str, ...]) -> tuple[str, int]:
    """(unit, count) of the alternative of an ago or rolling pattern that matched."""
    suffix = next(suffix for suffix in suffixes if match["n" + suffix] is not None)
    return _UNITS[_key(match["unit" + suffix])], _count(match["n" + suffix])


def _read_ago(match: re.Match, today: date):
    return _ago(*_counted(match, ("", "_de", "_ja")), today)


def _read_rolling(match: re.Match, today: date):
    return _rolling(*_counted(match, ("", "_ja")), today)


def _modifier_before(match: re.Match) -> bool:
    """Whether an early/mid/late or a before/since word comes just before the match ("late May", "vor 2025")."""
    text, start = match.string, match.start()
    return bool(_THIRD_BEFORE.search(text, max(0, start - _LOOK_BACK), start)
                or _BOUND_BEFORE.search(text, max(0, start - _LOOK_BACK), start))


def _read_occasion(match: re.Match, today: date):
    name = _key(match["name"])
    kind, value = _OCCASIONS[name]
    # A month alone is as often a name or a word (June, Mei; "may I", "this may take", "the march") and a season
    # alone a habit ("in de winter", "spring boot"): they need a qualifier, a year, an early/before word, or for a
    # month a preposition, or "the" before one that is no verb (may and march in lower case may be verbs).
    verb = name in ("may", "march") and match["name"].islower()
    qualified = ((match["when"] and not (verb and _key(match["when"]) == "this")) or match["year"] or match["offset"]
                 or _modifier_before(match))
    month_said_so = kind == "month" and (match["prep"] or (match["article"] and not verb))
    if kind != "holiday" and not (qualified or month_said_so):
        return None
    when: str | int = _QUALIFIERS.get(_key(match["when"] or ""), "recent")
    if match["year"] or match["offset"]:
        when = _year(match["year"]) if match["year"] else today.year + _YEAR_OFFSETS[_key(match["offset"])]
    return _occurrence(kind, value, when, today)


def _read_ja_occasion(match: re.Match, today: date):
    if match["season"] and not (match["year"] or match["rel"]):
        return None  # a lone 夏 or 秋 is part of too many words (夏休み, 秋葉原)
    kind, value = ("month", int(match["month"])) if match["month"] else _OCCASIONS[match["season"] or match["holiday"]]
    rel = _JA_YEAR_WORDS.get(match["rel"] or "", "recent")
    when = _year(match["year"]) if match["year"] else today.year + rel if isinstance(rel, int) else rel
    return _occurrence(kind, value, when, today)  # a month 13 is a ValueError


def _read_weekday(match: re.Match, today: date):
    if match["day_ja"]:
        weekday, when = "月火水木金土日".index(match["day_ja"]), {"先週": -1, "今週": 0, "来週": 1}.get(match["week"])
    else:
        weekday, when = _WEEKDAYS[_key(match["day"])], _QUALIFIERS.get(_key(match["when"] or ""))
    if isinstance(when, int):  # 先週の土曜日: a day of last, this or next week (Monday first)
        day = today - timedelta(days=today.weekday() - weekday) + timedelta(weeks=when)
    elif when == "this":
        day = today - timedelta(days=today.weekday() - weekday)
    elif when == "next":
        day = today + timedelta(days=(weekday - today.weekday()) % 7 or 7)
    else:  # the latest such day before today
        day = today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
    return day, day


def _read_year(match: re.Match, today: date):
    year, text, end = _year(match["year_ja"] or match["year"]), match.string, match.end()
    if match["year"] and not (match["lead"] or _modifier_before(match)) and _WORD_AFTER.match(text, end):
        return None  # "2000 members": a count, not a year
    return date(year, 1, 1), date(year, 12, 31)


def _read_full_date(match: re.Match, today: date):
    for suffix in ("", "_mdy", "_iso", "_dmy", "_ja"):
        if match["year" + suffix] is not None:
            year, month, day = match["year" + suffix], match["month" + suffix], match["day" + suffix]
            found = date(_year(year), int(month) if month.isdecimal() else _MONTHS[_key(month)], int(day))
            return found, found
    return None


_RULES = ((_RELATIVE_WORDS, _read_relative_word), (_RELATIVE_UNIT, _read_relative_unit), (_AGO, _read_ago),
          (_ROLLING, _read_rolling), (_FULL_DATE, _read_full_date), (_OCCASION, _read_occasion),
          (_JA_OCCASION, _read_ja_occasion), (_WEEKDAY, _read_weekday), (_YEAR, _read_year),
          (_YEARLESS_OR_HABIT, None))


# --- The span -----------------------------------------------------------------------------------------------------
def _word_around(text: str, start: int, end: int, before: re.Pattern, after: re.Pattern, table: dict):
    """(the table's value, phrase start, phrase end) for a word of `table` just before text[start:end] (Latin) or
    just after it (Japanese); None when there is none."""
    found = before.search(text, max(0, start - _LOOK_BACK), start)
    if found:
        return table.get(_key(found["word"])), found.start(), end
    found = after.match(text, end)
    return (table.get(found["word"]), start, found.end()) if found else None


def _modified(text: str, start: int, end: int, span: tuple[date, date], today: date) -> DateSpan:
    """The span, narrowed by an early/mid/late word ("early 2025", "5月上旬") and bounded by a before word (the
    year up to a month or year) or a since word (from it to today), where they apply, with their words."""
    third = _word_around(text, start, end, _THIRD_BEFORE, _THIRD_AFTER, _THIRDS)
    if third and (narrowed := _third(*span, third[0])):
        span, start, end = narrowed, third[1], third[2]
    bound = _word_around(text, start, end, _BOUND_BEFORE, _BOUND_AFTER, _BOUNDS)
    first = span[0]
    if bound and bound[0] == "before" and _whole_months(*span):
        span, start, end = (first.replace(year=first.year - 1), first - timedelta(days=1)), bound[1], bound[2]
    elif bound and bound[0] == "since" and first <= today:
        span, start, end = (first, today), bound[1], bound[2]
    return DateSpan(span[0], span[1], text[start:end])


def date_span(text: str, today: date) -> DateSpan | None:
    """The days the first time expression of `text` names, read against `today`; None when it names none."""
    candidates = sorted(((match, read) for pattern, read in _RULES for match in pattern.finditer(text)),
                        key=lambda found: (found[0].start(), -found[0].end()))
    passed_over_until = 0
    for match, read in candidates:
        if match.start() < passed_over_until:
            continue
        if read is None:
            passed_over_until = match.end()
            continue
        try:
            span = read(match, today)
            if span is not None:
                return _modified(text, match.start(), match.end(), span, today)
        except (KeyError, ValueError, OverflowError):  # 31 February, year 2200, a letter that folds to no key
            continue
    return None
