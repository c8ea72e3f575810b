// Device policy YAML → the binary blob devices apply (layout in docs/fleet-wire.md), and its HMAC-SHA256
// signature. Compiled in TypeScript: the gateway needs no Python.
import { createHash, createHmac } from 'node:crypto';
import Value from 'typebox/value';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { ACTIONS, PolicySchema, PROFILE_LIMITS, type DevicePolicy, type PolicyProfile } from './schema.js';
import { WardenError } from '../../errors.js';

export const POLICY_MAGIC = Buffer.from('WPOL');
const POLICY_FORMAT = 1;
const HEADER_BYTES = 20;
const PROFILE_CODE: Record<PolicyProfile, number> = { minimal: 0, standard: 1, extended: 2 };
const ACTION_CODE = Object.fromEntries(ACTIONS.map((a, i) => [a, i])) as Record<(typeof ACTIONS)[number], number>;
const LOCKDOWN_CODE = { block_all: 0, allow_listed: 1 } as const;

/** The YAML cannot be compiled: `line` points at the offending node when known (HTTP 422). */
export class PolicyCompileError extends WardenError {
  constructor(message: string, readonly line?: number) {
    super('WARDEN_ERR_FLEET_POLICY_INVALID', line ? `line ${line}: ${message}` : message, { statusCode: 422 });
  }
}

/** The compiled policy does not fit the device profile (HTTP 413). */
export class PolicyTooLarge extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_FLEET_POLICY_TOO_LARGE', message, { statusCode: 413 });
  }
}

export interface CompiledPolicy {
  /** Header + body, version field 0 (the push assigns it). */
  blob: Buffer;
  payloadLength: number;
  /** First 16 hex digits of the SHA-256 of the payload: what a canary device reports back once applied. */
  canaryBaseline: string;
}

function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}

function parsePolicyYaml(text: string): DevicePolicy {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError) throw new PolicyCompileError(`invalid YAML: ${yamlError.message.split('\n')[0]}`, yamlError.linePos?.[0].line);
  if (!isMap(doc.contents)) throw new PolicyCompileError('the policy must be a YAML mapping');
  const data: unknown = doc.toJS();
  if (!Value.Check(PolicySchema, data)) {
    const first = Value.Errors(PolicySchema, data)[0]!;
    const path = first.instancePath.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    throw new PolicyCompileError(`${path.join('.') || '(top level)'}: ${explain(first.keyword, String(path.at(-1) ?? ''), first.message)}`, lineOf(doc, lines, path));
  }
  return data;
}

/** TypeBox's wording made readable for the few cases a policy author meets. */
function explain(keyword: string, key: string, message: string): string {
  if (keyword === 'boolean') return 'unknown key';
  if (key === 'action' || key === 'default_action') return `must be one of ${ACTIONS.join(', ')}`;
  if (key === 'mode') return 'must be block_all or allow_listed';
  return message;
}

class Writer {
  private readonly parts: Buffer[] = [];
  u8(n: number) { this.parts.push(Buffer.from([n])); }
  u16(n: number) { const b = Buffer.alloc(2); b.writeUInt16LE(n); this.parts.push(b); }
  text(s: string) { const b = Buffer.from(s, 'utf8'); if (b.length > 255) throw new PolicyCompileError(`"${s.slice(0, 20)}…" is too long`); this.u8(b.length); this.parts.push(b); }
  bytes(b: Buffer) { this.parts.push(b); }
  done() { return Buffer.concat(this.parts); }
}

export function compilePolicy(text: string): CompiledPolicy {
  const policy = parsePolicyYaml(text);
  const rules = policy.rules ?? [];
  const allow = policy.hashes?.allow ?? [];
  const deny = policy.hashes?.deny ?? [];
  const limits = policy.rate_limits ?? [];
  const body = new Writer();
  for (const rule of rules) {
    body.text(rule.tool);
    body.u8(ACTION_CODE[rule.action]);
    body.u8(rule.args?.length ?? 0);
    for (const arg of rule.args ?? []) {
      body.u8(ACTION_CODE[arg.action]);
      body.text(arg.pattern);
    }
  }
  for (const limit of limits) {
    body.text(limit.tool);
    body.u16(limit.per_minute);
  }
  for (const hash of [...allow, ...deny]) body.bytes(Buffer.from(hash, 'hex'));
  const payload = body.done();

  const header = Buffer.alloc(HEADER_BYTES);
  POLICY_MAGIC.copy(header, 0);
  header.writeUInt8(POLICY_FORMAT, 4);
  header.writeUInt8(ACTION_CODE[policy.default_action], 5);
  header.writeUInt8(LOCKDOWN_CODE[policy.lockdown?.mode ?? 'block_all'], 6);
  header.writeUInt8(0, 7); // profile, set by withProfile
  header.writeUInt16LE(0, 8); // wire version, set at push
  header.writeUInt16LE(rules.length, 10);
  header.writeUInt16LE(limits.length, 12);
  header.writeUInt16LE(allow.length, 14);
  header.writeUInt16LE(deny.length, 16);
  header.writeUInt16LE(payload.length, 18);
  return {
    blob: Buffer.concat([header, payload]),
    payloadLength: payload.length,
    canaryBaseline: createHash('sha256').update(payload).digest('hex').slice(0, 16),
  };
}

/** The blob for a profile and wire version; throws when it is over the profile's size limit (HTTP 413). */
export function finalizeBlob(compiled: CompiledPolicy, profile: PolicyProfile, version: number): Buffer {
  if (compiled.blob.length > PROFILE_LIMITS[profile]) {
    throw new PolicyTooLarge(`compiled policy is ${compiled.blob.length} bytes; the ${profile} profile holds at most ${PROFILE_LIMITS[profile]}`);
  }
  const blob = Buffer.from(compiled.blob);
  blob.writeUInt8(PROFILE_CODE[profile], 7);
  blob.writeUInt16LE(version, 8);
  return blob;
}

/** HMAC-SHA256 over the whole blob with WARDEN_OTA_HMAC_KEY. */
export const signPolicy = (blob: Buffer, key: Buffer): Buffer => createHmac('sha256', key).update(blob).digest();
