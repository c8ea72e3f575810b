# Egress decision for a connection from an agent or sandbox: {host, port, protocol, binary?, sandbox?} ->
# `decision` {allow, reason, matched_rule}. Cloud metadata addresses are always denied, in every encoding: the
# policy service adds `input.address`, the host as a parsed IP (decimal, hex, octal and IPv4-mapped IPv6 forms
# made dotted) or the lowercased name without a trailing dot. Patterns (data.warden.config.firewall.allow and
# .deny): an exact host, `*.suffix` for any subdomain, or a CIDR for IP addresses. A deny wins; with no allow
# pattern everything else is allowed (today's behaviour: no egress filtering), with some only matches are.
package warden.firewall

import rego.v1

default config := {}

config := data.warden.config.firewall

metadata_addresses := {
	"169.254.169.254", "169.254.170.2", "169.254.170.23", "100.100.100.200", "fd00:ec2::254", "fd00:ec2::23",
	"metadata.google.internal", "metadata.goog", "metadata.azure.internal", "instance-data", "instance-data.ec2.internal",
}

address := lower(trim_suffix(object.get(input, "address", input.host), "."))

is_ip if regex.match(`^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$`, address)

is_ip if contains(address, ":")

matches(pattern) if lower(pattern) == address

matches(pattern) if {
	startswith(pattern, "*.")
	endswith(address, lower(substring(pattern, 1, -1)))
}

matches(pattern) if {
	contains(pattern, "/")
	is_ip
	net.cidr_contains(pattern, address)
}

deny_rule := p if {
	some p in object.get(config, "deny", [])
	matches(p)
}

allow_rule := p if {
	some p in object.get(config, "allow", [])
	matches(p)
}

decision := {"allow": false, "reason": "cloud metadata address", "matched_rule": "metadata"} if {
	address in metadata_addresses
} else := {"allow": false, "reason": "denied host", "matched_rule": deny_rule} if {
	deny_rule
} else := {"allow": true, "reason": "allowed host", "matched_rule": allow_rule} if {
	allow_rule
} else := {"allow": false, "reason": "not on the allow list", "matched_rule": null} if {
	count(object.get(config, "allow", [])) > 0
} else := {"allow": true, "reason": "no egress rule applies", "matched_rule": null}
