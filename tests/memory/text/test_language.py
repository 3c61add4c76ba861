"""Which language a server writes (memory.text.language): real-looking messages in English, Dutch, German, French,
Japanese, Chinese and Korean told apart, mixed with names, emoji, mentions and links that count for nothing; None for
too little text and for two languages side by side; and the languages offered with their search configuration."""

from __future__ import annotations

import pytest

from memory.text.language import LANGUAGES, Language, detect_language

MESSAGES = {
    "en": ["The raid starts at nine, don't be late.", "I think the new map is better than the old one.",
           "What time is the tournament on Saturday?", "We have a new moderator, say hi to <@123456789012345678>!",
           "Mira won the art contest with her dragon 🐉", "Can someone check if the bot is still running?",
           "They moved hunt night to Friday because of the holidays.", "It was a great stream, thanks for coming!"],
    "nl": ["De raid begint om negen uur, kom niet te laat.", "Ik vind de nieuwe map beter dan de oude.",
           "Hoe laat is het toernooi op zaterdag?",
           "We hebben een nieuwe moderator, zeg hoi tegen <@123456789012345678>!",
           "Lotte heeft de tekenwedstrijd gewonnen met haar draak 🐉", "Kan iemand kijken of de bot nog draait?",
           "Ze hebben de spelavond naar vrijdag verplaatst vanwege de feestdagen.",
           "Het was een leuke stream, bedankt dat jullie er waren!"],
    "de": ["Der Raid beginnt um neun, sei nicht zu spät.", "Ich finde die neue Karte besser als die alte.",
           "Wann ist das Turnier am Samstag?", "Wir haben einen neuen Moderator, sagt hallo zu <@123456789012345678>!",
           "Felix hat den Zeichenwettbewerb mit seinem Drachen gewonnen 🐉",
           "Kann jemand schauen, ob der Bot noch läuft?",
           "Sie haben den Spieleabend wegen der Feiertage auf Freitag verschoben.",
           "Es war ein toller Stream, danke dass ihr da wart!"],
    "fr": ["Le raid commence à neuf heures, ne sois pas en retard.",
           "Je trouve que la nouvelle carte est meilleure que l'ancienne.", "À quelle heure est le tournoi samedi ?",
           "Nous avons un nouveau modérateur, dites bonjour à <@123456789012345678> !",
           "Camille a gagné le concours de dessin avec son dragon 🐉",
           "Quelqu'un peut vérifier si le bot tourne encore ?",
           "Ils ont déplacé la soirée jeux au vendredi à cause des fêtes.",
           "C'était un super stream, merci d'être venus !"],
    "ja": ["レイドは9時から始まるので遅れないでね。", "新しいマップの方が前のより好き。", "土曜日の大会は何時から？",
           "新しいモデレーターが来たよ、<@123456789012345678>によろしく！", "ゆいがドラゴンの絵でお絵描き大会に優勝した🐉",
           "誰かボットがまだ動いてるか確認できる？", "祝日があるからゲームナイトは金曜日に移動しました。",
           "楽しい配信だった、来てくれてありがとう！"],
    "zh": ["突袭九点开始，别迟到。", "我觉得新地图比旧的好。", "星期六的比赛几点开始？",
           "我们有一位新的管理员，跟<@123456789012345678>打个招呼吧！", "小明用他的龙赢得了绘画比赛🐉",
           "有人能看看机器人还在运行吗？", "因为假期，他们把游戏之夜改到了星期五。", "直播很精彩，谢谢大家来看！"],
    "ko": ["레이드는 아홉 시에 시작하니까 늦지 마세요.", "새 맵이 예전 맵보다 더 좋은 것 같아요.", "토요일 대회는 몇 시에 시작해요?",
           "새로운 관리자가 왔어요, <@123456789012345678>에게 인사해 주세요!", "지민이 용 그림으로 그림 대회에서 우승했어요 🐉",
           "봇이 아직 돌아가는지 누가 확인해 줄 수 있나요?", "휴일 때문에 게임의 밤을 금요일로 옮겼어요.",
           "즐거운 방송이었어요, 와 주셔서 감사합니다!"],
}
# What a server's texts hold besides its language: names, emoji, mentions, custom emoji, links, code.
NOISE = ["Mira", "Van Halen", "Den Haag", "Will", "@everyone", "<:pog:112233445566778899>", "🎉🎉🎉", "<#998877665544>",
         "https://example.com/the-and-is-was/de-het-een", ":thumbsup:", "`git push --force`", "<t:1767225600:R>"]


@pytest.mark.parametrize("code", MESSAGES)
def test_a_servers_messages_are_told_by_their_language(code):
    assert detect_language(MESSAGES[code] * 3) == code


@pytest.mark.parametrize("code", MESSAGES)
def test_names_emoji_mentions_and_links_change_nothing(code):
    assert detect_language(NOISE * 10 + MESSAGES[code] * 3 + NOISE * 10) == code


def test_english_messages_that_mention_dutch_names_stay_english():
    names = ["Sanne van den Berg", "Daan de Vries", "Het Wapen van Delft", "Joost van Dijk", "Anouk de Jong"]
    assert detect_language(MESSAGES["en"] * 3 + names * 5) == "en"


def test_a_dutch_server_with_some_english_is_dutch():
    assert detect_language(MESSAGES["nl"] * 4 + MESSAGES["en"]) == "nl"


def test_kana_between_the_han_characters_is_japanese_and_han_alone_chinese():
    assert detect_language(["今日は新しいマップで遊びました。"] * 10) == "ja"
    assert detect_language(["今天我们在新地图上玩了。"] * 10) == "zh"


@pytest.mark.parametrize("texts", [
    [], [""], ["Hello there", "ok"], ["De raid begint om negen uur."], ["こんにちは"], ["안녕하세요"],
    NOISE * 20, ["lol", "gg", "😂", "+1", "Mira", "Tomasz"] * 30,
], ids=["nothing", "empty", "two words", "one sentence", "a Japanese greeting", "a Korean greeting", "noise",
        "chat without words"])
def test_too_little_text_tells_nothing(texts):
    assert detect_language(texts) is None


@pytest.mark.parametrize(("first", "second"), [("en", "nl"), ("en", "de"), ("nl", "de"), ("en", "ja"), ("ja", "ko")])
def test_two_languages_side_by_side_are_a_tie(first, second):
    assert detect_language((MESSAGES[first] + MESSAGES[second]) * 3) is None


def test_the_answer_is_always_an_offered_language():
    for texts in [*MESSAGES.values(), ["Привет, турнир в субботу, не опаздывайте, пожалуйста, друзья мои."] * 5,
                  ["การแข่งขันจะมีขึ้นในวันเสาร์ อย่ามาสาย ฉันคิดว่าแผนที่ใหม่ดีกว่าแผนที่เก่า"] * 5]:
        assert detect_language(texts * 3) in LANGUAGES


def test_a_few_thousand_messages_are_read_at_once():
    texts = [message + " 🎮" for message in MESSAGES["de"]] * 400
    assert detect_language(texts) == "de"


def test_english_comes_first_and_every_language_has_its_configuration():
    assert next(iter(LANGUAGES)) == "en"
    assert all(code == language.code and language.label for code, language in LANGUAGES.items())
    assert LANGUAGES["nl"] == Language("nl", "Dutch", "dutch")
    assert LANGUAGES["de"].config == "german" and LANGUAGES["fr"].config == "french"
    assert LANGUAGES["ru"].config == "russian" and not LANGUAGES["ru"].spaceless
    assert {code for code, language in LANGUAGES.items() if language.spaceless} == {"ja", "zh", "th"}
    assert all(LANGUAGES[code].config == "simple" for code in ("ja", "zh", "ko", "th"))
