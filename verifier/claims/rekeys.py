"""The keys of one results line: which statements, subjects, properties, names and measures its verdict read
(recheck.py joins them with the diff's change tables), and the shape test a line passes before its fields are
trusted as keys."""
from __future__ import annotations

from kgcheck.index.text import normalise
from kgcheck.verifier.claims.judge import LISTED_VALUES
from kgcheck.verifier.claims.measuresql import TESTS_READ
from kgcheck.verifier.claims.rehierarchy import Moved, claimed_keys
from kgcheck.verifier.claims.remeasure import is_measured
from kgcheck.verifier.model import NOT_ENOUGH_INFO

LISTING = "lst"  # the key of an open listing (listing_key): joined by relisting.py, not by recheck's _HIT

_TEXT = (str, type(None))
_CLAIM_TEXTS = ("subject", "predicate", "object", "subject_id", "property_id", "object_id", "kind")


def _list_of(value, fits) -> bool:
    """None, or a list whose every item fits."""
    if value is None:
        return True
    if not isinstance(value, list):
        return False
    for item in value:
        if not fits(item):
            return False
    return True


def _text(value) -> bool:
    return isinstance(value, _TEXT)


def _qualifier(value) -> bool:
    return isinstance(value, list) and len(value) == 2


def is_result(record: dict | None) -> bool:
    """A line of the shape kgcheck writes for a result. Any other line (an error record, another tool's line, a
    hand edit of the wrong shape) is copied as it is, never re-checked: its fields cannot be trusted as keys.
    Loops (`_list_of`) rather than all(<generator>): this runs once per line of files of millions of results."""
    if not isinstance(record, dict) or not isinstance(record.get("verdict"), str):
        return False
    rid = record.get("id")
    if isinstance(rid, bool) or not isinstance(rid, (str, int)) or rid == "":
        return False
    claim = record.get("claim")
    if claim is not None:
        if not isinstance(claim, dict):
            return False
        for k in _CLAIM_TEXTS:
            if not isinstance(claim.get(k), _TEXT):
                return False
        if not _list_of(claim.get("qualifiers") or [], _qualifier):
            return False
    if not (isinstance(record.get("subject_id"), _TEXT) and isinstance(record.get("exclusivity"), _TEXT)
            and _list_of(record.get("property_ids"), _text)):
        return False
    evidence = record.get("evidence")
    if evidence is None:
        return True
    if not isinstance(evidence, list):
        return False
    for item in evidence:  # a cited statement: inlined, evidence is most of a line's items
        if not (isinstance(item, dict) and isinstance(item.get("statement_id"), _TEXT)):
            return False
    return True


def held_value(record: dict) -> str | None:
    """The claimed entity when the result is SUPPORTED by a statement of its own subject and property holding
    exactly that entity (rule A's match), for a claim without qualifiers: such a verdict stays as it is
    whatever happens to the property's other statements, except one that comes to hold or stops holding the
    value, or whose rank changes (`_HIT`); a change to the matching statement itself is an evidence change."""
    claim = record.get("claim") or {}
    value, subject = claim.get("object_id"), record.get("subject_id")
    if record.get("verdict") != "SUPPORTED" or not value or not subject or claim.get("qualifiers"):
        return None
    props = set(record.get("property_ids") or ()) | {claim.get("property_id")}
    for ev in record.get("evidence") or ():
        if (ev.get("relation") == "match" and ev.get("value_id") == value and ev.get("subject") == subject
                and isinstance(ev.get("property"), str) and ev["property"] in props and ev.get("rank") != "deprecated"):
            return value
    return None


def listing_key(record: dict) -> tuple[str, str, str, str] | None:
    """(LISTING, subject, property, claimed entity) of an open listing given by ids — NOT_ENOUGH_INFO "the graph
    lists X, Y, ... not Z" after no measured test found the property exclusive, for a claim without qualifiers of
    one property — whose cited statements (the first ones of the property) name at least the LISTED_VALUES values
    its reason lists: a value edit of a statement it does not cite changes neither (relisting.py tells when such
    an edit can still move the verdict)."""
    claim = record.get("claim") or {}
    subject, pid, value = record.get("subject_id"), claim.get("property_id"), claim.get("object_id")
    if (record.get("verdict") != NOT_ENOUGH_INFO or record.get("exclusivity") != "none" or not subject or not pid
            or not value or claim.get("subject_id") != subject or claim.get("qualifiers")
            or record.get("property_ids") != [pid]):
        return None
    shown = {ev.get("value") for ev in record.get("evidence") or ()
             if ev.get("property") == pid and ev.get("rank") != "deprecated" and isinstance(ev.get("value"), str)}
    return (LISTING, subject, pid, value) if len(shown) >= LISTED_VALUES else None


Key = tuple[str, str, str | None, str | None]


def result_keys(record: dict, reachable: dict[str, set[str]] | None = None, moved: Moved | None = None) -> list[Key]:
    """(kind, a, b, held) keys of one result line, joined with the change tables by `_HIT`. reachable: per kind of
    key joined on its first part alone, the values a change can meet (keypass._reachable): keys of those kinds
    with another value are left out (they could only lengthen the join), and so are the `sp` and listing keys
    of a subject no statement change touched (`any`: they meet only its changed statements); moved: the chain
    tests' reach (rehierarchy.claimed_keys). A list, built without a generator's per-key resumption: this runs
    once per line of files of millions of results."""
    reachable = reachable or {}
    get = reachable.get
    lbl, ent, st, any_, text_ = get("lbl"), get("ent"), get("st"), get("any"), get("text")
    keys = []
    add = keys.append
    claim = record.get("claim") or {}
    subject = record.get("subject_id")
    props = [p for p in record.get("property_ids") or [] if p]
    if claim.get("property_id") and claim["property_id"] not in props:
        props.append(claim["property_id"])
    evidence = record.get("evidence") or []
    if subject:
        if lbl is None or subject in lbl:
            add(("lbl", subject, None, None))  # the subject removed, added back, or renamed
        if any_ is None or subject in any_:
            held = held_value(record)
            for p in props:
                add(("sp", subject, p, held))
            if record.get("rule") == "C" or any(ev.get("relation") == "same-object" for ev in evidence):
                # held: the object's id; for an object named by text, its text (b) until _link_objects puts there
                # the one candidate rule B compares with (judge._rule_b_so_or_c: the first linked).
                text = None if claim.get("object_id") else (claim.get("object") or "")
                add(("any", subject, text, claim.get("object_id")))
            listing = listing_key(record)
            if listing:
                add(listing)
        keys.extend(claimed_keys(record, subject, props, moved))  # chain edits (rehierarchy.py)
    for p in props:
        if ent is None or p in ent:
            add(("ent", p, None, None))
    for ev in evidence:
        sid = ev.get("statement_id")
        if sid and (st is None or sid in st):
            add(("st", sid, None, None))
    # A subject given by name is tried on every entity of that name: each namesake's statements of the
    # property count (joined through `namesakes`, linked once per distinct name).
    if not claim.get("subject_id") and claim.get("subject") and normalise(claim["subject"]):
        for p in props:
            add(("name", normalise(claim["subject"]), p, subject))  # the namesake chosen (rehierarchy.py)
    # Names the checker had to link: a label or alias added or removed anywhere may change the link (a
    # predicate's too: an alias that equals it makes it that property's).
    for text in ((not claim.get("subject_id")) and claim.get("subject"),
                 (not claim.get("object_id")) and claim.get("object"),
                 (not claim.get("property_id")) and claim.get("predicate")):
        if text:
            text = normalise(text)
            if text and (text_ is None or text in text_):
                add(("text", text, None, None))
    return keys


def measured_rows(record: dict) -> list[tuple]:
    """(subject, property, claimed id, claimed text, tests read) per property of a result whose verdict came from
    measuring the graph: remeasure.py evaluates those tests again on both builds."""
    if not (is_measured(record) and record.get("subject_id")):
        return []
    claim = record.get("claim") or {}
    subject, value, text = record["subject_id"], claim.get("object_id") or None, claim.get("object") or None
    reached = TESTS_READ[record["exclusivity"]]
    return [(subject, pid, value, text, reached) for pid in record["property_ids"]]


def saved_rows(record: dict | None) -> tuple[list | None, list, bool]:
    """What savedkeys.py keeps of a results line: its keys (every one: none is filtered here; None for a line that
    is not a result), its measured rows, whether its verdict was closed-world."""
    if not is_result(record):
        return None, [], False
    return result_rows(record)


def result_rows(result: dict) -> tuple[list, list, bool]:
    """`saved_rows` of a line known to be a result (one kgcheck just wrote)."""
    return result_keys(result), measured_rows(result), result.get("exclusivity") == "closed-world"
