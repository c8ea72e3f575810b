// Locating a match for a finding: its 1-based line, and the line as a short snippet with anything that looks
// like a secret masked (a finding must not spread the credential it found).

const MAX_SNIPPET = 200;
/** Long opaque tokens and key=value secrets; the first 4 characters stay so a reader can tell what it was. */
const SECRET_SHAPES = [
  /\b(?:sk|pk|rk)[-_][A-Za-z0-9_-]{12,}/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{16,})/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b|\bAIza[0-9A-Za-z_-]{20,}|\bya29\.[0-9A-Za-z_-]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,}/g,
  // NAME = value, NAME: "value", "name": "value" for names that say they hold a secret.
  /(\b[A-Za-z0-9_]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_]*["']?\s*[:=]\s*["']?)([^\s"']{6,})/gi,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

export function maskSecrets(text: string): string {
  let out = text;
  for (const shape of SECRET_SHAPES) {
    out = out.replace(shape, (match: string, prefix?: string, value?: string) =>
      typeof value === 'string' && typeof prefix === 'string' ? `${prefix}${value.slice(0, 2)}****` : `${match.slice(0, 4)}****`,
    );
  }
  return out;
}

/** 1-based line number of character `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The whole line holding `index`, trimmed, masked and cut to 200 characters. */
export function snippetAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  const line = text.slice(start, end < 0 ? text.length : end).trim();
  const masked = maskSecrets(line);
  return masked.length > MAX_SNIPPET ? `${masked.slice(0, MAX_SNIPPET - 1)}…` : masked;
}

/** Line lookups by character index for a text with many lookups: `lineAt` rescans the text on every call,
 *  which a file with many findings would make quadratic, so the newline offsets are collected once. */
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
