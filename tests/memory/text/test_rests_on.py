"""A reply model's `remember` is held to the learning run's rule (issue 23): a fact rests on what members said when
most of its content words and every value it gives are in their messages. Labelled wordings in four languages: a
paraphrase or a summary rests; a made-up claim, the bot's own idea or a changed date does not."""

from __future__ import annotations

import pytest

from memory.text.statements import rests_on

RESTS = [
    ("Paul plays the cello.", ["Paul", "I play the cello in an orchestra"]),
    ("Paul's favourite game is Tetris.", ["Paul", "my favourite game? Tetris, obviously"]),
    ("Game night is every Friday at 8 pm.", ["Mira", "heads up: game night every friday, 8 pm"]),
    ("Mira is van plan naar Utrecht te verhuizen.", ["Ik ben van plan om naar Utrecht te verhuizen"]),
    ("Tom's cat is called Miso.", ["my cat Miso knocked over my coffee again"]),
    ("Sakura works as a nurse.", ["I work as a nurse, night shifts mostly"]),
    ("Lotte speelt gitaar in een band.", ["Lotte", "ik speel gitaar in een band"]),
    ("Felix wohnt in Köln.", ["Felix", "Ich wohne seit März in Köln"]),
    ("Felix hat am 12 März Geburtstag.", ["Felix", "mein Geburtstag ist am 12 März"]),
    ("ゆいは寿司が好き", ["ゆい", "私は寿司が大好きです"]),
    ("Paul's birthday is 3 May.", ["Paul", "my birthday is on 3 May"]),
]
DOES_NOT = [
    ("Paul plays the cello.", ["Paul", "what should I play tonight?"]),  # the model's guess
    ("Paul's birthday is 4 May.", ["Paul", "my birthday is on 3 May"]),  # a changed date
    ("The server rule is no spoilers.", ["Paul", "I loved the finale of that show"]),  # the bot's own idea
    ("Mira is a moderator of the server.", ["Mira", "hi everyone, I'm new here"]),
    ("Lotte woont in Amsterdam.", ["Lotte", "ik speel gitaar in een band"]),
    ("Tom's cat is called Miso.", ["I had miso soup for lunch"]),
    ("Anna is a teacher.", ["please just call me Ann"]),
    ("Paul wants to become a pilot.", ["I watched a documentary about planes"]),
    ("Felix mag keine Pilze.", ["Felix", "Ich wohne seit März in Köln"]),
    ("ゆいは猫を飼っている", ["ゆい", "私は寿司が大好きです"]),
    ("", ["Paul", "anything"]),
]


NAMES = ["Paul", "Mira", "Lotte", "Felix", "ゆい", "Tom", "Sakura", "Anna"]


@pytest.mark.parametrize("content, said", RESTS)
def test_a_paraphrase_of_what_a_member_said_rests_on_it(content, said):
    assert rests_on(content, said, NAMES)


@pytest.mark.parametrize("content, said", DOES_NOT)
def test_a_claim_no_member_made_does_not(content, said):
    assert not rests_on(content, said, NAMES)


def test_the_members_name_alone_is_not_what_a_fact_says():
    assert not rests_on("Paul is a pilot.", ["Paul here!"], ["Paul"])
    assert rests_on("Paul is a pilot.", ["Paul here! I'm a pilot"], ["Paul"])
