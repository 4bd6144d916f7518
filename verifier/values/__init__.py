"""Written values: dates, quantities and units as people write them, compared with graph values.

Owns parsing ("11 March 1952", "2,075 km²", "1.5 million"), finding them in sentences, and typed
comparison at a precision or within a tolerance: dates at the coarser of the two precisions;
quantities after unit conversion (units.py), and a claim rounded the way people round
("1.5 million") is APPROXIMATE. This module is the one import for both dates and quantities.
May import ``kgcheck.index.model`` only.
"""
from kgcheck.verifier.values.dates import (  # noqa: F401
    CENTURY, DAY, DECADE, MILLENNIUM, MONTH, SLASH_DATES_DAY_FIRST, YEAR, DateMatch, WrittenDate, compare_dates,
    find_dates, format_date, graph_date, inside_dates, parse_date)
from kgcheck.verifier.values.quantities import (  # noqa: F401
    QuantityMatch, WrittenQuantity, compare_quantities, find_quantities, parse_quantity)

__all__ = ["CENTURY", "DAY", "DECADE", "MILLENNIUM", "MONTH", "SLASH_DATES_DAY_FIRST", "YEAR", "DateMatch",
           "WrittenDate", "compare_dates", "find_dates", "format_date", "graph_date", "inside_dates", "parse_date",
           "QuantityMatch", "WrittenQuantity", "compare_quantities", "find_quantities", "parse_quantity"]
