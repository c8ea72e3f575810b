# Egress decision for a connection from an agent or sandbox: {host, port, protocol, binary?, sandbox?} ->
# `decision` {allow, ask, reason, matched_rule, category, unblockable}. Cloud metadata addresses are always
# denied, in every encoding, and never unblockable: the policy service adds `input.address`, the host as a parsed
# IP (decimal, hex, octal and IPv4-mapped IPv6 forms made dotted) or the lowercased name without a trailing dot.
# Patterns (data.warden.config.firewall.allow and .deny): an exact host, `*.suffix` for any subdomain, or a CIDR
# for IP addresses. A deny wins; with no allow pattern everything else is allowed (no egress filtering), with
# some only matches are.
#
# A sandbox's egress proxy adds what it knows of the run: `pack`, `profile`, `network_mode` (none, policed,
# open), `approvals` (ask a human about what no rule decides), `host_ports` (ports on the host machine the run
# may reach), `gateway_ports` (Warden's own listeners on the host, such as the guardrail proxy), `unblocked` /
# `blocked` (a human lifted or rejected this host), and `resolved` (the addresses the proxy resolved the name
# to, canonical: a name resolving to a metadata or loopback address is refused, so DNS rebinding cannot reach
# them). For a sandbox, what no rule decides is asked (policed with approvals), refused
# (policed without) or allowed (open); the host machine is reachable only on the run's host_ports.
package warden.firewall

import rego.v1

default config := {}

config := data.warden.config.firewall

metadata_addresses := {
	"169.254.169.254", "169.254.170.2", "169.254.170.23", "100.100.100.200", "fd00:ec2::254", "fd00:ec2::23",
	"metadata.google.internal", "metadata.goog", "metadata.azure.internal", "instance-data", "instance-data.ec2.internal",
}

# Addresses that are the host machine itself (or any of its interfaces, for the unspecified address).
host_machine_v4 := ["127.0.0.0/8", "0.0.0.0/32"]

host_machine_v6 := ["::1/128", "::/128"]

# Link-local networks: cloud metadata services live here under other addresses than the listed ones.
link_local_v4 := ["169.254.0.0/16"]

link_local_v6 := ["fe80::/10"]

address := lower(trim_suffix(object.get(input, "address", input.host), "."))

is_ip if regex.match(`^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$`, address)

is_ip if contains(address, ":")

# Every IP the connection could reach: the host when it is one, and what it resolved to.
ips contains address if is_ip

ips contains a if some a in object.get(input, "resolved", [])

in_networks(a, v4, _) if {
	not contains(a, ":")
	some cidr in v4
	net.cidr_contains(cidr, a)
}

in_networks(a, _, v6) if {
	contains(a, ":")
	some cidr in v6
	net.cidr_contains(cidr, a)
}

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

metadata if address in metadata_addresses

metadata if {
	some a in ips
	a in metadata_addresses
}

link_local if {
	some a in ips
	in_networks(a, link_local_v4, link_local_v6)
}

host_machine if address == "localhost"

# The name a sandbox uses for the host machine (its own localhost is its own loopback); the proxy resolves it to 127.0.0.1.
host_machine if address == "host.warden.internal"

host_machine if endswith(address, ".localhost")

host_machine if {
	some a in ips
	in_networks(a, host_machine_v4, host_machine_v6)
}

sandboxed if input.sandbox

host_port_listed if input.port in object.get(input, "host_ports", [])

refuse(reason, rule, category, unblockable) := {
	"allow": false, "ask": false, "reason": reason, "matched_rule": rule, "category": category, "unblockable": unblockable,
}

permit(reason, rule, category) := {
	"allow": true, "ask": false, "reason": reason, "matched_rule": rule, "category": category, "unblockable": false,
}

ask(reason, category) := {
	"allow": false, "ask": true, "reason": reason, "matched_rule": null, "category": category, "unblockable": true,
}

decision := refuse("cloud metadata address", "metadata", "metadata", false) if {
	metadata
} else := refuse("link-local address", "link_local", "metadata", false) if {
	sandboxed
	link_local
} else := refuse("denied host", deny_rule, "denied", false) if {
	deny_rule
} else := sandbox_decision if {
	sandboxed
} else := permit("allowed host", allow_rule, "allowed") if {
	allow_rule
} else := refuse("not on the allow list", null, "not_allowed", false) if {
	count(object.get(config, "allow", [])) > 0
} else := permit("no egress rule applies", null, "no_rule")

# A sandbox's connection, once metadata and operator denials are out of the way.
sandbox_decision := refuse("the sandbox's network mode is none", "network_mode", "network_none", false) if {
	input.network_mode == "none"
} else := refuse("rejected by a human", "block", "rejected", true) if {
	input.blocked == true
} else := host_port_decision if {
	host_machine
} else := permit("unblocked by a human", "unblock", "unblocked") if {
	input.unblocked == true
} else := permit("allowed host", allow_rule, "allowed") if {
	allow_rule
} else := permit("open network mode", "network_mode", "open") if {
	input.network_mode == "open"
} else := refuse("not on the allow list", null, "not_allowed", true) if {
	count(object.get(config, "allow", [])) > 0
	not input.approvals
} else := ask("no rule decides this host", "unknown_host") if {
	input.approvals
} else := refuse("no rule allows this host and approvals are off", null, "unknown_host", true)

# The host machine: Warden's own listeners a sandbox must reach (the guardrail proxy its model traffic goes
# through: `gateway_ports`), then only the run's host_ports, each asked of a human until it is approved (unblocked).
host_port_decision := permit("Warden's own listener on the host", "gateway_ports", "gateway") if {
	input.port in object.get(input, "gateway_ports", [])
} else := refuse("a port on the host machine the run did not ask for", "host_ports", "host_port", false) if {
	not host_port_listed
} else := permit("a host port of the run, approved", "host_ports", "host_port") if {
	input.unblocked == true
} else := ask("a port on the host machine", "host_port") if {
	input.approvals
} else := permit("a host port of the run", "host_ports", "host_port")
