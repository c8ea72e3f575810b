// Build step: writes the files derived from the TypeBox schemas, so editors, operators and the docs read the
// same definition the code validates with. `npm run build` runs it; test/config/generated.test.ts fails when a
// committed file differs from what this produces now (run `node --import tsx scripts/emit-schemas.ts`).
//   docs/schemas/*.schema.json   JSON Schema of config.yaml and of every shipped file format under policies/
//   docs/configuration.md        the generated sections between `<!-- generated:NAME -->` markers
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configurationSections } from './schemas/configuration-doc.js';
import { schemaFiles } from './schemas/json-schemas.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CONFIGURATION_DOC = 'docs/configuration.md';

/** Every generated file, by path from the repository root, with the content it must have now. */
export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, schema] of schemaFiles()) files.set(`docs/schemas/${name}`, `${JSON.stringify(schema, null, 2)}\n`);
  files.set(CONFIGURATION_DOC, fillSections(readFileSync(ROOT + CONFIGURATION_DOC, 'utf8'), configurationSections()));
  return files;
}

/** Replaces the body of each `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` block; prose outside stays. */
export function fillSections(text: string, sections: Record<string, string>): string {
  let result = text;
  for (const [name, body] of Object.entries(sections)) {
    const open = `<!-- generated:${name} (scripts/emit-schemas.ts; do not edit by hand) -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = result.indexOf(open);
    const end = result.indexOf(close);
    if (start < 0 || end < start) throw new Error(`${CONFIGURATION_DOC} has no block ${open} … ${close}`);
    result = `${result.slice(0, start + open.length)}\n${body.trimEnd()}\n${result.slice(end)}`;
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, content] of generatedFiles()) writeFileSync(ROOT + path, content);
}
