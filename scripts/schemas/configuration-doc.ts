// The generated sections of docs/configuration.md: every config.yaml key and every environment variable, with
// type, default and description, read from the same TypeBox schemas the loaders validate with.
import { EnvSchema } from '../../src/config/env.js';
import { ConfigSchema } from '../../src/config/schema.js';

interface Node {
  type?: string;
  const?: unknown;
  anyOf?: Node[];
  items?: Node;
  properties?: Record<string, Node>;
  patternProperties?: Record<string, Node>;
  required?: string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  'x-expected'?: string;
}

export function configurationSections(): Record<string, string> {
  return { keys: keyTable(), env: envTable() };
}

function keyTable(): string {
  const rows = ['| key | type | default | description |', '|---|---|---|---|'];
  const walk = (node: Node, prefix: string) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const key = `${prefix}${name}`;
      const required = node.required?.includes(name) ?? false;
      rows.push(`| \`${key}\` | ${typeOf(child)} | ${defaultOf(child, required)} | ${cell(child.description)} |`);
      if (child.properties) walk(child, `${key}.`);
      if (child.items?.properties) walk(child.items, `${key}[].`);
    }
  };
  walk(ConfigSchema as Node, '');
  return rows.join('\n');
}

function envTable(): string {
  const rows = ['| variable | value | default | description |', '|---|---|---|---|'];
  for (const [name, node] of Object.entries(EnvSchema.properties as Record<string, Node>)) {
    rows.push(`| \`${name}\` | ${node['x-expected'] ? cell(node['x-expected']) : typeOf(node)} | ${defaultOf(node, false)} | ${cell(node.description)} |`);
  }
  return rows.join('\n');
}

function typeOf(node: Node): string {
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.anyOf) return `one of ${node.anyOf.map((v) => (v.const === undefined ? typeOf(v) : `\`${literal(v.const)}\``)).join(', ')}`;
  if (node.type === 'array') return `list of ${plural(node.items ? typeOf(node.items) : 'values')}`;
  if (node.type === 'integer' || node.type === 'number') {
    if (node.minimum !== undefined && node.maximum !== undefined) return `${node.type} ${node.minimum}–${node.maximum}`;
    if (node.minimum !== undefined) return `${node.type} ≥ ${node.minimum}`;
    return node.type;
  }
  if (node.type === 'object') return node.properties ? 'section' : 'map';
  return node.type ?? 'any';
}

const plural = (type: string) => (type === 'section' ? 'objects' : type === 'string' ? 'strings' : type);

function defaultOf(node: Node, required: boolean): string {
  if (node.default === undefined) return required ? 'required' : 'unset';
  if (node.type === 'object' && node.properties) return '';
  return `\`${literal(node.default)}\``;
}

/** A value as written in YAML or the environment: bare strings, `""` for the empty one, JSON otherwise. */
const literal = (value: unknown) => (typeof value === 'string' && value !== '' ? value : JSON.stringify(value));

const cell = (text = '') => text.replace(/\|/g, '\\|');
