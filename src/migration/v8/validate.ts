// Checking a parsed version 8 file against V8ConfigSchema, with messages that name the key (and, where YAML
// can tell, the line), the way the version 9 loader reports its own errors.
import { Compile } from 'typebox/compile';
import type { Document, LineCounter } from 'yaml';
import { MigrationError } from '../errors.js';
import { V8ConfigSchema, type V8Config } from './schema.js';

const validator = Compile(V8ConfigSchema);

export function validateV8(raw: unknown, doc: Document, lines: LineCounter): V8Config {
  const problems = new Set<string>();
  for (const error of validator.Errors(raw)) {
    const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'boolean') continue;
    if (error.keyword === 'additionalProperties') {
      for (const key of (error.params as { additionalProperties: string[] }).additionalProperties) {
        problems.add(`${lineOf(doc, lines, [...segments, key])}unknown key "${[...segments, key].join('.')}"`);
      }
      continue;
    }
    problems.add(`${lineOf(doc, lines, segments)}${segments.join('.') || '(top level)'}: ${error.message}`);
  }
  if (problems.size > 0) {
    throw new MigrationError('WARDEN_ERR_MIGRATION_SOURCE_INVALID', `config.yaml is not a valid version 8 file:\n  ${[...problems].join('\n  ')}`);
  }
  return raw as V8Config;
}

function lineOf(doc: Document, lines: LineCounter, segments: string[]): string {
  for (let depth = segments.length; depth > 0; depth--) {
    const path = segments.slice(0, depth).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return `line ${lines.linePos(node.range[0]).line}: `;
  }
  return '';
}
