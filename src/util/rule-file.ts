// Reading a YAML rule file checked against its TypeBox schema, shared by the guardrail rule packs and the skill
// scanner's signature rules: defaults filled in, duplicate keys refused, and the first problem reported as
// `<file>: rule <id or #position>: <field>: <reason>` so an operator can find it.
import { readFileSync } from 'node:fs';
import type { TSchema } from 'typebox';
import type { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { parse } from 'yaml';

export function readRuleYaml<T>(file: string, schema: TSchema, validator: ReturnType<typeof Compile>, fail: (message: string) => Error): T {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'), { uniqueKeys: true });
  } catch (err) {
    throw fail(`${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const value = Value.Default(schema, raw ?? {});
  const first = validator.Errors(value)[0];
  if (first) {
    const path = first.instancePath.split('/').slice(1);
    const inRule = path[0] === 'rules' && path[1] !== undefined;
    const ruleId = inRule ? (value as { rules?: { id?: unknown }[] }).rules?.[Number(path[1])]?.id : undefined;
    const where = inRule ? `rule ${ruleId === undefined ? `#${Number(path[1]) + 1}` : String(ruleId)}: ` : '';
    const field = path.slice(inRule ? 2 : 0).join('.') || '(top level)';
    // TypeBox reports a key the schema does not know as "schema is false" on that key.
    const message = first.keyword === 'boolean' ? 'unknown field' : first.message;
    throw fail(`${file}: ${where}${field}: ${message}`);
  }
  return value as T;
}
