"""Messages in players' words: the regulations' citations stay in the log and on the operator's
screens, not on the players' table (issue 12, item 5).

The engine names the rule behind every refusal ("a seat may wager on at most 3
spots (MD Ch. 7 E)"); that is what an inspector reads in the log. A player
reads "a seat may wager on at most 3 spots".
"""

from __future__ import annotations

import re

_CITATION = r"(?:MD Ch\.|58 Pa\. Code|Pa\. Code|PA 2011|S\.D\. Admin\.|S\.D\.|SPEC §)"
_BODY = r"[^()]*(?:\([^()]*\)[^()]*)*"  # one level of nested brackets: "Ch. 7 F(2)"
_WHOLE = re.compile(rf"\s*\({_CITATION}{_BODY}\)")
_TAIL = re.compile(rf",\s*{_CITATION}{_BODY}(?=\))")


def players_words(message: str) -> str:
    """``message`` without its citations: a bracket that is only a citation goes, and a
    citation closing a bracket with other words in it leaves those words."""
    return _WHOLE.sub("", _TAIL.sub("", message)).strip()
