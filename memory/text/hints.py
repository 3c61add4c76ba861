"""Nudges shown while staff type a fact: keep it short, and never store secrets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .limits import CONTENT_MAX_LENGTH

SHORT_ENOUGH = 200

# Shapes of credentials and private data that should never become bot memory.
SECRET_PATTERNS = [
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), "an API key"),
    (re.compile(r"\b(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{20,}"), "a GitHub token"),
    (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), "a Slack token"),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), "an AWS access key"),
    (re.compile(r"\b[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}\b"), "a Discord bot token"),
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"), "a private key"),
    (re.compile(r"\b(?:password|passwd|pwd|passcode|wachtwoord|passwort|パスワード)\b\s*(?:is|:|=)\s*\S+", re.I),
     "a password"),
    (re.compile(r"\b(?:api[_ -]?key|secret|token)\b\s*(?:is|:|=)\s*\S{8,}", re.I), "a secret"),
    (re.compile(r"\b(?:\d[ -]?){13,19}\b"), "a card number"),
    # Private data about someone: the panel warns (SPEC: "secrets, passwords, tokens or private data").
    (re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"), "an email address"),
    # International (+31 6 1234 5678) or national with a leading 0 (06-12345678); not dates or times.
    (re.compile(r"(?<![\w+])(?:\+\d[\d ()-]{7,}\d|0\d{1,4}[ -]?\d{3,}(?:[ -]?\d{2,})*)\b"), "a phone number"),
]


# Text that talks to the bot instead of about the community: stored and shown to the model as quoted
# data (memory.bot.prompt), flagged on the memory page, and kept out of the summary a round drafts.
INSTRUCTION_PATTERNS = [
    re.compile(r"\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|your|the)\b"
               r"[^.\n]{0,20}\b(?:instructions?|rules?|prompts?|messages?|guidelines?)\b", re.I),
    re.compile(r"\b(?:system|developer)\s+(?:prompt|message|instructions?)\b", re.I),
    re.compile(r"\byou\s+(?:are|will)\s+now\b|\bfrom\s+now\s+on\s+you\b|\bact\s+as\s+(?:if|an?|the)\b", re.I),
    re.compile(r"\b(?:always|never)\s+(?:reply|respond|answer|say|tell|reveal)\b", re.I),
    re.compile(r"</?\s*(?:memory|system|assistant|instructions?)\s*>", re.I),
    re.compile(r"\bnew\s+instructions?\s*:", re.I),
]


# Words each pattern above cannot match without (one of them, in lower case). Every context checks
# every fact it shows; most facts hold none of these words, and looking for them costs a twentieth of
# running the six patterns.
_INSTRUCTION_WORDS = [
    ("ignore", "disregard", "forget", "override"),
    ("system", "developer"),
    ("now", "act"),
    ("always", "never"),
    ("<",),
    ("new",),
]


def looks_like_instructions(text: str) -> bool:
    """True for text phrased as orders to the bot ("ignore previous instructions and …")."""
    if not text.isascii():
        # Case-insensitive matching folds some other letters onto ASCII ones (ſ is s, K is k, İ is i):
        # only ASCII text can be ruled out by its lower-case words.
        return any(pattern.search(text) for pattern in INSTRUCTION_PATTERNS)
    lowered = text.lower()
    return any(
        any(word in lowered for word in words) and pattern.search(text)
        for words, pattern in zip(_INSTRUCTION_WORDS, INSTRUCTION_PATTERNS, strict=True)
    )


@dataclass(frozen=True)
class ContentHint:
    length: int
    limit: int
    is_short: bool
    is_too_long: bool
    secret_kind: str | None


def content_hint(content: str) -> ContentHint:
    text = content.strip()
    secret_kind = next((kind for pattern, kind in SECRET_PATTERNS if pattern.search(text)), None)
    return ContentHint(
        length=len(text),
        limit=CONTENT_MAX_LENGTH,
        is_short=len(text) <= SHORT_ENOUGH,
        is_too_long=len(text) > CONTENT_MAX_LENGTH,
        secret_kind=secret_kind,
    )
