"""`kgcheck mcp`: a Model Context Protocol server (stdio) so that a local agent can ground its answers.

Tools: verify_text, check_claims, lookup_entity, show_entity. Inputs are JSON-schema'd by their
annotations; outputs are pydantic models, so each tool also declares an output schema and returns
structured content (verdicts, evidence with statement ids, corrections, Factuality Degree). A user
mistake (unknown id, empty text, too many claims) is a tool error, never a crash of the server.
The `mcp` SDK is an optional extra (`pip install kgcheck[mcp]`): it is imported only here, in
create_server.
"""
# No `from __future__ import annotations`: the SDK reads the tools' annotations at run time.
import threading
from dataclasses import asdict
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, Field

from kgcheck.verifier.errors import VerifierError
from kgcheck.verifier.serve.models import CandidateOut, QualifierOut  # the HTTP API's shapes: the same here

MAX_TEXT_CHARS = 20_000  # a few pages; longer texts belong to `kgcheck verify --file`
MAX_CLAIMS = 1000  # the HTTP API's cap (serve/server.py)
MAX_STATEMENTS = 200

Verdict = Literal["SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"]


class EvidenceOut(BaseModel):
    statement_id: str = Field(description="Wikidata statement id (GUID) in the index")
    subject: str
    subject_label: Optional[str] = None
    property: str
    property_label: Optional[str] = None
    value: str
    value_id: Optional[str] = None
    rank: str
    relation: str = Field(description="match, less-specific, conflict, other-value or related")
    score: float


class VerdictOut(BaseModel):
    id: str
    subject: str
    predicate: str
    object: str
    verdict: Verdict
    confidence: float
    rule: str = Field(description="retrieval rule that decided: A, B, C (GPToLODS) or none")
    reason: str
    subject_id: Optional[str] = None
    property_ids: list[str] = []
    evidence: list[EvidenceOut] = []
    corrections: list[str] = Field(default=[], description="the graph's values when the claim is refuted")
    correction_ids: list[str] = []
    span: Optional[str] = Field(default=None, description="verify_text: the words the claim is read from")


class VerifyTextOut(BaseModel):
    factuality_degree: Optional[float] = Field(description="mean support over the settled (SUPPORTED or "
                                                           "REFUTED) claims, REFUTED counting 0; null when none")
    claims: list[VerdictOut]
    fixed_text: Optional[str] = Field(default=None, description="the text with refuted values replaced (fix=true)")
    notes: list[str] = []


class ClaimIn(BaseModel):
    subject: str = Field(min_length=1, description="subject as text, e.g. 'Douglas Adams'")
    predicate: str = Field(default="", description="relation as text, e.g. 'place of birth'")
    object: str = Field(min_length=1, description="value as text, e.g. 'Cambridge', '1952', '1.96 m'")
    id: Optional[str] = None
    subject_id: Optional[str] = Field(default=None, pattern=r"^[QPqp]\d+$")
    property_id: Optional[str] = Field(default=None, pattern=r"^[Pp]\d+$")
    object_id: Optional[str] = Field(default=None, pattern=r"^[QPqp]\d+$")


class CheckClaimsOut(BaseModel):
    results: list[VerdictOut]
    counts: dict[str, int]


class LookupOut(BaseModel):
    candidates: list[CandidateOut]


class StatementOut(BaseModel):
    statement_id: str
    property: str
    property_label: Optional[str] = None
    value: str
    value_id: Optional[str] = None
    rank: str
    qualifiers: list[QualifierOut] = []


class EntityOut(BaseModel):
    id: str
    label: Optional[str] = None
    description: Optional[str] = None
    aliases: list[str] = []
    statements: list[StatementOut]
    truncated: bool = Field(description="more statements than `limit` exist")


def verdict_out(d: dict) -> VerdictOut:
    """A verdict_to_dict (or report_to_dict claim) as the tool's flat model."""
    c = d["claim"]
    return VerdictOut(
        id=str(d["id"]), subject=c["subject"], predicate=c["predicate"], object=c["object"], verdict=d["verdict"],
        confidence=d["confidence"], rule=d["rule"], reason=d["reason"], subject_id=d.get("subject_id"),
        property_ids=d.get("property_ids") or [], corrections=d.get("corrections") or [],
        correction_ids=d.get("correction_ids") or [], span=d.get("span"),
        evidence=[EvidenceOut(**{k: e[k] for k in EvidenceOut.model_fields}) for e in d.get("evidence") or []])


class Tools:
    """The four tools over one opened index; plain methods, so they are testable without the SDK."""

    def __init__(self, kg):
        from kgcheck.verifier.claims.check import Checker

        self.kg = kg
        self.checker = Checker(kg)

    def verify_text(self, text: str, fix: bool = False, about: str | None = None) -> VerifyTextOut:
        from kgcheck.verifier.text.verify import report_to_dict, verify_text

        if not text.strip():
            raise VerifierError("give a non-empty text")
        report = report_to_dict(verify_text(self.kg, text, fix=fix, checker=self.checker, about=about or None))
        return VerifyTextOut(factuality_degree=report["factuality_degree"],
                             claims=[verdict_out(c) for c in report["claims"]],
                             fixed_text=report["fixed_text"] if fix else None, notes=report["notes"])

    def check_claims(self, claims: list[ClaimIn]) -> CheckClaimsOut:
        from kgcheck.verifier.formats.readers import parse_claim_dict
        from kgcheck.verifier.formats.serialize import verdict_to_dict

        if not claims:
            raise VerifierError("give at least one claim")
        if len(claims) > MAX_CLAIMS:
            raise VerifierError(f"at most {MAX_CLAIMS} claims per call")
        parsed = []
        for i, c in enumerate(claims, 1):
            item = {k: v for k, v in c.model_dump().items() if v is not None}
            item.setdefault("id", f"c{i}")
            parsed.append(parse_claim_dict(item, i))
        results = [verdict_out(verdict_to_dict(v)) for v in self.checker.check(parsed)]
        counts = {v: sum(r.verdict == v for r in results) for v in ("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO")}
        return CheckClaimsOut(results=results, counts=counts)

    def lookup_entity(self, query: str, k: int = 5, properties: bool = False) -> LookupOut:
        if not query.strip():
            raise VerifierError("give a non-empty query")
        found = (self.kg.search_properties if properties else self.kg.search_entities)(query, k)
        return LookupOut(candidates=[CandidateOut(**asdict(c)) for c in found])

    def show_entity(self, entity_id: str, property: Optional[str] = None, limit: int = 100) -> EntityOut:
        from kgcheck.index.render import statement_dict, statement_entity_ids

        eid = entity_id.strip().upper()
        entity = self.kg.entity(eid)
        statements = self.kg.statements(eid, property.upper() if property else None, details=False)
        if entity is None and not statements:
            raise VerifierError(f"unknown id {eid}: not in this index")
        labels = self.kg.labels(statement_entity_ids(statements[:limit]))
        out = []
        for st in statements[:limit]:
            d = statement_dict(st, labels)
            out.append(StatementOut(statement_id=d["statement_id"], property=d["property"],
                                    property_label=d["property_label"], value=d["value"], value_id=d["value_id"],
                                    rank=d["rank"], qualifiers=[QualifierOut(**q) for q in d["qualifiers"]]))
        return EntityOut(id=eid, label=entity.label if entity else None,
                         description=entity.description if entity else None,
                         aliases=list(entity.aliases) if entity else [], statements=out,
                         truncated=len(statements) > limit)


def create_server(index_dir: str, embedder=None):
    """An MCPServer over the index at `index_dir` (opened once, read-only); `embedder` as for KG.open."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from kgcheck.index.store import KG, IndexError_

    kg = KG.open(index_dir, embedder=embedder)
    kg.load_embedder_in_background()  # an agent's first call should not wait for the model
    tools = Tools(kg)
    server = MCPServer(name="kgcheck", version=str(kg.manifest.get("kgcheck_version", "")),
                       instructions="Fact-check claims and text against a local Wikidata index (offline). "
                                    "Verdicts are SUPPORTED, REFUTED or NOT_ENOUGH_INFO with evidence "
                                    "statement ids; cite them.")

    lock = threading.Lock()  # one Checker and its caches: calls that arrive together take turns

    def user_errors(fn):
        # Domain errors become tool errors (isError results) with their one-line message.
        def call(*args, **kwargs):
            try:
                with lock:
                    return fn(*args, **kwargs)
            except (VerifierError, IndexError_) as exc:
                raise ToolError(str(exc)) from exc
        return call

    @server.tool(description="Verify free text: the claims read from it, a verdict for each with evidence "
                             "statement ids and corrections, and the text's Factuality Degree.")
    def verify_text(text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS,
                                               description="English text, e.g. an answer to check")],
                    fix: Annotated[bool, Field(description="also return the text with refuted values "
                                                           "replaced by the graph's")] = False,
                    about: Annotated[str | None, Field(max_length=200, description="what the text is about (an "
                                                       "entity id or name: the question it answers); its pronouns "
                                                       "and unnamed subjects stand for it")] = None) -> VerifyTextOut:
        return user_errors(tools.verify_text)(text, fix, about)

    @server.tool(description="Check structured (subject, predicate, object) claims against the graph.")
    def check_claims(claims: Annotated[list[ClaimIn], Field(min_length=1, max_length=MAX_CLAIMS)]) -> CheckClaimsOut:
        return user_errors(tools.check_claims)(claims)

    @server.tool(description="Ranked entity (or property) ids for a name, with labels and descriptions.")
    def lookup_entity(query: Annotated[str, Field(min_length=1, max_length=500, description="a name")],
                      k: Annotated[int, Field(ge=1, le=50)] = 5,
                      properties: Annotated[bool, Field(description="search properties instead")] = False
                      ) -> LookupOut:
        return user_errors(tools.lookup_entity)(query, k, properties)

    @server.tool(description="An entity's label, aliases and statements (with statement ids), labels resolved.")
    def show_entity(entity_id: Annotated[str, Field(pattern=r"^\s*[QPqp]\d+\s*$", description="e.g. Q42")],
                    property: Annotated[Optional[str], Field(pattern=r"^[Pp]\d+$",
                                                             description="only this property")] = None,
                    limit: Annotated[int, Field(ge=1, le=MAX_STATEMENTS)] = 100) -> EntityOut:
        return user_errors(tools.show_entity)(entity_id, property, limit)

    server.kg = kg  # closed by run_stdio
    return server


def run_stdio(index_dir: str, embedder=None) -> None:
    server = create_server(index_dir, embedder=embedder)
    try:
        server.run("stdio")
    finally:
        server.kg.close()
