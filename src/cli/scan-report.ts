// How the scanning commands (`warden skill scan`, `warden mcp scan`, `warden plugin scan`, `warden scan code`)
// report: the same first line and finding lines in their table output, the report written where the operator
// asked, and a `--policy` path taken relative to where the operator stands.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Finding } from '../scanners/types.js';

/** "1 finding", "2 findings". */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A result's first line: SAFE or UNSAFE, what was scanned, its worst severity, findings and any other counts, then where. */
export function resultLine(
  result: { is_safe: boolean; max_severity: string; findings_count: number },
  subject: string,
  counts: readonly string[] = [],
  where?: string,
): string {
  const summary = [result.max_severity, counted(result.findings_count, 'finding'), ...counts].join(', ');
  return `${result.is_safe ? 'SAFE  ' : 'UNSAFE'}  ${subject}  (${summary})${where ? `  ${where}` : ''}`;
}

/** One line per finding, the server (or other subject in metadata) named. */
export function findingLines(findings: readonly Finding[]): string[] {
  return findings.map((f) => {
    const subject = (f.metadata as { server?: string } | undefined)?.server;
    const where = f.file_path ? ` ${f.file_path}${f.line_number ? `:${f.line_number}` : ''}` : '';
    return `  ${f.severity.padEnd(8)} ${f.rule_id}${subject ? ` [${subject}]` : ''}${where}  ${f.title}`;
  });
}

/** The report to FILE (`--output`), else to standard output. */
export function writeReport(report: string, output: string | undefined): void {
  if (output) writeFileSync(output, report);
  else process.stdout.write(report);
}

/**
 * A `--policy` value as the scan takes it: a preset name as is, a path made absolute from where the operator
 * stands (a confined scan takes absolute paths only).
 */
export function policyArgument(policy: string): string {
  return /[/\\]/.test(policy) ? resolve(policy) : policy;
}
