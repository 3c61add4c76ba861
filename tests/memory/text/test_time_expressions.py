"""Time expressions read as date spans (memory.text.time_expressions): every kind in English, Dutch, German and
Japanese against a fixed day (mid-March, and a Sunday just after New Year), the words that said it as written, what
is passed over (a birthday's day and month, habits, ids, noise), and the first expression winning."""

from __future__ import annotations

import random
from datetime import date

import pytest

from memory.text.time_expressions import DateSpan, date_span

MARCH = date(2026, 3, 15)  # a Sunday: its week is Monday 9 to Sunday 15 March
NEW_YEAR = date(2026, 1, 4)  # a Sunday: its week began on Monday 29 December 2025


def span(start: str, end: str, phrase: str) -> DateSpan:
    return DateSpan(date.fromisoformat(start), date.fromisoformat(end), phrase)


def check(cases):
    """pytest parameters from (text, today, first day, last day, phrase), the phrase being the text when omitted."""
    return [pytest.param(text, today, span(first, last, phrase[0] if phrase else text), id=text)
            for text, today, first, last, *phrase in cases]


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("yesterday", MARCH, "2026-03-14", "2026-03-14"), ("gisteren", MARCH, "2026-03-14", "2026-03-14"),
    ("gestern", MARCH, "2026-03-14", "2026-03-14"), ("昨日", MARCH, "2026-03-14", "2026-03-14"),
    ("who won yesterday?", NEW_YEAR, "2026-01-03", "2026-01-03", "yesterday"),
    ("the day before yesterday", MARCH, "2026-03-13", "2026-03-13"),
    ("eergisteren", MARCH, "2026-03-13", "2026-03-13"), ("vorgestern", NEW_YEAR, "2026-01-02", "2026-01-02"),
    ("おととい", MARCH, "2026-03-13", "2026-03-13"), ("一昨日", NEW_YEAR, "2026-01-02", "2026-01-02"),
    ("today", MARCH, "2026-03-15", "2026-03-15"), ("vandaag", NEW_YEAR, "2026-01-04", "2026-01-04"),
    ("heute", MARCH, "2026-03-15", "2026-03-15"), ("今日", NEW_YEAR, "2026-01-04", "2026-01-04"),
]))
def test_yesterday_the_day_before_and_today_are_one_day(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("3 days ago", NEW_YEAR, "2026-01-01", "2026-01-01"), ("drie dagen geleden", NEW_YEAR, "2026-01-01", "2026-01-01"),
    ("vor drei Tagen", NEW_YEAR, "2026-01-01", "2026-01-01"), ("3日前", NEW_YEAR, "2026-01-01", "2026-01-01"),
    ("十日前", MARCH, "2026-03-05", "2026-03-05"),
    # weeks: the seven days around that day
    ("two weeks ago", MARCH, "2026-02-26", "2026-03-04"), ("twee weken geleden", MARCH, "2026-02-26", "2026-03-04"),
    ("vor zwei Wochen", MARCH, "2026-02-26", "2026-03-04"), ("2週間前", MARCH, "2026-02-26", "2026-03-04"),
    ("a week ago", NEW_YEAR, "2025-12-25", "2025-12-31"), ("一週間前", NEW_YEAR, "2025-12-25", "2025-12-31"),
    # months: that calendar month
    ("3 months ago", MARCH, "2025-12-01", "2025-12-31"), ("drie maanden geleden", MARCH, "2025-12-01", "2025-12-31"),
    ("vor drei Monaten", MARCH, "2025-12-01", "2025-12-31"), ("3ヶ月前", MARCH, "2025-12-01", "2025-12-31"),
    ("een maand geleden", NEW_YEAR, "2025-12-01", "2025-12-31"), ("1か月前", NEW_YEAR, "2025-12-01", "2025-12-31"),
    # years: the three months around that month
    ("a year ago", MARCH, "2025-02-01", "2025-04-30"), ("een jaar geleden", MARCH, "2025-02-01", "2025-04-30"),
    ("vor einem Jahr", NEW_YEAR, "2024-12-01", "2025-02-28"), ("1年前", NEW_YEAR, "2024-12-01", "2025-02-28"),
]))
def test_so_many_days_weeks_months_or_years_ago(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("last week", MARCH, "2026-03-02", "2026-03-08"), ("vorige week", MARCH, "2026-03-02", "2026-03-08"),
    ("letzte Woche", MARCH, "2026-03-02", "2026-03-08"), ("先週", MARCH, "2026-03-02", "2026-03-08"),
    ("last week", NEW_YEAR, "2025-12-22", "2025-12-28"), ("in der letzten Woche", NEW_YEAR, "2025-12-22", "2025-12-28"),
    ("this week", MARCH, "2026-03-09", "2026-03-15"), ("deze week", MARCH, "2026-03-09", "2026-03-15"),
    ("diese Woche", NEW_YEAR, "2025-12-29", "2026-01-04"), ("今週", NEW_YEAR, "2025-12-29", "2026-01-04"),
    ("next week", MARCH, "2026-03-16", "2026-03-22"), ("volgende week", MARCH, "2026-03-16", "2026-03-22"),
    ("nächste Woche", MARCH, "2026-03-16", "2026-03-22"), ("来週", MARCH, "2026-03-16", "2026-03-22"),
    ("last weekend", MARCH, "2026-03-07", "2026-03-08"), ("afgelopen weekend", MARCH, "2026-03-07", "2026-03-08"),
    ("letztes Wochenende", MARCH, "2026-03-07", "2026-03-08"), ("先週末", MARCH, "2026-03-07", "2026-03-08"),
    ("this weekend", MARCH, "2026-03-14", "2026-03-15"), ("dit weekend", NEW_YEAR, "2026-01-03", "2026-01-04"),
    ("dieses Wochenende", MARCH, "2026-03-14", "2026-03-15"), ("今週末", MARCH, "2026-03-14", "2026-03-15"),
    ("last month", MARCH, "2026-02-01", "2026-02-28"), ("vorige maand", NEW_YEAR, "2025-12-01", "2025-12-31"),
    ("letzten Monat", NEW_YEAR, "2025-12-01", "2025-12-31"), ("先月", MARCH, "2026-02-01", "2026-02-28"),
    ("this month", MARCH, "2026-03-01", "2026-03-31"), ("deze maand", MARCH, "2026-03-01", "2026-03-31"),
    ("diesen Monat", NEW_YEAR, "2026-01-01", "2026-01-31"), ("今月", MARCH, "2026-03-01", "2026-03-31"),
    ("last year", NEW_YEAR, "2025-01-01", "2025-12-31"), ("vorig jaar", NEW_YEAR, "2025-01-01", "2025-12-31"),
    ("letztes Jahr", MARCH, "2025-01-01", "2025-12-31"), ("去年", MARCH, "2025-01-01", "2025-12-31"),
    ("this year", NEW_YEAR, "2026-01-01", "2026-12-31"), ("dit jaar", MARCH, "2026-01-01", "2026-12-31"),
    ("dieses Jahr", MARCH, "2026-01-01", "2026-12-31"), ("今年", MARCH, "2026-01-01", "2026-12-31"),
    ("next year", MARCH, "2027-01-01", "2027-12-31"), ("volgend jaar", MARCH, "2027-01-01", "2027-12-31"),
    ("nächstes Jahr", MARCH, "2027-01-01", "2027-12-31"), ("来年", MARCH, "2027-01-01", "2027-12-31"),
]))
def test_last_this_and_next_week_weekend_month_and_year(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    # the latest such month that has begun: this year's when it has, else last year's
    ("in May", MARCH, "2025-05-01", "2025-05-31"), ("in mei", MARCH, "2025-05-01", "2025-05-31"),
    ("im Mai", MARCH, "2025-05-01", "2025-05-31"), ("5月", MARCH, "2025-05-01", "2025-05-31"),
    ("in March", MARCH, "2026-03-01", "2026-03-31"), ("in maart", MARCH, "2026-03-01", "2026-03-31"),
    ("im März", MARCH, "2026-03-01", "2026-03-31"), ("３月", MARCH, "2026-03-01", "2026-03-31"),
    ("in December", NEW_YEAR, "2025-12-01", "2025-12-31"), ("in januari", NEW_YEAR, "2026-01-01", "2026-01-31"),
    ("im Dezember", NEW_YEAR, "2025-12-01", "2025-12-31"), ("12月", NEW_YEAR, "2025-12-01", "2025-12-31"),
    ("last May", MARCH, "2025-05-01", "2025-05-31"), ("afgelopen februari", MARCH, "2026-02-01", "2026-02-28"),
    ("letzten März", MARCH, "2025-03-01", "2025-03-31"),  # the latest March that has ended
    # a month with a year
    ("May 2025", MARCH, "2025-05-01", "2025-05-31"), ("mei 2025", MARCH, "2025-05-01", "2025-05-31"),
    ("im Mai 2025", MARCH, "2025-05-01", "2025-05-31"), ("2025年5月", MARCH, "2025-05-01", "2025-05-31"),
    ("in October 2024", MARCH, "2024-10-01", "2024-10-31"),
    ("in mei vorig jaar", MARCH, "2025-05-01", "2025-05-31"),
    ("im Juni letzten Jahres", MARCH, "2025-06-01", "2025-06-30"),
    ("去年の7月", MARCH, "2025-07-01", "2025-07-31"), ("May last year", MARCH, "2025-05-01", "2025-05-31"),
]))
def test_a_month_alone_is_the_latest_begun_and_a_month_with_a_year_is_that_one(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("in 2023", MARCH, "2023-01-01", "2023-12-31"), ("wat gebeurde er in 2023", MARCH, "2023-01-01", "2023-12-31",
                                                     "in 2023"),
    ("im Jahr 2023", MARCH, "2023-01-01", "2023-12-31"), ("2023年", MARCH, "2023-01-01", "2023-12-31"),
    ("who won the 2023 tournament", MARCH, "2023-01-01", "2023-12-31", "the 2023"),
    ("the 1990 edition", MARCH, "1990-01-01", "1990-12-31", "the 1990"),
]))
def test_a_plausible_year_alone_is_that_year(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("early 2025", MARCH, "2025-01-01", "2025-04-30"), ("begin 2025", MARCH, "2025-01-01", "2025-04-30"),
    ("Anfang 2025", MARCH, "2025-01-01", "2025-04-30"), ("2025年の初め", MARCH, "2025-01-01", "2025-04-30"),
    ("mid-2025", MARCH, "2025-05-01", "2025-08-31"), ("medio 2025", MARCH, "2025-05-01", "2025-08-31"),
    ("Mitte 2025", MARCH, "2025-05-01", "2025-08-31"), ("2025年半ば", MARCH, "2025-05-01", "2025-08-31"),
    ("late 2025", MARCH, "2025-09-01", "2025-12-31"), ("eind 2025", MARCH, "2025-09-01", "2025-12-31"),
    ("Ende 2025", MARCH, "2025-09-01", "2025-12-31"), ("2025年末", MARCH, "2025-09-01", "2025-12-31"),
    ("early May", MARCH, "2025-05-01", "2025-05-10"), ("begin mei", MARCH, "2025-05-01", "2025-05-10"),
    ("Mitte Mai", MARCH, "2025-05-11", "2025-05-20"), ("5月上旬", MARCH, "2025-05-01", "2025-05-10"),
    ("late May", MARCH, "2025-05-21", "2025-05-31"), ("eind februari", MARCH, "2026-02-21", "2026-02-28"),
    ("Ende Februar", MARCH, "2026-02-21", "2026-02-28"), ("5月下旬", MARCH, "2025-05-21", "2025-05-31"),
    ("at the end of last year", NEW_YEAR, "2025-09-01", "2025-12-31"),
    ("begin dit jaar", MARCH, "2026-01-01", "2026-04-30"), ("今年の初め", MARCH, "2026-01-01", "2026-04-30"),
    ("early last summer", MARCH, "2025-06-01", "2025-06-30"),  # a season's thirds are its months
]))
def test_early_mid_and_late_are_the_first_middle_and_last_third(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("last summer", MARCH, "2025-06-01", "2025-08-31"), ("afgelopen zomer", MARCH, "2025-06-01", "2025-08-31"),
    ("letzten Sommer", MARCH, "2025-06-01", "2025-08-31"), ("去年の夏", MARCH, "2025-06-01", "2025-08-31"),
    # this winter began in December; this summer has not begun, so it is last year's
    ("this winter", MARCH, "2025-12-01", "2026-02-28"), ("deze winter", NEW_YEAR, "2025-12-01", "2026-02-28"),
    ("diesen Winter", NEW_YEAR, "2025-12-01", "2026-02-28"), ("この冬", MARCH, "2025-12-01", "2026-02-28"),
    ("this summer", MARCH, "2025-06-01", "2025-08-31"), ("deze zomer", MARCH, "2025-06-01", "2025-08-31"),
    ("last winter", NEW_YEAR, "2024-12-01", "2025-02-28"), ("vorige winter", MARCH, "2025-12-01", "2026-02-28"),
    ("last autumn", MARCH, "2025-09-01", "2025-11-30"), ("letzten Herbst", MARCH, "2025-09-01", "2025-11-30"),
    ("in the summer of 2024", MARCH, "2024-06-01", "2024-08-31"), ("zomer 2024", MARCH, "2024-06-01", "2024-08-31"),
    ("im Sommer 2024", MARCH, "2024-06-01", "2024-08-31"), ("2024年の夏", MARCH, "2024-06-01", "2024-08-31"),
    ("im Frühling letzten Jahres", MARCH, "2025-03-01", "2025-05-31"),
    ("im Herbst vor einem Jahr", MARCH, "2025-09-01", "2025-11-30"),
]))
def test_seasons_are_their_meteorological_months(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("at Christmas", MARCH, "2025-12-24", "2025-12-26"), ("met Kerst", MARCH, "2025-12-24", "2025-12-26"),
    ("an Weihnachten", NEW_YEAR, "2025-12-24", "2025-12-26"), ("クリスマス", NEW_YEAR, "2025-12-24", "2025-12-26"),
    ("last Christmas", NEW_YEAR, "2025-12-24", "2025-12-26"), ("Christmas 2024", MARCH, "2024-12-24", "2024-12-26"),
    ("Weihnachten 2024", MARCH, "2024-12-24", "2024-12-26"), ("去年のクリスマス", MARCH, "2025-12-24", "2025-12-26"),
    ("New Year's", MARCH, "2025-12-31", "2026-01-03"), ("Oud en Nieuw", MARCH, "2025-12-31", "2026-01-03"),
    ("Silvester", NEW_YEAR, "2025-12-31", "2026-01-03"), ("お正月", NEW_YEAR, "2025-12-31", "2026-01-03"),
    ("Silvester 2024", MARCH, "2024-12-31", "2025-01-03"),  # the year of its December 31st
    ("New Year's Day 2025", MARCH, "2024-12-31", "2025-01-03"),  # the year of its January 1st
]))
def test_christmas_and_new_year_are_the_latest_few_days_of_them(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("before May", MARCH, "2024-05-01", "2025-04-30"), ("voor mei", MARCH, "2024-05-01", "2025-04-30"),
    ("vor Mai", MARCH, "2024-05-01", "2025-04-30"), ("5月より前", MARCH, "2024-05-01", "2025-04-30"),
    ("before March", MARCH, "2025-03-01", "2026-02-28"), ("vor 2025", MARCH, "2024-01-01", "2024-12-31"),
    ("2025年以前", MARCH, "2024-01-01", "2024-12-31"),
    ("since May", MARCH, "2025-05-01", "2026-03-15"), ("sinds mei", MARCH, "2025-05-01", "2026-03-15"),
    ("seit Mai", MARCH, "2025-05-01", "2026-03-15"), ("5月から", MARCH, "2025-05-01", "2026-03-15"),
]))
def test_before_is_the_year_up_to_it_and_since_runs_to_today(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "today", "expected"), check([
    ("on Saturday", MARCH, "2026-03-14", "2026-03-14"), ("zaterdag", MARCH, "2026-03-14", "2026-03-14"),
    ("am Samstag", MARCH, "2026-03-14", "2026-03-14"), ("土曜日", MARCH, "2026-03-14", "2026-03-14"),
    ("on Sunday", MARCH, "2026-03-08", "2026-03-08"), ("zondag", MARCH, "2026-03-08", "2026-03-08"),
    ("am Sonntag", MARCH, "2026-03-08", "2026-03-08"), ("日曜", MARCH, "2026-03-08", "2026-03-08"),
    ("on Monday", NEW_YEAR, "2025-12-29", "2025-12-29"), ("op maandag", NEW_YEAR, "2025-12-29", "2025-12-29"),
    ("am Montag", NEW_YEAR, "2025-12-29", "2025-12-29"), ("月曜日", NEW_YEAR, "2025-12-29", "2025-12-29"),
    ("next Friday", MARCH, "2026-03-20", "2026-03-20"), ("先週の金曜日", MARCH, "2026-03-06", "2026-03-06"),
    ("来週の月曜", MARCH, "2026-03-16", "2026-03-16"),
]))
def test_a_weekday_is_the_latest_such_day_before_today(text, today, expected):
    assert date_span(text, today) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("3 May 2025", span("2025-05-03", "2025-05-03", "3 May 2025")),
    ("May 3, 2025", span("2025-05-03", "2025-05-03", "May 3, 2025")),
    ("on the 3rd of May 2025", span("2025-05-03", "2025-05-03", "on the 3rd of May 2025")),
    ("op 3 mei 2025", span("2025-05-03", "2025-05-03", "op 3 mei 2025")),
    ("am 3. Mai 2025", span("2025-05-03", "2025-05-03", "am 3. Mai 2025")),
    ("03.05.2025", span("2025-05-03", "2025-05-03", "03.05.2025")),
    ("2025-05-03", span("2025-05-03", "2025-05-03", "2025-05-03")),
    ("2025年5月3日", span("2025-05-03", "2025-05-03", "2025年5月3日")),
])
def test_a_full_date_is_that_one_day(text, expected):
    assert date_span(text, MARCH) == expected


@pytest.mark.parametrize("text", [
    "22 October", "op 22 oktober", "am 22. Oktober", "October 22nd", "10月22日",  # a birthday's day and month
    "Her birthday is on 22 October.", "Saturday 22 October", "ゆいの誕生日は4月9日。",
    "every Saturday", "elke zaterdag", "jeden Samstag", "毎週土曜日",  # habits
    "on the last Thursday of the month", "in de winter", "spring boot",
    "may I ask something", "this may take a while", "what does June like", "wat doet Mei",  # names and words
    "user 12025", "<@12025>", "#2025", "v2025", "2024-2025", "snowflake 123456789012345678", "2000 members",
    "in 1985", "in 2101", "the 2000s", "13月", "31 February",
    "", " ", "🎂🎉✨", "x" * 10_000,
])
def test_what_names_no_stretch_of_time_is_no_span(text):
    assert date_span(text, MARCH) is None


def test_long_noise_of_any_characters_is_read_without_error():
    characters = "abcdefghijklmnopqrstuvwxyz ÄÖÜßéİſ0123456789０１２.,:-/@#<>'’年月日前週曜の初末春夏毎十二😀\u0301\n"
    noise = "".join(random.Random(22).choice(characters) for _ in range(10_000))
    for today in (MARCH, NEW_YEAR, date(1, 1, 1), date(9999, 12, 31)):
        found = date_span(noise, today)
        assert found is None or (found.start <= found.end and found.phrase in noise)


def test_an_expression_at_the_end_of_a_long_text_is_found():
    assert date_span("blah " * 2000 + "yesterday", MARCH) == span("2026-03-14", "2026-03-14", "yesterday")


@pytest.mark.parametrize(("text", "expected"), [
    ("yesterday or last week?", span("2026-03-14", "2026-03-14", "yesterday")),
    ("vorige week of gisteren?", span("2026-03-02", "2026-03-08", "vorige week")),
    ("am 22. Oktober, also letztes Jahr", span("2025-01-01", "2025-12-31", "letztes Jahr")),
    ("先週と昨日", span("2026-03-02", "2026-03-08", "先週")),
])
def test_the_first_expression_wins(text, expected):
    assert date_span(text, MARCH) == expected


@pytest.mark.parametrize(("text", "phrase"), [
    ("What happened LAST WEEK in the guild?", "LAST WEEK"),
    ("Wer hat Im Mai gewonnen", "Im Mai"),
    ("what did we do  last   summer", "last   summer"),
    ("Who won the cup in May 2025?", "in May 2025"),
    ("去年の夏のイベントは？", "去年の夏"),
])
def test_the_phrase_is_the_words_exactly_as_written(text, phrase):
    found = date_span(text, MARCH)
    assert found.phrase == phrase and phrase in text
