"""Written dates and quantities, one import for both: see dates.py and quantities.py.

Dates compare at the coarser of the two precisions; quantities compare after unit conversion
(units.py), within a relative tolerance, and a claim rounded the way people round ("1.5 million")
is APPROXIMATE.
"""
from verifier.dates import (  # noqa: F401
    CENTURY, DAY, DECADE, MILLENNIUM, MONTH, SLASH_DATES_DAY_FIRST, YEAR, DateMatch, WrittenDate, compare_dates,
    find_dates, format_date, graph_date, parse_date)
from verifier.quantities import (  # noqa: F401
    QuantityMatch, WrittenQuantity, compare_quantities, find_quantities, parse_quantity)

__all__ = ["CENTURY", "DAY", "DECADE", "MILLENNIUM", "MONTH", "SLASH_DATES_DAY_FIRST", "YEAR", "DateMatch",
           "WrittenDate", "compare_dates", "find_dates", "format_date", "graph_date", "parse_date",
           "QuantityMatch", "WrittenQuantity", "compare_quantities", "find_quantities", "parse_quantity"]
