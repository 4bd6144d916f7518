"""The results file recheck reads once and rewrites by offset (resultsfile.py): the same bytes as reading and
writing it line by line — byte-order mark kept, blank lines left out, every line ending in a newline."""
from __future__ import annotations

import io

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from kgcheck.verifier.claims.resultsfile import BOM, ResultsFile

line_texts = st.one_of(st.just(b""), st.just(b"  \t"), st.just(b'{"id": 1}'), st.just(b"not json {"),
                       st.binary(max_size=12).filter(lambda b: b"\n" not in b))


def _by_lines(raw: bytes, replaced: dict[int, bytes]) -> bytes:
    """The reference: line by line, as recheck wrote files before it kept offsets."""
    bom = BOM if raw.startswith(BOM) else b""
    out = [bom]
    for number, line in enumerate(io.BytesIO(raw[len(bom):]), 1):
        if line.strip():
            out.append(replaced.get(number) or (line if line.endswith(b"\n") else line + b"\n"))
    return b"".join(out)


@settings(max_examples=400, deadline=None)
@given(st.lists(line_texts, max_size=8), st.booleans(), st.booleans(), st.data())
def test_the_rewritten_file_is_the_line_by_line_one(tmp_path_factory, texts, bom, final_newline, data):
    raw = (BOM if bom else b"") + b"\n".join(texts) + (b"\n" if final_newline and texts else b"")
    path = tmp_path_factory.mktemp("rf") / "results.jsonl"
    path.write_bytes(raw)
    results = ResultsFile(str(path))
    read = list(results.records())
    body = raw[len(BOM):] if raw.startswith(BOM) else raw  # a first text may itself be a byte-order mark
    assert [n for n, _, _ in read] == [n for n, t in enumerate(body.split(b"\n"), 1) if t.strip()]
    numbers = [n for n, _, _ in read]
    chosen = data.draw(st.lists(st.sampled_from(numbers), unique=True) if numbers else st.just([]))
    replaced = {n: b'{"re": %d}\n' % n for n in chosen}
    assert results.lines(chosen) == {n: line for n, line, _ in read if n in chosen}
    out = io.BytesIO()
    results.rewrite(out, replaced)
    assert out.getvalue() == _by_lines(raw, replaced)


def test_records_parse_objects_and_leave_other_lines_unparsed(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(BOM + b'{"id": "a"}\n[1, 2]\n\nbroken {\n{"id": "b"}')
    read = list(ResultsFile(str(path)).records())
    assert [(n, obj) for n, _, obj in read] == [(1, {"id": "a"}), (2, None), (4, None), (5, {"id": "b"})]
    assert orjson.loads(read[-1][1]) == {"id": "b"}
