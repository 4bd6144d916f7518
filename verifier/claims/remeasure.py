"""Which results a rebuild can flip through the graph-wide measures rather than through their own statements.

Open-world verdicts (judge.py) read measures of the whole graph: how many subjects hold several values of a
property, overall, within the subject's class (and its superclasses), among holders of its value, among
subjects sharing another property, and which values co-occur. An edit anywhere (a subject moved to another
class, a second value added elsewhere) can tip one of them, so a claim whose own statements did not change may
still flip. What those measures read, and so what must change for them to move:
- the property's own statements (its values, ranks and qualifiers: separators) anywhere in the graph;
- class membership and the class tree (`instance of`, `subclass of` statements) for the by-class measures;
- which properties subjects hold (a statement added or removed) for the profile measure.
A result decided by such a measure is re-checked when any of these changed. Conservative: comparing the
measures themselves on both indexes costs as much as re-checking (measured: bench/diff.py).
"""
from __future__ import annotations

# `exclusivity` values of a result that came from measuring the graph ("constraint" and "closed-world" did not).
MEASURED = frozenset({"measured", "class", "value", "profile", "co-occurrence", "none"})
CLASS_PROPERTIES = ("P31", "P279")  # instance of, subclass of: what the by-class measures group subjects by


def measure_inputs_changed(con) -> tuple[set[str], bool]:
    """From a diff's `changed_statements`: the properties whose statements changed (not only in their
    references), and whether classes or the properties subjects hold changed (then every measure may move)."""
    properties = {r[0] for r in con.execute(
        "SELECT DISTINCT property FROM changed_statements WHERE change <> 'references'").fetchall()}
    held_changed = con.execute(
        "SELECT count(*) FROM changed_statements WHERE change IN ('added', 'removed')").fetchone()[0] > 0
    return properties, held_changed or bool(properties & set(CLASS_PROPERTIES))


def measure_gate(con):
    """A test of one result: did its verdict read a graph-wide measure that the diff may have moved?"""
    properties, everything = measure_inputs_changed(con)

    def may_move(rec: dict) -> bool:
        pids = rec.get("property_ids") or ()
        return rec.get("exclusivity") in MEASURED and bool(pids) and (everything or pids[0] in properties)

    return may_move
