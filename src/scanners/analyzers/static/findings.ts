// Plumbing shared by the static, pipeline and trigger analyzers: a skill's text files with their type and a line
// index (prepared once per skill), and a finding list that keeps one finding per (rule, file, line).
import { LineIndex, maskSecrets, snippetAt } from '../../snippet.js';
import type { AnalyzerFinding, ScanCategory, ScanSeverity, SkillFile, SkillPackage } from '../../types.js';
import { fileTypeOf, type FileType } from './file-types.js';


export interface TextFile {
  file: SkillFile;
  path: string;
  type: FileType;
  text: string;
  lines: LineIndex;
}

const preparedFiles = new WeakMap<SkillPackage, TextFile[]>();

/** The skill's text files, typed and indexed; cached per skill so analyzers of one scan share the work. */
export function textFilesOf(skill: SkillPackage): TextFile[] {
  let prepared = preparedFiles.get(skill);
  if (!prepared) {
    prepared = [];
    for (const file of skill.files) {
      if (file.text === undefined) continue;
      prepared.push({ file, path: file.path, type: fileTypeOf(file.path, file.text), text: file.text, lines: new LineIndex(file.text) });
    }
    preparedFiles.set(skill, prepared);
  }
  return prepared;
}

/** What a check knows about a finding before it is placed in a file. */
export interface FindingSpec {
  rule_id: string;
  category: ScanCategory;
  severity: ScanSeverity;
  title: string;
  description: string;
  remediation?: string;
  metadata?: Record<string, unknown>;
}

/** A finding at character `index` of a text file: its line number and masked one-line snippet. */
export function findingAt(spec: FindingSpec, file: TextFile, index: number): AnalyzerFinding {
  return { ...spec, file_path: file.path, line_number: file.lines.lineOf(index), snippet: snippetAt(file.text, index) };
}

/** Where a match's content starts: patterns like `(?:^|[^\w.])eval` or `\s+` can begin with the newline that
 *  ends the previous line, which would put the finding on the wrong line. */
export function matchStart(index: number, matched: string): number {
  let skip = 0;
  while (skip < matched.length - 1 && (matched[skip] === '\n' || matched[skip] === '\r' || matched[skip] === ' ' || matched[skip] === '\t')) skip++;
  return index + skip;
}

/** A matched fragment for metadata: masked (it may be a credential) and short. */
export function excerpt(text: string, max = 120): string {
  const masked = maskSecrets(text.trim());
  return masked.length > max ? `${masked.slice(0, max - 1)}…` : masked;
}

/** Findings in report order, at most one per (rule, file, line): the first one reported wins. */
export class FindingSet {
  readonly findings: AnalyzerFinding[] = [];
  private readonly keys = new Set<string>();

  add(finding: AnalyzerFinding): boolean {
    const key = `${finding.rule_id}\u0000${finding.file_path ?? ''}\u0000${finding.line_number ?? 0}`;
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    this.findings.push(finding);
    return true;
  }

  addAll(findings: Iterable<AnalyzerFinding>): void {
    for (const f of findings) this.add(f);
  }
}
