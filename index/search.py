"""Entity and property search: exact and normalised label/alias matches, vectors, popularity prior.

Scores are tiered so that a better kind of match always wins over a worse one,
and the popularity prior only orders candidates within a tier:
exact label 1.0 > exact alias 0.95 > normalised label 0.9 > normalised alias 0.86 > vector 0.8·cosine.
"""
from __future__ import annotations

import math
import os
import re
import sqlite3
import threading
from collections import defaultdict

import numpy as np
import pyarrow.parquet as pq

from .manifest import VECTORS_DIR, check_index_compatible
from .model import Candidate
from .text import normalise

_ID = re.compile(r"^[QPL][1-9]\d*$")
TIER = {("exact", "label"): 1.0, ("exact", "alias"): 0.95, ("normalised", "label"): 0.9,
        ("normalised", "alias"): 0.86, ("exact", "description"): 0.8, ("normalised", "description"): 0.8}
VECTOR_WEIGHT = 0.8
PRIOR_CAP = 0.04


def popularity(sitelinks: int | None, statement_count: int | None) -> float:
    """A small bonus for well-known entities; capped below the gap between tiers."""
    raw = 0.004 * math.log1p(sitelinks or 0) + 0.003 * math.log1p(statement_count or 0)
    return min(PRIOR_CAP, raw)


class Searcher:
    def __init__(self, kg, embedder=None):
        self.kg = kg
        self._embedder = embedder
        self._lock = threading.Lock()
        self._entity_index = None
        self._texts_db = threading.local()
        self._props_loaded = False
        self._vector_cache: dict[str, np.ndarray] = {}
        self._stored_rows: dict[str, int] | None = None  # property text -> its row in properties.faiss
        self._grouped_vectors: dict[str, np.ndarray] | None = None  # property id -> its texts' vectors
        vectors_dir = os.path.join(kg.directory, VECTORS_DIR)
        self.vectors_dir = vectors_dir if os.path.isdir(vectors_dir) else None
        # An embedder given by name (a registry entry) is loaded on first use, like the default.
        check_index_compatible(kg.manifest, getattr(embedder, "name", None))

    # -- resources, loaded on first use -----------------------------------------------------------
    @property
    def embedder(self):
        if self._embedder is None or isinstance(self._embedder, str):
            from .embed import get_embedder

            self._embedder = get_embedder(self._embedder) if self._embedder else get_embedder()
            check_index_compatible(self.kg.manifest, self._embedder.name)
        return self._embedder

    def _load_entity_vectors(self) -> bool:
        shards = self.kg.manifest["index"].get("layout", {}).get("entity_vectors", [])
        if self.vectors_dir is None or not shards:
            return False  # built with --embed none: labels and aliases only
        with self._lock:
            if self._entity_index is None:
                from .vectors import ShardedIndex

                self._entity_index = ShardedIndex([os.path.join(self.kg.directory, s) for s in shards])
        return True

    def _row_texts(self, rows) -> dict[int, str]:
        """FAISS row -> text, looked up in vectors/texts.sqlite (never loaded whole)."""
        db = getattr(self._texts_db, "db", None)
        if db is None:
            uri = "file:" + os.path.join(self.vectors_dir, "texts.sqlite") + "?mode=ro"
            db = self._texts_db.db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        wanted = sorted({int(r) for r in rows if r >= 0})
        out: dict[int, str] = {}
        for start in range(0, len(wanted), 900):
            part = wanted[start:start + 900]
            out.update(db.execute(f"SELECT row, text FROM texts WHERE row IN ({','.join('?' * len(part))})",
                                  part).fetchall())
        return out

    def _load_properties(self) -> None:
        with self._lock:
            if self._props_loaded:
                return
            rows = self.kg.sql(
                "SELECT p.id, p.text, p.kind, e.label, e.description FROM labels p JOIN entities e ON e.id = p.id "
                "WHERE e.type = 'property'")
            self._prop_by_norm: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
            self._prop_info: dict[str, tuple[str, str]] = {}
            for pid, text, kind, label, desc in rows:
                self._prop_by_norm[normalise(text)].append((pid, text, kind))
                self._prop_info[pid] = (label, desc)
            for pid, label, desc in self.kg.sql(
                    "SELECT id, label, description FROM entities WHERE type = 'property'"):
                self._prop_info[pid] = (label, desc)
            self._prop_index = None
            if self.vectors_dir:
                from .vectors import load_faiss

                self._prop_index = load_faiss(os.path.join(self.vectors_dir, "properties.faiss"))
                table = pq.read_table(os.path.join(self.vectors_dir, "property_texts.parquet"))
                self._prop_rows = list(zip(table.column("id").to_pylist(), table.column("text").to_pylist(),
                                           table.column("kind").to_pylist()))
            self._props_loaded = True

    def _stored_vectors(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Vectors the build already encoded for exactly these texts: a predicate written as a property's label
        or alias needs no encoding (the flat property index gives its vector back; same model, checked at open)."""
        self._load_properties()
        if self._prop_index is None:
            return {}
        if self._stored_rows is None:
            with self._lock:
                if self._stored_rows is None:
                    self._stored_rows = {text: row for row, (_, text, _) in enumerate(self._prop_rows) if text}
        return {t: self._prop_index.reconstruct(self._stored_rows[t]) for t in texts if t in self._stored_rows}

    def property_vectors(self) -> dict[str, np.ndarray]:
        """Per property id the unit vectors of its label, aliases and description (rows of the flat property index
        the searcher holds anyway: one copy, one load); {} for an index built without vectors."""
        if self._grouped_vectors is not None:  # asked once per (predicate, property) pair: no lock on the way
            return self._grouped_vectors
        self._load_properties()
        if self._grouped_vectors is None:
            with self._lock:
                if self._grouped_vectors is None:
                    grouped: dict[str, list[np.ndarray]] = {}
                    if self._prop_index is not None and self._prop_index.ntotal:
                        matrix = self._prop_index.reconstruct_n(0, self._prop_index.ntotal)
                        for (pid, _, _), vec in zip(self._prop_rows, matrix):
                            grouped.setdefault(pid, []).append(vec)
                    self._grouped_vectors = {pid: np.stack(vecs) for pid, vecs in grouped.items()}
        return self._grouped_vectors

    def prime_vectors(self, texts) -> None:
        """Encode many query texts in one batch (bulk mode); later searches find them cached."""
        missing = sorted({t for t in texts if t and t not in self._vector_cache})
        if missing:
            self._vector_cache.update(self._stored_vectors(missing))
            missing = [t for t in missing if t not in self._vector_cache]
        if missing:
            for text, vec in zip(missing, self.embedder.encode(missing)):
                self._vector_cache[text] = vec
            if len(self._vector_cache) > 200_000:  # bounded memory for endless streams
                self._vector_cache.clear()

    def query_vector(self, text: str) -> np.ndarray:
        vec = self._vector_cache.get(text)
        if vec is None:
            self.prime_vectors([text])
            vec = self._vector_cache[text]
        return vec

    # -- entities -------------------------------------------------------------------------------
    def entities(self, text: str, k: int = 5, vectors: bool | None = None) -> list[Candidate]:
        """Ranked candidates. `vectors`: None = only when no label or alias matches (keeps p50 low)."""
        query = " ".join(text.split())
        if not query:
            return []
        best: dict[str, tuple[float, str, str]] = {}
        if _ID.match(query):
            if self.kg.entity(query) is not None:
                best[query] = (1.1, "id", query)
        self._merge_lexical(best, query, self._lexical_rows([normalise(query)]))
        use_vectors = vectors if vectors is not None else not best
        if use_vectors and self._load_entity_vectors():
            for eid, matched, sitelinks, statements, cos in self._vector_hits(query, k):
                score = VECTOR_WEIGHT * cos + popularity(sitelinks, statements)
                if eid not in best or score > best[eid][0]:
                    best[eid] = (score, "vector", matched)
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:k]
        return self._with_descriptions(ranked)

    def entities_bulk(self, texts, k: int = 5, vectors: bool = True) -> dict[str, list[Candidate]]:
        """Many queries at once: one label-index lookup for all; one batched vector search for the texts
        no label or alias matched (skipped with vectors=False)."""
        queries = {t: " ".join(t.split()) for t in set(texts) if t and t.strip()}
        by_norm: dict[str, list] = defaultdict(list)
        for row in self._lexical_rows(sorted({normalise(q) for q in queries.values()})):
            by_norm[row[0]].append(row)
        best_by_text: dict[str, dict] = {}
        unmatched = []
        for text, query in queries.items():
            best: dict[str, tuple[float, str, str]] = {}
            self._merge_lexical(best, query, by_norm.get(normalise(query), ()))
            best_by_text[text] = best
            if not best:
                unmatched.append(text)
        if vectors and unmatched and self._load_entity_vectors():
            hits = self._vector_hits_many([queries[t] for t in unmatched], k)
            for text, rows in zip(unmatched, hits):
                for eid, matched, sitelinks, statements, cos in rows:
                    score = VECTOR_WEIGHT * cos + popularity(sitelinks, statements)
                    if eid not in best_by_text[text] or score > best_by_text[text][eid][0]:
                        best_by_text[text][eid] = (score, "vector", matched)
        ranked_by_text = {t: sorted(b.items(), key=lambda kv: (-kv[1][0], kv[0]))[:k] for t, b in best_by_text.items()}
        info = self._entity_info({eid for ranked in ranked_by_text.values() for eid, _ in ranked})
        return {text: self._candidates(ranked, info) for text, ranked in ranked_by_text.items()}

    def _vector_hits_many(self, queries: list[str], k: int) -> list[list[tuple]]:
        self.prime_vectors(queries)
        matrix = np.stack([self._vector_cache[q] for q in queries]).astype(np.float32)
        scores, rows = self._entity_index.search(matrix, max(k * 2, 10))
        text_of = self._row_texts(rows.reshape(-1))
        per_query = [[(text_of[r], float(s)) for r, s in zip(rr, ss) if r >= 0]
                     for rr, ss in zip(rows, scores)]
        texts = {t for hits in per_query for t, _ in hits}
        by_text: dict[str, list] = defaultdict(list)
        # By norm (the indexed key), then the exact text: no second index on the text column.
        for eid, text, sl, sc in sorted(set(self.kg.lookup_in(
                "SELECT id, text, sitelinks, statement_count FROM label_index "
                "WHERE norm IN ({in}) AND type = 'item'", sorted({normalise(t) for t in texts})))):
            if text in texts:
                by_text[text].append((eid, sl, sc))
        return [[(eid, text, sl, sc, cos) for text, cos in hits for eid, sl, sc in by_text.get(text, ())]
                for hits in per_query]

    def _lexical_rows(self, norms: list[str]) -> list[tuple]:
        norms = [n for n in norms if n]
        if not norms:
            return []
        return self.kg.lookup_in(
            "SELECT norm, id, text, kind, sitelinks, statement_count FROM label_index "
            "WHERE norm IN ({in}) AND type = 'item'", norms)

    @staticmethod
    def _merge_lexical(best: dict, query: str, rows) -> None:
        for _norm, eid, matched, kind, sitelinks, statements in rows:
            how = "exact" if matched == query else "normalised"
            score = TIER[(how, kind)] + popularity(sitelinks, statements)
            if eid not in best or score > best[eid][0]:
                best[eid] = (score, how, matched)

    def _vector_hits(self, query: str, k: int):
        return self._vector_hits_many([query], k)[0]

    def _entity_info(self, ids) -> dict[str, tuple[str | None, str | None]]:
        ids = sorted(ids)
        if not ids:
            return {}
        return {r[0]: (r[1], r[2]) for r in self.kg.lookup_in(
            "SELECT id, label, description FROM entities WHERE id IN ({in})", ids)}

    @staticmethod
    def _candidates(ranked, info) -> list[Candidate]:
        return [Candidate(eid, *info.get(eid, (None, None)), score=round(score, 4), matched_by=how,
                          matched_text=matched)
                for eid, (score, how, matched) in ranked]

    def _with_descriptions(self, ranked) -> list[Candidate]:
        return self._candidates(ranked, self._entity_info(eid for eid, _ in ranked))

    # -- properties -----------------------------------------------------------------------------
    def properties(self, text: str, k: int = 5, vectors: bool = True) -> list[Candidate]:
        query = " ".join(text.split())
        if not query:
            return []
        self._load_properties()
        best: dict[str, tuple[float, str, str]] = {}
        if _ID.match(query) and query.startswith("P") and query in self._prop_info:
            best[query] = (1.1, "id", query)
        for pid, matched, kind in self._prop_by_norm.get(normalise(query), ()):
            how = "exact" if matched == query else "normalised"
            score = TIER[(how, kind)]
            if pid not in best or score > best[pid][0]:
                best[pid] = (score, how, matched)
        if vectors and self._prop_index is not None:
            vec = self.query_vector(query)
            scores, rows = self._prop_index.search(vec.reshape(1, -1), max(k * 4, 20))
            for r, cos in zip(rows[0], scores[0]):
                if r < 0:
                    continue
                pid, matched, _kind = self._prop_rows[r]
                score = VECTOR_WEIGHT * float(cos)
                if pid not in best or score > best[pid][0]:
                    best[pid] = (score, "vector", matched)
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:k]
        return [Candidate(pid, *self._prop_info.get(pid, (None, None)), score=round(score, 4), matched_by=how,
                          matched_text=matched) for pid, (score, how, matched) in ranked]
