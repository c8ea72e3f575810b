// Tool poisoning: what an MCP server tells the model about its tools, prompts and resources is read by the
// model as instructions, so a description can hijack it. Each text goes through the guardrail inspector's text
// lane (the prompt-injection score and the rule pack's secret and sensitive-path rules), and through the checks
// only a tool description needs: hidden-instruction markers, requests for secrets or the user's files,
// cross-tool shadowing ("when using tool X, also …") and invisible or bidirectional characters. Patterns are
// RE2 (linear time): descriptions are written by whoever runs the server.
import RE2 from 're2';
import type { Inspector } from '../../guardrail/inspector.js';
import { fromGuardrail } from '../guardrail-findings.js';
import { snippetAt } from '../snippet.js';
import type { AnalyzerFinding, ScanCategory } from '../types.js';
import { SCANNER_LIMITS } from '../limits.js';

/** One text the server gave the model: a tool (description and parameter descriptions), a prompt, a resource. */
export interface DefinitionText {
  kind: 'tool' | 'prompt' | 'resource' | 'instructions';
  name: string;
  text: string;
}

interface Check {
  rule_id: string;
  category: ScanCategory;
  severity: 'HIGH' | 'MEDIUM';
  title: string;
  /** Global (`g`): searched from the start for each text. */
  pattern: RE2;
  /** A second look at a match the pattern alone cannot judge (RE2 has no lookahead). */
  accept?: (match: RegExpExecArray) => boolean;
  remediation: string;
}

/** Files no tool needs the model to read for it: keys, credentials, agent configuration. */
const SENSITIVE_FILE = String.raw`(?:~/\.ssh|\.ssh/|id_rsa|id_ed25519|\.env\b|\.aws/credentials|\.npmrc|\.netrc|\.pgpass|/etc/passwd|/etc/shadow|mcp\.json|\.claude\.json|\.git-credentials|\.kube/config)`;
const SECRET = String.raw`(?:api[ _-]?keys?|passwords?|(?:access|auth|bearer|session)[ _-]tokens?|tokens?|credentials?|secrets?|private[ _-]keys?|seed[ _-]phrases?|env(?:ironment)?\s+variables?)`;
/** Words that name the tool itself, not another one ("when using this tool"). */
const SELF = new Set(['this', 'the', 'that', 'a', 'any', 'our', 'same']);

const CHECKS: readonly Check[] = [
  {
    rule_id: 'MCP-HIDDEN-INSTRUCTIONS',
    category: 'prompt_injection',
    severity: 'HIGH',
    title: 'Hidden instructions for the model',
    pattern: new RE2(String.raw`<\s*/?\s*(?:important|system|secret|hidden|instructions?|critical)\s*>|\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert)\s+(?:the\s+)?user\b|\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose)\s+(?:this|these|that|it)\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b|\b(?:the\s+)?user\s+(?:must|should)\s+not\s+(?:know|see|be\s+told)\b`, 'giu'),
    remediation: 'Do not install this server: its descriptions address the model with instructions it hides from the user.',
  },
  {
    rule_id: 'MCP-FILE-REQUEST',
    category: 'data_exfiltration',
    severity: 'HIGH',
    title: 'Asks the model to read the user\'s keys or configuration',
    pattern: new RE2(String.raw`\b(?:read|pass|send|include|provide|attach|upload|collect|forward|cat|copy|paste|contents?\s+of)\b[^\n]{0,100}` + SENSITIVE_FILE, 'giu'),
    remediation: 'Do not install this server: a tool has no business asking the model for private keys or configuration files.',
  },
  {
    rule_id: 'MCP-SECRET-REQUEST',
    category: 'data_exfiltration',
    severity: 'MEDIUM',
    title: 'Asks the model for the user\'s secrets',
    pattern: new RE2(String.raw`\b(?:pass|include|provide|send|attach|append|add|put|forward)\b[^\n]{0,60}\b(?:the\s+user'?s|your|all|any|every)\s+(?:\w+\s+)?` + SECRET + String.raw`\b`, 'giu'),
    remediation: 'Check why the tool wants secrets from the model; credentials belong in the server\'s own configuration.',
  },
  {
    rule_id: 'MCP-TOOL-SHADOWING',
    category: 'tool_chaining_abuse',
    severity: 'HIGH',
    title: 'Changes how the model uses other tools (shadowing)',
    pattern: new RE2(String.raw`\b(?:when|whenever|before|after)\s+(?:using|calling|invoking|running|you\s+use|you\s+call)\s+(?:the\s+|another\s+)?[\x60'"]?([\w./-]+)[\x60'"]?\s+(?:tool|function|server)\b|\b(?:instead\s+of|rather\s+than)\s+(?:using\s+|calling\s+)?(?:the\s+)?[\x60'"]?([\w./-]+)[\x60'"]?\s+(?:tool|function)\b|\b(?:all|every|any)\s+(?:other\s+)?tools?\s+(?:must|should|need\s+to)\b|\bemails?\s+(?:must|should)\s+(?:also\s+)?(?:be\s+)?(?:sent|cc'?d|bcc'?d|forwarded|copied)\s+to\b`, 'giu'),
    accept: (match) => !SELF.has((match[1] ?? match[2] ?? '').toLowerCase()),
    remediation: 'Do not install this server: one tool\'s description must not change how the model uses other tools.',
  },
  {
    rule_id: 'MCP-HIDDEN-UNICODE',
    category: 'unicode_steganography',
    severity: 'HIGH',
    title: 'Invisible or bidirectional characters',
    pattern: new RE2(String.raw`[\x{00AD}\x{180E}\x{200B}-\x{200F}\x{202A}-\x{202E}\x{2060}-\x{2064}\x{2066}-\x{2069}\x{FEFF}\x{E0000}-\x{E007F}]`, 'gu'),
    remediation: 'Do not install this server: text the user cannot see can carry instructions the model reads.',
  },
];

const label = (item: DefinitionText) => (item.kind === 'instructions' ? 'server instructions' : `${item.kind} ${item.name}`);

/** The first match the check accepts (the search goes on past a rejected match: the patterns are global). */
function firstMatch(check: Check, text: string): RegExpExecArray | undefined {
  check.pattern.lastIndex = 0;
  for (let match = check.pattern.exec(text); match; match = check.pattern.exec(text)) {
    if (!check.accept || check.accept(match)) return match;
  }
  return undefined;
}

/** The findings in one definition's text (a finding per rule, at its first match). */
export function poisoningFindings(item: DefinitionText, inspector: Inspector): AnalyzerFinding[] {
  const text = item.text.slice(0, SCANNER_LIMITS.mcpTextChars);
  const metadata = { kind: item.kind, name: item.name };
  const findings: AnalyzerFinding[] = [];
  for (const check of CHECKS) {
    const match = firstMatch(check, text);
    if (!match) continue;
    findings.push({
      rule_id: check.rule_id, category: check.category, severity: check.severity, title: `${check.title} in ${label(item)}`,
      description: `The ${label(item)} says: “${snippetAt(text, match.index)}”.`,
      snippet: snippetAt(text, match.index), remediation: check.remediation, metadata,
    });
  }
  for (const finding of inspector.text(text).findings) {
    const converted = fromGuardrail(finding, label(item), 'Read the definition before installing the server; the model reads it as instructions.');
    findings.push({ ...converted, metadata: { ...metadata, ...converted.metadata } });
  }
  return findings;
}

/** The texts of a tool the model reads: its title, description and every parameter's description. */
export function toolText(tool: { name: string; title?: string; description?: string; inputSchema?: unknown }): string {
  const parts = [tool.title, tool.description];
  const walk = (schema: unknown, depth: number): void => {
    if (depth > 6 || !schema || typeof schema !== 'object') return;
    const record = schema as Record<string, unknown>;
    if (typeof record.description === 'string') parts.push(record.description);
    if (typeof record.title === 'string') parts.push(record.title);
    if (record.properties && typeof record.properties === 'object') Object.values(record.properties).forEach((c) => walk(c, depth + 1));
    walk(record.items, depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(record[key])) (record[key] as unknown[]).forEach((c) => walk(c, depth + 1));
  };
  walk(tool.inputSchema, 0);
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join('\n');
}
