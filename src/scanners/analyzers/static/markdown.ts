// Code inside Markdown: fenced blocks (with their language) and inline code spans, each with the line it starts
// on, so analyzers that understand code can read a skill's instructions the way they read its scripts.
// Plain string scanning, no regular expressions: the text is the skill's.

export interface MarkdownCode {
  /** The code, without fences or backticks. */
  text: string;
  /** 1-based line of the code's first line in the Markdown file. */
  line: number;
  kind: 'block' | 'inline';
  /** Lower-case first word of a fenced block's info string ('' when there is none, and for inline code). */
  language: string;
}

function fenceOf(line: string): { marker: string; info: string } | undefined {
  const trimmed = line.trimStart();
  if (line.length - trimmed.length > 3) return undefined;
  const char = trimmed[0];
  if (char !== '`' && char !== '~') return undefined;
  let n = 0;
  while (trimmed[n] === char) n++;
  if (n < 3) return undefined;
  return { marker: char.repeat(n), info: trimmed.slice(n).trim() };
}

function inlineSpans(line: string, lineNumber: number, out: MarkdownCode[]): void {
  for (let i = line.indexOf('`'); i !== -1; ) {
    let run = 1;
    while (line[i + run] === '`') run++;
    const ticks = '`'.repeat(run);
    let close = line.indexOf(ticks, i + run);
    // A closing run must be exactly as long as the opening one.
    while (close !== -1 && line[close + run] === '`') close = line.indexOf(ticks, close + run + 1);
    if (close === -1) return;
    const text = line.slice(i + run, close).trim();
    if (text !== '') out.push({ text, line: lineNumber, kind: 'inline', language: '' });
    i = line.indexOf('`', close + run);
  }
}

export function markdownCode(markdown: string): MarkdownCode[] {
  const out: MarkdownCode[] = [];
  const lines = markdown.split('\n');
  let open: { marker: string; language: string; start: number; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const fence = fenceOf(line);
    if (open) {
      if (fence && fence.info === '' && fence.marker[0] === open.marker[0] && fence.marker.length >= open.marker.length) {
        out.push({ text: open.body.join('\n'), line: open.start, kind: 'block', language: open.language });
        open = undefined;
      } else {
        open.body.push(line);
      }
    } else if (fence) {
      const language = fence.info.split(' ', 1)[0]!.toLowerCase();
      open = { marker: fence.marker, language, start: i + 2, body: [] };
    } else {
      inlineSpans(line, i + 1, out);
    }
  }
  // An unclosed fence runs to the end of the document (CommonMark).
  if (open) out.push({ text: open.body.join('\n'), line: open.start, kind: 'block', language: open.language });
  return out;
}
