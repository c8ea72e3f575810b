// Scan results as SARIF 2.1.0 (OASIS), the format code-scanning services ingest (e.g. GitHub's upload-sarif).
import { relative } from 'node:path';
import type { ScanResult, ScanSeverity } from './types.js';

const LEVEL: Record<ScanSeverity, 'error' | 'warning' | 'note'> = { CRITICAL: 'error', HIGH: 'error', MEDIUM: 'warning', LOW: 'note', INFO: 'note' };
/** GitHub reads `security-severity` (0-10) to rank security alerts. */
const SECURITY_SEVERITY: Record<ScanSeverity, string> = { CRITICAL: '9.5', HIGH: '8.0', MEDIUM: '5.5', LOW: '3.0', INFO: '1.0' };

export function toSarif(results: ScanResult[], version: string, baseDir = process.cwd()): object {
  const rules = new Map<string, object>();
  const sarifResults: object[] = [];
  for (const result of results) {
    for (const finding of result.findings) {
      if (!rules.has(finding.rule_id)) {
        rules.set(finding.rule_id, {
          id: finding.rule_id,
          name: finding.title,
          shortDescription: { text: finding.title },
          fullDescription: { text: finding.description },
          ...(finding.remediation ? { help: { text: finding.remediation } } : {}),
          properties: { category: finding.category, tags: ['security', finding.category], 'security-severity': SECURITY_SEVERITY[finding.severity] },
        });
      }
      const file = finding.file_path ? `${result.skill_path}/${finding.file_path}` : `${result.skill_path}/SKILL.md`;
      sarifResults.push({
        ruleId: finding.rule_id,
        level: LEVEL[finding.severity],
        message: { text: `${finding.title}: ${finding.description}` },
        locations: [{
          physicalLocation: {
            artifactLocation: { uri: relative(baseDir, file).split('\\').join('/') },
            ...(finding.line_number ? { region: { startLine: finding.line_number } } : {}),
          },
        }],
        properties: { severity: finding.severity, analyzer: finding.analyzer, skill: result.skill_name },
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'warden-skill-scanner', version, rules: [...rules.values()] } },
      results: sarifResults,
    }],
  };
}
