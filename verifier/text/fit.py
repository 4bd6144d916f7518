"""Whether a name the words give may be a property's value: by its role in the graph (the properties it is a value
of), its classes against those of the property's values, the kinds of places it is a value of, or the places it
holds (schema.py measures each)."""
from __future__ import annotations

from kgcheck.verifier.text.schema import classes_of

MIN_VALUE_SHARE = 0.05  # a class fewer than 1 in 20 of a property's typed values have is not a type it takes
MIN_ROLE_STATEMENTS = 1  # one statement with a name as its value already says what the name is for


def fits_value(schema, role: dict[str, int], classes, pid: str, unknown: bool) -> bool:
    """Can a value with this `role` (the properties it is a value of elsewhere in the graph, with counts) and these
    classes be a value of `pid`? Its role decides when it has one ("New Zealand" is no sport), else its class against
    the classes of the property's values; `unknown` when the graph says neither (no class, or an untyped property)."""
    if sum(role.values()) >= MIN_ROLE_STATEMENTS:
        return role.get(pid, 0) > 0
    if not classes or not schema.typed(pid):
        return unknown
    return schema.takes(pid, classes) >= MIN_VALUE_SHARE


def may_be_value(schema, role: dict[str, int], classes, pid: str, unknown: bool = True) -> bool:
    """Can a name the words give as `pid`'s value be one: its role says so, or its classes are among those of pid's
    values whatever its role — a place no one's birthplace in a sparse graph (Paris: a place of death, a work
    location) may still be one, Ridley Scott, a producer and a winner there, is human as directors are; or a name
    whose role's values are of pid's kinds (`kin`: Princeton, a residence and a "borough of New Jersey", as a place
    of death). A value the graph says nothing of may be when `unknown`."""
    return fits_value(schema, role, classes, pid, unknown=unknown) or \
        fits_value(schema, {}, classes, pid, unknown=False) or schema.kin(role, pid)


def entity_may_be_value(schema, eid: str, statements: dict, pid: str) -> bool:
    """`may_be_value` of an entity by its id: its role in the graph, its classes from STATEMENTS (by subject), its
    holding values of the property (contained_roles: "born in Germany"), or, for a property whose values are places,
    its holding any place (contains_places: "born in Kenya", where the graph has no one born)."""
    return may_be_value(schema, schema.roles([eid])[eid], classes_of(eid, statements), pid) or \
        pid in schema.contained_roles([eid])[eid] or (schema.places(pid) and schema.contains_places(eid))
