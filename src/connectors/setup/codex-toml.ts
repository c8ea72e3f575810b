// Codex's ~/.codex/config.toml: Warden's hooks as [[hooks.<Event>]] tables, and `notify`, the program Codex runs
// after every turn. This is a deliberately small line-based writer for just the parts Warden owns: (1) one block of
// our own tables between marker comments, appended at the end of the file, and (2) one top-level `notify = [...]`
// line that runs the hook script. It is hand-written because it must keep the user's comments and layout, which a
// TOML library's stringify drops (smol-toml's does, as every JavaScript TOML writer does). It reads only enough TOML
// to know which lines start a statement (outside multi-line strings and arrays) and which table they sit in, so it
// can refuse a file where our tables would clash with keys the user wrote; and every result is then checked with
// smol-toml (codex-toml-check.ts): Codex refuses to start on an invalid config.toml, so a bad edit must stop
// `warden setup`, not the agent.
import { AgentConfigError } from './config-file.js';
import { checkCodexInstall, checkCodexRemove, parseCodexToml } from './codex-toml-check.js';
import { hookCommand, isWardenCommand, notifyArgv, type HookTarget } from './hook-command.js';

const BEGIN = '# >>> warden hooks: written by `warden setup codex`, removed by `warden setup codex --undo` >>>';
const END = '# <<< warden hooks <<<';
const NOTIFY_NOTE = "# warden: Codex's notify runs Warden's hook script after every turn (`warden setup codex --undo` removes it)";

interface Line {
  text: string;
  /** The line starts a statement: it is not inside a multi-line string or array. */
  start: boolean;
  /** The table the line sits in ('' at the top level) and whether it is an element of an array of tables. */
  table: string;
  inArray: boolean;
  header?: { name: string; array: boolean };
  key?: string;
}

/** `a . "b"` → `a.b` (enough for the simple keys Codex uses). */
const normalizeKey = (key: string): string =>
  key.split('.').map((part) => part.trim().replace(/^"(.*)"$|^'(.*)'$/, '$1$2')).join('.');

/** Where a basic string opened before `from` ends (the index after its closing quote). */
function endOfBasicString(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text.startsWith(quote, i)) return i + quote.length;
  }
  return -1;
}

/** Multi-line string and bracket state after `text`, from the state before it. */
function advance(text: string, state: { multi?: string; depth: number }): void {
  let i = 0;
  while (i < text.length) {
    if (state.multi) {
      const end = state.multi === '"""' ? endOfBasicString(text, i, '"""') : text.indexOf("'''", i) + 3;
      if (end < 3) return;
      state.multi = undefined;
      i = end;
      continue;
    }
    const rest = text.slice(i, i + 3);
    if (text[i] === '#') return;
    if (rest === '"""' || rest === "'''") {
      state.multi = rest;
      i += 3;
    } else if (text[i] === '"') {
      i = endOfBasicString(text, i + 1, '"');
      if (i === -1) return;
    } else if (text[i] === "'") {
      const close = text.indexOf("'", i + 1);
      if (close === -1) return;
      i = close + 1;
    } else {
      if (text[i] === '[' || text[i] === '{') state.depth++;
      if (text[i] === ']' || text[i] === '}') state.depth = Math.max(0, state.depth - 1);
      i++;
    }
  }
}

function scan(lines: string[]): Line[] {
  const state: { multi?: string; depth: number } = { depth: 0 };
  let table = '';
  let inArray = false;
  return lines.map((text) => {
    const line: Line = { text, start: state.multi === undefined && state.depth === 0, table, inArray };
    // A table header; quoted key parts may hold brackets (`[projects."/home/me/[x]"]`).
    const header = line.start ? /^\s*(\[\[?)((?:[^[\]"'#]|"(?:[^"\\]|\\.)*"|'[^']*')+)\]\]?\s*(#.*)?$/.exec(text) : null;
    if (header) {
      line.header = { name: normalizeKey(header[2]!), array: header[1] === '[[' };
      ({ name: table, array: inArray } = line.header);
      Object.assign(line, { table, inArray });
      return line;
    }
    const key = line.start ? /^\s*([\w"'.\s-]+?)\s*=/.exec(text) : null;
    if (key) line.key = normalizeKey(key[1]!);
    advance(text, state);
    return line;
  });
}

/** The line range [from, to) of the top-level `notify` statement, if any. */
function notifyRange(scanned: Line[]): [number, number] | undefined {
  const from = scanned.findIndex((l) => l.table === '' && l.key === 'notify');
  if (from === -1) return undefined;
  const next = scanned.findIndex((l, i) => i > from && l.start);
  return [from, next === -1 ? scanned.length : next];
}

function ourNotify(scanned: Line[]): [number, number] | undefined {
  const range = notifyRange(scanned);
  if (!range) return undefined;
  const ours = scanned.slice(...range).some((l) => isWardenCommand(l.text));
  if (!ours) return undefined;
  return scanned[range[0] - 1]?.text === NOTIFY_NOTE ? [range[0] - 1, range[1]] : range;
}

function blockRange(scanned: Line[]): [number, number] | undefined {
  const from = scanned.findIndex((l) => l.start && l.text === BEGIN);
  const to = scanned.findIndex((l, i) => i > from && l.start && l.text === END);
  return from === -1 || to === -1 ? undefined : [from, to + 1];
}

/** Refuse a file where `[[hooks.<Event>]]` would redefine something the user wrote. */
function checkNoClash(scanned: Line[], events: readonly string[]): void {
  const clashes = (name: string) => events.some((e) => name === `hooks.${e}` || name.startsWith(`hooks.${e}.`));
  scanned.forEach((line, i) => {
    const plainTable = line.header && !line.header.array && clashes(line.header.name);
    const keyName = line.table && line.key !== undefined ? `${line.table}.${line.key}` : line.key;
    // A key inside an array-of-tables element belongs to that element (e.g. our own `command = ...`).
    const key = keyName !== undefined && !line.inArray && (keyName === 'hooks' || clashes(keyName));
    if (plainTable || key) {
      throw new AgentConfigError(`line ${i + 1} ("${line.text.trim()}") defines hooks in a form Warden cannot add [[hooks.<Event>]] tables to; move those hooks into [[hooks.<Event>]] tables or ~/.codex/hooks.json`);
    }
  });
}

function hooksBlock(events: readonly string[], target: HookTarget): string[] {
  const tables = events.map((event) => [
    `[[hooks.${event}]]`, `[[hooks.${event}.hooks]]`, 'type = "command"', `command = ${JSON.stringify(hookCommand(target, event))}`,
  ].join('\n'));
  // JSON string escapes are valid TOML basic-string escapes.
  return [BEGIN, ...tables.join('\n\n').split('\n'), END];
}

function split(text: string | undefined): { lines: string[]; eol: string } {
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === undefined || text === '' ? [] : text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return { lines, eol };
}

const join = (lines: string[], eol: string, original: string | undefined): string => {
  const text = lines.length > 0 ? `${lines.join(eol)}${eol}` : '';
  return split(original).lines.join('\n') === lines.join('\n') && original !== undefined ? original : text;
};

export function installCodexConfig(text: string | undefined, events: readonly string[], target: HookTarget): string {
  parseCodexToml(text, 'the file');
  const { lines, eol } = split(text);
  let scanned = scan(lines);
  const block = blockRange(scanned);
  checkNoClash(block ? [...scanned.slice(0, block[0]), ...scanned.slice(block[1])] : scanned, events);
  const ours = hooksBlock(events, target);
  if (block) lines.splice(block[0], block[1] - block[0], ...ours);
  else lines.push(...(lines.length > 0 && lines.at(-1)!.trim() !== '' ? [''] : []), ...ours);

  scanned = scan(lines);
  const notify = [NOTIFY_NOTE, `notify = [${notifyArgv(target).map((a) => JSON.stringify(a)).join(', ')}]`];
  const existing = ourNotify(scanned);
  if (existing) lines.splice(existing[0], existing[1] - existing[0], ...notify);
  else if (!notifyRange(scanned)) {
    // A top-level key must come before the first table: above it, and above the comments that introduce it.
    let at = scanned.findIndex((l) => l.header);
    if (at === -1) at = lines.length;
    while (at > 0 && scanned[at - 1]!.start && /^\s*#/.test(scanned[at - 1]!.text)) at--;
    lines.splice(at, 0, ...notify, '');
  }
  const after = join(lines, eol, text);
  checkCodexInstall(text, after, events);
  return after;
}

export function removeCodexConfig(text: string): string | null {
  const after = removeOurLines(text);
  if (after !== text) checkCodexRemove(text, after);
  return after;
}

function removeOurLines(text: string): string | null {
  const { lines, eol } = split(text);
  let removed = false;
  for (const find of [blockRange, ourNotify]) {
    const range = find(scan(lines));
    if (!range) continue;
    removed = true;
    // Take one blank line with the block, so install and undo leave the file as it was.
    const [from, to] = lines[range[1]]?.trim() === '' ? [range[0], range[1] + 1] : lines[range[0] - 1]?.trim() === '' ? [range[0] - 1, range[1]] : range;
    lines.splice(from, to - from);
  }
  if (!removed) return text;
  return lines.every((l) => l.trim() === '') ? null : join(lines, eol, text);
}

export function codexConfigInstalled(text: string): boolean {
  const scanned = scan(split(text).lines);
  return blockRange(scanned) !== undefined || ourNotify(scanned) !== undefined;
}

/** Whether the top-level `notify` is some other program's (Codex allows one), so ours could not be installed. */
export function foreignCodexNotify(text: string): boolean {
  const scanned = scan(split(text).lines);
  return notifyRange(scanned) !== undefined && ourNotify(scanned) === undefined;
}
