"""Fuzzing the ingest (issue 17): mutated value snaks of every datatype in dump lines, a bounded
number of examples here; `python bench/fuzz.py` runs a longer campaign of the same check."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from fuzz_dump import WELL_FORMED, check_dump_lines, dump_chunks, value_snaks


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dump_chunks)
def test_mutated_dump_lines_are_contained_accounted_for_and_agree(lines):
    check_dump_lines(lines)


def test_every_datatype_well_formed_is_valid_and_the_same_both_ways(tmp_path):
    import orjson

    from kgcheck.ingest import convert
    from kgcheck.ingest.convert import PartWriter, convert_chunk
    from kgcheck.ingest.dump import Chunk

    from kgcheck.ingest.values import snak_columns

    for datatype, (vtype, value) in WELL_FORMED.items():
        snak = {"snaktype": "value", "property": "P1", "datatype": datatype, "datavalue": {"type": vtype, "value": value}}
        assert snak_columns(snak)[-1] is None, datatype
        line = orjson.dumps({"type": "item", "id": "Q1", "claims": {"P1": [{"id": "Q1$1", "mainsnak": snak}]}})
        check_dump_lines([line])
        if convert.native_available():  # a well-formed value of every datatype is the C builder's to convert
            stats = convert_chunk(Chunk(line + b"\n", 1, 0), ("en",), PartWriter(str(tmp_path), 0, languages=("en",)))
            assert (stats.entities, stats.python_lines) == (1, 0), datatype


@settings(max_examples=30, deadline=None)
@given(value_snaks())
def test_a_mutated_snak_never_raises_out_of_snak_columns(snak):
    from kgcheck.ingest.values import N_VALUE_COLUMNS, snak_columns

    assert len(snak_columns(snak)) == N_VALUE_COLUMNS
