// Rewriting an agent's JSON configuration file as a series of small edits instead of re-serialising it, so the
// user's comments, trailing commas, key order and formatting survive everywhere Warden did not change something.
// jsonc-parser (the parser VS Code uses for its own commented settings files) reads the file and makes each edit.
import { applyEdits, findNodeAtLocation, format, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type JSONPath, type ParseError } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { isObject, type JsonObject } from '../../util/json.js';
import { AgentConfigError } from './config-file.js';

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** "line L, column C" of an offset in `text`. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** A JSON file's root object, comments and trailing commas allowed ({} for a missing or blank file). */
export function parseJsoncObject(text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, PARSE_OPTIONS);
  const [error] = errors;
  if (error) throw new AgentConfigError(`invalid JSON: ${printParseErrorCode(error.error)} at ${position(text, error.offset)}`);
  if (!isObject(value)) throw new AgentConfigError('the top level must be a JSON object');
  return value;
}

/** The indentation and line ending the file already uses, for the text the edits insert. */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)(?=["/])/m.exec(text)?.[1] ?? '  ';
  const tabs = indent.startsWith('\t');
  return { insertSpaces: !tabs, tabSize: tabs ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** Pairs of equal elements (indices in `a` and `b`) in a longest common subsequence of the two arrays. */
function commonElements(a: readonly unknown[], b: readonly unknown[]): [number, number][] {
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = isDeepStrictEqual(a[i], b[j]) ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (isDeepStrictEqual(a[i], b[j])) pairs.push([i++, j++]);
    else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

class Editor {
  constructor(
    public text: string,
    private readonly formattingOptions: FormattingOptions,
  ) {}

  /** One edit, then formatting of only the text it inserted: jsonc-parser's own formatting would re-flow the
   *  whole lines the edit touches, and with them a user's element written on one line. */
  private apply(path: JSONPath, value: unknown, isArrayInsertion = false): void {
    for (const edit of modify(this.text, path, value, { isArrayInsertion })) {
      this.text = applyEdits(this.text, [edit]);
      if (edit.content === '') continue;
      const range = { offset: edit.offset, length: edit.content.length };
      this.text = applyEdits(this.text, format(this.text, range, { ...this.formattingOptions, keepLines: false }));
    }
  }

  /** Edits the value at `path` from `before` into `after`, touching only what differs. */
  change(path: JSONPath, before: unknown, after: unknown): void {
    if (isDeepStrictEqual(before, after)) return;
    if (isObject(before) && isObject(after)) {
      for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) this.apply([...path, key], undefined);
      for (const [key, value] of Object.entries(after)) {
        if (Object.hasOwn(before, key)) this.change([...path, key], before[key], value);
        else this.apply([...path, key], value);
      }
    } else if (Array.isArray(before) && Array.isArray(after)) {
      this.changeList(path, before, after);
    } else {
      this.apply(path, after);
    }
  }

  /** Removes array element `index` with the separator before it (after it, for the first), the exact inverse of an
   *  insertion; jsonc-parser's own removal of a last element depends on the whitespace before the bracket. */
  private removeElement(path: JSONPath, index: number): void {
    const list = findNodeAtLocation(parseTree(this.text, [], PARSE_OPTIONS)!, path)!;
    const elements = list.children!;
    const node = elements[index]!;
    const previous = elements[index - 1];
    const next = elements[index + 1];
    const [from, to] = previous ? [previous.offset + previous.length, node.offset + node.length]
      : next ? [node.offset, next.offset]
        : [list.offset + 1, list.offset + list.length - 1];
    this.text = this.text.slice(0, from) + this.text.slice(to);
  }

  /** Removes the elements not kept (last first, so indices hold), then inserts the new ones in order. */
  private changeList(path: JSONPath, before: unknown[], after: unknown[]): void {
    const kept = commonElements(before, after);
    const keptBefore = new Set(kept.map(([i]) => i));
    const keptAfter = new Set(kept.map(([, j]) => j));
    for (let i = before.length - 1; i >= 0; i--) if (!keptBefore.has(i)) this.removeElement(path, i);
    after.forEach((value, j) => {
      if (!keptAfter.has(j)) this.apply([...path, j], value, true);
    });
  }
}

/** `text` edited so that it parses to `after` (it parses to `before` now). */
export function editJsonc(text: string, before: JsonObject, after: JsonObject): string {
  const editor = new Editor(text, formattingOf(text));
  editor.change([], before, after);
  return editor.text;
}
