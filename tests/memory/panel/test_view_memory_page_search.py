"""The memory page searches like the bot: on one server, a search shows the facts of the member it names and the
bot's own search (Best matches) above the list, which stays the prefix search it was."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from memory.configuration.directory import SeenMember, members_seen
from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_retract
from memory.models import Audience, EmbeddingRound, EmbeddingRoundStatus, MemoryType
from memory.panel.search_blocks import MEMBER_FACTS_SHOWN
from tests.conftest import logged_in_client
from tests.factories import make_fact, make_facts_in_bulk

PAGE = reverse("memory:page")
LIST_FRAGMENT = {"HX-Request": "true", "HX-Target": "fact-list"}
PAUL, NOVA, SOMEONE = "222000000000000222", "333000000000000333", "444000000000000444"


def block(page: str, kind: str, nth: int = 0) -> str:
    """The markup of a search block ("best-matches", "member-facts"), the nth of its kind; "" when there is none."""
    starts = [match.start() for match in re.finditer(rf'<section class="card search-block {kind}"', page)]
    if nth >= len(starts):
        return ""
    return page[starts[nth]:page.index("</section>", starts[nth])]


def row_numbers(page: str) -> list[int]:
    """Numbers of the list's rows (the rows of the search blocks have no id: the same fact may be in both)."""
    return [int(number) for number in re.findall(r'<li class="fact[^"]*" id="fact-\d+-(\d+)"', page)]


def numbers_in(markup: str) -> list[int]:
    return [int(number) for number in re.findall(r'class="fact-number" href="[^"]*">#(\d+)</a>', markup)]


def search(user, server, query: str, **params):
    return logged_in_client(user).get(PAGE, {"server": server.guild_id, "q": query, **params}, headers=LIST_FRAGMENT)


@pytest.fixture
def birthdays(server):
    """A fact the prefix search misses for "birthday paul" (it says "birthdays"), and one it finds."""
    return {
        "paul": make_fact(server, key="celebrations", content="Paul's birthdays are celebrated in October."),
        "raid": make_fact(server, key="raid_day", content="Raids start at 8 pm on Fridays."),
    }


# Who sees the blocks ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["member", "moderator", "owner"])
def test_every_role_of_the_team_sees_best_matches(request, server, birthdays, role):
    response = search(request.getfixturevalue(role), server, "birthday paul")
    assert response.status_code == 200
    assert numbers_in(block(response.content.decode(), "best-matches")) == [birthdays["paul"].number]


def test_an_anonymous_visitor_is_sent_to_the_login_page(client, server, birthdays):
    response = client.get(PAGE, {"server": server.guild_id, "q": "birthday paul"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_another_team_s_member_sees_nothing_of_our_server(outsider, server, birthdays):
    """The memory page is not bound to one server: our guild id in the address shows the outsider their own list."""
    members_seen(server=server, members=[SeenMember(PAUL, "Paul")])
    make_fact(server, key="pet", content="Paul has a cat.", scope="member", member_id=PAUL)
    for query in ("birthday paul", "Paul", PAUL):
        response = search(outsider, server, query)
        page = response.content.decode()
        assert response.status_code == 200 and response.context["chosen_server"] is None
        assert "search-block" not in page and "celebrated in October" not in page and "has a cat" not in page


# Best matches -------------------------------------------------------------------------------------------------------


def test_a_query_whose_words_a_fact_holds_in_another_form_ranks_it_in_best_matches(member, server, birthdays):
    best = block(search(member, server, "birthday paul").content.decode(), "best-matches")
    assert numbers_in(best) == [birthdays["paul"].number]  # BM25 in English: "birthdays" and "Paul's" stemmed
    assert "As the bot finds them (words, ranked)" in best and "Facts every channel may see" in best


def test_a_staff_fact_is_in_the_list_but_not_in_best_matches(member, owner, server, birthdays):
    staff = make_fact(server, key="surprise", content="Paul's birthday surprise is planned for October.",
                      author=FactAuthor.staff(owner), audience=Audience.STAFF)
    page = search(member, server, "birthday").content.decode()
    best = numbers_in(block(page, "best-matches"))
    assert birthdays["paul"].number in best and staff.number not in best
    assert staff.number in row_numbers(page)


def test_best_matches_shows_each_fact_once_and_the_list_below_is_unchanged(member, server):
    facts = [make_fact(server, key=f"raid_{index}", content=f"Raid {index} starts at eight.") for index in range(12)]
    page = search(member, server, "raid").content.decode()
    best = numbers_in(block(page, "best-matches"))
    assert len(best) == len(set(best)) == 10
    assert sorted(row_numbers(page)) == sorted(fact.number for fact in facts)


def test_a_retracted_fact_is_never_a_best_match(member, server, birthdays):
    fact_retract(fact=birthdays["paul"], reason="moved")
    assert block(search(member, server, "birthday paul").content.decode(), "best-matches") == ""


@pytest.mark.parametrize("query", ["x" * 600, "\x00", "zep\x00pelin", "?!…—", "'\"<>&;-- /*", "%_\\"],
                         ids=["600 characters", "NUL", "NUL inside", "punctuation", "quotes and SQL", "LIKE signs"])
def test_a_bad_or_huge_query_answers_with_no_best_matches(member, server, birthdays, query):
    members_seen(server=server, members=[SeenMember(PAUL, "Paul")])
    response = search(member, server, query)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Best matches" not in page and "Facts about" not in page and "Traceback" not in page


def test_the_all_servers_list_an_empty_query_and_the_retracted_tab_have_no_blocks(member, server, birthdays):
    fact_retract(fact=make_fact(server, key="old", content="An old birthday rule."), reason="stale")
    client = logged_in_client(member)
    for params in ({"q": "birthday paul"}, {"server": server.guild_id, "q": ""},
                   {"server": server.guild_id, "q": "  "},
                   {"server": server.guild_id, "q": "birthday paul", "state": "retracted"}):
        page = client.get(PAGE, params, headers=LIST_FRAGMENT).content.decode()
        assert "search-block" not in page, params


def test_the_full_page_shows_the_blocks_too(member, server, birthdays):
    page = logged_in_client(member).get(PAGE, {"server": server.guild_id, "q": "birthday paul"}).content.decode()
    assert "<html" in page
    assert numbers_in(block(page, "best-matches")) == [birthdays["paul"].number]


def test_the_blocks_stand_above_the_list_inside_the_fragment_search_as_you_type_swaps(member, server, birthdays):
    members_seen(server=server, members=[SeenMember(PAUL, "Paul")])
    page = search(member, server, "paul").content.decode()
    assert page.lstrip().startswith('<section id="fact-list"')
    assert page.index("Facts about") < page.index("Best matches") < page.index('id="fact-rows"')


# A member's facts ---------------------------------------------------------------------------------------------------


@pytest.fixture
def pauls_facts(server):
    members_seen(server=server, members=[SeenMember(PAUL, "Paul"), SeenMember(NOVA, "Nova")])
    retracted = make_fact(server, key="old_pet", content="Paul had a hamster.", scope="member", member_id=PAUL)
    fact_retract(fact=retracted, reason="gone")
    return {
        "about": make_fact(server, key="pet", content="Paul has a cat called Miso.", scope="member", member_id=PAUL),
        "taught": make_fact(server, key="raid_day", content="Raids are on Thursdays.",
                            author=FactAuthor.bot(PAUL)),
        "staff": make_fact(server, key="watch", content="Keep an eye on Paul's links.", scope="member",
                           member_id=PAUL, author=FactAuthor.bot(SOMEONE), audience=Audience.STAFF),
        "other": make_fact(server, key="theme", content="The server is about retro gaming.",
                           author=FactAuthor.bot(SOMEONE)),
        "nova": make_fact(server, key="nova_pet", content="Nova has a dog.", scope="member", member_id=NOVA,
                          author=FactAuthor.bot(SOMEONE)),
    }


def test_a_member_id_lists_the_facts_about_them_and_learned_from_them(member, server, pauls_facts):
    page = search(member, server, PAUL).content.decode()
    about = block(page, "member-facts")
    assert f"Facts about <bdi>Paul</bdi> <span class=\"nowrap\">({PAUL})</span>" in about
    assert sorted(numbers_in(about)) == sorted(pauls_facts[name].number for name in ("about", "taught", "staff"))
    assert "3 facts in force" in about
    assert block(page, "member-facts", 1) == ""


@pytest.mark.parametrize("typed", ["Paul", "paul", "PAU", " pau "])
def test_a_member_s_name_or_its_first_letters_list_their_facts(member, server, pauls_facts, typed):
    about = block(search(member, server, typed).content.decode(), "member-facts")
    assert f"({PAUL})" in about
    assert pauls_facts["about"].number in numbers_in(about) and pauls_facts["nova"].number not in numbers_in(about)


def test_two_letters_name_a_member_only_as_a_whole_name(member, server, pauls_facts):
    members_seen(server=server, members=[SeenMember(SOMEONE, "Al")])
    assert block(search(member, server, "pa").content.decode(), "member-facts") == ""
    assert f"({SOMEONE})" in block(search(member, server, "al").content.decode(), "member-facts")


def test_several_members_of_that_name_get_a_block_each_at_most_three_whole_name_first(member, server):
    names = {"500000000000000001": "Paulette", "500000000000000002": "Paula", "500000000000000003": "Paul",
             "500000000000000004": "Pauline"}
    members_seen(server=server, members=[SeenMember(member_id, name) for member_id, name in names.items()])
    page = search(member, server, "paul").content.decode()
    headings = re.findall(r"Facts about <bdi>(\w+)</bdi>", page)
    assert headings == ["Paul", "Paula", "Paulette"]
    assert "No fact in force is about this member" in block(page, "member-facts")
    assert "More members’ names start with “paul”" in page


def test_an_id_nobody_knows_shows_no_member_block(member, server, pauls_facts):
    assert "Facts about" not in search(member, server, "123456789012345678").content.decode()


def test_an_id_outside_the_directory_with_facts_is_named_by_its_id(member, server):
    fact = make_fact(server, key="pet", content="Someone has a parrot.", scope="member", member_id=SOMEONE)
    about = block(search(member, server, SOMEONE).content.decode(), "member-facts")
    assert f"Facts about member {SOMEONE}" in about and numbers_in(about) == [fact.number]


def test_a_member_with_many_facts_shows_the_newest_fifty_and_how_many_there_are(member, server):
    members_seen(server=server, members=[SeenMember(NOVA, "Nova")])
    bulk = make_facts_in_bulk(server, 60, scope="member", member_id=NOVA, key="nova_note", content="Nova said {n}.")
    about = block(search(member, server, "nova").content.decode(), "member-facts")
    assert f"{MEMBER_FACTS_SHOWN} of 60, newest first" in about
    assert numbers_in(about) == [fact.number for fact in bulk[:MEMBER_FACTS_SHOWN]]  # bulk: newest first


def test_a_member_block_counts_a_fact_both_about_and_learned_from_them_once(member, server):
    members_seen(server=server, members=[SeenMember(NOVA, "Nova")])
    make_facts_in_bulk(server, 55, scope="member", member_id=NOVA, learned_from_member_id=NOVA, author_kind="bot",
                       key="nova_note", content="Nova said {n}.")
    about = block(search(member, server, NOVA).content.decode(), "member-facts")
    assert f"{MEMBER_FACTS_SHOWN} of 55, newest first" in about
    assert len(set(numbers_in(about))) == MEMBER_FACTS_SHOWN


# On a Semantic server -----------------------------------------------------------------------------------------------

STUDIO_FACTS = [
    ("tip_headroom", "Leave at least 6 dB of headroom on the master bus before sending a track to mastering."),
    ("server_theme", "Synth Lab is a community for synthesizer enthusiasts and electronic music producers."),
    ("language", "Synth Lab's main language is English."),
    ("bot_tone", "The bot should be precise and technical, like a patient studio engineer."),
    ("rule_no_cracked_software", "Sharing cracked plugins or copyrighted sample packs is not allowed."),
    ("channel_patches", "#patches is for sharing presets and patch notes for hardware and software synths."),
    ("beat_battle", "A monthly beat battle runs in #challenges, with the sample kit posted on the first Monday."),
    ("term_subtractive", "'Subtractive' refers to synthesis that shapes a harmonically rich oscillator with filters."),
    ("raid_day", "Listening parties are on Thursdays at nine."),
    ("pets", "Mira keeps a rescue ferret called Biscuit."),
    ("mods", "Alex and Nova moderate the server."),
    ("meetup", "The yearly meetup is in Utrecht."),
]


@pytest.fixture
def semantic(server, owner, django_capture_on_commit_callbacks):
    """Twelve studio facts under Semantic with the built-in model: the catch-up round ran (eager worker)."""
    facts = {key: make_fact(server, key=key, content=content) for key, content in STUDIO_FACTS}
    with django_capture_on_commit_callbacks(execute=True):
        memory_type_set(server=server, actor=owner, memory_type=MemoryType.SEMANTIC)
    assert EmbeddingRound.objects.get(server=server).status == EmbeddingRoundStatus.FINISHED
    return facts


def test_on_a_semantic_server_a_new_user_s_question_finds_the_headroom_advice(member, server, semantic):
    page = search(member, server, "how loud should my master be").content.decode()
    best = block(page, "best-matches")
    assert semantic["tip_headroom"].number in numbers_in(best)
    assert numbers_in(best)[0] == semantic["tip_headroom"].number
    assert "As the bot finds them (words and meaning)" in best
    assert row_numbers(page) == []  # the prefix search alone found nothing


def test_on_a_semantic_server_words_alone_say_why(member, server, semantic):
    EmbeddingRound.objects.filter(server=server).update(status=EmbeddingRoundStatus.RUNNING, done=3)
    best = block(search(member, server, "headroom on the master bus").content.decode(), "best-matches")
    assert numbers_in(best)[0] == semantic["tip_headroom"].number
    assert "As the bot finds them (words, ranked): meaning was not used because " in best
    assert "catch-up round has not finished" in best


def test_on_a_semantic_server_punctuation_finds_no_nearest_facts(member, server, semantic):
    response = search(member, server, "?!")
    assert response.status_code == 200 and "Best matches" not in response.content.decode()
