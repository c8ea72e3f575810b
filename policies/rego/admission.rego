# Install admission for a skill, MCP server or plugin (spec document 1 "Policy"; issue 14 section 2).
# Input: {target_type: skill|mcp|plugin, target_name, path?, connector?, scan_result?: {max_severity, unscannable?}}.
# Output `decision`: {verdict, reason, actions, matched_list, severity}. Order: an explicit deny wins; an explicit
# allow (pinned by source_path_contains when the entry has it) or a first-party entry skips the scan only when
# allow_list_bypass_scan is on; an MCP server whose command cannot be scanned is blocked; otherwise the scan's
# highest severity picks the action triple. The defaults here are today's behaviour; the operator's overrides
# from config.yaml arrive as data.warden.config.admission (the policy service injects them), never edited here.
package warden.admission

import rego.v1

# The three action shorthands of config.yaml (migration rule 2).
shorthands := {
	"block": {"install": "block", "file": "quarantine", "runtime": "disable"},
	"quarantine": {"install": "none", "file": "quarantine", "runtime": "disable"},
	"warn": {"install": "none", "file": "none", "runtime": "enable"},
}

# Today's action per severity and type: the v8 data.json `actions` with its mcp and plugin scanner_overrides.
default_actions := {
	"skill": {"CRITICAL": "block", "HIGH": "block", "MEDIUM": "warn", "LOW": "warn", "INFO": "warn"},
	"mcp": {"CRITICAL": "block", "HIGH": "block", "MEDIUM": "block", "LOW": "warn", "INFO": "warn"},
	"plugin": {"CRITICAL": "block", "HIGH": "block", "MEDIUM": "warn", "LOW": "warn", "INFO": "warn"},
}

# Warden's own first-party packages, trusted where they sit under Warden's home; per type, as
# config.yaml's admission.<type>.first_party_allow_list (which replaces the type's list when set).
default_first_party := {
	"skill": [{"name": "codeguard", "reason": "first-party CodeGuard skill", "source_path_contains": ["/.warden/"]}],
	"mcp": [],
	"plugin": [{"name": "warden", "reason": "first-party Warden plugin", "source_path_contains": ["/.warden/"]}],
}

allow_triple := {"install": "allow", "file": "none", "runtime": "enable"}

none_triple := {"install": "none", "file": "none", "runtime": "enable"}

default overrides := {}

overrides := data.warden.config.admission

bypass_scan := object.get(overrides, "allow_list_bypass_scan", true)

first_party := object.get(overrides, ["first_party_allow_list", target_type], default_first_party[target_type])

target_type := input.target_type

severity := upper(input.scan_result.max_severity)

severity := "NONE" if not input.scan_result.max_severity

# The triple for a type and severity: the operator's override (a shorthand or a triple), else the default.
actions_for(type, sev) := shorthands[a] if {
	a := overrides.actions[type][sev]
	is_string(a)
} else := t if {
	t := overrides.actions[type][sev]
	is_object(t)
} else := shorthands[default_actions[type][sev]]

# An entry names the target, the same connector when both name one, and (for a pinned entry) a path marker.
names_target(e) if {
	e.name == input.target_name
	not connector_differs(e)
}

connector_differs(e) if e.connector != input.connector

pinned_path_holds(e) if not e.source_path_contains

pinned_path_holds(e) if {
	some marker in markers(e.source_path_contains)
	contains(input.path, marker)
}

markers(m) := [m] if is_string(m)

markers(m) := m if is_array(m)

lists := object.get(overrides, ["lists", target_type], {})

denied_entry := e if {
	some e in object.get(lists, "denied", [])
	names_target(e)
}

allowed_entry := e if {
	some e in object.get(lists, "allowed", [])
	names_target(e)
	pinned_path_holds(e)
}

first_party_entry := e if {
	some e in first_party
	e.name == input.target_name
	pinned_path_holds(e)
}

scan_decision := {"verdict": "blocked", "reason": concat("", ["MCP server command cannot be scanned: ", object.get(input.scan_result, "reason", "not npx or uvx with a package, nor a URL")]), "actions": shorthands.block, "matched_list": null} if {
	target_type == "mcp"
	input.scan_result.unscannable == true
} else := {"verdict": "scan", "reason": "no scan result yet: scan before install", "actions": none_triple, "matched_list": null} if {
	not input.scan_result
} else := {"verdict": "clean", "reason": "scan found nothing", "actions": allow_triple, "matched_list": null} if {
	severity == "NONE"
} else := {"verdict": "rejected", "reason": concat("", ["scan severity ", severity, " is set to ", t.install, "/", t.file, "/", t.runtime]), "actions": t, "matched_list": null} if {
	t := actions_for(target_type, severity)
	blocking(t)
} else := {"verdict": "warning", "reason": concat("", ["scan severity ", severity, " is allowed with a warning"]), "actions": t, "matched_list": null} if {
	t := actions_for(target_type, severity)
}

blocking(t) if t.install == "block"

blocking(t) if t.file == "quarantine"

outcome := {"verdict": "blocked", "reason": concat("", ["on the block list: ", object.get(e, "reason", "")]), "actions": shorthands.block, "matched_list": "denied"} if {
	e := denied_entry
} else := {"verdict": "allowed", "reason": concat("", ["on the allow list: ", object.get(e, "reason", "")]), "actions": allow_triple, "matched_list": "allowed"} if {
	bypass_scan
	e := allowed_entry
} else := {"verdict": "allowed", "reason": concat("", ["first-party: ", object.get(e, "reason", "")]), "actions": allow_triple, "matched_list": "first_party"} if {
	bypass_scan
	e := first_party_entry
} else := scan_decision

decision := object.union(outcome, {"severity": severity}) if target_type in {"skill", "mcp", "plugin"}
