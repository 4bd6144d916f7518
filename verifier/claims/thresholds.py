"""The measured tests' thresholds (facts.py, trace.py, and their SQL in measuresql.py): one place, no imports."""
from __future__ import annotations

import math

MIN_SUBJECTS = 20  # below this the data says too little about a property's functionality
# Measured fallback (no constraint in the dump): a conflicting value refutes only when at most 5% of the
# subjects holding the property hold several best values (a refutation then errs <= 5% of the time even if
# every such subject had an unlisted value), and the 95% Wilson upper bound stays under 10%.
MAX_MULTI_SHARE = 0.05
MAX_MULTI_UPPER = 0.10
Z95 = 1.645  # one-sided 95%


def wilson_upper(k: int, n: int, z: float = Z95) -> float:
    if n == 0:
        return 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return min(1.0, (centre + spread) / (1 + z * z / n))
