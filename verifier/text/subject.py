"""Which of a sentence's names is what the sentence is about, and where its main clause opens.

A sentence's subject is the first name outside an aside that is not the object of a preposition, not an item of a
list such a phrase opens ("Written by Keys, Kanye West and Harold Lilly, the track was released"), not a name a
noun phrase describes before its head ("An animated motion picture Legend of Crystania", "The American singer
Beyoncé": the modifier is no subject) and not inside the predicate ("… is a Japanese animated film").
"""
from __future__ import annotations

import re

from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.stems import FUNCTION_WORDS
from kgcheck.verifier.text.triggerwords import IRREGULAR_PARTICIPLES, PARTICIPLE
from kgcheck.verifier.text.words import VERB_AFTER

# A name right after a preposition is not what the sentence is about ("published by Casterman in 1986").
# So is one after words that open a list of examples ("filming locations including Los Angeles, Colorado").
_PREPOSITION_BEFORE = re.compile(r"\b(?:by|in|at|from|on|to|for|with|into|near|including|such as|as well as|"
                                 r"along with|alongside)\s+(?:the\s+)?$", re.IGNORECASE)
# "set in 1973 Boston during …", "in 1930s Prague, where": a year or decade between the preposition and a name that
# a phrase goes on from (not "In 1955 Wang became", a fronted date before the subject and its verb).
_PREPOSITION_YEAR_BEFORE = re.compile(r"\b(?:in|at|from|to|into|near)\s+\d{3,4}s?\s+$", re.IGNORECASE)
_PHRASE_GOES_ON = re.compile(r"\s*[,;]|\s+(?:during|until|in|on|at|when|where|under|before|after|from|of|with)\b")
COPULA_ARTICLE = r"\b(?:is|was|are|were)\s+(?:a|an|the)\b"
# A copula that joins a subject to its predicate noun ("is", "has been", "became"), a comma before it allowed.
COPULA = r"\s*,?\s*(?:is|was|are|were|has been|had been|became|becomes|remains|remained)\s+"
# "is a 2011 Japanese …", "was the Greek entry": a name after a copula and its article is the predicate's.
_PREDICATE_BEFORE = re.compile(COPULA_ARTICLE + r"\s+(?:[\w'’-]+\s+){0,3}$", re.IGNORECASE)
_LIST_ITEM = re.compile(r",?\s+(?:and|or|&)\s+", re.IGNORECASE)  # between the last two names of a list
_ANOTHER_ITEM = re.compile(r",?\s+(?:and|or|&)\s+[A-Z\"'“]|,\s*[A-Z\"'“]")  # another item after a name
# Between two items of a list, items the gazetteer did not link: "in Seoul, Nuremberg and Cappadocia, Turkey".
_UNLINKED_ITEMS = re.compile(r"(?:,\s*|,?\s+(?:and|or|&)\s+)(?:[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3}"
                             r"(?:,\s*|,?\s+(?:and|or|&)\s+))+")
# A sentence opening on a participle and its preposition ("Written by", "Born in", "Directed by"): the names of
# that phrase are its objects, the subject is the name its own verb follows. Participles: "Written", "Born",
# "Developed", "Featuring", and the common irregular ones English opens such a phrase with ("Set in Seattle,
# Washington, the novel", "Built in 1890 by X, the bridge", "Led by X, the army").
_PARTICIPLE_OPENS = re.compile(r"\s*(?:[A-Z][a-z]+(?:ed|en|wn|rn|ng)|(?:" + "|".join(
    w.capitalize() for w in IRREGULAR_PARTICIPLES.split("|")) + r"))(?:,?\s+(?:and|or)\s+" + PARTICIPLE +
                               r")?\s+(?:by|in|at|on|from|for|with)\b")  # "Developed and marketed by"
# A sentence opening on a subordinate or prepositional phrase ("Following the dissolution of the Soviet Union,
# Eduard Shevardnadze was"): the names before its comma are its objects unless their own verb follows ("When
# Thriller was released, it …", "As the Lunar Module Pilot of Apollo 14, Edgar Mitchell spent"). English function
# words, not any relation's.
PHRASE_OPENS = re.compile(r"\s*(?:After|Before|Following|During|Despite|Since|Until|Upon|Although|Though|While|"
                           r"Whereas|Because|Unlike|Like|When|Once|Throughout|Amid|As)\b")
# Or on an indefinite noun phrase set before the subject ("A member of the Democratic Union of Catalonia, Fernando
# Clavijo Batlle was", "Previously a member of …"): the names before its comma are its objects unless their own verb
# follows.
_APPOSITIVE_OPENS = re.compile(r"\s*(?:A|An|[A-Z][a-z]+ly,?\s+an?)\s+(?:[a-z][\w'’-]*\s+){1,4}?"
                               r"(?:of|from|for|to|with|in|at|by)\b")
# "Smith moved", "Morning Glory? was", "The Journal's founding editors were"; not "Smith and".
_OWN_VERB = re.compile(r"(?:\s*[?!)\"”’])*(?:['’]s\b|\s+(?!(?:and|or|of|in|on|at|by|for|to|the|a|an)\b)[a-z]+\b)")
# Or its verb after an aside between commas that opens on no article ("A Dictionary of the English Language,
# sometimes published as Johnson's Dictionary, is"); "Harold Lilly, the track was" goes on to its own subject.
_ASIDE_THEN_VERB = re.compile(r"\s*,\s+(?!(?:the|an?)\s)[^,;]{1,80},\s*(?:is|was|are|were|has|had)\b", re.IGNORECASE)
# "During the German occupation,": a name after a determiner whose lower-case words run to the opening phrase's
# comma modifies that phrase's noun; the word after it is no verb of its own.
_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|his|her|its|their)\s+$", re.IGNORECASE)
_NOUN_TO_COMMA = re.compile(r"(?:\s+[a-z][\w'’-]*){1,3}\s*")
# "An animated motion picture <Name>", "The American singer <Name>": a name, then lower-case content words, then
# another name, in a noun phrase the sentence opens on with an article.
_NOUN_PHRASE_OPENS = re.compile(r"[\W_]*(?:the|an?)\s+((?:[\w'’-]+\s+){0,6})", re.IGNORECASE)
_HEAD_AFTER = re.compile(r"(?:\s+[a-z][\w'’-]*){1,5}\s+$")
_OPENS = re.compile(r"[\W_]*(?:the\s+)?[\W_]*", re.IGNORECASE)  # before a subject that opens its sentence
# Or a fronted phrase before the main clause's subject: "Directed by Marc Daniels, Assignment: Earth was ...".
_FRONTED = re.compile(r"[^;:]*,\s+(?:the\s+)?", re.IGNORECASE)


def named_subject(text: str, a: int, b: int, outside: list[Mention]) -> Mention | None:
    """The mention of `outside` (the sentence text[a:b]'s names outside asides, in order) that is its subject, or
    None when no name is (the subject is a description, a pronoun or left out)."""
    opening = _PARTICIPLE_OPENS.match(text, a, b)
    phrase_end = b  # a participle's list runs past commas ("Written by Keys, Kanye West and Harold Lilly, the")
    if not opening:
        opening = PHRASE_OPENS.match(text, a, b) or _APPOSITIVE_OPENS.match(text, a, b)
        comma = text.find(",", a, b)
        phrase_end = comma if opening and comma >= 0 else a
    # Not a title opening on such words: "Born in the U.S.A. was released", "After Earth is" name their subject.
    participle = bool(opening) and not any(m.start <= opening.end() - 1 < m.end for m in outside)
    subject, after_preposition = None, None
    for k, m in enumerate(outside):
        # "in Melbourne, British Columbia": a name set beside one after a preposition is in the same phrase.
        # Not after a phrase opening the sentence: "In North America, Ridiculous Thoughts was" names the subject.
        # A list after the preposition is its object throughout ("Written by Keys, Kanye West and Harold Lilly,
        # the track was"): a name after "and", or after a comma with the list going on past it — not a name its
        # verb follows ("Developed and marketed by Extreme Networks, AutoCAD was first released").
        gap = text[after_preposition.end:m.start] if after_preposition is not None else None
        # Unlinked items between them ("Seoul, Nuremberg and Cappadocia, Turkey") are read as that gap is.
        last_gap = _UNLINKED_ITEMS.fullmatch(gap) and re.search(r",\s*$|,?\s+(?:and|or|&)\s+$", gap).group() \
            if gap is not None else gap
        verb_past_aside = _ASIDE_THEN_VERB.match(text, m.end, b)
        beside = gap is not None and not (VERB_AFTER.match(text, m.end, b) or verb_past_aside) and (
            (bool(re.fullmatch(r",\s*", last_gap or gap)) and
             (len(text[a:after_preposition.start].split()) > 2 or bool(_ANOTHER_ITEM.match(text, m.end, b)))) or
            bool(_LIST_ITEM.fullmatch(last_gap or gap)))
        if _PREPOSITION_BEFORE.search(text, max(a, m.start - 20), m.start) or beside or \
                (_PREPOSITION_YEAR_BEFORE.search(text, max(a, m.start - 16), m.start) and
                 _PHRASE_GOES_ON.match(text, m.end, b)):
            after_preposition = m
            continue
        # "Written by Keys, Kanye West and Harold Lilly, the track": in an opening participle's phrase, a name is
        # the subject only with its own verb after it ("Born in Paris, Smith moved").
        if participle and m.start < phrase_end and (not (_OWN_VERB.match(text, m.end, b) or verb_past_aside) or (
                _DETERMINER_BEFORE.search(text, max(a, m.start - 7), m.start) and
                _NOUN_TO_COMMA.fullmatch(text, m.end, phrase_end))):
            continue
        if k == 0 and len(outside) > 1 and _modifies(text, a, m, outside[1]):
            continue  # only the first: "The French company Renault acquired Nissan" is about Renault
        subject = m
        break
    if subject is not None and _PREDICATE_BEFORE.search(text, max(a, subject.start - 60), subject.start):
        return None  # "… is a Japanese animated film": a name inside the predicate; the subject went unnamed
    return subject


def _modifies(text: str, a: int, m: Mention, n: Mention) -> bool:
    """`m` describes `n` inside the noun phrase the sentence opens on: "An full-length Japanese animated motion
    picture Legend of Crystania", "The American singer Beyoncé"."""
    head = _HEAD_AFTER.fullmatch(text, m.end, n.start)
    # `m` is one word, as an adjective is ("The Jamaica women's national volleyball team represents Jamaica" names
    # one thing, whose verb follows); the word right before `n` is the head noun: one ending like a verb ("The FAR
    # supports Ujamaa", "The French acquired Nissan") makes a clause, not a noun phrase.
    words = head.group().split() if head else []
    return bool(words) and " " not in m.text.strip() and described_before(text, a, m.start) and \
        not any(w.lower() in FUNCTION_WORDS for w in words) and not re.search(r"(?:s|ed)$", words[-1])


def described_before(text: str, a: int, start: int, least: int = 0) -> bool:
    """text[a:start] opens a noun phrase: an article, then `least` or more content words and no other ("An
    full-length Japanese animated motion picture ", "The American singer ")."""
    m = _NOUN_PHRASE_OPENS.fullmatch(text, a, start)
    return bool(m) and len(m.group(1).split()) >= least and \
        not any(w.lower() in FUNCTION_WORDS for w in m.group(1).split())


def opens_main_clause(sentence: str, start: int, end: int) -> bool:
    """The subject at sentence[start:end] opens the sentence, or the main clause after a fronted phrase ("Directed
    by Marc Daniels, Assignment: Earth was first broadcast ..."), with its verb right after it, or after the words
    describing it ("An animated film Legend of Crystania ... was made"). A subject named in an earlier sentence
    (start < 0: "The song" of "X is a song. The song was released ...") opens it."""
    start = max(0, start)
    return bool(_OPENS.fullmatch(sentence, 0, start) or described_before(sentence, 0, start, least=1) or
                (_FRONTED.fullmatch(sentence, 0, start) and VERB_AFTER.match(sentence, end)))


def main_description(sentence: str, described: list[tuple]) -> tuple:
    """Of the descriptions before the subject ((start, end, nouns), in order), the one opening the main clause
    ("After the album was shelved, the song was rearranged": the song), else the first."""
    return next((d for d in described if opens_main_clause(sentence, d[0], d[1])), described[0])
