"""Whether a text claim's verdict stands, given how its value was read: a name that is also a label or alias of the
graph's value (a namesake the linker did not pick) or of what it lies in, a REFUTED relation guessed from the value's
type between values of different kinds, a REFUTED container of the property's values the graph cannot place its value
in (verify.py asks all three)."""
from __future__ import annotations

from dataclasses import replace

from kgcheck.index.text import normalise
from kgcheck.verifier.claims.check import Checker
from kgcheck.verifier.claims.compare import CONFLICT
from kgcheck.verifier.claims.judge import evidence_of
from kgcheck.verifier.model import NOT_ENOUGH_INFO, REFUTED, Verdict
from kgcheck.verifier.text.schema import INSTANCE_OF, GraphSchema
from kgcheck.verifier.text.subjectview import properties_named_by


def read_as_the_graphs_namesake(kg, checker: Checker, merged: list, verdicts: list[Verdict]) -> None:
    """A REFUTED claim, or one NOT_ENOUGH_INFO beside the values the graph lists, whose words are a label or alias of a
    value the graph gives instead ("based on … novel Sense and Sensibility": the name linked to the film of that title,
    the graph's value the novel; "born in the UK", linked to Great Britain, alias UK, where the graph's citizenship is
    the United Kingdom, alias UK), or of what such a value lies in ("born in England", linked to the constituent
    country, where the graph places Cambridge in the Kingdom of England, alias "England", and no further), is judged
    again with that value: the name has both readings, so the text is not wrong by its words. Replaces both in
    place."""
    redo = {i: [x for x in _graph_values(v) if x and x != c.claim.object_id]
            for i, ((c, _), v) in enumerate(zip(merged, verdicts)) if c.claim.object_id}
    redo = {i: others for i, others in redo.items() if others}
    if not redo:
        return
    checker.facts.prefetch_names({x for others in redo.values() for x in others})
    again = []
    for i, others in redo.items():
        (c, source), name = merged[i], normalise(merged[i][0].claim.object)
        same = next((x for x in others if name and name in checker.facts.names(x)), None) or \
            _named_container(checker.facts, others, name)
        if same:
            merged[i] = (replace(c, claim=replace(c.claim, object_id=same)), source)
            again.append(i)
    for i, v in zip(again, checker.check([merged[i][0].claim for i in again])):
        verdicts[i] = v


def _graph_values(v: Verdict) -> list[str]:
    """The values the graph gives instead of the claimed one: a refutation's corrections, the listed values of a
    NOT_ENOUGH_INFO beside them (its conflicting evidence of the claimed property)."""
    if v.verdict == REFUTED:
        return list(v.correction_ids)
    if v.verdict == NOT_ENOUGH_INFO:
        return [e.value_id for e in v.evidence if e.relation == CONFLICT and e.property == v.claim.property_id
                and e.value_id]
    return []


def swap_of_a_kind(kg, v: Verdict) -> bool:
    """The claimed value fills this property in the graph as often as any other (its likeliest role), or every value
    the graph gives instead shares a class with it (a league for a league, a person for a person) or has a class named
    after the property as it has ("music genre", "film genre": genres) — or, where the
    graph gives one of them no class to compare, the claimed value fills this property somewhere; and no name holds
    the other's words ("Greek" / "Ancient Greek", "navy" / "German Navy" are readings of one name, not a swap), nor
    is the text's a common noun where the graph has only proper names: then a relation guessed from the value's type
    is as good as a stated one."""
    claimed = v.claim.object_id
    others = [i for i in v.correction_ids if i and i != claimed]
    if not claimed or not others:
        return False
    words = set(normalise(v.claim.object).split())
    graph_names = [e.value for e in v.evidence if e.value_id in others]
    for label in (set(normalise(name).split()) for name in graph_names):
        if words and (words <= label or label <= words):
            return False
    # A common noun of the text ("a general of the PLA") against values the graph names only as proper names
    # ("Shang Jiang", that army's rank): the word may be the generic term for the graph's value, not another one.
    if v.claim.object[:1].islower() and graph_names and all(name[:1].isupper() for name in graph_names):
        return False
    role = GraphSchema.of(kg).roles([claimed]).get(claimed, {})
    # the claimed value is used in the graph as this property's value at least as often as any other's (its likeliest
    # reading; bench/HISTORY.md says what asking a majority instead cost): it is a value of that kind
    if role and role.get(v.claim.property_id, 0) >= max(role.values()):
        return True
    classes = _classes(kg, [claimed, *others])
    if all(classes[claimed] & classes[i] for i in others):
        return True
    # A claimed value of a class named after the property ("drum and bass", a music genre, for a genre) against values
    # of such classes too ("film genre"), or of none (a value of the property is of its kind): the graph does not
    # join the classes, their names say they are of one kind.
    lexicon, pid = GraphSchema.of(kg).lexicon(), v.claim.property_id
    labels = kg.labels(set().union(*classes.values()))

    def named_kind(i: str) -> bool:
        return any(pid in properties_named_by(labels.get(c) or "", lexicon) for c in classes[i])

    if named_kind(claimed) and all(named_kind(i) or not classes[i] for i in others):
        return True
    # Classless values (a sparse graph's people and companies) cannot be compared: a value the graph gives this
    # property elsewhere ("Joseph Barbera", a screenwriter of other films) is of its kind, one it never does is not
    unknown = not classes[claimed] or not all(classes[i] for i in others)
    return unknown and role.get(v.claim.property_id, 0) > 0


def _named_container(facts, values: list[str], name: str) -> str | None:
    """The first (by id) container of VALUES (_containers) that NAME is a label or alias of, if any."""
    if not name:
        return None
    containers = _containers(facts, values)
    facts.prefetch_names(containers)
    return next((a for a in containers if name in facts.names(a)), None)


def beyond_known_containers(kg, facts, v: Verdict) -> bool:
    """A REFUTED claim whose value is no value of the property itself but a container of its values ("died in the
    United States": the graph gives places of death, not countries), where nothing the graph places its own value in
    is of the claimed value's kind (Santa Barbara, placed in nothing): the graph cannot tell whether its value lies in
    the claimed one, so the claim is not refuted. One of that kind it does place it in (Cambridge in the Kingdom of
    England, a sovereign state as France is) refutes "born in France"."""
    claimed, pid = v.claim.object_id, v.claim.property_id
    values = [i for i in v.correction_ids if i and i != claimed]
    if not claimed or not pid or not values:
        return False
    schema = GraphSchema.of(kg)
    if schema.roles([claimed]).get(claimed, {}).get(pid) or pid not in schema.contained_roles([claimed])[claimed]:
        return False
    containers = _containers(facts, values)
    kinds = _classes(kg, [claimed, *containers])
    return not any(kinds[claimed] & kinds[c] for c in containers)


def _containers(facts, values: list[str]) -> list[str]:
    """What VALUES lie in (facts.ancestors: the HIERARCHY closure), by id."""
    return sorted({a for x in values for a in facts.ancestors(x)})


def _classes(kg, ids: list[str]) -> dict[str, set[str]]:
    """Per id, its classes (instance of) in the graph."""
    fetched = kg.statements_for(ids, properties=(INSTANCE_OF,))
    return {i: {st.value.entity_id for st in fetched.get(i, ()) if st.value.entity_id} for i in ids}


def held_the_other_way(kg, facts, v: Verdict):
    """The graph's statement that refutes a claim it does not support by stating it the other way round ("Maurice
    Jarre's father is Jean-Michel Jarre", the graph holding Maurice as Jean-Michel's father), for a property never held
    both ways by measure (GraphSchema.asymmetric); None when there is none. Evidence of the relation "reverse"."""
    subject, pid, value = v.claim.subject_id, v.claim.property_id, v.claim.object_id
    if v.verdict != NOT_ENOUGH_INFO or not (subject and pid and value) or subject == value:
        return None
    reverse = next((st for st in kg.statements_for([value], properties=(pid,)).get(value, ())
                    if st.value.entity_id == subject and st.rank != "deprecated"), None)
    # the measure and the name lookups only for the rare claim the graph holds reversed
    schema = GraphSchema.of(kg)
    if reverse is None or not schema.asymmetric(pid) or schema.aliased_from_a_label(v.claim.object, value) or \
            schema.aliased_from_a_label(v.claim.subject, subject):
        return None
    return evidence_of(reverse, "reverse", 1.0, facts)
