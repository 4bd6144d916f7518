"""Reasoning faithfulness: how closely a chain of thought sticks to the input subgraph.

After "A Reasoning-Based Evaluation Framework for Knowledge Graph-Augmented LLMs"
(shared/papers/004): the chain of thought (CoT) becomes links <entity1, relation, entity2>;
each link is matched to the input-graph edge "which has the same two entities" by
embedding similarity; the link's score is the cosine similarity of the two; the final
score is the mean link score, or ZERO as soon as one link falls under the threshold
("a wrong logic in an intermediate step falsifies all subsequent logic").

Links and edges are embedded as the string "head relation tail". Edges sharing both
entities with the link (either direction, names compared case- and article-insensitively)
are the candidates and the link score is the plain cosine. If no edge shares them, every
edge is a candidate, but its cosine is capped by the cosine of the entity names (the
weaker of the two, in the better direction): "the same two entities" judged by embedding.
Without that cap a fabricated entity scores almost like the truth.

Default threshold 0.82, measured with all-MiniLM-L6-v2 (tests/test_faithfulness.py
prints the ten pairs):
- 10 faithful paraphrases of input edges: 0.839-0.991 ("Berlin is in Germany" vs
  (Berlin, country, Germany) 0.839; "Python was created by Guido van Rossum" vs
  (Python, developer, ...) 0.858; "Paris is the capital of France" 0.977).
- The same 10 with one entity fabricated: 0.358-0.798 ("Oslo capital of Sweden" 0.798,
  "Marie Curie won Nobel Prize in Literature" 0.777, "Paris capital of Germany" 0.748).
  Without the entity cap they score 0.627-0.922, above several faithful ones: no
  threshold would separate them.
- 165 Text2KGBench validation sentences, link extracted from the sentence vs its gold edge:
  median 0.795, only 39% pass 0.82 (raw sentences give long, noisy relation phrases);
  the same links with the object swapped for another object of that relation: max 0.799,
  all rejected. 300 claims-dev entity corruptions (s, p, wrong o) vs (s, p, o): max 0.748.
- Known weakness of the metric: a wrong relation between the right two entities scores
  median 0.822 against the true edge, so about half of those pass.
"""
from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from kgcheck.index.embed import Embedder

DEFAULT_THRESHOLD = 0.82


@dataclass(frozen=True)
class Link:
    """One <entity1, relation, entity2> triple, from the CoT or from the input graph."""

    head: str
    relation: str
    tail: str

    def as_text(self) -> str:
        return f"{self.head} {self.relation} {self.tail}"


@dataclass(frozen=True)
class LinkScore:
    """A CoT link, the input edge closest to it (None if the graph is empty), and the cosine."""

    link: Link
    best_match: Link | None
    score: float
    passed: bool


@dataclass(frozen=True)
class FaithfulnessReport:
    score: float
    links: tuple[LinkScore, ...]
    threshold: float
    reason: str


# ---------------------------------------------------------------- triple syntax

_ARROW = re.compile(r"\s*(?<!-)->\s*")                             # "h -> r -> t"
_LABELLED_ARROW = re.compile(r"^(.+?)\s*--\s*(.+?)\s*-->\s*(.+)$")  # "h --r--> t"
_BRACKETED = re.compile(r"[(<\[]([^()<>\[\]]+)[)>\]]")              # "(h, r, t)", "<h, r, t>"
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)]|step\s*\d+\s*[:.)-]?)\s*", re.IGNORECASE)
_QUOTES = " \t\"'`*"
_EDGE_PUNCT = _QUOTES + ".,;:!?"
HEADER_WORDS = {"head", "relation", "tail", "subject", "predicate", "object", "h", "r", "t", "s", "p", "o"}


def _clean(part: str) -> str:
    return " ".join(part.strip(_QUOTES).split())


def _link_from_parts(parts: list[str]) -> Link | None:
    cleaned = [_clean(p) for p in parts]
    if len(cleaned) != 3 or not all(cleaned):
        return None
    return Link(*cleaned)


def _split_bracketed(inner: str) -> Link | None:
    # csv handles quoted entity names that contain commas: ("Washington, D.C.", capital of, USA)
    rows = list(csv.reader([inner], skipinitialspace=True))
    return _link_from_parts(rows[0]) if rows else None


def _arrow_chain(line: str) -> list[Link]:
    """'a -> r -> b -> r2 -> c' gives (a, r, b) and (b, r2, c)."""
    parts = _ARROW.split(line)
    if len(parts) < 3 or len(parts) % 2 == 0:
        return []
    links = [_link_from_parts(parts[i:i + 3]) for i in range(0, len(parts) - 2, 2)]
    return [link for link in links if link is not None]


def _explicit_links_in_line(line: str, in_prose: bool = True) -> list[Link]:
    """Triples written in one of the explicit notations, in the order they appear.

    In prose a line may end a sentence: its final punctuation is not part of the tail.
    """
    line = _LIST_MARKER.sub("", line, count=1)
    if in_prose:
        line = line.rstrip().rstrip(".;:!?,")
    labelled = _LABELLED_ARROW.match(line.strip())
    if labelled:
        link = _link_from_parts(list(labelled.groups()))
        return [link] if link else []
    if "->" in line:
        return _arrow_chain(line)
    found = (_split_bracketed(m.group(1)) for m in _BRACKETED.finditer(line))
    return [link for link in found if link is not None]


# ---------------------------------------------------------------- graph files

def _link_from_json(item: object) -> Link:
    if isinstance(item, (list, tuple)) and len(item) == 3:
        return Link(*(str(x).strip() for x in item))
    if isinstance(item, dict):
        for keys in (("head", "relation", "tail"), ("subject", "predicate", "object"),
                     ("h", "r", "t"), ("s", "p", "o")):
            if all(k in item for k in keys):
                return Link(*(str(item[k]).strip() for k in keys))
    raise ValueError(f"not a triple: {item!r}")


def _is_header(cells: list[str]) -> bool:
    return all(c.strip().lower() in HEADER_WORDS for c in cells)


def _link_from_line(line: str) -> Link:
    stripped = line.strip()
    if stripped.startswith("{"):
        return _link_from_json(json.loads(stripped))
    if stripped.startswith("["):
        try:
            return _link_from_json(json.loads(stripped))
        except json.JSONDecodeError:
            pass  # "[h, r, t]" without quotes: handled as a bracketed triple below
    for separator in ("\t", "|"):
        if separator in stripped:
            link = _link_from_parts(stripped.split(separator))
            if link:
                return link
    links = _explicit_links_in_line(stripped, in_prose=False)
    if len(links) == 1:
        return links[0]
    rows = list(csv.reader([stripped], skipinitialspace=True))
    link = _link_from_parts(rows[0]) if rows else None
    if link:
        return link
    raise ValueError(f"cannot read a triple from: {line!r}")


def parse_graph(text: str) -> list[Link]:
    """Read an input graph: JSON array, JSONL, TSV/CSV with 3 columns, or one
    "h | r | t", "(h, r, t)", "h -> r -> t" per line. Blank and '#' lines are skipped;
    a header row (head/relation/tail, subject/predicate/object) is skipped."""
    stripped = text.strip()
    if not stripped:
        return []
    if stripped[0] in "[{":
        try:
            document = json.loads(stripped)
        except json.JSONDecodeError:
            document = None  # JSONL, or lines that merely start with a bracket
        if isinstance(document, dict):
            for key in ("edges", "triples", "links", "graph"):
                if isinstance(document.get(key), list):
                    document = document[key]
                    break
        if isinstance(document, list):
            return [_link_from_json(item) for item in document]
        if isinstance(document, dict):
            return [_link_from_json(document)]
    links: list[Link] = []
    first_row = True
    for number, line in enumerate(stripped.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        is_header = first_row and _is_header(re.split(r"[\t,|]", line))
        first_row = False
        if is_header:
            continue
        try:
            links.append(_link_from_line(line))
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
    return links


# ---------------------------------------------------------------- chain of thought

# Function words dropped from a relation phrase; prepositions stay because they carry
# the relation ("born in", "member of", "works for").
STOP_WORDS = frozenset("""
a an the this that these those it its it's which who whom whose what where when
is are was were be been being am has have had having do does did
and or but so thus hence therefore then also too as well
i we you he she they his her their our my your one
very just only really
""".split())

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])|\n+")
_WORD = re.compile(r"[\w'’-]+")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _mention_pattern(entity_names: Iterable[str]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    canonical: dict[str, str] = {}
    for name in entity_names:
        name = " ".join(name.split())
        if name:
            canonical.setdefault(name.casefold(), name)
    if not canonical:
        return None, canonical
    # Longest first, so "New York City" wins over "New York" at the same position.
    alternatives = sorted(canonical, key=len, reverse=True)
    body = "|".join(re.escape(a).replace(r"\ ", r"\s+") for a in alternatives)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE), canonical


def _relation_words(between: str) -> str:
    words = [w for w in _WORD.findall(between) if w.casefold() not in STOP_WORDS]
    return " ".join(words)


def _mention_links(reasoning: str, entity_names: Iterable[str]) -> list[Link]:
    pattern, canonical = _mention_pattern(entity_names)
    if pattern is None:
        return []
    links = []
    for sentence in _sentences(reasoning):
        mentions = [(m.start(), m.end(), canonical[" ".join(m.group(0).split()).casefold()])
                    for m in pattern.finditer(sentence)]
        # Consecutive mentions only: "A is the capital of B, which borders C" states
        # (A, capital of, B) and (B, borders, C), not (A, ..., C).
        for (_, end, head), (start, _, tail) in zip(mentions, mentions[1:]):
            relation = _relation_words(sentence[end:start])
            if head.casefold() != tail.casefold() and relation:
                links.append(Link(head, relation, tail))
    return links


def extract_links(reasoning: str, entity_names: Iterable[str] = ()) -> list[Link]:
    """Turn a chain of thought into links, deterministically.

    Explicit triples ("(A, r, B)", "<A, r, B>", "A -> r -> B", "A --r--> B") win: if any
    line holds one, only explicit triples are returned. Otherwise, sentence by sentence,
    mentions of `entity_names` (the input graph's entities) are found, and each pair of
    consecutive mentions gives a link whose relation is the words between them, stop
    words removed. Pairs with nothing but stop words between them give no link.
    """
    explicit = [link for line in reasoning.splitlines() for link in _explicit_links_in_line(line)]
    if explicit:
        return explicit
    return _mention_links(reasoning, entity_names)


# ---------------------------------------------------------------- scoring

_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def _entity_key(name: str) -> str:
    return _LEADING_ARTICLE.sub("", " ".join(name.split()).strip(_EDGE_PUNCT)).casefold()


def _pair_key(link: Link) -> frozenset[str]:
    return frozenset((_entity_key(link.head), _entity_key(link.tail)))


def graph_entity_names(graph: Iterable[Link]) -> list[str]:
    names: dict[str, None] = {}
    for edge in graph:
        names.setdefault(edge.head)
        names.setdefault(edge.tail)
    return list(names)


def _empty_report(threshold: float, reason: str, scored: tuple[LinkScore, ...] = ()) -> FaithfulnessReport:
    return FaithfulnessReport(score=0.0, links=scored, threshold=threshold, reason=reason)


def _fallback_scores(link_row: int, head_row: int, tail_row: int, edge_rows: np.ndarray,
                     edge_head_rows: np.ndarray, edge_tail_rows: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """Link cosine against every edge, capped by how well the two entities match.

    Without the cap a fabricated entity scores almost like the truth:
    "Paris capital of Germany" vs "Paris capital of France" is 0.86 with MiniLM.
    Entities may match in either direction (the CoT may state the inverse relation).
    """
    link_cosines = vectors[edge_rows] @ vectors[link_row]
    head, tail = vectors[head_row], vectors[tail_row]
    edge_heads, edge_tails = vectors[edge_head_rows], vectors[edge_tail_rows]
    same_direction = np.minimum(edge_heads @ head, edge_tails @ tail)
    inverse_direction = np.minimum(edge_tails @ head, edge_heads @ tail)
    return np.minimum(link_cosines, np.maximum(same_direction, inverse_direction))


def score_reasoning(reasoning: str, graph: list[Link], embedder: Embedder,
                    threshold: float = DEFAULT_THRESHOLD,
                    links: list[Link] | None = None) -> FaithfulnessReport:
    """Score how faithful `reasoning` is to `graph` (see the module docstring).

    `links` skips extraction (e.g. links produced by an LLM, as in the paper).
    """
    if links is None:
        if not reasoning.strip():
            return _empty_report(threshold, "empty reasoning")
        links = extract_links(reasoning, graph_entity_names(graph))
    if not links:
        return _empty_report(threshold, "no links could be extracted from the reasoning")
    if not graph:
        unmatched = tuple(LinkScore(link, None, 0.0, False) for link in links)
        return _empty_report(threshold, "the input graph has no edges", unmatched)

    edges_by_pair: dict[frozenset[str], list[int]] = {}
    for index, edge in enumerate(graph):
        edges_by_pair.setdefault(_pair_key(edge), []).append(index)
    needs_fallback = any(_pair_key(link) not in edges_by_pair for link in links)

    # Each distinct string is embedded once, in a single batch; entity names only
    # when some link has no edge with the same two entities.
    texts = [link.as_text() for link in links] + [edge.as_text() for edge in graph]
    if needs_fallback:
        texts += [name for item in (*links, *graph) for name in (item.head, item.tail)]
    texts = list(dict.fromkeys(texts))
    row_of = {text: row for row, text in enumerate(texts)}
    vectors = embedder.encode(texts)
    edge_rows = np.array([row_of[edge.as_text()] for edge in graph])
    if needs_fallback:
        edge_head_rows = np.array([row_of[edge.head] for edge in graph])
        edge_tail_rows = np.array([row_of[edge.tail] for edge in graph])

    scored = []
    for link in links:
        link_row = row_of[link.as_text()]
        same_entities = edges_by_pair.get(_pair_key(link))
        if same_entities:
            candidates = np.array(same_entities)
            scores = vectors[edge_rows[candidates]] @ vectors[link_row]
        else:
            candidates = np.arange(len(graph))
            scores = _fallback_scores(link_row, row_of[link.head], row_of[link.tail], edge_rows,
                                      edge_head_rows, edge_tail_rows, vectors)
        best = int(np.argmax(scores))
        score = float(scores[best])
        scored.append(LinkScore(link, graph[int(candidates[best])], score, score >= threshold))

    scored_links = tuple(scored)
    failed = [s for s in scored_links if not s.passed]
    if failed:
        shown = "; ".join(f"({s.link.head}, {s.link.relation}, {s.link.tail}) {s.score:.3f}" for s in failed[:3])
        return _empty_report(
            threshold, f"{len(failed)} of {len(scored_links)} links under the threshold {threshold}: {shown}",
            scored_links)
    mean = float(np.mean([s.score for s in scored_links]))
    return FaithfulnessReport(score=mean, links=scored_links, threshold=threshold,
                              reason=f"all {len(scored_links)} links match input edges")


def _link_dict(link: Link | None) -> dict | None:
    return None if link is None else {"head": link.head, "relation": link.relation, "tail": link.tail}


def report_to_dict(report: FaithfulnessReport) -> dict:
    """A JSON-ready rendering of the report."""
    return {
        "score": round(report.score, 6),
        "threshold": report.threshold,
        "reason": report.reason,
        "links": [
            {"link": _link_dict(s.link), "best_match": _link_dict(s.best_match),
             "score": round(s.score, 6), "passed": s.passed}
            for s in report.links
        ],
    }
