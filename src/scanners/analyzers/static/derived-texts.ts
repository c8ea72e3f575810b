// Text hidden inside other text, brought out so that the signature rules can read it: base64 literals decoded
// (a payload in base64 is invisible to every pattern), and argv lists (`["systemctl", "--user", "enable", …]`)
// joined into the command line they run (shell patterns never see a command written as a list).
import RE2 from 're2';
import type { AnalyzerFinding, ScanSeverity } from '../../types.js';
import { LineIndex } from '../../snippet.js';
import { excerpt, FindingSet, type TextFile } from './findings.js';
import type { SignatureRuleSet } from './rule-loader.js';
import { signatureFindings } from './signatures.js';

/** Shorter base64 runs are identifiers and hashes more often than payloads. */
const BASE64_RUN = new RE2('[A-Za-z0-9+/]{40,}={0,2}', 'gu');
/** One-line lists of two or more string literals. */
const STRING_LIST = new RE2('\\[\\s*(?:(?:"[^"\\n]*"|\'[^\'\\n]*\')\\s*,\\s*)+(?:"[^"\\n]*"|\'[^\'\\n]*\')\\s*,?\\s*\\]', 'gu');
/** Candidates examined per file: enough for real skills, bounded for crafted ones. */
const MAX_CANDIDATES = 200;
/** Decoded bytes that are at least this printable are text worth scanning. */
const PRINTABLE_RATIO = 0.9;
const SEVERITY_ORDER: readonly ScanSeverity[] = ['INFO', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

function decodeBase64Text(run: string): string | undefined {
  const bytes = Buffer.from(run, 'base64');
  if (bytes.length < 20) return undefined;
  let printable = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
  return printable / bytes.length >= PRINTABLE_RATIO ? bytes.toString('utf8') : undefined;
}

/** The string values of a one-line list literal, in order (the list was matched by STRING_LIST). */
function listStrings(list: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const quote = list[i];
    if (quote !== '"' && quote !== '\'') continue;
    const end = list.indexOf(quote, i + 1);
    if (end < 0) break;
    values.push(list.slice(i + 1, end));
    i = end;
  }
  return values;
}

/** Scans `text` as if it were a file of each of `types`, returning what the rules report. */
function scanDerived(text: string, types: readonly TextFile['type'][], rules: SignatureRuleSet, path: string): AnalyzerFinding[] {
  const out = new FindingSet();
  const base = { file: { path, size: text.length, text, head: new Uint8Array(), sha256: '' }, path, text, lines: new LineIndex(text) };
  for (const type of types) signatureFindings([{ ...base, type }], rules, out);
  return out.findings;
}

function worst(findings: readonly AnalyzerFinding[]): AnalyzerFinding | undefined {
  return findings.reduce<AnalyzerFinding | undefined>(
    (a, f) => (a === undefined || SEVERITY_ORDER.indexOf(f.severity) > SEVERITY_ORDER.indexOf(a.severity) ? f : a),
    undefined,
  );
}

function decodedPayloads(file: TextFile, rules: SignatureRuleSet, out: FindingSet): void {
  BASE64_RUN.lastIndex = 0;
  let seen = 0;
  for (let match = BASE64_RUN.exec(file.text); match !== null && seen < MAX_CANDIDATES; match = BASE64_RUN.exec(file.text)) {
    seen++;
    const decoded = decodeBase64Text(match[0]);
    if (decoded === undefined) continue;
    const inner = scanDerived(decoded, ['shell', 'python', 'javascript'], rules, file.path).filter((f) => f.severity !== 'INFO' && f.severity !== 'LOW');
    const top = worst(inner);
    if (!top) continue;
    out.add({
      rule_id: 'SS-DECODED-PAYLOAD',
      category: 'obfuscation',
      // Hiding something suspicious is itself a strong signal, so a hidden MEDIUM is reported as HIGH.
      severity: top.severity === 'CRITICAL' ? 'CRITICAL' : 'HIGH',
      title: `Base64-encoded payload hides: ${top.title}`,
      description: `A base64 string decodes to text that ${top.rule_id} reports (${top.title}); encoding it only hides it from review.`,
      file_path: file.path,
      line_number: file.lines.lineOf(match.index),
      snippet: excerpt(file.lines.lineTextAt(match.index), 200),
      remediation: 'Ship the content in clear text so that it can be reviewed.',
      metadata: { decoded: excerpt(decoded, 200), inner_rules: [...new Set(inner.map((f) => f.rule_id))] },
    });
  }
  BASE64_RUN.lastIndex = 0;
}

function argvCommands(file: TextFile, rules: SignatureRuleSet, out: FindingSet): void {
  STRING_LIST.lastIndex = 0;
  let seen = 0;
  for (let match = STRING_LIST.exec(file.text); match !== null && seen < MAX_CANDIDATES; match = STRING_LIST.exec(file.text)) {
    seen++;
    const command = listStrings(match[0]).join(' ');
    for (const finding of scanDerived(command, ['shell'], rules, file.path)) {
      out.add({
        ...finding,
        line_number: file.lines.lineOf(match.index),
        snippet: excerpt(file.lines.lineTextAt(match.index), 200),
        metadata: { ...finding.metadata, derived_from: 'argv list', command: excerpt(command) },
      });
    }
  }
  STRING_LIST.lastIndex = 0;
}

export function derivedFindings(files: readonly TextFile[], rules: SignatureRuleSet, out: FindingSet): void {
  for (const file of files) {
    if (file.type === 'other' || file.type === 'text') continue;
    decodedPayloads(file, rules, out);
    if (file.type === 'python' || file.type === 'javascript' || file.type === 'typescript') argvCommands(file, rules, out);
  }
}
