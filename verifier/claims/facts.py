"""Graph facts the judge asks for, read from the index in bulk and cached.

Bulk callers prefetch (names, labels, ancestors) for a whole batch of claims in a
few queries; single-claim callers get the same answers lazily.
"""
from __future__ import annotations

import os
import threading

import numpy as np

from kgcheck.index.model import ENTITY

from kgcheck.verifier.claims.judge import JudgeFacts

# Properties whose closure makes a claimed value "less specific" than the graph's:
# located in the administrative territorial entity, country, location, part of, continent,
# located in/on physical feature, subclass of.
HIERARCHY = ("P131", "P17", "P276", "P361", "P30", "P706", "P279")
MAX_DEPTH = 5
# Single-valued by Wikidata's own constraints; the data decides the rest.
SINGLE_VALUED = frozenset({"P569", "P570", "P19", "P20", "P21", "P571", "P576", "P1082", "P2046", "P2044", "P2048",
                           "P2067", "P1477", "P625", "P17", "P36", "P159", "P495", "P577", "P50", "P1566"})
MIN_SUBJECTS = 20  # below this the data says too little about a property's functionality


class KGFacts(JudgeFacts):
    def __init__(self, kg):
        self.kg = kg
        self._lock = threading.Lock()
        self._names: dict[str, set[str]] = {}
        self._labels: dict[str, str | None] = {}
        self._ancestors: dict[str, set[str]] = {}
        self._functionality: dict[str, float] | None = None
        self._prop_vectors: dict[str, np.ndarray] | None = None
        self._datatypes: dict[str, str | None] = {}
        self._similarity: dict[tuple[str, str], float] = {}

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

    # -- hierarchy ------------------------------------------------------------------------------
    def prefetch_ancestors(self, ids) -> None:
        """Transitive closure over HIERARCHY for many ids: one query per level, not per id."""
        todo = sorted({i for i in ids if i and i not in self._ancestors})
        if not todo:
            return
        parents: dict[str, set[str]] = {}
        frontier = set(todo)
        for _ in range(MAX_DEPTH):
            frontier = {f for f in frontier if f not in parents}
            if not frontier:
                break
            rows = self.kg.subject_rows(
                "subject, entity_id", frontier,
                "property IN (SELECT unnest(?)) AND entity_id IS NOT NULL AND rank <> 'deprecated'", [list(HIERARCHY)])
            for f in frontier:
                parents[f] = set()
            for subject, parent in rows:
                parents[subject].add(parent)
            frontier = {p for ps in (parents[f] for f in frontier) for p in ps}
        for start in todo:
            seen: set[str] = set()
            stack = list(parents.get(start, ()))
            while stack:
                node = stack.pop()
                if node in seen or node == start:
                    continue
                seen.add(node)
                stack.extend(parents.get(node, ()))
            self._ancestors[start] = seen

    def ancestors(self, eid: str) -> set[str]:
        if eid not in self._ancestors:
            self.prefetch_ancestors([eid])
        return self._ancestors.get(eid, set())

    # -- properties -----------------------------------------------------------------------------
    def functionality(self, pid: str) -> float:
        if self._functionality is None:
            with self._lock:
                if self._functionality is None:
                    self._functionality = self._load_functionality()
        value = self._functionality.get(pid, 0.0)
        return max(value, 0.95) if pid in SINGLE_VALUED else value

    def _load_functionality(self) -> dict[str, float]:
        if not self.kg.has_table("property_stats"):
            return {}
        out = {}
        for pid, subjects, functionality, dated_share in self.kg.sql(
                "SELECT property, subjects, functionality, dated_share FROM property_stats"):
            if subjects < MIN_SUBJECTS:
                continue
            # A time series (population by year) has one value per point in time: single-valued per time.
            out[pid] = max(functionality, 0.9) if dated_share >= 0.5 else functionality
        return out

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

    def _load_property_vectors(self) -> dict[str, np.ndarray]:
        """Unit vectors of each property's label, aliases and description, read back from the flat index."""
        import pyarrow.parquet as pq

        from kgcheck.index.manifest import VECTORS_DIR
        from kgcheck.index.vectors import load_faiss

        vectors_dir = os.path.join(self.kg.directory, VECTORS_DIR)
        index = load_faiss(os.path.join(vectors_dir, "properties.faiss"))
        ids = pq.read_table(os.path.join(vectors_dir, "property_texts.parquet")).column("id").to_pylist()
        matrix = index.reconstruct_n(0, index.ntotal) if index.ntotal else np.zeros((0, 1), np.float32)
        grouped: dict[str, list[np.ndarray]] = {}
        for pid, vec in zip(ids, matrix):
            grouped.setdefault(pid, []).append(vec)
        return {pid: np.stack(vecs) for pid, vecs in grouped.items()}

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
        if self._prop_vectors is None:
            with self._lock:
                if self._prop_vectors is None:
                    self._prop_vectors = self._load_property_vectors()
        vectors = self._prop_vectors.get(pid)
        if vectors is None:
            return 0.0
        value = self._similarity[key] = float(np.max(vectors @ self.kg.searcher().query_vector(predicate)))
        return value


def entity_values(statements) -> set[str]:
    return {st.value.entity_id for st in statements if st.value.kind == ENTITY and st.value.entity_id}
