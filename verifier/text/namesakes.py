"""A value's namesake that fits the relation the words name: "Darren Aronofsky was born in Chicago", where the
gazetteer took the rock band Chicago (nothing in the graph links the man to either, and the band's description reads
closer to a sentence about an American). "born in" names a place of birth; of the things called Chicago, one may be
a birthplace by its role or class, the city: the words' claim is about it. Only a single fitting namesake is taken;
several, or none, leave the mention as the gazetteer linked it.
"""
from __future__ import annotations

from kgcheck.index.text import normalise
from kgcheck.verifier.text.fit import may_be_value
from kgcheck.verifier.text.mentions import Mention
from kgcheck.verifier.text.schema import INSTANCE_OF, classes_of


# A name with more namesakes than this is too common to re-link ("John": thousands in a full dump, and the one that
# fits among the first few is no evidence); it also bounds the role and class queries of one mention.
MAX_NAMESAKES = 50


def namesake_fitting(kg, schema, mention: Mention, pids: list[str]) -> tuple[Mention, list[str]] | None:
    """(the mention as its one other namesake — same normalised name, an item — that may be a value of some of PIDS,
    those PIDS) (fit.may_be_value, known by role or class: a namesake the graph says nothing of fits nothing)."""
    rows = kg.lookup_in(f"SELECT DISTINCT id FROM label_index WHERE norm IN ({{in}}) AND type = 'item' "
                        f"LIMIT {MAX_NAMESAKES + 2}", [normalise(mention.text)])
    others = sorted({row[0] for row in rows} - {mention.entity_id})
    if not others or not pids or len(rows) > MAX_NAMESAKES + 1:
        return None
    roles = schema.roles(others)
    typed = kg.statements_for(others, properties=(INSTANCE_OF,))
    fitting = {eid: fits for eid in others if (fits := [
        p for p in pids if may_be_value(schema, roles.get(eid, {}), classes_of(eid, typed), p, unknown=False)])}
    if len(fitting) != 1:
        return None
    (eid, fits), = fitting.items()
    return Mention(mention.start, mention.end, mention.text, eid), fits
