# The action triple by severity for skills: the home of the v8 `skill_actions` matrix (migration rule 4).
# Input: {severity}. Output `decision`: {severity, actions: {install, file, runtime}}. The table and the
# operator's overrides are admission's (data.warden.config.admission.actions.skill), so both always agree.
package warden.skill_actions

import rego.v1

severity := upper(input.severity)

decision := {"severity": severity, "actions": actions} if {
	severity in {"CRITICAL", "HIGH", "MEDIUM", "LOW", "INFO"}
	actions := data.warden.admission.scan_actions with input as {"target_type": "skill", "scan_result": {"max_severity": severity}}
}
