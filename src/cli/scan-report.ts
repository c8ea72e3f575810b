// How the scanning commands (`warden mcp scan`, `warden plugin scan`, `warden scan code`) print findings in
// their table output: one line each, the same columns whichever scanner found it.
import type { Finding } from '../scanners/types.js';

/** One line per finding, the server (or other subject in metadata) named. */
export function findingLines(findings: readonly Finding[]): string[] {
  return findings.map((f) => {
    const subject = (f.metadata as { server?: string } | undefined)?.server;
    const where = f.file_path ? ` ${f.file_path}${f.line_number ? `:${f.line_number}` : ''}` : '';
    return `  ${f.severity.padEnd(8)} ${f.rule_id}${subject ? ` [${subject}]` : ''}${where}  ${f.title}`;
  });
}
