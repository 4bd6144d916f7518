"""What the graph says about its own shape, for reading claims from words: measured once per index.

- per class (a value of P31 "instance of"), the share of its instances that hold each property;
- per item-valued property, the classes of its values (how many values of each class);
- the property lexicon: every property's label and aliases from the label index, as word lists.

No list of properties or relation words is written here: the words are the index's labels and aliases,
the types are counted from the statements. A reader proposes a property when its words stand next to
a value and the value's class is one the property takes; the graph then judges the claim.
"""
from __future__ import annotations

import re
import threading
from collections import defaultdict
from dataclasses import dataclass

from kgcheck.index.measures import INSTANCE_OF, SUBCLASS_OF  # Wikidata's own class properties: the schema is read through them
from kgcheck.index.store import HIERARCHY_TABLE
from kgcheck.index.text import normalise
from kgcheck.verifier.claims.thresholds import MAX_MULTI_SHARE, MAX_MULTI_UPPER, MIN_SUBJECTS, wilson_upper
from kgcheck.verifier.text.stems import FUNCTION_WORDS, PREPOSITIONS, stem
from kgcheck.verifier.values.units import dimension_of

# Wikidata's "country" (P17) is held by things that are no places (a language, an ethnic group, a team): it contains
# a thing only when things of its kind are placed by one of these HIERARCHY edges (located in the administrative
# territorial entity, location, located in or next to body of water): Lyon is in France, English is not.
COUNTRY, PLACED_BY = "P17", ("P131", "P276", "P706")
_PLACING = ", ".join(f"'{p}'" for p in PLACED_BY)  # PLACED_BY as an SQL list
MIN_CLASS_SHARE = 0.05  # a property fewer than 1 in 20 instances of the subject's classes hold is not theirs
RULE_OF_THREE = 60  # none of 60 holders: a share under 3 / 60 = MIN_CLASS_SHARE with 95 % confidence
# A last word ending the names of 1 in 5 time properties is a generic time noun (dense-dev: "date" ends 20 of 26
# named ones, "time" 6; the next, "introduction", 4 and it is a name of its own).
GENERIC_SHARE = 0.2


@dataclass(frozen=True)
class PropertyName:
    pid: str
    words: tuple[str, ...]  # stems of the content words of one label or alias
    # The preposition the name ends with ("playing in", "born in", "directed by"), which a text must have right
    # after the name's last word for the name to be said: "played for Malaysia" is not "playing in".
    particle: str | None = None


class GraphSchema:
    """Lazily measured statistics of one index (thread-safe, cached per KG object)."""

    def __init__(self, kg):
        self.kg = kg
        self._lock = threading.Lock()
        self._class_props: dict[str, dict[str, float]] | None = None
        self._value_classes: dict[str, dict[str, float]] | None = None
        self._datatypes: dict[str, str] | None = None
        self._lexicon: dict[str, list[PropertyName]] | None = None
        self._usage: dict[str, int] = {}
        self._profiles: dict[str, dict[str, float]] = {}  # property -> properties its holders also hold (share)
        self._holders: dict[str, int] = {}  # property -> its holders (property_stats; 0 if none holds anything else)
        self._dimensions: dict[str, set[str]] = {}  # property -> the dimensions of its quantities' units
        self._contained: dict[str, set[str]] = {}  # entity -> contained_roles
        self._particles: dict[str, set[str]] | None = None
        self._placed: set[str] | None = None  # placed_classes
        self._kin: dict[tuple[str, str], bool] = {}  # (property, property) -> values of the same kinds
        self._reversal: dict[tuple[str, str], tuple[int, int]] = {}  # (property, back) -> reversal()
        self._containers: dict[str, bool] = {}  # entity -> contains_places

    @classmethod
    def of(cls, kg) -> "GraphSchema":
        schema = getattr(kg, "_text_schema", None)
        if schema is None:
            schema = cls(kg)
            try:
                kg._text_schema = schema
            except AttributeError:  # a KG that refuses new attributes: measure per call
                pass
        return schema

    def _load(self) -> None:
        if self._class_props is not None:
            return
        with self._lock:
            if self._class_props is not None:
                return
            sizes = dict(self.kg.sql(
                "SELECT entity_id, count(DISTINCT subject) FROM statements WHERE property = ? AND entity_id IS NOT NULL "
                "GROUP BY 1", [INSTANCE_OF]))
            class_props: dict[str, dict[str, float]] = defaultdict(dict)
            for c, pid, n in self.kg.sql(
                    "WITH cls AS (SELECT DISTINCT subject, entity_id AS c FROM statements WHERE property = ? "
                    "AND entity_id IS NOT NULL) "
                    "SELECT cls.c, s.property, count(DISTINCT s.subject) FROM statements s JOIN cls "
                    "ON s.subject = cls.subject GROUP BY 1, 2", [INSTANCE_OF]):
                class_props[c][pid] = n / sizes[c]
            value_classes: dict[str, dict[str, float]] = defaultdict(dict)
            self._usage = dict(self.kg.sql("SELECT property, count(*) FROM statements GROUP BY 1"))
            # The share among values whose class the graph knows: many values are bare (no statements).
            totals = dict(self.kg.sql(
                "SELECT s.property, count(*) FROM statements s WHERE s.entity_id IN "
                "(SELECT subject FROM statements WHERE property = ?) GROUP BY 1", [INSTANCE_OF]))
            for pid, c, n in self.kg.sql(
                    "WITH cls AS (SELECT DISTINCT subject, entity_id AS c FROM statements WHERE property = ? "
                    "AND entity_id IS NOT NULL) "
                    "SELECT s.property, cls.c, count(*) FROM statements s JOIN cls ON s.entity_id = cls.subject "
                    "GROUP BY 1, 2", [INSTANCE_OF]):
                value_classes[pid][c] = n / totals[pid]
            # One scan for both: each property's datatype and the units its quantities are given in.
            self._datatypes, self._dimensions = {}, {}
            for pid, datatype, units in self.kg.sql(
                    "SELECT property, any_value(datatype), list(DISTINCT unit) FILTER (WHERE amount IS NOT NULL) "
                    "FROM statements GROUP BY 1"):
                self._datatypes[pid] = datatype
                self._dimensions[pid] = {d for unit in units or () if (d := dimension_of(unit))}
            self._value_classes = dict(value_classes)
            self._class_props = dict(class_props)

    def usage(self, pid: str) -> int:
        """How many statements of `pid` the graph holds: among properties a word names, the common one."""
        self._load()
        return self._usage.get(pid, 0)

    def unit_dimensions(self, pid: str) -> set[str]:
        """The dimensions (values.units) of the units the graph's quantities of PID are given in: "area" for an area
        in km², ha or sq mi; empty when the graph holds none in a known unit."""
        self._load()
        return self._dimensions.get(pid, set())

    def datatype(self, pid: str) -> str | None:
        self._load()
        return self._datatypes.get(pid)

    def class_holds(self, classes, pid: str) -> float:
        """The largest share of instances of any of `classes` that hold `pid`."""
        self._load()
        return max((self._class_props.get(c, {}).get(pid, 0.0) for c in classes), default=0.0)

    def class_properties(self, classes) -> dict[str, float]:
        self._load()
        out: dict[str, float] = {}
        for c in classes:
            for pid, share in self._class_props.get(c, {}).items():
                if share >= MIN_CLASS_SHARE:
                    out[pid] = max(out.get(pid, 0.0), share)
        return out

    def profile_properties(self, held) -> dict[str, float]:
        """What a subject may hold, read off what it holds: the properties at least MIN_CLASS_SHARE of the subjects
        holding one of HELD also hold (the index's measure_profile counts; what class_properties is for a class).
        Empty where the index has no such counts or the holders hold nothing else."""
        self._load_profiles(held)
        out: dict[str, float] = {}
        for pid in held:
            for other, share in self._profiles[pid].items():
                if share >= MIN_CLASS_SHARE:
                    out[other] = max(out.get(other, 0.0), share)
        return out

    def never_held_beside(self, held, pid: str) -> bool:
        """No subject holding one of HELD holds PID, and one of them has RULE_OF_THREE holders or more: PID's share
        among them is under MIN_CLASS_SHARE with 95 % confidence (3 / n, the rule of three)."""
        self._load_profiles(held)
        return max((self._holders[h] for h in held), default=0) >= RULE_OF_THREE and \
            not any(pid in self._profiles[h] for h in held)

    def _load_profiles(self, held) -> None:
        missing = sorted(set(held) - self._profiles.keys())
        if missing:
            shares: dict[str, dict[str, float]] = {pid: {} for pid in missing}
            holders = dict.fromkeys(missing, 0)
            if self.kg.has_table("measure_profile") and self.kg.has_table("property_stats"):
                for pid, other, n, share in self.kg.sql(
                        "SELECT m.other, m.property, s.subjects, m.subjects / s.subjects FROM measure_profile m "
                        "JOIN property_stats s ON s.property = m.other WHERE m.other IN (SELECT unnest(?))", [missing]):
                    shares[pid][other], holders[pid] = share, n
            with self._lock:
                self._profiles.update(shares)
                self._holders.update(holders)

    def takes(self, pid: str, classes) -> float:
        """The share of `pid`'s values that are instances of one of `classes` (the best class)."""
        self._load()
        vc = self._value_classes.get(pid, {})
        return max((vc.get(c, 0.0) for c in classes), default=0.0)

    def role_classes(self, role: dict[str, int]) -> set[str]:
        """What a value the graph gives no class is, read off its role: each property it is a value of contributes
        the class most of that property's typed values have, when most do (a cast member is a human)."""
        self._load()
        out = set()
        for pid in role:
            shares = self._value_classes.get(pid, {})
            best = max(shares, key=shares.get, default=None)
            if best is not None and shares[best] > 0.5:
                out.add(best)
        return out

    def kin(self, role: dict[str, int], pid: str) -> bool:
        """Are most of the statements a name is the value of (its ROLE) of place properties whose values are of the
        kinds `pid`'s are — both properties' values mostly of placed_classes, and the shares of their values' classes
        overlapping by more than half the smaller total (a residence, a work location and a place of death: cities,
        0.77-0.84 on dense-dev; a country and a birthplace, 0.03)? One is born, lives and dies in the same kinds of
        places, so Princeton, a residence, work location and seat, may be a place of death; a person's role says what
        the person is for (a cast member is no author, though both are human), so people are never kin."""
        self._load()
        for q in role:
            if (q, pid) not in self._kin:
                mine, theirs = self._value_classes.get(q, {}), self._value_classes.get(pid, {})
                smaller = min(sum(mine.values()), sum(theirs.values()))
                shared = sum(min(share, theirs.get(c, 0.0)) for c, share in mine.items())
                self._kin[(q, pid)] = bool(smaller) and shared > 0.5 * smaller and \
                    self._placed_values(mine) and self._placed_values(theirs)
        return sum(n for q, n in role.items() if self._kin[(q, pid)]) > 0.5 * sum(role.values())

    def _placed_values(self, shares: dict[str, float]) -> bool:
        """Are a property's values mostly of placed classes (by their classes' shares; dense-dev: places of birth
        1.19, of death 1.43; authors, directors, genres 0)?"""
        placed = self.placed_classes()
        return sum(share for c, share in shares.items() if c in placed) > 0.5

    def reversal(self, pid: str, back: str | None = None) -> tuple[int, int]:
        """(statements x PID y between two items, how many of them the graph also holds as y BACK x — BACK being PID
        itself unless given: is PID held both ways; is one relation another's reading backwards, as capital and
        capital of); not counting a statement of a thing about itself (a country's country)."""
        key = (pid, back or pid)
        if key not in self._reversal:
            self._reversal[key] = tuple(self.kg.sql(
                "SELECT count(*), count(*) FILTER (WHERE EXISTS (SELECT 1 FROM statements r WHERE r.property = ? "
                "AND r.subject = s.entity_id AND r.entity_id = s.subject)) FROM statements s "
                "WHERE s.property = ? AND s.entity_id IS NOT NULL AND s.rank <> 'deprecated' AND s.entity_id <> s.subject",
                [key[1], pid])[0])
        return self._reversal[key]

    def asymmetric(self, pid: str) -> bool:
        """Is `pid` never held both ways, by measure — as a property is single-valued by measure (thresholds.py):
        enough statements, at most 5 % of them held the other way too, the 95 % upper bound under 10 % (father,
        follows; a reversed statement is then wrong)."""
        n, both = self.reversal(pid)
        return n >= MIN_SUBJECTS and both <= MAX_MULTI_SHARE * n and wilson_upper(both, n) <= MAX_MULTI_UPPER

    def aliased_from_a_label(self, name: str, eid: str) -> bool:
        """Is NAME only an alias of EID, and another thing's label ("Soviet Union": Moscow's alias)? A reading the
        graph's own links may have chosen, too weak to refute by."""
        kinds: dict[str, set[str]] = defaultdict(set)
        for found, kind in self.kg.lookup_sql("SELECT id, kind FROM label_index WHERE norm = ?", [normalise(name)]):
            kinds[found].add(kind)
        return "label" not in kinds.get(eid, set()) and any("label" in k for i, k in kinds.items() if i != eid)

    def roles(self, ids) -> dict[str, dict[str, int]]:
        """Per entity, how many statements of each property have it as their value: what the entity is
        *for* in the graph (a value of "director" is a director, whatever its class), known or not its class."""
        ids = sorted(set(ids))
        out: dict[str, dict[str, int]] = {i: {} for i in ids}
        if not ids:
            return out
        table = "statements_by_object" if self.kg.has_table("statements_by_object") else "statements"
        for eid, pid, n in self.kg.sql(f"SELECT entity_id, property, count(*) FROM {table} "
                                       "WHERE entity_id IN (SELECT unnest(?)) GROUP BY 1, 2", [ids]):
            out[eid][pid] = n
        return out

    def contained_roles(self, ids) -> dict[str, set[str]]:
        """Per entity, the properties some value of which it directly contains (a HIERARCHY edge other than subclass
        of: France holds Lyon, a birthplace; a country only what is placed, placed_classes): a container is a less
        specific value of such a property ("born in France"), which the judge supports through the value's
        containers (compare.LESS_SPECIFIC)."""
        out: dict[str, set[str]] = {i: self._contained[i] for i in ids if i in self._contained}
        ids = sorted(set(ids) - set(out))
        out.update({i: set() for i in ids})
        if not ids or not self.kg.has_table(HIERARCHY_TABLE) or not self.kg.has_table("statements_by_object"):
            return out
        for parent, pid in self.kg.sql(f"""
                SELECT DISTINCT h.parent, s.property FROM {HIERARCHY_TABLE} h
                JOIN statements_by_object s ON s.entity_id = h.subject
                WHERE h.parent IN (SELECT unnest(?)) AND h.property <> '{SUBCLASS_OF}' AND (h.property <> '{COUNTRY}'
                  OR h.subject IN (SELECT subject FROM statements WHERE property = '{INSTANCE_OF}'
                                   AND entity_id IN (SELECT unnest(?)))
                  OR h.subject IN (SELECT subject FROM {HIERARCHY_TABLE} WHERE property IN ({_PLACING}))
                     AND h.subject NOT IN (SELECT subject FROM statements WHERE property = '{INSTANCE_OF}'))""",
                                       [ids, sorted(self.placed_classes())]):
            out[parent].add(pid)
        self._contained.update({i: out[i] for i in ids})  # asked again for the same names sentence after sentence
        return out

    def contains_places(self, eid: str) -> bool:
        """Does the graph place a thing of a placed class in EID by a COUNTRY or PLACED_BY edge (Kenya: the University
        of Nairobi's country)? A place property's value may then lie in it ("born in Kenya") though none does."""
        if eid not in self._containers:
            self._containers[eid] = bool(self.kg.has_table(HIERARCHY_TABLE) and self.kg.sql(f"""
                SELECT 1 FROM {HIERARCHY_TABLE} h JOIN statements s ON s.subject = h.subject
                WHERE h.parent = ? AND h.property IN ('{COUNTRY}', {_PLACING}) AND h.subject <> h.parent
                  AND s.property = '{INSTANCE_OF}' AND s.entity_id IN (SELECT unnest(?)) LIMIT 1""",
                                                                                   [eid, sorted(self.placed_classes())]))
        return self._containers[eid]

    def places(self, pid: str) -> bool:
        """Are `pid`'s values mostly of placed classes (a place of birth, a filming location)?"""
        self._load()
        return self._placed_values(self._value_classes.get(pid, {}))

    def placed_classes(self) -> set[str]:
        """The classes most of whose instances the graph places by a PLACED_BY edge (city, university, mountain; not
        language, ethnic group): a thing of such a class lies in its country, one of another class is only
        associated with it (English's countries are where it is spoken). A majority, as role_classes asks."""
        if self._placed is None:
                self._placed = {r[0] for r in self.kg.sql(f"""
                WITH placed AS (SELECT DISTINCT subject FROM {HIERARCHY_TABLE} WHERE property IN ({_PLACING})),
                inst AS (SELECT subject, entity_id AS class FROM statements
                         WHERE property = '{INSTANCE_OF}' AND entity_id IS NOT NULL)
                SELECT class FROM inst LEFT JOIN placed p USING (subject)
                GROUP BY class HAVING count(p.subject) > 0.5 * count(*)""")}
        return self._placed

    def typed(self, pid: str) -> bool:
        """Does the graph know the class of any of `pid`'s values?"""
        self._load()
        return bool(self._value_classes.get(pid))

    def _generic_time_nouns(self, names: list[PropertyName]) -> set[str]:
        """Last words that end the names of at least GENERIC_SHARE of the time-valued properties ("date",
        "time" in Wikidata's labels): measured, not listed. Called with the lock held, after _load."""
        ending: dict[str, set[str]] = defaultdict(set)
        for name in names:
            if self._datatypes.get(name.pid) == "time":
                ending[name.words[-1]].add(name.pid)
        total = len({n.pid for n in names if self._datatypes.get(n.pid) == "time"})
        return {w for w, pids in ending.items() if total and len(pids) / total >= GENERIC_SHARE}

    def lexicon(self) -> dict[str, list[PropertyName]]:
        """Property names indexed by the stem of their last content word (the head the value follows)."""
        if self._lexicon is None:
            self._load()  # before the lock: _load takes it too
            with self._lock:
                if self._lexicon is None:
                    lex: dict[str, list[PropertyName]] = defaultdict(list)
                    names = []
                    short: dict[tuple, set[str]] = defaultdict(set)  # verb phrases stemming to three letters

                    def add(name: PropertyName) -> None:
                        lex[name.words[-1]].append(name)
                        names.append(name)

                    for norm, pid in self.kg.lookup_sql(
                            "SELECT norm, id FROM label_index WHERE type = 'property'"):
                        tokens = re.findall(r"\w+", norm)
                        content = [w for w in tokens if w not in FUNCTION_WORDS]
                        words = tuple(stem(w) for w in content)
                        particle = tokens[-1] if tokens and tokens[-1] in PREPOSITIONS else None
                        if words and len("".join(words)) >= 4:  # no acronyms, nor "career" (car), "time" (tim)
                            add(PropertyName(pid, words, particle))
                        elif words and particle and len("".join(content)) >= 4:
                            short[(tuple(content), particle)].add(pid)
                    # A short verb's phrase is a name when, as written, it names one property: "lived in" (liv)
                    # residence, "owned by" owner; "based in" names three (headquarters, location, territory).
                    for (content, particle), pids in short.items():
                        if len(pids) == 1:
                            add(PropertyName(next(iter(pids)), tuple(stem(w) for w in content), particle))
                    # "air date", "release date": a sentence says "aired on", "released in", so a time property's
                    # name is also keyed by its event word when its last word is a generic time noun.
                    generic = self._generic_time_nouns(names)
                    for name in names:
                        if len(name.words) > 1 and name.words[-1] in generic and len("".join(name.words[:-1])) >= 3 \
                                and self._datatypes.get(name.pid) == "time":
                            lex[name.words[-2]].append(PropertyName(name.pid, name.words[:-1]))
                    self._lexicon = dict(lex)
        return self._lexicon

    def said_as_container(self, eid: str, pid: str, particle: str) -> bool:
        """Is `eid`, after PARTICLE ("in the"), a container of `pid`'s values said with a name of pid that ends in
        that particle ("born in France"; "broadcast in Israel" is no broadcaster, though it holds one)?"""
        return particle.split()[0].lower() in self.particles(pid) and pid in self.contained_roles([eid])[eid]

    def particles(self, pid: str) -> set[str]:
        """The prepositions `pid`'s names end with ("born in", "directed by")."""
        if self._particles is None:
            found: dict[str, set[str]] = defaultdict(set)
            for names in self.lexicon().values():
                for name in names:
                    if name.particle:
                        found[name.pid].add(name.particle)
            self._particles = dict(found)
        return self._particles.get(pid, set())


def classes_of(eid: str, statements: dict) -> set[str]:
    return {st.value.entity_id for st in statements.get(eid, ()) if st.property == INSTANCE_OF and st.value.entity_id}
