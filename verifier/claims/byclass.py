"""Functionality of a property measured among the subjects of the same class (instance of, P31).

A property can be many-valued over the whole graph and single-valued for one kind of subject: country
(P17) is held with several values by 68% of the cities of wd50k (historical states) but by none of
its football clubs. The graph-wide share decides nothing for a club; the share among subjects of the
club's class does. The same test as the graph-wide fallback (facts.py) applies per class: at least
MIN_SUBJECTS subjects of the class hold the property, at most MAX_MULTI_SHARE of them with several best
values, and the 95% Wilson upper bound under MAX_MULTI_UPPER. A subject of several classes is judged
exclusive only when every class measured well enough says so (a city that is also a capital is judged
by the looser of the two). A subject none of whose classes has enough subjects is measured in the
nearest superclasses (subclass of, P279) that have, counting every subject of their subclasses.
"""
from __future__ import annotations

from dataclasses import dataclass, field

INSTANCE_OF, SUBCLASS_OF = "P31", "P279"
MAX_DEPTH = 3  # superclass levels a too-small class hands over to


@dataclass(frozen=True)
class ClassShare:
    """Subjects of one class holding a property, and how many of them hold several best values."""

    cls: str
    subjects: int
    several: int

    @property
    def share(self) -> float:
        return self.several / self.subjects if self.subjects else 1.0


@dataclass(frozen=True)
class PropertyByClass:
    """Per class, the subjects holding a property; per subject holding it, its classes."""

    shares: dict[str, ClassShare]
    classes: dict[str, frozenset[str]]
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    pooled: dict[str, ClassShare] = field(default_factory=dict)  # subjects counted in every class above theirs

    @classmethod
    def from_rows(cls, rows, parents: dict[str, frozenset[str]] | None = None) -> PropertyByClass:
        """rows: (subject, number of best values, class or None), one per subject and class; parents: the
        subclass-of (P279) edges, to measure a class too small to say anything through its superclasses."""
        parents = parents or {}
        n_values: dict[str, int] = {}
        classes: dict[str, set[str]] = {}
        for subject, n, klass in rows:
            n_values[subject] = n
            classes.setdefault(subject, set())
            if klass is not None:
                classes[subject].add(klass)

        def shares(expand) -> dict[str, ClassShare]:
            counts: dict[str, list[int]] = {}
            for subject, own in classes.items():
                for klass in expand(own):
                    c = counts.setdefault(klass, [0, 0])
                    c[0] += 1
                    c[1] += n_values[subject] > 1
            return {k: ClassShare(k, n, several) for k, (n, several) in counts.items()}

        return cls(shares(lambda own: own), {s: frozenset(cs) for s, cs in classes.items()}, parents,
                   shares(lambda own: _closure(own, parents)) if parents else {})

    def measured(self, subject: str, min_subjects: int) -> list[ClassShare]:
        """The subject's classes with enough subjects to measure, loosest (highest share) first; when none has,
        the nearest superclasses that have, counting every subject below them (up to MAX_DEPTH levels)."""
        own = self.classes.get(subject, frozenset())
        found = [self.shares[c] for c in own if self.shares[c].subjects >= min_subjects]
        frontier, seen = set(own), set(own)
        for _ in range(MAX_DEPTH):
            if found:
                break
            frontier = {p for c in frontier for p in self.parents.get(c, ())} - seen
            seen |= frontier
            found = [self.pooled[c] for c in frontier if c in self.pooled and self.pooled[c].subjects >= min_subjects]
        return sorted(found, key=lambda s: (-s.share, s.cls))


def _closure(classes, parents) -> set[str]:
    out, frontier = set(classes), set(classes)
    for _ in range(MAX_DEPTH):
        frontier = {p for c in frontier for p in parents.get(c, ())} - out
        if not frontier:
            break
        out |= frontier
    return out


@dataclass(frozen=True)
class PropertyByProfile:
    """The same measure among the subjects that also hold another property: a subject without a class is still
    a thing with a sport and a league, or with a director and a cast. Every other property the subject holds
    that enough subjects share must pass (the loosest decides)."""

    shares: dict[str, ClassShare]  # per other property: subjects holding both, and how many hold several values
    profiles: dict[str, frozenset[str]]  # per subject holding the property: its other properties
    several: dict[str, bool]

    @classmethod
    def from_rows(cls, pid: str, rows, best: dict[str, int]) -> PropertyByProfile:
        """rows: (subject, property) pairs of the subjects holding pid; best: their number of values at one time."""
        profiles: dict[str, set[str]] = {}
        counts: dict[str, list[int]] = {}
        for subject, prop in rows:
            if prop == pid or subject not in best:
                continue
            profiles.setdefault(subject, set()).add(prop)
            c = counts.setdefault(prop, [0, 0])
            c[0] += 1
            c[1] += best[subject] > 1
        return cls({q: ClassShare(q, n, k) for q, (n, k) in counts.items()},
                   {s: frozenset(qs) for s, qs in profiles.items()}, {s: n > 1 for s, n in best.items()})

    def measured(self, subject: str, min_subjects: int) -> list[ClassShare]:
        """The subject's other properties held by enough other subjects, loosest first (the subject left out)."""
        mine = self.several.get(subject, False)
        found = []
        for q in self.profiles.get(subject, ()):
            share = self.shares[q]
            others = ClassShare(q, share.subjects - 1, share.several - mine)
            if others.subjects >= min_subjects:
                found.append(others)
        return sorted(found, key=lambda s: (-s.share, s.cls))
