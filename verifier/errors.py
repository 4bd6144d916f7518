"""Errors a user can cause in the verifier (bad claim files, unknown ids)."""


class VerifierError(Exception):
    """A domain error: reported as one line, exit code 1."""
