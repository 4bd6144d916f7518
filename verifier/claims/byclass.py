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
The same test among the subjects that also hold another property (profile_measured): a subject without a
class is still a thing with a sport and a league, or with a director and a cast. The counts are built
into the index (index/measures.py); these functions decide from them.
"""
from __future__ import annotations

from dataclasses import dataclass

from kgcheck.index.measures import INSTANCE_OF, MAX_DEPTH, SUBCLASS_OF  # noqa: F401 - re-exported


@dataclass(frozen=True)
class ClassShare:
    """Subjects of one class (or holding one other property) with a property, and how many hold several values."""

    cls: str
    subjects: int
    several: int

    @property
    def share(self) -> float:
        return self.several / self.subjects if self.subjects else 1.0


def nearest_measured(own, direct, pooled, parents, min_subjects: int) -> list[ClassShare]:
    """The classes `own` with enough subjects to measure, loosest (highest share) first; when none has, the
    nearest superclasses that have, counting every subject below them (up to MAX_DEPTH levels).
    direct / pooled: classes -> {class: ClassShare}; parents: classes -> {class: its superclasses} (lookups
    the caller may serve from memory or from the index's measure tables)."""
    own = set(own)
    found = [s for s in direct(own).values() if s.subjects >= min_subjects]
    frontier, seen = set(own), set(own)
    for _ in range(MAX_DEPTH):
        if found or not frontier:
            break
        up = parents(frontier)
        frontier = {p for c in frontier for p in up.get(c, ())} - seen
        seen |= frontier
        found = [s for s in pooled(frontier).values() if s.subjects >= min_subjects]
    return sorted(found, key=lambda s: (-s.share, s.cls))


def profile_measured(others, shares, mine: bool, min_subjects: int) -> list[ClassShare]:
    """others: the subject's other properties; shares: per other property, the subjects (the subject among
    them) holding both and how many hold several values; mine: whether the subject holds several."""
    found = []
    for q in others:
        share = shares.get(q)
        if share is None:
            continue
        rest = ClassShare(q, share.subjects - 1, share.several - mine)
        if rest.subjects >= min_subjects:
            found.append(rest)
    return sorted(found, key=lambda s: (-s.share, s.cls))
