"""Where a text names its topic (`verify_text(about=...)`) in words the gazetteer does not link by itself.

An answer about one thing names it as a writer does once the reader knows what is meant:
- one of its labels or aliases in any case ("The black-stripe minnow is …" of *Black-stripe minnow*: common
  names of species, events and teams are written lower-case in running text);
- the last word of a multi-word label, capitalised and standing alone ("Inoue competed for …" of *Rena
  Inoue*), the way a surname stands for a person already named;
- the initials of the label's capitalised words ("CMR was established …" of *Clinical Microbiology Reviews*).
Each is a mention of the topic. It replaces the gazetteer's mentions inside its span (its "CMR" is Cameroon)
and never cuts a longer name ("Inoue" inside "Rena Inoue Park" stays that name's).

A label holding a year, with another year in its place ("The Best American Poetry 1993" of *The Best American
Poetry 1995*), is not a mention of the topic (the sibling it names may exist and be meant): `retitled` finds
it, and extract.py reads it as a claim on the topic's date only where it is the sentence's subject.
"""
from __future__ import annotations

import re

from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.nameparts import STOP, YEAR
from kgcheck.verifier.text.subject import named_subject
from kgcheck.verifier.values import find_dates, inside_dates
from kgcheck.verifier.values.dates import graph_date

_CAPITALISED = re.compile(r"[A-Z][\w'’-]*")


def topic_names(kg, about: str) -> tuple[list[str], list[str]]:
    """(labels and aliases, short forms: last words and initials) the text may name the topic by."""
    names = sorted({t for (t,) in kg.lookup_in("SELECT text FROM label_index WHERE id IN ({in})", [about]) if t},
                   key=len, reverse=True)
    short: set[str] = set()
    for name in names:
        words = name.split()
        if len(words) < 2:
            continue
        last = words[-1]
        if len(last) >= 3 and _CAPITALISED.fullmatch(last) and last.lower() not in STOP:
            short.add(last)
        initials = "".join(w[0] for w in words if w[0].isupper())
        if len(initials) >= 2:
            short.add(initials)
    return names, sorted(short - set(names))


def _year_patterns(names: list[str]) -> list[tuple[re.Pattern, str]]:
    """(the name with any year in place of its own, its own year) for each name holding exactly one year."""
    out = []
    for name in names:
        years = list(YEAR.finditer(name))
        if len(years) == 1:
            y = years[0]
            out.append((re.compile(r"(?<![\w-])" + re.escape(name[:y.start()]) + r"((?:1\d{3}|20\d{2}))"
                                   + re.escape(name[y.end():]) + r"(?![\w-])"), y.group()))
    return out


Retitle = tuple[int, int, int, int, str]  # name start, name end, year start, year end, the topic's own year


def retitled(names: list[str], text: str, sentences: list[tuple[int, int]]) -> dict[int, list[Retitle]]:
    """By sentence index: (name start, name end, year start, year end, the topic's own year) wherever the text
    names the topic by one of its `names` (topic_names' labels and aliases) with another year in that name's
    place (offsets into `text`)."""
    patterns = _year_patterns(names)
    out: dict[int, list[Retitle]] = {}
    for si, (a, b) in enumerate(sentences):
        for pattern, own in patterns:
            for m in pattern.finditer(text, a, b):
                if m.group(1) != own and not any(s < m.end() and m.start() < e for s, e, *_ in out.get(si, ())):
                    out.setdefault(si, []).append((m.start(), m.end(), m.start(1), m.end(1), own))
    return out


def title_claims(text: str, a: int, b: int, outside: list[Mention], renamed: list[Retitle],
                 about: str, topic_statements) -> list[tuple[Mention, str, int, int]]:
    """(the topic named by the retitled name, property, year start, year end) for each `retitled` name of the
    sentence text[a:b] that is its subject (`outside`: its names outside asides): the year in the name is the
    topic's date of the one time property whose year the topic's own label holds (The Best American Poetry
    1995, published in 1995: "The Best American Poetry 1993, a volume …, was edited by" dates it 1993)."""
    out = []
    for s, e, ys, ye, own in renamed:
        spoken = Mention(s, e, text[s:e], about)
        around = [m for m in outside if not (s <= m.start and m.end <= e)]  # the name holds those inside it
        if named_subject(text, a, b, sorted(around + [spoken], key=lambda m: (m.start, m.end))) != spoken:
            continue
        dated = {st.property for st in topic_statements if st.value.time and st.value.precision is not None
                 and graph_date(st.value.time, st.value.precision).year == int(own)}
        if len(dated) == 1:
            out.append((spoken, dated.pop(), ys, ye))
    return out


def _spans(sentence: str, name: str, ignore_case: bool) -> list[tuple[int, int]]:
    pattern = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", re.IGNORECASE if ignore_case else 0)
    return [(m.start(), m.end()) for m in pattern.finditer(sentence)]


def with_topic(kg, about: str, text: str, sentences: list[tuple[int, int]], mentions: list[list[Mention]],
               named: tuple[list[str], list[str]] | None = None) -> list[list[Mention]]:
    """`mentions` with the topic's mentions added where the text names it in the ways above (`named`: its
    topic_names, when the caller has read them)."""
    names, short = named or topic_names(kg, about)
    out = []
    for (a, b), ms in zip(sentences, mentions):
        sentence = text[a:b]
        dates = find_dates(sentence) if short else []
        found: list[tuple[int, int]] = []
        # Any case only for names long enough not to be a common word ("A", "It" as a title match as written).
        for name, is_short in [(n, False) for n in names] + [(s, True) for s in short]:
            for s, e in _spans(sentence, name, ignore_case=not is_short and len(name) >= 4):
                if is_short and inside_dates(s, e, dates):
                    continue  # "May" of Theresa May in "In May 2016"
                s, e = a + s, a + e
                if any(fs < e and s < fe for fs, fe in found):
                    continue  # inside a longer form of the topic's name found already
                if any(m.start < e and s < m.end and (m.end - m.start) > (e - s) for m in ms):
                    continue  # part of a longer name the gazetteer found
                found.append((s, e))
        if not found:
            out.append(ms)
            continue
        kept = [m for m in ms if not any(m.start < e and s < m.end for s, e in found)]  # none longer, as above
        out.append(sorted(kept + [Mention(s, e, text[s:e], about) for s, e in found], key=lambda m: (m.start, m.end)))
    return out
