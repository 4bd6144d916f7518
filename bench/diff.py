"""Re-checking after a rebuild vs checking everything again, on wd50k with 1% of statements edited.

    nice python bench/diff.py [--work /work/indexes/h4-diff] [--fraction 0.01] [--seed 7] [--claims FILE]
                              [--pipeline N [--repeat K]] [--by-name]

Builds OLD from wikidata-wd50k and NEW from a copy whose statements were edited with probability
`fraction` (a date moved 3 years, a quantity x1.5, an entity value swapped for another value of the
same property seen earlier in the dump, a string suffixed), checks claims-dev on OLD, then times
(a) a full check of claims-dev on NEW and (b) `diff` + `recheck` of the OLD results on NEW.
Also counts the claims whose full-check verdict on NEW differs from the re-checked file (missed flips).
`--claims` checks another claims file (the held-out twin of claims-dev). `--pipeline N` repeats the warm
comparison on N claims drawn from OLD's own statements, as a pipeline validating a graph's triples
writes them (half true, half with the object swapped for another value of the property or the year
moved): claims-dev's 12,530 claims cost a full check of ~5 s, where the recheck's fixed costs weigh most.
`--by-name` drops the claims' ids, so that subjects (and their namesakes), predicates and objects are linked
by name, as a user's claims often are.
"""
from __future__ import annotations

import argparse
import bz2
import json
import os
import random
import sys
import time
from pathlib import Path

from common import ROOT, need_shared

SHARED = ROOT.parent / "shared" if (ROOT.parent / "shared").is_dir() else Path("/work/shared")


def edit_statement(st: dict, seen: dict, rng: random.Random) -> bool:
    snak = st.get("mainsnak") or {}
    dv = snak.get("datavalue")
    if snak.get("snaktype") != "value" or not dv:
        return False
    v, kind = dv["value"], dv["type"]
    if kind == "time":
        sign, rest = v["time"][0], v["time"][1:]
        year, tail = rest.split("-", 1)
        v["time"] = f"{sign}{int(year) + 3:0{len(year)}d}-{tail}"
    elif kind == "quantity":
        a = float(v["amount"]) * 1.5
        v["amount"] = ("+" if a >= 0 else "-") + (f"{abs(a):.6f}".rstrip("0").rstrip(".") or "0")
    elif kind == "wikibase-entityid":
        pool = [x for x in seen.get(snak["property"], ()) if x != v.get("id")]
        if not pool:
            return False
        new = rng.choice(pool)
        v["id"], v["numeric-id"] = new, int(new[1:])
    elif kind == "string":
        dv["value"] = v + " (edited)"
    else:
        return False
    return True


def make_edited_dump(src: Path, out: Path, fraction: float, seed: int) -> dict:
    rng = random.Random(seed)
    seen: dict[str, list[str]] = {}
    counts = {"statements": 0, "edited": 0}
    with bz2.open(src, "rt", encoding="utf-8") as fin, open(out, "w", encoding="utf-8") as fout:
        for line in fin:
            body = line.rstrip().rstrip(",")
            if body in ("[", "]", ""):
                fout.write(line)
                continue
            entity = json.loads(body)
            for statements in (entity.get("claims") or {}).values():
                for st in statements:
                    counts["statements"] += 1
                    snak = st.get("mainsnak") or {}
                    if rng.random() < fraction and edit_statement(st, seen, rng):
                        counts["edited"] += 1
                    value = ((snak.get("datavalue") or {}).get("value"))
                    if isinstance(value, dict) and str(value.get("id", "")).startswith("Q"):
                        pool = seen.setdefault(snak["property"], [])
                        if len(pool) < 200:
                            pool.append(value["id"])
            fout.write(json.dumps(entity, ensure_ascii=False, separators=(",", ":"))
                       + ("," if line.rstrip().endswith(",") else "") + "\n")
    return counts


def build(dump: Path, out: str, reuse: list[str]) -> tuple[float, bool]:
    """Ingest and index `dump` into `out` unless a current build is there (an index of an older schema is
    indexed again); seconds, and whether anything was built."""
    from kgcheck.index.build import build_index
    from kgcheck.index.manifest import INDEX_SCHEMA_VERSION
    from kgcheck.ingest.pipeline import IngestOptions, ingest

    t = time.monotonic()
    path = os.path.join(out, "manifest.json")
    info = json.load(open(path)).get("index") if os.path.isfile(path) else None
    if info is not None and info.get("index_schema_version") == INDEX_SCHEMA_VERSION:
        return time.monotonic() - t, False
    if not os.path.isfile(path):
        ingest(str(dump), out, IngestOptions(quiet=True, workers=1))
    build_index(out, reuse=[r for r in reuse if os.path.isdir(r)], quiet=True)
    return time.monotonic() - t, True


def full_check(index: str, claims: Path, out: str) -> float:
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.bulk import run_bulk
    from kgcheck.verifier.formats.readers import read_claims

    if os.path.exists(out):
        os.unlink(out)
    t = time.monotonic()
    with KG.open(index) as kg:
        run_bulk(kg, read_claims(str(claims)), out, quiet=True, resume=False)
    return time.monotonic() - t


def verdicts(path: str, detail: bool = False) -> dict[str, object]:
    """Per claim id its verdict, or with `detail` (verdict, exclusivity, confidence, reason)."""
    with open(path, "rb") as fh:
        return {r["id"]: (r["verdict"], r.get("exclusivity"), r.get("confidence"), r.get("reason")) if detail
                else r["verdict"] for r in map(json.loads, fh)}


def evidence_differences(a: str, b: str) -> list[str]:
    """Ids of the claims whose cited statements or corrections differ between two results files."""
    def cited(path):
        with open(path, "rb") as fh:
            return {r["id"]: ([e.get("statement_id") for e in r.get("evidence") or ()], r.get("corrections"))
                    for r in map(json.loads, fh)}
    x, y = cited(a), cited(b)
    return [i for i in x if x[i] != y.get(i)]


def pipeline_claims(index: str, out: Path, n: int, seed: int) -> None:
    """N claims from INDEX's statements (entity and point-in-time values of subjects with an English label),
    with ids and English labels as claims-dev writes them; every other one corrupted: an entity value
    swapped for another value the property takes in the graph, a year moved 3 to 9 years."""
    import duckdb

    rng = random.Random(seed)
    con = duckdb.connect()
    con.execute(f"PRAGMA threads=2; SELECT setseed({rng.random() * 2 - 1})")
    st, lab = (os.path.join(index, f"{t}.parquet").replace("'", "''") for t in ("statements", "labels"))
    rows = con.execute(f"""
        WITH en AS (SELECT id, first(text) AS text FROM read_parquet('{lab}')
                    WHERE language = 'en' AND kind = 'label' GROUP BY id)
        SELECT s.subject, sl.text, s.property, pl.text, s.value_type, s.entity_id, ol.text, s.time, s.time_precision
        FROM read_parquet('{st}') s JOIN en sl ON sl.id = s.subject JOIN en pl ON pl.id = s.property
        LEFT JOIN en ol ON ol.id = s.entity_id
        WHERE s.snaktype = 'value' AND s.rank <> 'deprecated'
          AND ((s.value_type = 'wikibase-entityid' AND ol.text IS NOT NULL)
               OR (s.value_type = 'time' AND s.time_precision >= 9 AND s.time LIKE '+%'))
        ORDER BY random() LIMIT {n}""").fetchall()
    pool: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        if r[5]:
            pool.setdefault(r[2], []).append((r[5], r[6]))
    with open(out, "w", encoding="utf-8") as fh:
        for i, (sid, subject, pid, predicate, kind, oid, obj, time_, _) in enumerate(rows):
            claim = {"id": f"pipe-{i:07d}", "subject": subject, "predicate": predicate, "subject_id": sid,
                     "property_id": pid}
            if oid:
                if i % 2 and len({x for x, _ in pool[pid]}) > 1:
                    oid, obj = rng.choice([v for v in pool[pid] if v[0] != oid])
                claim.update(kind="entity", object=obj, object_id=oid)
            else:
                year = int(time_[1:].split("-")[0]) + (rng.randint(3, 9) if i % 2 else 0)
                claim.update(kind="date", object=str(year))
            fh.write(json.dumps(claim, ensure_ascii=False) + "\n")


def cli(*args: str) -> tuple[float, str]:
    """A `kgcheck` command in a fresh process (model load included, as a user runs it): seconds, stdout."""
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(ROOT.parent), HF_HUB_OFFLINE="1")
    t = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "kgcheck.cli", *args], env=env, check=True, capture_output=True,
                         text=True).stdout
    return time.monotonic() - t, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/work/indexes/h4-diff")
    ap.add_argument("--fraction", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--claims", type=Path, default=SHARED / "bench" / "claims-dev.jsonl")
    ap.add_argument("--pipeline", type=int, default=0, help="also compare on N claims drawn from OLD's statements")
    ap.add_argument("--repeat", type=int, default=1,
                    help="with --pipeline: alternate the full check and the recheck this many times (medians)")
    ap.add_argument("--by-name", action="store_true",
                    help="the claims without their ids: subjects, predicates and objects linked by name")
    args = ap.parse_args()
    src = need_shared(SHARED / "data" / "wikidata-wd50k.json.bz2")
    claims = need_shared(args.claims)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if args.by_name:
        named = work / f"{claims.stem}-by-name.jsonl"
        with open(claims, encoding="utf-8") as fin, open(named, "w", encoding="utf-8") as fout:
            for line in fin:
                row = json.loads(line)
                fout.write(json.dumps({k: v for k, v in row.items() if not k.endswith("_id")}) + "\n")
        claims = named
    edited = work / "wd50k-edited.json"
    if not edited.is_file():
        counts = make_edited_dump(src, edited, args.fraction, args.seed)
        print(f"edited {counts['edited']:,} of {counts['statements']:,} statements "
              f"({counts['edited'] / counts['statements']:.2%})", flush=True)
    old, new = str(work / "old"), str(work / "new")
    (t_old, _), (t_new, _) = build(src, old, ['/work/indexes/wd50k-ow']), build(edited, new, [old])
    print(f"build old {t_old:.0f} s, new {t_new:.0f} s", flush=True)
    before_path = str(work / "old.jsonl")
    # Always check OLD again: the results depend on the verifier's code as well as on the build, and a recheck
    # only follows the graph's changes (results of an older kgcheck would differ from a full check by the code's).
    print(f"check claims-dev on OLD: {full_check(old, claims, before_path):.1f} s", flush=True)

    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.embed import get_embedder
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.recheck import recheck

    import shutil

    from kgcheck.index.diff import CHANGES_DIR, save_changes
    from kgcheck.verifier.claims.remeasure import save_measure_changes

    shutil.rmtree(os.path.join(new, CHANGES_DIR), ignore_errors=True)  # the join first, as without --keep-previous
    # Warm: one process, the model already loaded, so both sides time only their own work.
    get_embedder().encode(["warm up"])
    t_full = full_check(new, claims, str(work / "new-full.jsonl"))
    t = time.monotonic()
    with IndexDiff(old, new) as diff:
        t_diff = time.monotonic() - t
        summary = diff.summary()
        with KG.open(new) as kg:
            re = recheck(kg, diff, before_path, str(work / "new-recheck.jsonl"))
    t_re = time.monotonic() - t
    st = summary["statements"]
    print(f"diff: statements +{st['added']} -{st['removed']} ~{st['changed']} on {st['subjects_touched']} subjects "
          f"({t_diff:.1f} s)")
    print(f"recheck: {re.rechecked:,} of {re.results:,} claims re-checked, {len(re.flipped):,} flipped; "
          f"diff {t_diff:.1f} s + keys/join {re.seconds_diff:.1f} s + checking {re.seconds_check:.1f} s")
    print(f"warm (model loaded): diff + recheck {t_re:.1f} s vs full check {t_full:.1f} s: {t_re / t_full:.3f}x "
          "(target <= 0.1x)", flush=True)
    full, partial, before = (verdicts(str(work / n)) for n in ("new-full.jsonl", "new-recheck.jsonl", "old.jsonl"))
    missed = [i for i in full if full[i] != partial.get(i)]
    changed = [i for i in full if full[i] != before.get(i)]
    print(f"full check on NEW differs from OLD on {len(changed):,} claims; the re-checked file differs from the "
          f"full check on {len(missed):,} claims" + (f" (e.g. {', '.join(missed[:10])})" if missed else ""), flush=True)
    full_d, partial_d = (verdicts(str(work / n), detail=True) for n in ("new-full.jsonl", "new-recheck.jsonl"))
    stale = [i for i in full_d if full_d[i] != partial_d.get(i)]
    print(f"same verdict but another exclusivity, confidence or reason (counts quoted in the reason that moved "
          f"without crossing a threshold): {len(stale):,} claims", flush=True)
    cited = evidence_differences(str(work / "new-full.jsonl"), str(work / "new-recheck.jsonl"))
    print(f"another list of cited statements or corrections than the full check's: {len(cited):,} claims"
          + (f" (e.g. {', '.join(cited[:5])})" if cited else ""), flush=True)

    # Cold: each as its own CLI process, as an operator runs them (model load in both).
    c_full, _ = cli("check", str(claims), "--index", new, "-o", str(work / "cli-full.jsonl"), "--no-resume", "--quiet")
    c_re, _ = cli("recheck", before_path, "--index", new, "--old", old, "-o", str(work / "cli-recheck.jsonl"), "--json")
    print(f"cold (separate CLI processes): kgcheck recheck {c_re:.1f} s vs kgcheck check {c_full:.1f} s: "
          f"{c_re / c_full:.3f}x")

    # The change tables saved by `kgcheck build --keep-previous` (once per rebuild): each recheck reads them.
    t = time.monotonic()
    save_changes(old, new, extra=save_measure_changes)
    t_save = time.monotonic() - t
    t = time.monotonic()
    with IndexDiff(old, new) as diff:
        assert diff.saved, "the saved change tables were not read"
        diff.summary()
        with KG.open(new) as kg:
            recheck(kg, diff, before_path, str(work / "new-recheck-saved.jsonl"))
    t_saved = time.monotonic() - t
    same = verdicts(str(work / "new-recheck-saved.jsonl"), detail=True) == partial_d
    print(f"with the change tables the build saved ({t_save:.1f} s once, at the rebuild): warm recheck {t_saved:.1f} s "
          f"vs full check {t_full:.1f} s: {t_saved / t_full:.3f}x; same results as the joined diff: {same}")
    c_saved, _ = cli("recheck", before_path, "--index", new, "--old", old, "-o", str(work / "cli-recheck-saved.jsonl"),
                     "--json")
    print(f"cold, saved changes: kgcheck recheck {c_saved:.1f} s vs kgcheck check {c_full:.1f} s: "
          f"{c_saved / c_full:.3f}x")
    if args.pipeline:
        pipeline(work, old, new, args.pipeline, args.seed, args.repeat)
    shutil.rmtree(os.path.join(new, CHANGES_DIR), ignore_errors=True)


def pipeline(work: Path, old: str, new: str, n: int, seed: int, repeat: int = 1) -> None:
    """The warm comparison on N claims drawn from OLD (`pipeline_claims`), with the saved change tables; REPEAT
    times, alternating (this machine's speed drifts by 10-15 % within minutes: medians of alternating runs)."""
    from statistics import median

    from kgcheck.index.diff import IndexDiff
    from kgcheck.index.store import KG
    from kgcheck.verifier.claims.recheck import recheck

    claims, before = work / f"pipeline-{n}.jsonl", str(work / f"pipeline-{n}-old.jsonl")
    if not claims.is_file():
        pipeline_claims(old, claims, n, seed)
    print(f"pipeline: {n:,} claims from OLD's statements; check on OLD {full_check(old, claims, before):.1f} s",
          flush=True)
    fulls, rechecks = [], []
    for _ in range(max(1, repeat)):
        fulls.append(full_check(new, claims, str(work / "pipeline-new-full.jsonl")))
        t = time.monotonic()
        with IndexDiff(old, new) as diff:
            diff.summary()
            with KG.open(new) as kg:
                re = recheck(kg, diff, before, str(work / "pipeline-new-recheck.jsonl"))
        rechecks.append(time.monotonic() - t)
    t_full, t_re = median(fulls), median(rechecks)
    full, partial = (verdicts(str(work / f)) for f in ("pipeline-new-full.jsonl", "pipeline-new-recheck.jsonl"))
    missed = [i for i in full if full[i] != partial.get(i)]
    runs = f" (medians of {len(fulls)}: rechecks {', '.join(f'{x:.1f}' for x in rechecks)} s, full checks " \
           f"{', '.join(f'{x:.1f}' for x in fulls)} s)" if len(fulls) > 1 else ""
    print(f"pipeline: {re.rechecked:,} of {re.results:,} re-checked, {len(re.flipped):,} flipped; saved changes, "
          f"warm recheck {t_re:.1f} s (keys/join {re.seconds_diff:.1f} s, checking {re.seconds_check:.1f} s) vs full "
          f"check {t_full:.1f} s: {t_re / t_full:.3f}x{runs}; differs from the full check on {len(missed):,} claims"
          + (f" (e.g. {', '.join(missed[:10])})" if missed else ""), flush=True)
    cited = evidence_differences(str(work / "pipeline-new-full.jsonl"), str(work / "pipeline-new-recheck.jsonl"))
    print(f"pipeline: another list of cited statements or corrections than the full check's: {len(cited):,} claims"
          + (f" (e.g. {', '.join(cited[:5])})" if cited else ""), flush=True)


if __name__ == "__main__":
    main()
