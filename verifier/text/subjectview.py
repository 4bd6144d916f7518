"""What the readers of one sentence ask of its subject (SubjectView), and the property names a class is named after."""
from __future__ import annotations

import re
from dataclasses import dataclass

from kgcheck.verifier.text.schema import INSTANCE_OF, GraphSchema, classes_of
from kgcheck.verifier.text.stems import FUNCTION_WORDS, stem

WORD = re.compile(r"[\w][\w'’-]*")


@dataclass(frozen=True)
class SubjectView:
    """What the readers of one sentence (read_words, dating.read_dates) ask of its subject and its names."""

    schema: GraphSchema
    held: frozenset[str]  # the properties the subject has statements of
    classes: frozenset[str]
    class_props: dict[str, float]  # properties its classes hold (share of their subjects)
    names: tuple[tuple[int, int], ...]  # the sentence's mentions, offsets in the sentence

    @classmethod
    def of(cls, kg, subject, statements: dict, ms, a: int) -> "SubjectView":
        schema = GraphSchema.of(kg)
        classes = classes_of(subject.entity_id, statements)
        return cls(schema, frozenset(st.property for st in statements.get(subject.entity_id, ())),
                   frozenset(classes), schema.class_properties(classes), tuple((x.start - a, x.end - a) for x in ms))

    def blocked(self, s: int, e: int) -> bool:  # words inside a name are not property words ("Directors Guild")
        return any(ns <= s and e <= ne for ns, ne in self.names)

    def may_hold(self, pid: str) -> bool:
        return pid in self.held or pid in self.class_props or not self.classes

    def may_be_named(self, pid: str) -> bool:
        """may_hold, and for a subject without a class not a property the many holders of what it holds never hold
        ("a badminton player from Canada": no one holding a country for sport holds "participant", whose alias the
        word is). Only the words reader asks: a date's word naming such a property still dates the subject."""
        return self.may_hold(pid) and (bool(self.classes) or pid in self.held or
                                       not self.schema.never_held_beside(self.held, pid))

    def filled_by_kind(self, value_classes) -> str | None:
        """The item property a value of `value_classes` most likely fills for this subject, when likelier than all
        the others together and mostly given such values: each property weighs the share of the subject's classes
        holding it (1 for a classless subject) times the share of its values of those classes (a language: languages
        spoken, for a person; a person: no one relation — spouse, sibling, child, influence)."""
        weights: dict[str, float] = {}
        for p in self.held | set(self.class_props):
            if p != INSTANCE_OF and self.schema.datatype(p) == "wikibase-item":
                share = (self.class_props.get(p) or self.schema.class_holds(self.classes, p)) if self.classes else 1.0
                weights[p] = share * self.schema.takes(p, value_classes)
        best = max(weights, key=lambda p: (weights[p], p), default=None)
        if best and 2 * weights[best] > sum(weights.values()) and 2 * self.schema.takes(best, value_classes) > 1:
            return best
        return None

    def named_by_kind(self, value_classes, label) -> set[str]:
        """The held item properties a class of the value is named after and gives values of: the class's label ends
        with the property's label or an alias ("music genre", "comedic genre": genre; "film production company":
        production company), and some value of the property is of that class. A value the graph gives no property
        yet is still said to be of a kind, and the kind's name is the property's. Not a name ending in a preposition
        ("capital of": a county seat is the capital, not its value). label(class id) -> its label."""
        lexicon, schema, named = self.schema.lexicon(), self.schema, set()
        for c in value_classes:
            named.update(p for p in properties_named_by(label(c) or "", lexicon)
                         if p in self.held and p != INSTANCE_OF and schema.datatype(p) == "wikibase-item"
                         and schema.takes(p, {c}) > 0)
        return named

    def likeliest(self, pids) -> str:
        """Of properties the words name, the one this subject most likely holds: one it holds, then the share of
        its classes' subjects holding it, then the most used in the graph (the id breaks a tie)."""
        return min(pids, key=lambda p: (p not in self.held, -self.class_props.get(p, 0.0), -self.schema.usage(p), p))


def content_stems(phrase: str) -> tuple[str, ...]:
    """The stems of a phrase's content words, as a property name's `words` holds them."""
    return tuple(stem(w) for w in WORD.findall(phrase.lower()) if w not in FUNCTION_WORDS)


def properties_named_by(class_label: str, lexicon) -> set[str]:
    """The properties a class is named after: its label ends with their label or an alias, not one ending in a
    preposition ("music genre", "film genre": genre; "film production company": production company)."""
    stems = content_stems(class_label)
    return {n.pid for k in range(1, len(stems) + 1) for n in whole_names(stems[-k:], lexicon) if n.particle is None}


def whole_names(stems: tuple[str, ...], lexicon) -> list:
    """The property names whose content words are exactly STEMS ("narrative location", "country for sport")."""
    return [name for name in lexicon.get(stems[-1], ()) if name.words == stems] if stems else []
