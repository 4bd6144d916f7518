"""LLM steps of free-text checking: triple extraction, candidate choice, smoothing.

Prompts follow Shenoy et al., "Validating Free Text Against N-Ary Knowledge
Graphs" (appendix A.1 and A.2), cut down for a ~135M-parameter model: short
instructions, worked examples, and a JSON schema whose caps (maxItems,
maxLength) plus a max_tokens budget keep a tiny model from looping.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

from kgcheck.verifier.llm.backends import LLM, LLMError

MAX_PART_CHARS = 80          # longest subject/predicate/object string the model may write
MAX_QUALIFIERS = 2
EXTRACT_MAX_TOKENS = 300
MAX_DESCRIPTION_CHARS = 80   # candidate descriptions shown to the model
MAX_PARAGRAPH_CHARS = 1200   # keep disambiguation prompts well inside n_ctx
NO_MATCH = "NO MATCH"
GROUNDED_TOKEN_SHARE = 0.6

_STOPWORDS = frozenset(
    "a an the of in on at to for by with and or is was are were be been from as "
    "its it his her their this that which who whom s".split())
_PRONOUNS = frozenset("i you he she it we they him her them his hers its their theirs".split())


@dataclass(frozen=True)
class RawTriple:
    """A claim as written in the text (surface forms, not yet linked to the KG)."""

    subject: str
    predicate: str
    object: str
    qualifiers: tuple[tuple[str, str], ...] = ()


# ---------------------------------------------------------------- text helpers

def surface_words(text: str) -> str:
    """Casefolded words separated by single spaces; punctuation dropped.

    Not `kgcheck.index.text.normalise` (the one key of labels and queries against the index): this one
    only compares a model's spans with the text they were read from, so it keeps diacritics ("Müller" is
    not "Muller") and splits at apostrophes and dots where the index key joins ("F.C." is "f c", not
    "fc"). It is never compared with index keys; kept as it is so the LLM extractor's output (and
    bench/llm_probe.py's figures) do not change.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def _contains_phrase(haystack_normalised: str, needle_normalised: str) -> bool:
    # Pad so that "art" does not match inside "start".
    return f" {needle_normalised} " in f" {haystack_normalised} "


def grounded(span: str, text: str) -> bool:
    """True when `span` (or >= 60% of its content words) occurs in `text`."""
    span_norm, text_norm = surface_words(span), surface_words(text)
    if not span_norm:
        return False
    if _contains_phrase(text_norm, span_norm):
        return True
    content = [token for token in span_norm.split() if token not in _STOPWORDS]
    if not content:
        return False
    text_tokens = set(text_norm.split())
    return sum(token in text_tokens for token in content) / len(content) >= GROUNDED_TOKEN_SHARE


def keeps_values(new_text: str, required_spans: Iterable[str]) -> bool:
    """True when every required span still occurs (normalised) in `new_text`."""
    new_norm = surface_words(new_text)
    if not new_norm:
        return False
    return all(_contains_phrase(new_norm, surface_words(span)) for span in required_spans)


# ---------------------------------------------------------------- extraction

MAX_SUBJECTS = 2             # subject groups per answer
MAX_SPAN_WORDS = 10
MAX_SPANS = 600              # beyond this the grammar gets slow: fall back to free strings
_SPAN_EDGE_PUNCTUATION = ".,;:!?()[]{}\"'\u201c\u201d\u2018\u2019"


def _string_schema(max_length: int = MAX_PART_CHARS) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": max_length}


def candidate_spans(text: str, max_words: int = MAX_SPAN_WORDS) -> list[str]:
    """Word n-grams of `text` that could name an entity or value, in text order.

    Spans neither start with a lower-case stopword or a pronoun nor end with a
    stopword, and do not cross a comma or bracket ("Max Martin, Cathy Dennis" is two names).
    """
    words = [(match.start(), match.end()) for match in re.finditer(r"\S+", text)]
    spans: dict[str, None] = {}
    for first in range(len(words)):
        for last in range(first, min(len(words), first + max_words)):
            span = text[words[first][0]:words[last][1]].strip(_SPAN_EDGE_PUNCTUATION).strip()
            # Quotes and backslashes would break llama.cpp's enum grammar.
            if (not span or len(span) > MAX_PART_CHARS or '"' in span or "\\" in span
                    or re.search(r"[,;()\[\]]", span)):
                continue
            tokens = surface_words(span).split()
            if (not tokens or tokens[-1] in _STOPWORDS or tokens[0] in _PRONOUNS
                    or (tokens[0] in _STOPWORDS and not span[0].isupper())):
                continue
            spans.setdefault(span)
    return list(spans)


def triples_schema(max_triples: int, spans: Sequence[str] | None = None,
                   predicates: Sequence[str] | None = None) -> dict:
    """JSON schema of the extraction answer: facts grouped by subject, every part capped.

    With `spans`, subjects and objects must be one of them (copied from the text),
    so the model cannot invent names; predicates stay free (Wikidata-style labels)
    unless `predicates` lists the allowed ones (an ontology's relation labels).
    """
    entity = ({"type": "string", "enum": list(spans), "maxLength": MAX_PART_CHARS}
              if spans else _string_schema())
    predicate = ({"type": "string", "enum": list(predicates), "maxLength": MAX_PART_CHARS}
                 if predicates else _string_schema())
    qualifier = {
        "type": "object",
        "properties": {"predicate": _string_schema(), "object": entity},
        "required": ["predicate", "object"],
        "additionalProperties": False,
    }
    fact = {
        "type": "object",
        "properties": {
            "predicate": predicate,
            "object": entity,
            "qualifiers": {"type": "array", "items": qualifier, "maxItems": MAX_QUALIFIERS},
        },
        "required": ["predicate", "object"],
        "additionalProperties": False,
    }
    group = {
        "type": "object",
        "properties": {
            "subject": entity,
            "facts": {"type": "array", "items": fact, "minItems": 1, "maxItems": max_triples},
        },
        "required": ["subject", "facts"],
        "additionalProperties": False,
    }
    return {"type": "array", "items": group, "minItems": 1, "maxItems": MAX_SUBJECTS}


# Grouping by subject writes a long title once instead of once per fact: fewer tokens.
# A 135M model copies the predicates of the *last* example most: swapping these two
# halved gold-pair recall on Text2KGBench (15 -> 7 of 50 movie sentences).
_EXAMPLES = (
    ("Marie Curie was born in Warsaw in 1867. She won the Nobel Prize in Physics in 1903.",
     [{"subject": "Marie Curie", "facts": [
         {"predicate": "place of birth", "object": "Warsaw"},
         {"predicate": "date of birth", "object": "1867"},
         {"predicate": "award received", "object": "Nobel Prize in Physics",
          "qualifiers": [{"predicate": "point in time", "object": "1903"}]}]}]),
    ("The Hobbit is a 1937 novel written by J. R. R. Tolkien and published by Allen & Unwin.",
     [{"subject": "The Hobbit", "facts": [
         {"predicate": "author", "object": "J. R. R. Tolkien"},
         {"predicate": "publisher", "object": "Allen & Unwin"},
         {"predicate": "publication date", "object": "1937"}]}]),
)


def _render_examples() -> str:
    return "\n\n".join(
        f"Text: {text}\nJSON: {json.dumps(groups, separators=(',', ':'), ensure_ascii=False)}"
        for text, groups in _EXAMPLES)


EXTRACT_SYSTEM_PROMPT = (
    "You extract Wikidata-style facts from text as JSON: for each subject, a list of facts "
    "(predicate, object, optional qualifiers such as a date).\n"
    "Copy names, dates and numbers exactly as written in the text. "
    "Use the person's or thing's name instead of a pronoun like he, she or it. "
    "One fact per item. Output only JSON.\n\n"
    + _render_examples())


def _clean(value: object) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _to_triple(item: object) -> RawTriple | None:
    if not isinstance(item, dict):
        return None
    subject, predicate, obj = (_clean(item.get(key)) for key in ("subject", "predicate", "object"))
    if not (subject and predicate and obj) or surface_words(subject) == surface_words(obj):
        return None
    qualifiers = []
    for qualifier in item.get("qualifiers") or ():
        if isinstance(qualifier, dict):
            q_predicate, q_object = _clean(qualifier.get("predicate")), _clean(qualifier.get("object"))
            if q_predicate and q_object:
                qualifiers.append((q_predicate, q_object))
    return RawTriple(subject, predicate, obj, tuple(qualifiers[:MAX_QUALIFIERS]))


def _triple_key(triple: RawTriple) -> tuple:
    return (surface_words(triple.subject), surface_words(triple.predicate), surface_words(triple.object),
            tuple((surface_words(p), surface_words(o)) for p, o in triple.qualifiers))


def _flatten(answer: object) -> list:
    """Triple-shaped dicts from a grouped answer; flat triples pass through."""
    if isinstance(answer, dict):  # tolerate {"triples": [...]}-style answers from other backends
        answer = next((value for value in answer.values() if isinstance(value, list)), [])
    items = []
    for entry in answer if isinstance(answer, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("facts"), list):
            items.extend({**fact, "subject": entry.get("subject")}
                         for fact in entry["facts"] if isinstance(fact, dict))
        else:
            items.append(entry)
    return items


def _close_truncated_json(raw: str, attempts: int = 8) -> object:
    """Parse JSON cut off by max_tokens: cut back to a complete object, close the brackets."""
    cut = len(raw)
    for _ in range(attempts):
        cut = raw.rfind("}", 0, cut)
        if cut == -1:
            break
        head, stack, in_string, escaped = raw[:cut + 1], [], False, False
        for char in head:
            if in_string:
                escaped, in_string = (False, in_string) if escaped else (char == "\\", char != '"')
            elif char == '"':
                in_string = True
            elif char in "[{":
                stack.append("]" if char == "[" else "}")
            elif char in "]}" and stack:
                stack.pop()
        try:
            return json.loads(head + "".join(reversed(stack)))
        except json.JSONDecodeError:
            continue
    return []


def filter_triples(items: Iterable[object], max_triples: int) -> list[RawTriple]:
    """Drop malformed, empty, self-referencing and duplicate triples; keep order."""
    kept, seen = [], set()
    for item in items:
        triple = _to_triple(item)
        if triple is None or _triple_key(triple) in seen:
            continue
        seen.add(_triple_key(triple))
        kept.append(triple)
    return kept[:max_triples]


def extract_triples(llm: LLM, text: str, max_triples: int = 8, context: str = "",
                    max_tokens: int = EXTRACT_MAX_TOKENS, spans_only: bool = True,
                    predicates: Sequence[str] | None = None) -> list[RawTriple]:
    """Claims in `text` as surface-form triples.

    `context` (e.g. the previous sentence) is shown only so that pronouns in
    `text` can be resolved to names. With `spans_only`, subjects and objects are
    constrained to spans of context + text. Grounding and KG linking are the caller's job.
    """
    text, context = text.strip(), context.strip()
    if not text:
        return []
    spans = candidate_spans(f"{context}\n{text}") if spans_only else []
    schema = triples_schema(max_triples, spans if 0 < len(spans) <= MAX_SPANS else None, predicates)
    user = f"Context: {context}\nText: {text}\nJSON:" if context else f"Text: {text}\nJSON:"
    if predicates:
        user = f"Predicates: {', '.join(predicates)}\n{user}"
    try:
        answer = llm.complete_json(EXTRACT_SYSTEM_PROMPT, user, schema, max_tokens)
    except LLMError as error:
        if not error.raw:
            raise
        answer = _close_truncated_json(error.raw)  # cut off by max_tokens: keep whole facts
    return filter_triples(_flatten(answer), max_triples)


def extract_triples_per_sentence(llm: LLM, sentences: Sequence[str], max_triples: int = 3,
                                 with_previous_sentence: bool = False,
                                 predicates: Sequence[str] | None = None,
                                 spans_only: bool = True) -> list[list[RawTriple]]:
    """One extraction per sentence (small models do better on short inputs).

    With `with_previous_sentence`, the previous sentence is passed as context for pronouns.
    """
    results = []
    for index, sentence in enumerate(sentences):
        context = sentences[index - 1] if with_previous_sentence and index > 0 else ""
        results.append(extract_triples(llm, sentence, max_triples=max_triples, context=context,
                                       predicates=predicates, spans_only=spans_only))
    return results


# ---------------------------------------------------------------- disambiguation

CHOOSE_SYSTEM_PROMPT = "You link a mention in a paragraph to the knowledge graph item it refers to."


def choose_candidate(llm: LLM, paragraph: str, mention: str,
                     candidates: list[tuple[str, str, str]]) -> str | None:
    """The id of the candidate (id, label, description) that `mention` refers to, or None."""
    if not candidates:
        return None
    ids = list(dict.fromkeys(candidate_id for candidate_id, _, _ in candidates))
    listing = "\n".join(f"{candidate_id}: {label} ({description[:MAX_DESCRIPTION_CHARS]})"
                        if description else f"{candidate_id}: {label}"
                        for candidate_id, label, description in candidates)
    user = (f"{listing}\n"
            f'Which of the above list items is "{mention}" in the paragraph below? '
            f"Answer with its id only. If there is no good match in the list, answer {NO_MATCH}.\n"
            f"Paragraph:\n{paragraph[:MAX_PARAGRAPH_CHARS]}")
    schema = {"type": "string", "enum": ids + [NO_MATCH]}
    answer = llm.complete_json(CHOOSE_SYSTEM_PROMPT, user, schema, max_tokens=16)
    if answer == NO_MATCH:
        return None
    if answer not in ids:
        raise LLMError(f"model answered {answer!r}, not one of the candidate ids")
    return answer


# ---------------------------------------------------------------- smoothing

SMOOTH_SYSTEM_PROMPT = (
    "Fix only the grammar of the text (agreement, articles, punctuation). "
    "Keep every name, number and date exactly as written. Do not add or remove facts. "
    "Answer with the corrected text as a JSON string.")


def smooth_text(llm: LLM, text: str, max_tokens: int = 256) -> str:
    """The model's grammar-fixed rewording of `text` (callers must check it with keeps_values)."""
    schema = _string_schema(max_length=2 * len(text) + 20)
    answer = llm.complete_json(SMOOTH_SYSTEM_PROMPT, f"Text: {text}", schema, max_tokens)
    if not isinstance(answer, str) or not answer.strip():
        raise LLMError("model returned no text")
    return " ".join(answer.split())


def smooth_text_safely(llm: LLM, text: str, required_spans: Iterable[str],
                       max_tokens: int = 256) -> str:
    """`smooth_text` when its output keeps every required span, else `text` unchanged."""
    try:
        smoothed = smooth_text(llm, text, max_tokens)
    except LLMError:
        return text
    return smoothed if keeps_values(smoothed, required_spans) else text
