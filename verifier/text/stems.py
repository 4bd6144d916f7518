"""Words as the property lexicon compares them: function words, which carry no property meaning, the
prepositions a property name may end with, and a crude stem so inflections meet ("directed" / "director")."""
from __future__ import annotations

# Function words carry no property meaning ("date of birth" is matched on "date", "birth").
FUNCTION_WORDS = frozenset("a an the of in on at to for by with and or is was are were be been from as its it his "
                           "her their this that which who s during than into upon".split())
PREPOSITIONS = frozenset("of in on at to for by with from as during into upon".split())


_SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "ors", "ed", "er", "or", "es", "s")


def stem(word: str) -> str:
    """A crude stem so "directed"/"director", "aired"/"air", "released"/"release", "starring"/"star" meet:
    one inflection suffix off (at least three letters stay), a final "e" off, a doubled consonant single, a final
    "y" after a consonant as "i" ("tributary"/"tributaries", "study"/"studies": their "es" comes off)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    if len(word) > 3 and word[-1] == "y" and word[-2] not in "aeiouy":
        word = word[:-1] + "i"
    return word
