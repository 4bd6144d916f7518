"""Issue 17 item 6: the free-text pipeline's per-sentence work no longer scans the whole text, and it can
be stopped between sentences. (Timings are in bench/text.py --scaling, never asserted here.)"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from kgcheck.index.embed import FakeEmbedder
from kgcheck.verifier.control import Control, DeadlineExceeded, watching
from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.referents import EarlierMentions, earlier_referent

CLASSES = {"Q1": "film", "Q2": "feature film", "Q3": "scientific journal", "Q4": "dam", "Q5": "album"}


class _Facts:
    def prefetch_ancestors(self, ids):
        pass

    def prefetch_labels(self, ids):
        pass

    def ancestors(self, eid):
        return {"Q2": {"Q1"}}.get(eid, set())

    def label(self, eid):
        return CLASSES.get(eid)


class _St:
    def __init__(self, cls):
        self.property, self.value = "P31", type("V", (), {"entity_id": cls})()


@settings(max_examples=200, deadline=None)
@given(entities=st.lists(st.sampled_from([f"E{i}" for i in range(8)]), max_size=30),
       kinds=st.dictionaries(st.sampled_from([f"E{i}" for i in range(8)]), st.lists(st.sampled_from(sorted(CLASSES)),
                                                                                     max_size=2)),
       queries=st.lists(st.lists(st.sampled_from(["film", "journal", "dam", "album", "feature", "song"]), min_size=1,
                                 max_size=3), max_size=6))
def test_indexed_earlier_mentions_find_what_the_scan_finds(entities, kinds, queries):
    statements = {e: [_St(c) for c in cs] for e, cs in kinds.items()}
    indexed, plain = EarlierMentions(), []
    step = max(1, len(entities) // max(1, len(queries)))
    for i, nouns in enumerate(queries):
        batch = [Mention(j, j + 1, e, e) for j, e in enumerate(entities[i * step:(i + 1) * step], i * step)]
        indexed.extend(batch)
        plain.extend(batch)
        assert earlier_referent(nouns, indexed, statements, _Facts()) == earlier_referent(nouns, plain, statements,
                                                                                         _Facts())


def test_a_deadline_stops_verify_between_sentences(mini_kg_dir):
    from kgcheck.index.store import KG
    from kgcheck.verifier.text.verify import verify_text

    seen = []
    with KG.open(str(mini_kg_dir), embedder=FakeEmbedder()) as kg:
        text = "Douglas Adams was born in Cambridge in 1962. He died in Santa Barbara. " * 5
        with watching(Control(on_progress=lambda stage, done, total: seen.append((stage, done, total)))):
            verify_text(kg, text)
        assert ("sentences", 0, 10) in seen and ("sentences", 9, 10) in seen and seen[-1][0] == "claims"
        control = Control(seconds=60)
        control.cancel()
        with pytest.raises(DeadlineExceeded), watching(control):
            verify_text(kg, text)
