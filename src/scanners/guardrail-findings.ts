// The guardrail inspector's findings (tool-call and text lanes) as scanner findings: the MCP scanner runs tool
// descriptions through the text lane and the plugin scanner runs hook commands through the tool-call lane, so
// both report the same rule ids an agent's live traffic would hit. Evidence is kept redacted.
import type { Finding as GuardrailFinding } from '../guardrail/engine.js';
import { redactEvidence } from '../guardrail/redact.js';
import type { AnalyzerFinding, ScanCategory } from './types.js';

const CATEGORY: Record<string, ScanCategory> = {
  'trust-exploit': 'prompt_injection', secret: 'hardcoded_secrets', 'sensitive-path': 'data_exfiltration', c2: 'data_exfiltration',
  command: 'command_injection', 'cognitive-file': 'prompt_injection', 'enterprise-data': 'data_exfiltration',
};

/** `what` names the inspected thing in the title and description ("tool add", "PreToolUse hook command"). */
export function fromGuardrail(finding: GuardrailFinding, what: string, remediation: string): AnalyzerFinding {
  return {
    rule_id: finding.rule.id,
    category: CATEGORY[finding.rule.category] ?? 'policy_violation',
    severity: finding.rule.severity,
    title: `${finding.rule.title} in ${what}`,
    description: `The guardrail rule ${finding.rule.id} matches the ${what} (evidence ${redactEvidence(finding.evidence)}).`,
    remediation,
    metadata: { confidence: finding.rule.confidence },
  };
}
