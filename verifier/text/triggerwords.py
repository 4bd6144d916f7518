"""The triggers list: words people use for common properties beyond the properties' own labels, how far from a
value they count, and the time or place that may stand inside a phrase ending in a particle ("published in 1928 by")
(read by triggers.py, links.py and the readers of words.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kgcheck.verifier.text.stems import PREPOSITIONS

# Words people use for common properties, beyond the properties' own labels and aliases.
TRIGGERS = {
    "P569": ("born", "birth"), "P19": ("born", "birthplace", "native of"), "P570": ("died", "death", "passed away"),
    "P20": ("died", "death"), "P571": ("founded", "established", "formed", "created", "inception"),
    "P577": ("published", "released", "premiered"), "P36": ("capital",), "P17": ("country",),
    "P1082": ("population", "inhabitants", "people live"), "P2046": ("area", "square"), "P2044": ("elevation",),
    "P2048": ("tall", "height"), "P35": ("head of state", "king", "queen", "president", "monarch"),
    "P6": ("prime minister", "head of government", "premier"), "P50": ("written by", "author", "wrote"),
    "P57": ("directed", "director"), "P161": ("starring", "starred", "cast"), "P86": ("composed", "composer"),
    "P175": ("performed", "performer", "sung by"), "P136": ("genre",), "P495": ("country of origin",),
    "P159": ("headquartered", "headquarters", "based in"), "P131": ("located in",), "P47": ("border",),
    "P26": ("married", "spouse", "wife", "husband"), "P108": ("worked for", "employer"), "P69": ("educated", "studied"),
    "P106": ("occupation", "worked as"), "P27": ("citizen",), "P22": ("father",), "P25": ("mother",),
    "P58": ("written by", "screenplay", "screenwriter"), "P162": ("produced by", "producer"),
    "P272": ("produced by", "studio"), "P676": ("lyrics", "words by"), "P110": ("illustrated", "illustrations by"),
    "P123": ("published by", "publisher"), "P98": ("edited by", "editor"), "P178": ("developed by", "developer"),
    "P170": ("created by", "creator"), "P264": ("record label",), "P144": ("based on", "adapted from"),
    "P840": ("set in",), "P915": ("filmed in", "shot in"), "P166": ("won", "awarded", "received"),
    "P1411": ("nominated", "nomination"), "P54": ("played for", "plays for"), "P118": ("league",), "P641": ("sport",),
    "P410": ("rank",), "P241": ("served in",), "P39": ("served as", "position"), "P102": ("party",),
    "P65": ("discovered at",), "P400": ("platform",), "P287": ("designed by",), "P171": ("genus", "family"),
}
ITEM_TRIGGER_WINDOW = 40  # characters between "directed by" and the name it introduces
# A date belongs to a property word at most this far before it ("established in 1872"), or this far
# after it ("In 1995, the album was released"); "renamed ... in 1881" further on is another event.
DATE_TRIGGER_BEFORE, DATE_TRIGGER_AFTER = 40, 30
ITEM_VALUED = frozenset(p for p in TRIGGERS if p not in ("P569", "P570", "P571", "P577", "P1082", "P2046", "P2044",
                                                          "P2048"))


# A time or place said between a verb and its particle: "published in 1928 by X", "shot in Lagos by X", "released
# during the 1970s by X". A phrase ending in a particle ("published by") still names its property there. The detour
# is a preposition and a year or a name (capitalised words; "of", "and", "the" between them), so that "played in one
# season for" or "based on the display technology in" is no detour.
DETOUR_PARTICLES = r"in|on|at|during"  # the prepositions of a phrase of place or time
DETOUR = (rf"(?i:{DETOUR_PARTICLES})\s+(?:(?i:the)\s+)?[A-Z0-9][\w'’.-]*"
          r"(?:\s+(?:[A-Z0-9][\w'’.-]*|of|and|the)){0,3}")
DETOUR_WORDS = 6  # the most words a detour spans (its preposition, "the", a name or date of four)
# Participles English coordinates before one shared particle: "produced and distributed by X", "written, produced
# and directed by X" — each names its relation of X. Regular endings and the common irregular participles.
IRREGULAR_PARTICIPLES = r"set|built|made|shot|held|led|won|sung|sold|found|brought|bought|taught|kept|laid|hung|struck"
PARTICIPLE = r"(?:[a-z]+(?:ed|en|wn|rn|ng)|" + IRREGULAR_PARTICIPLES + ")"
COORDINATED = rf"(?:,\s*{PARTICIPLE})*,?\s+(?:and|or|&)\s+{PARTICIPLE}"  # what follows the first participle
# Between a property word (and its particle: "directed by") and its object: punctuation and determiners.
OBJECT_OPENS = re.compile(r"[\s,:\"'“(]*(?:(?:the|a|an|its|his|her|their)\s+)*", re.IGNORECASE)


@dataclass(frozen=True)
class WordHit:
    """Where a property word stands: its span, and its parts (one, or the verb and its particle around a detour or
    the participles coordinated with the verb: `coordinated`)."""
    parts: tuple[tuple[int, int], ...]
    coordinated: bool = False

    def start(self) -> int:
        return self.parts[0][0]

    def end(self) -> int:
        return self.parts[-1][1]


def word_hits(text: str, words_of, value_at: int | None = None, coordinated: bool = False):
    """(property, WordHit) for each whole-word occurrence in TEXT (any case) of the words WORDS_OF gives ((property,
    words) pairs): where the sentence names a property. With `value_at` (where a value starts), a phrase ending in a
    particle is also found around a DETOUR ("published in 1928 by") when the value follows it, and with `coordinated`
    past other participles it is coordinated with ("produced and distributed by")."""
    lower = text.lower()
    for pid, words in words_of:
        for word in words:
            word = word.lower()
            for m in re.finditer(r"\b" + re.escape(word) + r"\b", lower):
                yield pid, WordHit(((m.start(), m.end()),))
            head, _, particle = word.rpartition(" ")
            if value_at is not None and head and particle in PREPOSITIONS:
                for past in (False, True) if coordinated else (False,):
                    for m in _around(head, particle, past).finditer(text):
                        if OBJECT_OPENS.fullmatch(text, m.end(), value_at):
                            yield pid, WordHit((m.span(1), m.span(2)), coordinated=past)


@lru_cache(maxsize=None)
def _around(head: str, particle: str, coordinated: bool) -> re.Pattern:
    """HEAD, then a DETOUR — or with `coordinated` the participles coordinated with it —, then PARTICLE."""
    between = COORDINATED if coordinated else rf"\s+{DETOUR}"
    return re.compile(rf"\b((?i:{re.escape(head)})){between}\s+((?i:{re.escape(particle)}))\b")


_CLAUSE_BREAK = re.compile(r"[;:()\[\]\"“”]|,\s+(?:and|but|while|which|who)\b")


def clause_start(sentence: str, at: int) -> int:
    last = 0
    for m in _CLAUSE_BREAK.finditer(sentence, 0, at):
        last = m.end()
    return last


def word_says(sentence: str, at: int, pids: set[str]) -> str | None:
    """Of the properties a value's type fits, the one the nearest property word of the triggers list names before
    it in its clause ("won" award received, "nominated" nominated for), when that word names exactly one of them."""
    before = sentence[max(clause_start(sentence, at), at - ITEM_TRIGGER_WINDOW):at]
    nearest: dict[int, set[str]] = {}
    for pid, m in word_hits(before, [(p, TRIGGERS.get(p, ())) for p in pids], value_at=len(before)):
        nearest.setdefault(len(before) - m.end(), set()).add(pid)
    if not nearest:
        return None
    named = nearest[min(nearest)]
    return next(iter(named)) if len(named) == 1 else None


def word_right_before(sentence: str, at: int, pid: str) -> bool:
    """A property word of the triggers list for PID ends right before offset AT, only punctuation and determiners
    between ("filmed in Ottawa", "won the Golden Bear"): the sentence states that relation of the value."""
    before = sentence[clause_start(sentence, at):at]
    return any(OBJECT_OPENS.fullmatch(before, m.end()) for _, m in
               word_hits(before, [(pid, TRIGGERS.get(pid, ()))], value_at=len(before)))
