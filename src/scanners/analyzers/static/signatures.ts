// Running the signature rules over a skill's text files: one RE2.Set pass per file nominates the patterns that
// match somewhere in it; only those are run on their own to find each matching line.
import { snippetAt } from '../../snippet.js';
import type { AnalyzerFinding } from '../../types.js';
import { excerpt, findingAt, matchStart, type FindingSpec, type FindingSet, type TextFile } from './findings.js';
import type { SignatureRule, SignatureRuleSet } from './rule-loader.js';

/** Lines reported per rule and file: past this the rule has made its point, and a crafted file with a
 *  million matching lines must not turn into a million findings. */
const MAX_LINES_PER_RULE = 20;

export function signatureFindings(files: readonly TextFile[], rules: SignatureRuleSet, out: FindingSet): void {
  for (const file of files) {
    const { set, owners } = rules.matcherFor(file.type);
    if (!set || file.text.length === 0) continue;
    const nominated = set.match(file.text);
    if (nominated.length === 0) continue;
    const reported = new Map<SignatureRule, number>();
    for (const index of nominated) {
      const { rule, pattern } = owners[index]!;
      const count = reported.get(rule) ?? 0;
      if (count >= MAX_LINES_PER_RULE) continue;
      reported.set(rule, count + locate(rule, pattern, file, out, MAX_LINES_PER_RULE - count));
    }
  }
}

/** The generic snippet masking does not know every credential shape (an AWS secret key in `AWS_SECRET_ACCESS_KEY
 *  = "…"` passes through it), so a secret rule masks exactly what it matched, in the snippet and the metadata. */
function secretFinding(spec: FindingSpec, file: TextFile, start: number, matched: string): AnalyzerFinding {
  const masked = `${matched.slice(0, 4)}****`;
  const line = file.lines.lineTextAt(start).split(matched).join(masked);
  return {
    ...spec, metadata: { match: masked }, file_path: file.path, line_number: file.lines.lineOf(start), snippet: snippetAt(line, 0),
  };
}

/** Reports the lines where pattern `pattern` of `rule` matches; returns how many were new findings. */
function locate(rule: SignatureRule, pattern: number, file: TextFile, out: FindingSet, budget: number): number {
  const regex = rule.regexes[pattern]!;
  const { text } = file;
  let added = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null && added < budget; match = regex.exec(text)) {
    const start = matchStart(match.index, match[0]);
    const line = file.lines.lineTextAt(start);
    if (!rule.excludes.some((exclude) => exclude.test(line))) {
      const spec = {
        rule_id: rule.id, category: rule.category, severity: rule.severity, title: rule.title,
        description: rule.description, remediation: rule.remediation, metadata: { match: excerpt(match[0]) },
      };
      const finding = rule.category === 'hardcoded_secrets' ? secretFinding(spec, file, start, match[0].trim()) : findingAt(spec, file, start);
      if (out.add(finding)) added++;
    }
    // One finding per line is all dedup keeps, so continue from the next line (this also steps past empty matches).
    const nextLine = text.indexOf('\n', match.index + Math.max(match[0].length, 1) - 1);
    if (nextLine < 0) break;
    regex.lastIndex = nextLine + 1;
  }
  regex.lastIndex = 0;
  return added;
}
