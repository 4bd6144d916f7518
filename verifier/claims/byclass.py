"""Functionality of a property measured among the subjects of the same class (instance of, P31).

A property can be many-valued over the whole graph and single-valued for one kind of subject: country
(P17) is held with several values by 68% of the cities of wd50k (historical states) but by none of
its football clubs. The graph-wide share decides nothing for a club; the share among subjects of the
club's class does. The same test as the graph-wide fallback (facts.py) applies per class: at least
MIN_SUBJECTS subjects of the class hold the property, at most MAX_MULTI_SHARE of them with several best
values, and the 95% Wilson upper bound under MAX_MULTI_UPPER. A subject of several classes is judged
exclusive only when every class measured well enough says so (a city that is also a capital is judged
by the looser of the two).
"""
from __future__ import annotations

from dataclasses import dataclass

INSTANCE_OF = "P31"


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

    @classmethod
    def from_rows(cls, rows) -> PropertyByClass:
        """rows: (subject, number of best values, class or None), one per subject and class."""
        counts: dict[str, list[int]] = {}
        classes: dict[str, set[str]] = {}
        for subject, n_values, klass in rows:
            classes.setdefault(subject, set())
            if klass is None:
                continue
            classes[subject].add(klass)
            c = counts.setdefault(klass, [0, 0])
            c[0] += 1
            c[1] += n_values > 1
        return cls({k: ClassShare(k, n, several) for k, (n, several) in counts.items()},
                   {s: frozenset(cs) for s, cs in classes.items()})

    def measured(self, subject: str, min_subjects: int) -> list[ClassShare]:
        """The subject's classes with enough subjects to measure, loosest (highest share) first."""
        found = [self.shares[c] for c in self.classes.get(subject, ()) if self.shares[c].subjects >= min_subjects]
        return sorted(found, key=lambda s: (-s.share, s.cls))
