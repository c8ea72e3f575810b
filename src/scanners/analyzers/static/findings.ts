// Plumbing shared by the static, pipeline and trigger analyzers: a skill's text files with their type and a line
// index (prepared once per skill), and a finding list that keeps one finding per (rule, file, line).
import { maskSecrets, snippetAt } from '../../snippet.js';
import type { AnalyzerFinding, ScanCategory, ScanSeverity, SkillFile, SkillPackage } from '../../types.js';
import { fileTypeOf, type FileType } from './file-types.js';

/** Line lookups by character index. snippet.ts's `lineAt` rescans the text on every call; a file with many
 *  findings would make that quadratic, so the newline offsets are collected once (on first use). */
export class LineIndex {
  private newlines: number[] | undefined;

  constructor(readonly text: string) {}

  /** 1-based line of character `index` (the same answer as `lineAt`). */
  lineOf(index: number): number {
    const newlines = (this.newlines ??= this.collect());
    // Count newlines strictly before `index`.
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (newlines[mid]! < index) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }

  /** The whole line holding character `index`, untrimmed. */
  lineTextAt(index: number): string {
    const start = this.text.lastIndexOf('\n', index - 1) + 1;
    const end = this.text.indexOf('\n', index);
    return this.text.slice(start, end < 0 ? this.text.length : end);
  }

  /** Character index where 1-based `line` starts (the text length when there is no such line). */
  startOfLine(line: number): number {
    if (line <= 1) return 0;
    const newlines = (this.newlines ??= this.collect());
    const newline = newlines[line - 2];
    return newline === undefined ? this.text.length : newline + 1;
  }

  private collect(): number[] {
    const offsets: number[] = [];
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) offsets.push(i);
    return offsets;
  }
}

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
