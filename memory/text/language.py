"""Which language a server writes, from its texts (its newest facts and messages): the languages its words index may
be in, and a detection that goes by script first, then by the short function words of each Latin-script language.

The script says most: kana is Japanese, Hangul Korean, Thai Thai, Han without kana Chinese, Cyrillic Russian. Latin
letters are told apart by words every sentence has and names never are ("the", "het", "und", "est"). Only a clear
lead counts: too little text, or two languages close together (a bilingual server), give None, and the server
keeps the language it has.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Language:
    code: str
    label: str  # the name shown to staff, in their language (marked for translation, lazily)
    config: str  # the PostgreSQL text search configuration ("simple" where PostgreSQL has no stemmer)
    spaceless: bool = False  # written without spaces between words: the search uses character pairs


# English first, then by label (the order of the staff's select). Configurations are PostgreSQL 15's.
LANGUAGES: dict[str, Language] = {language.code: language for language in (
    Language("en", _("English"), "english"), Language("ar", _("Arabic"), "arabic"),
    Language("zh", _("Chinese"), "simple", spaceless=True), Language("da", _("Danish"), "danish"),
    Language("nl", _("Dutch"), "dutch"), Language("fi", _("Finnish"), "finnish"), Language("fr", _("French"), "french"),
    Language("de", _("German"), "german"), Language("el", _("Greek"), "greek"), Language("he", _("Hebrew"), "simple"),
    Language("hi", _("Hindi"), "hindi"), Language("hu", _("Hungarian"), "hungarian"),
    Language("id", _("Indonesian"), "indonesian"), Language("it", _("Italian"), "italian"),
    Language("ja", _("Japanese"), "simple", spaceless=True), Language("ko", _("Korean"), "simple"),
    Language("no", _("Norwegian"), "norwegian"), Language("pl", _("Polish"), "simple"),
    Language("pt", _("Portuguese"), "portuguese"), Language("ru", _("Russian"), "russian"),
    Language("es", _("Spanish"), "spanish"), Language("sv", _("Swedish"), "swedish"),
    Language("th", _("Thai"), "simple", spaceless=True), Language("tr", _("Turkish"), "turkish"))}

# Frequent function words per Latin-script language. A word of two or more lists (de, en, is, die) shows that a
# language is written but not which; only words of one list decide between them.
_FUNCTION_WORDS = {
    "en": "the and is are was were of to it that this with for you not have has what but they be we i my he she "
          "his her will can there when who how just do does don",
    "nl": "de het een en is niet ik je dat van op met voor zijn maar wat er ook nog naar wel geen hij we deze die ze "
          "om bij al heb hebben kan wordt worden dan als mijn jij heeft zo",
    "de": "der die das und ist nicht ich du ein eine zu mit auf für sich auch es wir sie den dem aber noch wie wenn "
          "oder von im mal schon hat haben kann wird werden dass mein bin sind nur",
    "fr": "le la les et est un une des du pas je tu il elle que qui pour dans sur avec ce mais nous vous au ne sont "
          "très aussi on c j qu ça être avoir cette",
    "es": "el la los las y es un una que no de en por para con lo se pero muy está como del al yo su más también "
          "hay esta este tiene son eso qué cuando porque",
    "it": "il la lo gli le e è un una che non di per con sono ma io mi ci questo anche della del nel come più cosa "
          "perché sei ho ha hai essere molto quando alla",
    "pt": "o a os as e é um uma que não de em para com por mas eu você do da no na isso muito também está são mais "
          "dos das ele ela tem foi ao seu",
    "sv": "och att det är jag inte en ett på med för som har vi men till om den du var kan så av också nu här vad "
          "mig dig hur när eller från skulle bara mycket detta",
    "da": "og at det er jeg ikke en et på med for som har vi men til om den du var kan så af også nu her hvad mig "
          "dig hvor når eller fra skal bare meget noget nogle være",
    "no": "og at det er jeg ikke en et på med for som har vi men til om den du var kan så av også nå her hva meg "
          "deg hvor når eller fra skal bare veldig noe noen nei være ikkje",
    "fi": "ja on ei se että hän minä olen oli mutta kun niin tämä myös jo vain nyt mitä sinä me he ovat kuin mikä "
          "jos tai kanssa sitä ole",
    "pl": "i w z na nie się to jest że do jak co ale tak jestem o ja ty po dla czy już tylko jeszcze bardzo są był "
          "była mnie jego",
    "tr": "ve bir bu da de için ile ne çok ama ben sen o var yok gibi daha mı mi değil evet şimdi her ki olarak "
          "olan kadar sonra çünkü",
    "id": "dan yang di ini itu dengan untuk tidak ada saya kamu dari ke akan juga sudah bisa kita mereka atau "
          "karena jadi lagi apa belum sangat",
    "hu": "a az és hogy nem egy is van meg de ez azt már csak mint még volt vagy ha mert én te nagyon akkor itt"}
_PROFILES = {code: set(words.split()) for code, words in _FUNCTION_WORDS.items()}
_LANGUAGES_OF_WORD = {word: {code for code, other in _PROFILES.items() if word in other}
                      for profile in _PROFILES.values() for word in profile}
_DECIDING_WORD = {word: next(iter(codes)) for word, codes in _LANGUAGES_OF_WORD.items() if len(codes) == 1}

# Letters by script beyond ASCII, and about how many of them make a word (CJK words are one to three characters).
_SCRIPTS = {
    "latin": ("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]+", 5), "cyrillic": ("[\u0400-\u04ff]+", 5),
    "greek": ("[\u0370-\u03ff]+", 5), "arabic": ("[\u0600-\u06ff]+", 4), "hebrew": ("[\u0590-\u05ff]+", 4),
    "devanagari": ("[\u0900-\u097f]+", 4), "thai": ("[\u0e00-\u0e7f]+", 4),
    "hangul": ("[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+", 2.5),
    "cjk": ("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+", 2)}
_SCRIPT_RUNS = {script: re.compile(letters) for script, (letters, _per_word) in _SCRIPTS.items()}
_LANGUAGE_OF_SCRIPT = {"cyrillic": "ru", "greek": "el", "arabic": "ar", "hebrew": "he", "devanagari": "hi",
                       "thai": "th", "hangul": "ko"}
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_ASCII_NOT_LETTERS = bytes(code for code in range(128) if not chr(code).isalpha())
_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]+")

# What is no one's language: links, Discord mentions, channels, custom emoji and timestamps, @handles, :shortcodes:
# and code.
_NOT_LANGUAGE = re.compile(r"https?://\S+|www\.\S+|<(?:@[!&]?\d+|#\d+|a?:\w+:\d+|t:\d+(?::\w)?)>|@\w+|:\w+:"
                           r"|```.*?```|`[^`]*`", re.DOTALL)
_WORD = re.compile(r"[^\W\d_]+")

MIN_WORDS = 20  # fewer recognised words (or words' worth of a script) than this tell nothing
LEAD = 1.5  # how far the first script must be ahead of the second
DECIDING_LEAD = 2.0  # and the first Latin-script language ahead of the second, in the words only it has
MIN_DECIDING = 5  # and at least this many of those


def _language_by_words(text: str) -> str | None:
    """The Latin-script language whose function words lead clearly, None when too few are found or two are close.
    Only words written in lower case count: a capitalised one may be a name ("Van", "Den", "Will"), and a
    sentence's first word is one word of many."""
    word_counts = Counter(_WORD.findall(text))
    recognised = sum(count for word, count in word_counts.items() if word in _LANGUAGES_OF_WORD)
    deciding = Counter()
    for word, count in word_counts.items():
        if word in _DECIDING_WORD:
            deciding[_DECIDING_WORD[word]] += count
    (first, first_count), (_second, second_count) = (deciding.most_common(2) + [("", 0), ("", 0)])[:2]
    if recognised < MIN_WORDS or first_count < MIN_DECIDING or first_count < DECIDING_LEAD * second_count:
        return None
    return first


def detect_language(texts: Iterable[str]) -> str | None:
    """The code (a LANGUAGES key) of the language `texts` are written in; None when they are too few to tell or two
    languages are close. A few thousand short texts take some milliseconds."""
    text = "\n".join(_NOT_LANGUAGE.sub(" ", unicodedata.normalize("NFC", text)) for text in texts if text)
    beyond_ascii = "".join(_NON_ASCII.findall(text))  # the scripts are counted there: most text is ASCII
    letters = {script: sum(map(len, runs.findall(beyond_ascii))) for script, runs in _SCRIPT_RUNS.items()}
    letters["latin"] += len(text.encode("ascii", "ignore").translate(None, _ASCII_NOT_LETTERS))  # bytes: fast
    ranked_scripts = sorted(((count / _SCRIPTS[script][1], script) for script, count in letters.items()),
                            reverse=True)
    (first_words, first), (second_words, _second) = ranked_scripts[0], ranked_scripts[1]
    if first_words == 0 or first_words < LEAD * second_words:
        return None
    if first == "latin":
        return _language_by_words(text)
    if first_words < MIN_WORDS:
        return None
    if first == "cjk":  # Japanese writes kana between its Han characters; Chinese writes none
        return "ja" if sum(map(len, _KANA.findall(beyond_ascii))) >= 0.05 * letters["cjk"] else "zh"
    return _LANGUAGE_OF_SCRIPT[first]
