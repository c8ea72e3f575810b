// The generated sections of docs/configuration.md: every config.yaml key and every environment variable, with
// type, default and description, read from the same TypeBox schemas the loaders validate with.
import { AUDIT_LIMITS } from '../../src/audit/limits.js';
import { EnvSchema } from '../../src/config/env.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { DISCOVERY_LIMITS } from '../../src/discovery/limits.js';
import { HOOK_LIMITS } from '../../src/connectors/limits.js';
import { FLEET_LIMITS } from '../../src/fleet/limits.js';
import { SIDECAR_LIMITS } from '../../src/gateway/limits.js';
import { MIGRATION_LIMITS } from '../../src/migration/limits.js';
import { POLICY_LIMITS } from '../../src/policy/limits.js';
import { PROXY_LIMITS } from '../../src/proxy/limits.js';
import { SANDBOX_POLICY_LIMITS } from '../../src/sandbox/policy/limits.js';
import { SNAPSHOT_LIMITS } from '../../src/sandbox/snapshot/limits.js';
import { SANDBOX_LIMITS } from '../../src/sandbox/limits.js';
import { SANDBOX_EGRESS_LIMITS } from '../../src/sandbox/egress/limits.js';
import { INGRESS_LIMITS } from '../../src/sandbox/ingress/limits.js';
import { SCANNER_LIMITS } from '../../src/scanners/limits.js';
import { SKILL_SCANNER_LIMITS } from '../../src/skill-scanner/limits.js';
import { EVENT_WRITER_LIMITS } from '../../src/telemetry/events/limits.js';
import { TELEMETRY_LIMITS } from '../../src/telemetry/limits.js';
import { UPSTREAM_LIMITS } from '../../src/upstream/limits.js';
import { CONNECTION_LIMITS } from '../../src/util/connection-limits.js';
import { KiB, LIMIT_TABLE, MiB, type LimitRow, type LimitTable } from '../../src/util/limit-table.js';

/** Every subsystem's limits table, in the order the docs list them. */
const LIMIT_TABLES: readonly { readonly [LIMIT_TABLE]: LimitTable }[] = [
  CONNECTION_LIMITS,
  SIDECAR_LIMITS,
  PROXY_LIMITS,
  HOOK_LIMITS,
  AUDIT_LIMITS,
  SCANNER_LIMITS,
  SKILL_SCANNER_LIMITS,
  FLEET_LIMITS,
  POLICY_LIMITS,
  SANDBOX_POLICY_LIMITS,
  MIGRATION_LIMITS,
  SNAPSHOT_LIMITS,
  SANDBOX_LIMITS,
  TELEMETRY_LIMITS,
  EVENT_WRITER_LIMITS,
  DISCOVERY_LIMITS,
  UPSTREAM_LIMITS,
  SANDBOX_EGRESS_LIMITS,
  INGRESS_LIMITS,
];

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
  return { keys: keyTable(), env: envTable(), limits: limitTables() };
}

function limitTables(): string {
  return LIMIT_TABLES.map((limits) => {
    const { subsystem, source, rows } = limits[LIMIT_TABLE];
    return [
      `### ${subsystem}`,
      '',
      `Defined in \`${source}\`.`,
      '',
      '| limit | value | what it bounds |',
      '|---|---|---|',
      ...rows.map((row) => `| \`${row.name}\` | ${amount(row)} | ${cell(row.what)} |`),
    ].join('\n');
  }).join('\n\n');
}

function amount({ value, unit }: LimitRow): string {
  const n = value.toLocaleString('en-US');
  if (unit === 'ms') return value >= 1000 && value % 1000 === 0 ? `${(value / 1000).toLocaleString('en-US')} s` : `${n} ms`;
  if (unit === 'bytes') {
    for (const [size, name] of [[MiB, 'MiB'], [KiB, 'KiB']] as const) {
      if (value % size === 0) return `${value / size} ${name}`;
    }
    return `${n} bytes`;
  }
  return unit === 'characters' ? `${n} characters` : n;
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
