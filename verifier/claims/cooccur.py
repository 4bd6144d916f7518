"""Value co-occurrence: evidence, measured in the graph, that a claimed value cannot stand beside the graph's.

A property many subjects hold with several values (country, genre) may still pair only some values: a
film from the United States is often also British, never also Soviet. For a subject holding values
X1..Xn of property p and a claimed value Z, count the other subjects of the graph holding both (p, Xi)
and (p, Z). Were the values compatible and independent among the subjects holding several values, the
graph would show about

    E(Xi, Z) = n(Xi) * n(Z) * m / N

of them (n(v): subjects holding (p, v) besides this one; N: subjects holding p; m: the share of them
with several values). Observing none where E >= MIN_EXPECTED has Poisson probability e^-E <= e^-3 = 5%
under that independence, so the values are exclusive in practice and a claimed Z refutes.
Values the graph rarely holds give small E and never refute: the graph is silent about them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

MIN_EXPECTED = 3.0  # P(0 observed | compatible) = e^-3 ~ 5%: the tolerated false-refutation rate of the rule


@dataclass(frozen=True)
class CoOccurrence:
    """How often the graph shows the claimed value beside the subject's values of one property."""

    claimed: str  # the claimed value's id
    held: str  # the held value with the largest expected co-occurrence
    observed: int | None  # other subjects holding it beside any held value; None: not counted (E too small)
    expected: float  # largest E(Xi, Z) over the held values
    exclusive: bool

    @property
    def detail(self) -> str:
        if self.exclusive:
            return (f"no other subject holds it beside the graph's value although {self.expected:.1f} would be "
                    "expected if the values could co-occur")
        if self.observed is None:
            return f"too few subjects hold these values to tell whether they co-occur (expected {self.expected:.1f})"
        return f"{self.observed} other subjects hold it beside the graph's values (expected {self.expected:.1f})"


def cooccurrence(held: dict[str, int], claimed: dict[str, int], subjects: int, multi_share: float,
                 observe: Callable[[str], int]) -> CoOccurrence | None:
    """held: per value the subject holds (in order), the other subjects holding it; claimed: the same per
    claimed candidate; observe(z): the other subjects holding z beside any held value, counted per held value
    (asked only when the expectation could decide). The evidence for the candidates the property actually
    takes; None when the graph holds none of them as values of the property (nothing measured). The result is
    exclusive only when every such candidate is (an ambiguous object name must not refute through one of
    its readings)."""
    if not held or not subjects or multi_share is None:
        return None
    found: list[CoOccurrence] = []
    for z, z_subjects in claimed.items():
        if not z_subjects or z in held:
            continue
        best, best_x = -1.0, next(iter(held))
        for x, x_subjects in held.items():
            expected = x_subjects * z_subjects * multi_share / subjects
            if expected > best:
                best, best_x = expected, x
        observed = observe(z) if best >= MIN_EXPECTED else None
        found.append(CoOccurrence(z, best_x, observed, best, observed == 0))
    if not found:
        return None
    undecided = [c for c in found if not c.exclusive]
    return undecided[0] if undecided else found[0]


@dataclass(frozen=True)
class HeldAlone:
    """Among the other subjects holding value `value` of a property, how many hold another value too."""

    value: str
    subjects: int
    several: int

    @property
    def share(self) -> float:
        return self.several / self.subjects if self.subjects else 1.0


def held_alone(counts: dict[str, tuple[int, int]], mine: bool, held: list[str]) -> list[HeldAlone]:
    """For each value the subject holds, the other subjects holding it and how many of them hold several values
    of the property (a value that comes alone — a football club's Russia — says the subject takes no other);
    loosest (highest share) first. counts: per value, (subjects holding it, how many of them hold several
    values at one time), the subject among them; mine: whether the subject holds several.
    The caller applies the same test as to a whole property (facts.py)."""
    out = []
    for x in dict.fromkeys(held):
        subjects, several = counts.get(x, (1, int(mine)))
        out.append(HeldAlone(x, subjects - 1, several - mine))
    return sorted(out, key=lambda h: (-h.share, h.value))
