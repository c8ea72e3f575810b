# Which audit events to keep, for how long, and which of their fields to redact.
# Input: {event_type, severity?, fields?: [field names]}. Output `decision`: {keep, retention_days, redact}.
# Defaults are today's behaviour: every event kept 90 days, credential-like fields redacted. Operator overrides
# arrive as data.warden.config.audit: retention_days, drop_event_types, min_severity, redact_fields.
package warden.audit

import rego.v1

default config := {}

config := data.warden.config.audit

rank := {"INFO": 1, "LOW": 2, "MEDIUM": 3, "HIGH": 4, "CRITICAL": 5}

sensitive_fields := {"api_key", "authorization", "cookie", "password", "secret", "token"}

retention_days := object.get(config, "retention_days", 90)

redact_names := sensitive_fields | {f | some f in object.get(config, "redact_fields", [])}

dropped if input.event_type in object.get(config, "drop_event_types", [])

dropped if rank[upper(input.severity)] < rank[upper(config.min_severity)]

redact := sort([f | some f in object.get(input, "fields", []); lower(f) in redact_names])

default keep := true

keep := false if dropped

decision := {"keep": keep, "retention_days": retention_days, "redact": redact} if is_string(input.event_type)
