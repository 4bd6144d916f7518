"""The HTTP API's requests and responses as pydantic models: validation of what comes in, and the schemas
`/openapi.json` shows. Output models allow extra fields, so a field added by the verifier passes through
(and should be added here to be documented)."""
from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

Verdict = Literal["SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="allow")


class VerifyRequest(BaseModel):
    """Free text to verify. The text is capped in characters (the server's `--max-text-chars`)."""

    text: str = Field(min_length=1, description="The text; offsets in the answer count Unicode code points.")
    fix: bool = Field(False, description="Also rewrite refuted claims with the graph's values.")
    enrich: bool = Field(False, description="Also list the most relevant graph facts (Factum).")
    about: str | None = Field(None, max_length=200, description="What the text is about (an entity id or name: the "
                              "question it answers); its pronouns and unnamed subjects stand for it.")


class ClaimIn(BaseModel):
    """One structured claim of a /check request. An item that is not a valid claim gets its own error."""

    model_config = ConfigDict(extra="allow")
    id: Optional[str] = None
    subject: Optional[str] = None
    predicate: Optional[str] = None
    object: Optional[str] = None
    subject_id: Optional[str] = Field(None, examples=["Q42"])
    property_id: Optional[str] = Field(None, examples=["P569"])
    object_id: Optional[str] = None
    qualifiers: Optional[Union[list, dict]] = None


class ErrorResponse(BaseModel):
    error: str


class PropertyValue(_Out):
    property: str
    value: str


class EvidenceOut(_Out):
    statement_id: str
    subject: str
    subject_label: Optional[str] = None
    property: str
    property_label: Optional[str] = None
    value: str
    value_id: Optional[str] = None
    rank: str
    score: float
    relation: str = Field(description='"match", "less-specific", "conflict", "other-value" or "related"')
    qualifiers: list[PropertyValue] = []
    references: list[list[PropertyValue]] = []


class ClaimEcho(_Out):
    subject: str
    predicate: str
    object: str
    subject_id: Optional[str] = None
    property_id: Optional[str] = None
    object_id: Optional[str] = None
    qualifiers: list[list[str]] = []


class VerdictOut(_Out):
    id: str
    verdict: Verdict
    confidence: float
    rule: str
    reason: str
    claim: ClaimEcho
    subject_id: Optional[str] = None
    property_ids: list[str] = []
    evidence: list[EvidenceOut] = []
    corrections: list[str] = []
    correction_ids: list[str] = []
    error: Optional[str] = None


class ItemError(_Out):
    """A /check item that could not be read as a claim."""

    id: Optional[str] = None
    verdict: None = None
    error: str


class TextClaimOut(VerdictOut):
    start: int = Field(description="Offset of the claimed object in the text, in code points")
    end: int
    span: str
    source: Literal["kg", "llm", "both"]
    sentence_index: int


class EnrichedFact(_Out):
    subject: str
    subject_label: Optional[str] = None
    property: str
    property_label: Optional[str] = None
    value: str
    statement_id: str
    score: float
    sentence: str


class VerifyResponse(_Out):
    text: str
    sentences: list[tuple[int, int]]
    claims: list[TextClaimOut]
    factuality_degree: Optional[float] = None
    shares: dict[str, float]
    fixed_text: Optional[str] = None
    enrichment: list[EnrichedFact] = []
    notes: list[str] = []


class CandidateOut(_Out):
    id: str
    label: Optional[str] = None
    description: Optional[str] = None
    score: float
    matched_by: str
    matched_text: str = ""


class QualifierOut(_Out):
    property: str
    property_label: Optional[str] = None
    value: str


class ReferenceOut(_Out):
    hash: Optional[str] = None
    snaks: list[QualifierOut] = []


class StatementOut(_Out):
    statement_id: str
    subject: str
    subject_label: Optional[str] = None
    property: str
    property_label: Optional[str] = None
    rank: str
    value: str
    value_id: Optional[str] = None
    qualifiers: list[QualifierOut] = []
    references: list[ReferenceOut] = []


class EntityOut(_Out):
    id: str
    label: Optional[str] = None
    description: Optional[str] = None
    aliases: list[str] = []
    statements: list[StatementOut]


class IndexInfo(_Out):
    directory: str
    counts: Optional[dict[str, int]] = None
    source: Optional[str] = None
    model: Optional[str] = None
    faiss: Optional[str] = None


class LLMInfo(_Out):
    enabled: bool
    model: Optional[str] = None


class Limits(_Out):
    max_body_bytes: int
    max_text_chars: int
    max_check_claims: int
    request_timeout_s: float


class HealthResponse(_Out):
    status: Literal["ok"]
    kgcheck_version: Optional[str] = None
    schema_version: Optional[int] = None
    index: IndexInfo
    llm: LLMInfo
    limits: Limits


CheckResponse = list[Union[VerdictOut, ItemError]]
