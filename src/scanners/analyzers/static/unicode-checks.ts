// Characters that hide text from a human reviewer while a model still reads it: zero-width characters, Unicode
// tag characters (invisible ASCII), bidi controls that reorder code (Trojan Source), runs of variation selectors
// (bytes smuggled after a visible character), and Cyrillic/Greek look-alikes mixed into Latin words.
// A single pass over each file's code points; pure-ASCII files are skipped without looking at them.
import { snippetAt } from '../../snippet.js';
import type { AnalyzerFinding, ScanSeverity } from '../../types.js';
import { CODE_TYPES } from './file-types.js';
import type { TextFile } from './findings.js';

type UnicodeKind = 'zero_width' | 'tag' | 'bidi' | 'variation_selector' | 'homoglyph';

interface KindInfo {
  rule_id: string;
  title: string;
  explanation: string;
  remediation: string;
}

const KINDS: Readonly<Record<UnicodeKind, KindInfo>> = {
  zero_width: {
    rule_id: 'SS-UNICODE-ZERO-WIDTH', title: 'Invisible zero-width characters',
    explanation: 'Zero-width and other invisible characters can hide text or split keywords so filters miss them.',
    remediation: 'Remove the invisible characters; if the text needs them, explain why in a comment.',
  },
  tag: {
    rule_id: 'SS-UNICODE-TAG-CHARACTERS', title: 'Unicode tag characters (invisible text)',
    explanation: 'Tag characters (U+E0000–U+E007F) render as nothing but encode ASCII that a model reads: a known way to hide instructions.',
    remediation: 'Remove the tag characters and review the decoded text in metadata.',
  },
  bidi: {
    rule_id: 'SS-UNICODE-BIDI-CONTROL', title: 'Bidirectional control characters',
    explanation: 'Bidi override and isolate controls make text display in a different order than it is read (Trojan Source).',
    remediation: 'Remove the bidi controls; right-to-left text does not need overrides in source code.',
  },
  variation_selector: {
    rule_id: 'SS-UNICODE-VARIATION-SELECTORS', title: 'Run of variation selectors (hidden data)',
    explanation: 'Consecutive variation selectors render as nothing and can carry arbitrary bytes after a visible character.',
    remediation: 'Remove the variation selectors and review the decoded bytes in metadata.',
  },
  homoglyph: {
    rule_id: 'SS-UNICODE-HOMOGLYPH', title: 'Look-alike letters mixed into a Latin word',
    explanation: 'Cyrillic or Greek letters that look like Latin ones make a word or identifier look like another (spoofing, filter evasion).',
    remediation: 'Replace the look-alike letters with the Latin letters they imitate.',
  },
};

/** Lines reported per kind and file. */
const MAX_LINES_PER_KIND = 20;
/** From this many zero-width characters in one file, they are more likely encoded data than stray typing. */
const ZERO_WIDTH_DATA_THRESHOLD = 8;
/** Decoded tag text this long reads as a hidden message rather than a stray character. */
const TAG_MESSAGE_LENGTH = 8;
const MAX_DECODED = 200;

const ZERO_WIDTH: ReadonlySet<number> = new Set([
  0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x180e, 0x034f, 0x115f, 0x1160, 0x3164, 0xffa0,
]);
const isBidiControl = (cp: number) => (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const isEmojiLike = (cp: number) => cp >= 0x1f000 || (cp >= 0x2600 && cp <= 0x27bf) || cp === 0xfe0f || cp === 0x20e3;
/** Scripts whose spelling needs ZWJ/ZWNJ (Arabic, Persian, Indic). */
const isJoiningScript = (cp: number) => (cp >= 0x0600 && cp <= 0x077f) || (cp >= 0x0900 && cp <= 0x0dff) || (cp >= 0xfb50 && cp <= 0xfdff);

/** Cyrillic and Greek letters drawn like a Latin letter. */
const CONFUSABLES: ReadonlyMap<number, string> = new Map([
  ...[0x0430, 0x0435, 0x043e, 0x0440, 0x0441, 0x0443, 0x0445, 0x0455, 0x0456, 0x0458, 0x0501, 0x04bb, 0x051b, 0x051d, 0x04cf, 0x043a,
    0x0410, 0x0412, 0x0415, 0x041a, 0x041c, 0x041d, 0x041e, 0x0420, 0x0421, 0x0422, 0x0425, 0x0406, 0x0408, 0x0405, 0x0423, 0x04ae,
  ].map((cp): [number, string] => [cp, 'Cyrillic']),
  ...[0x03bf, 0x03b1, 0x03bd, 0x03c1, 0x03b9, 0x03ba, 0x03c5,
    0x0391, 0x0392, 0x0395, 0x0396, 0x0397, 0x0399, 0x039a, 0x039c, 0x039d, 0x039f, 0x03a1, 0x03a4, 0x03a5, 0x03a7,
  ].map((cp): [number, string] => [cp, 'Greek']),
]);

const isAsciiWordChar = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
const isAsciiLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isLatinExtendedLetter = (cp: number) => cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7;
const isGreekOrCyrillic = (cp: number) => (cp >= 0x0370 && cp <= 0x03ff) || (cp >= 0x0400 && cp <= 0x052f);
const isCombiningMark = (cp: number) => cp >= 0x0300 && cp <= 0x036f;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

interface Hit {
  index: number;
  codepoints: Set<number>;
  count: number;
  detail?: string;
}

/** Collects hits by kind and line. */
class HitTable {
  readonly byKind = new Map<UnicodeKind, Map<number, Hit>>();
  readonly totals = new Map<UnicodeKind, number>();

  constructor(private readonly file: TextFile) {}

  add(kind: UnicodeKind, index: number, codepoints: readonly number[], detail?: string): void {
    this.totals.set(kind, (this.totals.get(kind) ?? 0) + codepoints.length);
    let lines = this.byKind.get(kind);
    if (!lines) this.byKind.set(kind, (lines = new Map()));
    const line = this.file.lines.lineOf(index);
    const hit = lines.get(line);
    if (hit) {
      codepoints.forEach((cp) => hit.codepoints.add(cp));
      hit.count += codepoints.length;
      if (detail !== undefined && (hit.detail ?? '').length < MAX_DECODED) hit.detail = `${hit.detail ?? ''}${hit.detail ? ' | ' : ''}${detail}`;
    } else if (lines.size < MAX_LINES_PER_KIND) {
      lines.set(line, { index, codepoints: new Set(codepoints), count: codepoints.length, detail });
    }
  }
}

/** Tracks the current word for the homoglyph check. */
interface WordState {
  start: number;
  latin: number;
  confusable: number[];
  otherNonLatin: boolean;
}

function scanFile(file: TextFile): HitTable {
  const table = new HitTable(file);
  const { text } = file;
  let word: WordState | undefined;
  /** Called with the index of the first character after the word. */
  const endWord = (end: number) => {
    if (word && word.latin > 0 && word.confusable.length > 0 && !word.otherNonLatin) {
      table.add('homoglyph', word.start, word.confusable, text.slice(word.start, Math.min(end, word.start + 64)));
    }
    word = undefined;
  };

  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (isAsciiWordChar(c)) {
        word ??= { start: i, latin: 0, confusable: [], otherNonLatin: false };
        if (isAsciiLetter(c)) word.latin++;
      } else endWord(i);
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;

    if (isLatinExtendedLetter(cp) || isCombiningMark(cp)) {
      word ??= { start: i, latin: 0, confusable: [], otherNonLatin: false };
      if (isLatinExtendedLetter(cp)) word.latin++;
    } else if (isGreekOrCyrillic(cp)) {
      word ??= { start: i, latin: 0, confusable: [], otherNonLatin: false };
      if (CONFUSABLES.has(cp)) word.confusable.push(cp);
      else word.otherNonLatin = true;
    } else if (isTag(cp)) {
      endWord(i);
      i = tagRun(text, i, table);
      continue;
    } else if (isVariationSelector(cp)) {
      i = variationRun(text, i, table);
      continue;
    } else if (ZERO_WIDTH.has(cp)) {
      // Invisible characters inside a word keep the word going: `pass\u200Bword` is still one identifier.
      if (!(cp === 0xfeff && i === 0) && !legitimateJoiner(text, i, cp)) table.add('zero_width', i, [cp]);
    } else if (isBidiControl(cp)) {
      endWord(i);
      table.add('bidi', i, [cp]);
    } else {
      endWord(i);
    }
    i += width;
  }
  endWord(text.length);
  return table;
}

function previousCodePoint(text: string, i: number): number | undefined {
  if (i === 0) return undefined;
  const low = text.charCodeAt(i - 1);
  const pair = i >= 2 && low >= 0xdc00 && low <= 0xdfff;
  return text.codePointAt(pair ? i - 2 : i - 1);
}

/** ZWJ in emoji sequences and ZWJ/ZWNJ in scripts that need them for correct spelling. */
function legitimateJoiner(text: string, i: number, cp: number): boolean {
  if (cp !== 0x200d && cp !== 0x200c) return false;
  const before = previousCodePoint(text, i);
  const after = text.codePointAt(i + 1);
  if (cp === 0x200d && ((before !== undefined && isEmojiLike(before)) || (after !== undefined && isEmojiLike(after)))) return true;
  return (before !== undefined && isJoiningScript(before)) || (after !== undefined && isJoiningScript(after));
}

/** A run of tag characters starting at `start`; returns the index after it. Emoji flag sequences
 *  (black flag + tags, e.g. the flag of England) are the one legitimate use and are skipped. */
function tagRun(text: string, start: number, table: HitTable): number {
  const codepoints: number[] = [];
  let decoded = '';
  let i = start;
  for (let cp = text.codePointAt(i); cp !== undefined && isTag(cp); cp = text.codePointAt(i)) {
    codepoints.push(cp);
    const ascii = cp - 0xe0000;
    if (ascii >= 0x20 && ascii <= 0x7e && decoded.length < MAX_DECODED) decoded += String.fromCharCode(ascii);
    i += 2;
  }
  const flag = start >= 2 && text.codePointAt(start - 2) === 0x1f3f4 && codepoints[codepoints.length - 1] === 0xe007f;
  if (!flag) table.add('tag', start, codepoints, decoded);
  return i;
}

/** A run of variation selectors; two or more in a row never occur in normal text. Returns the index after it. */
function variationRun(text: string, start: number, table: HitTable): number {
  const codepoints: number[] = [];
  const bytes: number[] = [];
  let i = start;
  for (let cp = text.codePointAt(i); cp !== undefined && isVariationSelector(cp); cp = text.codePointAt(i)) {
    codepoints.push(cp);
    // The usual smuggling encoding: VS1–VS16 carry bytes 0–15, VS17–VS256 carry 16–255.
    bytes.push(cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16);
    i += cp > 0xffff ? 2 : 1;
  }
  if (codepoints.length >= 2) {
    const decoded = Buffer.from(bytes.slice(0, MAX_DECODED)).toString('utf8');
    table.add('variation_selector', start, codepoints, decoded);
  }
  return i;
}

/** The line, with each invisible character shown as <U+XXXX> so a reader can see where it is. */
function visibleSnippet(file: TextFile, index: number): string {
  const raw = snippetAt(file.text, index);
  let out = '';
  for (const ch of raw) {
    const cp = ch.codePointAt(0)!;
    out += ZERO_WIDTH.has(cp) || isBidiControl(cp) || isTag(cp) || isVariationSelector(cp) ? `<${hex(cp)}>` : ch;
    if (out.length >= 200) return `${out.slice(0, 199)}…`;
  }
  return out;
}

function severityOf(kind: UnicodeKind, file: TextFile, table: HitTable, hit: Hit): ScanSeverity {
  const code = CODE_TYPES.has(file.type);
  switch (kind) {
    case 'zero_width':
      return (table.totals.get(kind) ?? 0) >= ZERO_WIDTH_DATA_THRESHOLD ? 'HIGH' : 'MEDIUM';
    case 'tag':
      return (hit.detail ?? '').trim().length >= TAG_MESSAGE_LENGTH ? 'CRITICAL' : 'HIGH';
    case 'variation_selector':
      return hit.count >= ZERO_WIDTH_DATA_THRESHOLD ? 'HIGH' : 'MEDIUM';
    case 'bidi':
    case 'homoglyph':
      return code ? 'HIGH' : 'MEDIUM';
  }
}

export function unicodeFindings(files: readonly TextFile[]): AnalyzerFinding[] {
  const findings: AnalyzerFinding[] = [];
  for (const file of files) {
    // Pure ASCII (as many bytes as characters) cannot hold any of these.
    if (Buffer.byteLength(file.text, 'utf8') === file.text.length) continue;
    const table = scanFile(file);
    for (const [kind, lines] of table.byKind) {
      const info = KINDS[kind];
      for (const [line, hit] of lines) {
        const codepoints = [...hit.codepoints].map((cp) => (CONFUSABLES.has(cp) ? `${hex(cp)} (${CONFUSABLES.get(cp)})` : hex(cp)));
        const metadata: Record<string, unknown> = { codepoints, count: hit.count };
        if (kind === 'homoglyph') metadata.word = hit.detail;
        else if (hit.detail !== undefined) metadata.decoded = hit.detail;
        findings.push({
          rule_id: info.rule_id,
          category: 'unicode_steganography',
          severity: severityOf(kind, file, table, hit),
          title: info.title,
          description: `${info.explanation} Found ${codepoints.slice(0, 8).join(', ')}${codepoints.length > 8 ? ', …' : ''}.`,
          file_path: file.path,
          line_number: line,
          snippet: visibleSnippet(file, hit.index),
          remediation: info.remediation,
          metadata,
        });
      }
    }
  }
  return findings;
}
