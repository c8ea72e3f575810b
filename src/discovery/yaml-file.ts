// Reading discovery's YAML files (signature packs, confidence policies): operator-owned, so only a regular file
// within the size cap is read, and its content is checked against a strict schema with every problem naming the
// file, the line where YAML can tell, and the dotted key. Text given directly (a policy to validate) goes through
// the same check.
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { readRegularFile } from '../scanners/special-files.js';
import { DISCOVERY_LIMITS } from './limits.js';

/** A file or text that cannot be used; the message names where and what. */
export class YamlProblem extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

export function readCappedFile(path: string): Buffer {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(path, { followLinks: true });
  } catch (err) {
    throw new YamlProblem([`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`]);
  }
  if (!bytes) throw new YamlProblem([`${path}: not a regular file`]);
  if (bytes.length > DISCOVERY_LIMITS.packBytes) throw new YamlProblem([`${path}: larger than ${DISCOVERY_LIMITS.packBytes} bytes`]);
  return bytes;
}

const validators = new WeakMap<TSchema, ReturnType<typeof Compile>>();

/** YAML bytes or text → the value checked against `schema`, defaults filled in; throws YamlProblem. */
export function readYamlChecked<T>(source: Buffer | string, where: string, schema: TSchema): T {
  const lines = new LineCounter();
  const doc = parseDocument(source.toString(), { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0].line;
    throw new YamlProblem([`${where}${line ? `:${line}` : ''}: invalid YAML: ${yamlError.message.split('\n')[0]}`]);
  }
  let validator = validators.get(schema);
  if (!validator) validators.set(schema, (validator = Compile(schema)));
  const value = Value.Default(schema, structuredClone(doc.toJS() ?? {})) as unknown;
  const problems: string[] = [];
  for (const error of validator.Errors(value)) {
    const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'boolean' || error.keyword === 'not') continue;
    if (error.keyword === 'additionalProperties') {
      for (const key of (error.params as { additionalProperties: string[] }).additionalProperties) {
        problems.push(`${locate(where, doc, lines, [...segments, key])}: ${[...segments, key].join('.')}: unknown key`);
      }
      continue;
    }
    problems.push(`${locate(where, doc, lines, segments)}: ${segments.join('.') || '(top level)'}: ${error.message}`);
  }
  if (problems.length > 0) throw new YamlProblem([...new Set(problems)]);
  return value as T;
}

function locate(where: string, doc: Document, lines: LineCounter, segments: string[]): string {
  for (let depth = segments.length; depth > 0; depth--) {
    const node = doc.getIn(segments.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return `${where}:${lines.linePos(node.range[0]).line}`;
  }
  return where;
}
