"""Graph facts the judge asks for, read from the index in bulk and cached.

Bulk callers prefetch (names, labels, ancestors) for a whole batch of claims in a
few queries; single-claim callers get the same answers lazily.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Collection

import numpy as np

from kgcheck.index.constraints import TIME_SEPARATORS
from kgcheck.index.model import ENTITY
from kgcheck.index.measures import SUBCLASS_OF, demonym_rows
from kgcheck.index.store import HIERARCHY
from kgcheck.index.text import normalise

from kgcheck.verifier.claims.cooccur import CoOccurrence
from kgcheck.verifier.claims.judge import JudgeFacts, rendered_statement
from kgcheck.verifier.claims.measures import StoredMeasures
from kgcheck.verifier.claims.thresholds import (MAX_MULTI_SHARE, MAX_MULTI_UPPER, MIN_SUBJECTS,  # noqa: F401
                                               Z95, wilson_upper)
from kgcheck.verifier.claims.trace import TraceMeasures

MAX_DEPTH = 5
RENDERED_KEPT = 200_000  # statements whose evidence rendering KGFacts keeps (about 100 MB at most)


@dataclass(frozen=True)
class Exclusivity:
    """May a value of this property other than the graph's be called false, and on whose word."""

    source: str  # "constraint" (Wikidata's P2302), "measured" (this graph) or "none"
    exclusive: bool
    detail: str  # what decided, in words, with its provenance
    separators: tuple[str, ...] = ()
    multi_share: float | None = None  # measured share of subjects with several best values
    subjects: int = 0  # subjects holding the property (measured)


def ancestor_closure(parent_rows, ids) -> dict[str, set[str]]:
    """Per id its containers and superclasses up to MAX_DEPTH levels up: parent_rows(frontier) gives the
    (subject, property, parent) HIERARCHY edges of a set of entities (one call per level). Shared by the checker
    and by recheck's tracing of chain edits (rehierarchy.py), which must close over the same edges the same way."""
    parents: dict[str, set[str]] = {}  # every listed container
    solid: dict[str, set[str]] = {}  # the containers a path may go on through (see below)
    frontier = asked = set(ids)
    for _ in range(MAX_DEPTH):
        frontier = {f for f in frontier if f not in parents}
        if not frontier:
            break
        rows = parent_rows(frontier)
        for f in frontier:
            parents[f], solid[f] = set(), set()
        by_property: dict[tuple[str, str], set[str]] = {}
        for subject, prop, parent in rows:
            by_property.setdefault((subject, prop), set()).add(parent)
        for (subject, prop), found in by_property.items():
            parents[subject] |= found
            # A thing listed under several containers of one property may span them (the Iberian
            # Peninsula's countries, an island shared by two states) or list former ones: each is its own
            # statement, but a path does not go on through it (Spain -> Iberian Peninsula -> Gibraltar ->
            # United Kingdom). Every superclass of a class is one, so classes go on.
            if len(found) == 1 or prop == SUBCLASS_OF:
                solid[subject] |= found
        # Only the asked ids are walked past a container they share with others: fetch no more than that.
        frontier = {p for f in frontier for p in (parents[f] if f in asked else solid[f])}
    closure: dict[str, set[str]] = {}
    for start in asked:
        seen: set[str] = set()
        stack = list(parents.get(start, ()))
        while stack:
            node = stack.pop()
            if node in seen or node == start:
                continue
            seen.add(node)
            stack.extend(solid.get(node, ()))
        closure[start] = seen
    return closure


class KGFacts(JudgeFacts):
    def __init__(self, kg):
        self.kg = kg
        self._lock = threading.Lock()
        self._names: dict[str, set[str]] = {}
        self._demonyms: dict[str, set[str]] = {}
        self._labels: dict[str, str | None] = {}
        self._ancestors: dict[str, set[str]] = {}
        self._exclusivity: dict[str, Exclusivity] | None = None
        self._exceptions: dict[str, frozenset[str]] = {}
        self._datatypes: dict[str, str | None] = {}
        self._similarity: dict[tuple[str, str], float] = {}
        # The measured tests' outcomes per (test, property, subject[, held values]): claims on one subject and
        # property (a pipeline's true and swapped triples, a re-check's hit lines) ask them again and again.
        self._tested: dict[tuple, Exclusivity | None] = {}
        self._rendered: dict[tuple, tuple] = {}
        self.measures = StoredMeasures(kg)
        self.trace = TraceMeasures(kg)

    # -- names and labels -------------------------------------------------------------------------
    def prefetch_names(self, ids) -> None:
        missing = sorted({i for i in ids if i and i not in self._names})
        if not missing:
            return
        found: dict[str, set[str]] = {i: set() for i in missing}
        for eid, norm in self.kg.lookup_in("SELECT id, norm FROM label_index WHERE id IN ({in})", missing):
            found[eid].add(norm)
        self._names.update(found)

    def names(self, eid: str) -> set[str]:
        if eid not in self._names:
            self.prefetch_names([eid])
        return self._names.get(eid, set())

    def prefetch_demonyms(self, ids) -> None:
        """The demonyms (DEMONYM, not deprecated, in the index's languages) of IDS not read yet, in one read."""
        missing = sorted({i for i in ids if i and i not in self._demonyms})
        if not missing:
            return
        found: dict[str, set[str]] = {i: set() for i in missing}
        for eid, text in self.kg.subject_rows("subject, string", missing, *demonym_rows(self.kg)):
            norm = normalise(text)
            if norm:
                found[eid].add(norm)
        self._demonyms.update(found)

    def demonyms(self, eid: str) -> set[str]:
        if eid not in self._demonyms:
            self.prefetch_demonyms([eid])
        return self._demonyms.get(eid, set())

    def prefetch_labels(self, ids) -> None:
        missing = sorted({i for i in ids if i and i not in self._labels})
        if missing:
            found = self.kg.labels(missing)
            for i in missing:
                self._labels[i] = found.get(i)

    def label(self, eid: str) -> str | None:
        if eid not in self._labels:
            self.prefetch_labels([eid])
        return self._labels.get(eid)

    def rendered(self, st) -> tuple:
        # A pipeline's claims on one subject cite the same statements: 10,198 renderings for 23,968 evidence items
        # of a recheck's 4,172 claims. Bounded: a check of millions of claims starts it over now and then.
        key = (st.subject, st.statement_id, bool(st.references))
        found = self._rendered.get(key)
        if found is None:
            if len(self._rendered) >= RENDERED_KEPT:
                self._rendered.clear()
            found = self._rendered[key] = rendered_statement(st, self)
        return found

    # -- hierarchy ------------------------------------------------------------------------------
    def prefetch_ancestors(self, ids) -> None:
        """Transitive closure over HIERARCHY for many ids: one query per level, not per id."""
        todo = sorted({i for i in ids if i and i not in self._ancestors})
        if todo:
            self._ancestors.update(ancestor_closure(
                lambda frontier: self.kg.parent_rows(frontier, HIERARCHY, with_property=True), todo))

    def ancestors(self, eid: str) -> set[str]:
        if eid not in self._ancestors:
            self.prefetch_ancestors([eid])
        return self._ancestors.get(eid, set())

    # -- properties -----------------------------------------------------------------------------
    def exclusivity(self, pid: str, subject: str | None = None) -> Exclusivity:
        if self._exclusivity is None:
            with self._lock:
                if self._exclusivity is None:
                    self._exclusivity = self._load_exclusivity()
        found = self._exclusivity.get(pid) or Exclusivity("none", False, "no constraint, too few subjects to measure")
        if found.source == "constraint" and subject in self._exceptions.get(pid, ()):
            return Exclusivity("constraint", False, f"{subject} is an exception to the constraint", found.separators)
        return found

    def _load_exclusivity(self) -> dict[str, Exclusivity]:
        out: dict[str, Exclusivity] = {}
        if self.kg.has_table("property_stats"):
            columns = {r[0] for r in self.kg.sql("SELECT column_name FROM information_schema.columns "
                                                  "WHERE table_name = 'property_stats'")}
            multi = "best_multi_subjects" if "best_multi_subjects" in columns else "multi_subjects"
            for pid, subjects, several in self.kg.sql(f"SELECT property, subjects, {multi} FROM property_stats"):
                if subjects < MIN_SUBJECTS:
                    continue
                share, upper = several / subjects, wilson_upper(int(several), int(subjects))
                exclusive = share <= MAX_MULTI_SHARE and upper <= MAX_MULTI_UPPER
                out[pid] = Exclusivity("measured" if exclusive else "none", exclusive,
                                       f"{share:.1%} of {subjects:,} subjects in the graph hold several values",
                                       TIME_SEPARATORS, share, int(subjects))
        if self.kg.has_table("property_constraints"):
            for pid, kind, separators, exceptions, statement_id in self.kg.sql(
                    "SELECT property, kind, separators, exceptions, statement_id FROM property_constraints "
                    "ORDER BY property, statement_id"):
                if pid in out and out[pid].source == "constraint":
                    continue
                out[pid] = Exclusivity("constraint", True, f"{kind} constraint ({statement_id})",
                                       tuple(separators or ()))
                self._exceptions[pid] = frozenset(exceptions or ())
        return out

    def prefetch_measures(self, asked, held_values: Collection[tuple] | None = None) -> None:
        """(subject, property, held values, claimed values) the judge may measure (open world): their measure
        rows and co-occurrence counts, in bulk. Only properties not single-valued by themselves need them.
        held_values: what those subjects hold, when read already (store.held_values)."""
        asked = [a for a in asked if not self.exclusivity(a[1], a[0]).exclusive]
        self.measures.prefetch(asked, MIN_SUBJECTS, self._overall, held_values)
        self.trace.prefetch(asked, self.measures.subject)

    def _overall(self, pid: str, subject: str) -> tuple[int, float] | None:
        """(subjects, share holding several) of pid graph-wide, when measured: what co-occurrence expects from."""
        measured = self.exclusivity(pid, subject)
        if measured.multi_share is None or measured.subjects < MIN_SUBJECTS:
            return None
        return measured.subjects, measured.multi_share

    def _once(self, key: tuple, test) -> Exclusivity | None:
        if key not in self._tested:
            self._tested[key] = test()
        return self._tested[key]

    def class_exclusivity(self, pid: str, subject: str) -> Exclusivity | None:
        """The measured test among the subjects of the subject's classes (byclass.py); None if none measurable."""
        return self._once(("class", pid, subject), lambda: self._class_exclusivity(pid, subject))

    def _class_exclusivity(self, pid: str, subject: str) -> Exclusivity | None:
        measured = self.measures.by_class(pid, subject, MIN_SUBJECTS)
        if not measured:
            return None
        loosest = measured[0]
        return _measured("class", loosest.several, loosest.subjects, f"{loosest.share:.1%} of the "
                         f"{loosest.subjects:,} subjects that are {self.label(loosest.cls) or loosest.cls} hold "
                         "several values")

    def profile_exclusivity(self, pid: str, subject: str) -> Exclusivity | None:
        """The measured test among the subjects that also hold each other property the subject holds (byclass.py)."""
        return self._once(("profile", pid, subject), lambda: self._profile_exclusivity(pid, subject))

    def _profile_exclusivity(self, pid: str, subject: str) -> Exclusivity | None:
        measured = self.measures.by_profile(pid, subject, MIN_SUBJECTS)
        if not measured:
            return None
        loosest = measured[0]
        return _measured("profile", loosest.several, loosest.subjects, f"{loosest.share:.1%} of the "
                         f"{loosest.subjects:,} other subjects that also hold {self.label(loosest.cls) or loosest.cls}"
                         " hold several values")

    def value_exclusivity(self, pid: str, subject: str, held: list[str]) -> Exclusivity | None:
        """The measured test among the other subjects holding each value the subject holds: exclusive when every
        held value is measured and comes alone (cooccur.held_alone); None when nothing is held."""
        return self._once(("value", pid, subject, tuple(held)), lambda: self._value_exclusivity(pid, subject, held))

    def _value_exclusivity(self, pid: str, subject: str, held: list[str]) -> Exclusivity | None:
        found = self.measures.by_value(pid, subject, held)
        if not found:
            return None
        loosest = found[0]
        return _measured("value", loosest.several, loosest.subjects, f"{loosest.share:.1%} of the "
                         f"{loosest.subjects:,} other subjects with {self.label(loosest.value) or loosest.value} "
                         "hold several values")

    def cooccurrence(self, pid: str, subject: str, held: list[str], claimed: list[str]) -> CoOccurrence | None:
        """How often other subjects hold a claimed value beside the subject's values of pid (cooccur.py)."""
        overall = self._overall(pid, subject)
        return self.measures.cooccurrence(pid, subject, held, claimed, *overall) if overall else None

    def trace_exclusivity(self, pid: str, subject: str, held: list[str], claimed: list[str]) -> Exclusivity | None:
        """The trace test (trace.py): every reading of the claimed value untraced where a true one rarely is."""
        found = self.trace.outcome(pid, subject, held, claimed, self.measures.subject(subject))
        if found is None:
            return None
        return Exclusivity("trace", found.exclusive, found.detail, TIME_SEPARATORS, found.share, found.subjects)

    def datatype(self, pid: str) -> str | None:
        if pid not in self._datatypes:
            self.prefetch_datatypes([pid])
        return self._datatypes.get(pid)

    def prefetch_datatypes(self, pids) -> None:
        missing = sorted({p for p in pids if p and p not in self._datatypes})
        if missing:
            found = dict(self.kg.lookup_in("SELECT id, datatype FROM entities WHERE id IN ({in})", missing))
            for pid in missing:
                self._datatypes[pid] = found.get(pid)

    def prefetch_predicates(self, predicates) -> None:
        self.kg.searcher().prime_vectors(predicates)

    def predicate_similarity(self, predicate: str, pid: str) -> float:
        """Best cosine between the claim's predicate and any text of the property (GPToLODS/Factum matching)."""
        if not predicate:
            return 0.0
        key = (predicate, pid)
        cached = self._similarity.get(key)
        if cached is not None:
            return cached
        vectors = self.kg.searcher().property_vectors().get(pid)
        if vectors is None:
            return 0.0
        value = self._similarity[key] = float(np.max(vectors @ self.kg.searcher().query_vector(predicate)))
        return value


def _measured(source: str, several: int, subjects: int, detail: str) -> Exclusivity:
    """The measured fallback's test (MAX_MULTI_SHARE, MAX_MULTI_UPPER) on one group of subjects."""
    share = several / subjects if subjects else 1.0
    exclusive = subjects >= MIN_SUBJECTS and share <= MAX_MULTI_SHARE and wilson_upper(several, subjects) <= MAX_MULTI_UPPER
    return Exclusivity(source, exclusive, detail, TIME_SEPARATORS, share, subjects)


def entity_values(statements) -> set[str]:
    return {st.value.entity_id for st in statements if st.value.kind == ENTITY and st.value.entity_id}
