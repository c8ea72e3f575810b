# Install admission for a skill, MCP server or plugin (spec document 1 "Policy"; issue 14 section 2).
# Input: {target_type: skill|mcp|plugin, target_name, path?, connector?, scan_result?: {max_severity, unscannable?}}.
# Output `decision`: {verdict, reason, actions, matched_list, severity}. Order: an explicit deny wins; an explicit
# allow (pinned by source_path_contains when the entry has it) or a first-party entry skips the scan only when
# allow_list_bypass_scan is on; an MCP server whose command cannot be scanned is blocked; otherwise the scan's
# highest severity picks the action triple. The defaults here are today's behaviour; the operator's overrides
# from config.yaml arrive as data.warden.config.admission (the policy service injects them), never edited here.
package warden.admission

import rego.v1

# The three action shorthands of config.yaml (migration rule 2). Tables are written one entry per rule so a
# decision builds only the entry it looks up (rule heads are indexed), not the whole table.
shorthands["block"] := {"install": "block", "file": "quarantine", "runtime": "disable"}

shorthands["quarantine"] := {"install": "none", "file": "quarantine", "runtime": "disable"}

shorthands["warn"] := {"install": "none", "file": "none", "runtime": "enable"}

# Today's action per severity and type: the v8 data.json `actions` with its mcp and plugin scanner_overrides.
default_actions["skill"] := {"CRITICAL": "block", "HIGH": "block", "MEDIUM": "warn", "LOW": "warn", "INFO": "warn"}

default_actions["mcp"] := {"CRITICAL": "block", "HIGH": "block", "MEDIUM": "block", "LOW": "warn", "INFO": "warn"}

default_actions["plugin"] := {"CRITICAL": "block", "HIGH": "block", "MEDIUM": "warn", "LOW": "warn", "INFO": "warn"}

# Warden's own first-party packages, trusted where they sit under Warden's home; per type, as
# config.yaml's admission.<type>.first_party_allow_list (which replaces the type's list when set).
default_first_party["skill"] := [{"name": "codeguard", "reason": "first-party CodeGuard skill", "source_path_contains": ["/.warden/"]}]

default_first_party["mcp"] := []

default_first_party["plugin"] := [{"name": "warden", "reason": "first-party Warden plugin", "source_path_contains": ["/.warden/"]}]

allow_triple := {"install": "allow", "file": "none", "runtime": "enable"}

none_triple := {"install": "none", "file": "none", "runtime": "enable"}

default overrides := {}

overrides := data.warden.config.admission

bypass_scan := object.get(overrides, "allow_list_bypass_scan", true)

first_party := overrides.first_party_allow_list[target_type] if {
	overrides.first_party_allow_list[target_type]
} else := default_first_party[target_type]

target_type := input.target_type

severity := upper(object.get(input, ["scan_result", "max_severity"], "NONE"))

# An entry names the same connector as the input when both name one, and (for a pinned entry) a path marker.
connector_differs(e) if e.connector != input.connector

pinned_path_holds(e) if not e.source_path_contains

pinned_path_holds(e) if {
	some marker in markers(e.source_path_contains)
	contains(input.path, marker)
}

markers(m) := [m] if is_string(m)

markers(m) := m if is_array(m)

# The enforcement lists, indexed by name (the service injects them as
# lists.<type>.denied|allowed.<name> = [entries]), so a decision costs the same with ten entries or ten thousand.
denied_entry := e if {
	some e in overrides.lists[target_type].denied[input.target_name]
	not connector_differs(e)
}

allowed_entry := e if {
	some e in overrides.lists[target_type].allowed[input.target_name]
	not connector_differs(e)
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
} else := {"verdict": "rejected", "reason": concat("", ["scan severity ", severity, " is set to ", scan_actions.install, "/", scan_actions.file, "/", scan_actions.runtime]), "actions": scan_actions, "matched_list": null} if {
	blocking
} else := {"verdict": "warning", "reason": concat("", ["scan severity ", severity, " is allowed with a warning"]), "actions": scan_actions, "matched_list": null}

# The triple for the scan's severity: the operator's override (a shorthand or a triple), else the default.
override := overrides.actions[target_type][severity]

scan_actions := shorthands[override] if {
	is_string(override)
} else := override if {
	is_object(override)
} else := shorthands[default_actions[target_type][severity]]

blocking if scan_actions.install == "block"

blocking if scan_actions.file == "quarantine"

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
