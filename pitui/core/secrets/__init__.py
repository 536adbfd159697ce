"""Secrets in session text: find them, redact them (`[REDACTED:kind]`)."""

from pitui.core.secrets.detect import Finding, find_secrets, redact, redact_json

__all__ = ["Finding", "find_secrets", "redact", "redact_json"]
