"""Every statement of a dump, rebuilt from the five tables, equals the source JSON.

The canonical form below is written from the dump format, independently of ingest/:
statement id, property, rank, position, main value, qualifiers and references in order,
value by value for every datavalue type and snak type.
"""
from __future__ import annotations

import bz2
import json
from collections import Counter, defaultdict

from kgcheck.ingest.writer import open_database
import pyarrow.parquet as pq
import pytest

from kgcheck.ingest.pipeline import IngestOptions, ingest

WD = "http://www.wikidata.org/entity/"
TABLES = ("entities", "labels", "statements", "qualifiers", "references")


def _ref(uri):
    if uri is None or uri == "1":
        return None
    return uri[len(WD):] if uri.startswith(WD) else uri


def _float(x):
    return None if x is None else float(x)


def canon_snak(snak: dict) -> tuple:
    snaktype = snak.get("snaktype", "value")
    if snaktype != "value":
        return (snaktype, snak.get("datatype"))
    vtype, v = snak["datavalue"]["type"], snak["datavalue"]["value"]
    if vtype == "wikibase-entityid":
        value = v.get("id") or {"item": "Q", "property": "P", "lexeme": "L"}[v["entity-type"]] + str(v["numeric-id"])
    elif vtype == "string":
        value = v
    elif vtype == "time":
        value = (v["time"], v.get("precision"), v.get("timezone"), v.get("before"), v.get("after"),
                 _ref(v.get("calendarmodel")))
    elif vtype == "quantity":
        value = (float(v["amount"]), _ref(v.get("unit")), _float(v.get("lowerBound")), _float(v.get("upperBound")))
    elif vtype == "monolingualtext":
        value = (v["text"], v["language"])
    elif vtype == "globecoordinate":
        value = (float(v["latitude"]), float(v["longitude"]), _float(v.get("precision")), _ref(v.get("globe")))
    else:
        value = json.dumps(v, sort_keys=True)
    return (snaktype, snak.get("datatype"), vtype, value)


def canon_row(r: dict) -> tuple:
    if r["invalid"] is not None:  # a value that broke the Wikibase rules: its datavalue is kept whole as JSON
        return canon_snak({"snaktype": r["snaktype"] or "value", "datatype": r["datatype"],
                           "datavalue": json.loads(r["string"])})
    if r["snaktype"] != "value":
        return (r["snaktype"], r["datatype"])
    vtype = r["value_type"]
    if vtype == "wikibase-entityid":
        value = r["entity_id"]
    elif vtype == "string":
        value = r["string"]
    elif vtype == "time":
        value = (r["time"], r["time_precision"], r["time_timezone"], r["time_before"], r["time_after"],
                 r["time_calendar"])
    elif vtype == "quantity":
        value = (r["amount"], r["unit"], r["lower"], r["upper"])
    elif vtype == "monolingualtext":
        value = (r["string"], r["language"])
    elif vtype == "globecoordinate":
        value = (r["latitude"], r["longitude"], r["coord_precision"], r["globe"])
    else:
        value = json.dumps(json.loads(r["string"]), sort_keys=True)
    return ("value", r["datatype"], vtype, value)


def _in_order(groups: dict, order: list | None) -> list:
    props = list(order or []) + [p for p in groups if p not in (order or [])]
    return [(p, canon_snak(s)) for p in props for s in groups.get(p, [])]


def source_statements(lines) -> tuple[dict, Counter]:
    """subject -> [canonical statement, in dump order]; plus counts straight from the JSON."""
    out: dict[str, list] = {}
    counts: Counter = Counter()
    for raw in lines:
        raw = raw.strip().rstrip(",")
        if raw in ("", "[", "]"):
            continue
        try:
            e = json.loads(raw)
        except ValueError:
            counts["bad_lines"] += 1
            continue
        if e.get("type") not in ("item", "property"):
            counts["skipped"] += 1
            continue
        counts["entities"] += 1
        for lang in ("en", "mul"):
            counts["labels"] += int(lang in (e.get("labels") or {}))
            counts["labels"] += len((e.get("aliases") or {}).get(lang, []))
        statements = []
        for prop, sts in (e.get("claims") or {}).items():
            for st in sts:
                quals = _in_order(st.get("qualifiers") or {}, st.get("qualifiers-order"))
                refs = tuple((r["hash"], tuple(_in_order(r["snaks"], r.get("snaks-order"))))
                             for r in st.get("references") or [])
                counts["statements"] += 1
                counts["qualifiers"] += len(quals)
                counts["references"] += sum(len(snaks) for _, snaks in refs)
                statements.append((st["id"], st["mainsnak"]["property"], st.get("rank"),
                                   canon_snak(st["mainsnak"]), tuple(quals), refs))
        out[e["id"]] = statements
    return out, counts


def _dict_rows(con, sql: str):
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def table_statements(index_dir) -> dict:
    con = open_database(index_dir)
    try:
        quals = defaultdict(list)
        for r in _dict_rows(con, "SELECT * FROM qualifiers ORDER BY statement_id, qualifier_order"):
            quals[r["statement_id"]].append((r["property"], canon_row(r)))
        refs = defaultdict(list)
        for r in _dict_rows(con, 'SELECT * FROM "references" ORDER BY statement_id, reference_order, snak_order'):
            ref_list = refs[r["statement_id"]]
            if len(ref_list) <= r["reference_order"]:
                ref_list.append((r["reference_hash"], []))
            ref_list[r["reference_order"]][1].append((r["property"], canon_row(r)))
        out: dict[str, list] = defaultdict(list)
        for r in _dict_rows(con, "SELECT * FROM statements ORDER BY subject, statement_order"):
            sid = r["statement_id"]
            q, rf = tuple(quals[sid]), tuple((h, tuple(s)) for h, s in refs[sid])
            assert r["qualifier_count"] == len(q) and r["reference_count"] == len(rf), sid
            out[r["subject"]].append((sid, r["property"], r["rank"], canon_row(r), q, rf))
        entity_ids = {row[0] for row in con.execute("SELECT id FROM entities").fetchall()}
    finally:
        con.close()
    return {e: out.get(e, []) for e in entity_ids}


def check_rebuild(index_dir, lines) -> None:
    expected, counts = source_statements(lines)
    rebuilt = table_statements(index_dir)
    assert rebuilt.keys() == expected.keys()
    for subject, statements in expected.items():
        assert rebuilt[subject] == statements, subject
    manifest = json.loads((index_dir / "manifest.json").read_text())
    for table in TABLES:
        assert manifest["counts"][table] == counts[table], table
    assert sum(manifest["skipped_entities"].values()) == counts["skipped"]
    assert manifest["bad_lines"]["total"] == counts["bad_lines"]


def check_files(index_dir) -> None:
    con = open_database(index_dir)
    try:
        names = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        assert set(TABLES) <= names
        for table in TABLES:
            meta = pq.ParquetFile(index_dir / f"{table}.parquet").metadata
            n = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            assert meta.num_rows == n
            if n:
                assert meta.row_group(0).column(0).compression == "ZSTD"
            key = "id" if table in ("entities", "labels") else "subject"
            column = pq.read_table(index_dir / f"{table}.parquet", columns=[key]).column(key).to_pylist()
            assert column == sorted(column), f"{table}.parquet is not sorted by {key}"
    finally:
        con.close()


def test_mini_fixture_rebuilds_statement_by_statement(mini_index, mini_dump):
    check_rebuild(mini_index, mini_dump.read_text(encoding="utf-8").splitlines())
    check_files(mini_index)


@pytest.fixture(scope="module")
def sample_index(sample_dump, tmp_path_factory):
    out = tmp_path_factory.mktemp("sample") / "index"
    ingest(str(sample_dump), str(out), IngestOptions(workers=2, quiet=True))
    return out


def test_sample_rebuilds_statement_by_statement(sample_index, sample_dump):
    with bz2.open(sample_dump, "rt", encoding="utf-8") as fh:
        check_rebuild(sample_index, fh)
    check_files(sample_index)


def test_sample_has_every_value_and_snak_type(sample_index):
    """Guards the test above: the real sample really exercises every kind it claims to."""
    con = open_database(sample_index)
    try:
        kinds = {r[0] for r in con.execute("SELECT DISTINCT coalesce(value_type, snaktype) FROM statements").fetchall()}
        ranks = {r[0] for r in con.execute("SELECT DISTINCT rank FROM statements").fetchall()}
    finally:
        con.close()
    assert {"wikibase-entityid", "string", "time", "quantity", "monolingualtext", "globecoordinate",
            "somevalue", "novalue"} <= kinds
    assert ranks == {"preferred", "normal", "deprecated"}
