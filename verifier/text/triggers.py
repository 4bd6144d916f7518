"""Words people use for common properties beyond the properties' own labels (the "triggers" reader's list) and
the copula reader ("<property words> is <phrase>") that reads values the graph has no entity for."""
from __future__ import annotations

import re

from kgcheck.verifier.text.mentions import TITLES

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
    "P1411": ("nominated",), "P54": ("played for", "plays for"), "P118": ("league",), "P641": ("sport",),
    "P410": ("rank",), "P241": ("served in",), "P39": ("served as", "position"), "P102": ("party",),
    "P65": ("discovered at",), "P400": ("platform",), "P287": ("designed by",), "P171": ("genus", "family"),
}
ITEM_TRIGGER_WINDOW = 40  # characters between "directed by" and the name it introduces
# A date belongs to a property word at most this far before it ("established in 1872"), or this far
# after it ("In 1995, the album was released"); "renamed ... in 1881" further on is another event.
DATE_TRIGGER_BEFORE, DATE_TRIGGER_AFTER = 40, 30
ITEM_VALUED = frozenset(p for p in TRIGGERS if p not in ("P569", "P570", "P571", "P577", "P1082", "P2046", "P2044",
                                                          "P2048"))
_PHRASE_WORD = r"(?:(?!and\b|but\b|while\b|which\b)[\w'’-]+\s?)"  # a word of the phrase after the copula
_COPULA = re.compile(r"\s+(?:is|was|are|were|has been|had been)\s+(" + _PHRASE_WORD + "{1,6})", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_AFTER_TITLE = re.compile(r"\.?\s+((?=[A-Z])" + _PHRASE_WORD + "{1,5})")  # the name after "Dr."


def unlinked_objects(sentence: str, mentions: list[tuple[int, int]], props_of: set[str], facts):
    """(property, start, end, property words) for "<property words> is <phrase>" with no entity in the phrase
    (mentions: their spans in the sentence). A phrase that a full stop joins to a name right after it is the
    name's abbreviated title ("editor was Dr. Cristanne Miller"), not a value.

    Kept when the subject lacks the property (the graph will say NOT_ENOUGH_INFO) or the phrase is a name;
    a common noun for a property the subject has ("its head of state is a king") describes the value
    rather than names it, and would be refuted wrongly.
    """
    names = [(p, w) for p, ws in TRIGGERS.items() for w in ws if facts.datatype(p) == "wikibase-item" or
             (facts.datatype(p) is None and p in ITEM_VALUED)]  # a small index may lack the property entity
    names += [(p, facts.label(p)) for p in props_of
              if facts.datatype(p) == "wikibase-item" and facts.label(p) and len(facts.label(p)) > 3]
    seen = set()
    for pid, words in names:
        for m in re.finditer(r"\b" + re.escape(words.lower()) + r"\b", sentence.lower()):
            copula = _COPULA.match(sentence, m.end())
            if not copula or pid in seen:
                continue
            phrase_start, phrase = copula.start(1), copula.group(1).rstrip()
            article = _ARTICLE.match(phrase)
            if article:
                phrase_start, phrase = phrase_start + article.end(), phrase[article.end():]
            end = phrase_start + len(phrase)
            named = _AFTER_TITLE.match(sentence, end) if phrase.lower() in TITLES else None
            if named:  # "is Dr. James Guthrie": the title's name is the value
                phrase_start, phrase = named.start(1), named.group(1).rstrip()
                end = phrase_start + len(phrase)
            if not phrase or any(start < end and phrase_start < stop for start, stop in mentions):
                continue  # an entity there is handled by the mention rule
            full_stop = re.match(r"\.\s?", sentence[end:])
            if full_stop and any(start == end + full_stop.end() for start, _ in mentions):
                continue  # "Dr." of "Dr. Cristanne Miller"
            if pid in props_of and not phrase[:1].isupper():
                continue
            seen.add(pid)
            yield pid, phrase_start, end, words
