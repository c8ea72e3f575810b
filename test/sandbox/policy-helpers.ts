// A sandbox policy built the way the gateway builds it: config.yaml text through the real config loader, pack and
// administrator files written into a temporary $WARDEN_HOME, and a fixed machine size so gateway clamps are
// predictable.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { parseConfig } from '../../src/config/load.js';
import { SandboxPolicy, SandboxPolicyError, type SandboxPolicyApiCode } from '../../src/sandbox/policy/index.js';
import type { PolicySetting, RunOptions } from '../../src/sandbox/ports.js';

export const HOST = { cpus: 16, memoryMiB: 64 * 1024 };

const homes: string[] = [];
after(() => {
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

export interface PolicyHome {
  dir: string;
  write(path: string, text: string): string;
  policy(openshell?: string): SandboxPolicy;
}

/** A temp $WARDEN_HOME; `policy(yaml)` builds a resolver from `openshell:` keys written as indented YAML. */
export function policyHome(files: Record<string, string> = {}): PolicyHome {
  const dir = mkdtempSync(join(tmpdir(), 'warden-sbpolicy-'));
  homes.push(dir);
  const write = (path: string, text: string) => {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return {
    dir,
    write,
    policy: (openshell = '') => {
      const config = parseConfig(`config_version: 9\nopenshell:\n  enabled: true\n${openshell}`, join(dir, 'config.yaml'));
      return new SandboxPolicy({ config, wardenHome: dir, home: join(dir, 'user-home'), host: HOST });
    },
  };
}

export const run = (options: Partial<RunOptions> = {}): RunOptions => ({ harness: 'shell', project: '/work/project', ...options });

export function setting(settings: PolicySetting[], key: string): PolicySetting {
  const found = settings.find((s) => s.key === key);
  assert.ok(found, `no setting ${key}`);
  return found;
}

/** The SandboxPolicyError `fn` throws, checked for its API code and HTTP status. */
export function refusal(fn: () => unknown, apiCode: SandboxPolicyApiCode): SandboxPolicyError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SandboxPolicyError, `expected SandboxPolicyError, got ${String(err)}`);
    assert.equal(err.apiCode, apiCode, err.message);
    assert.equal(err.statusCode, apiCode === 'pack_invalid' ? 400 : 403);
    return err;
  }
  assert.fail('the run was not refused');
}

/** A complete operator pack in YAML; `extra` lines are appended (top level). */
export const OPERATOR_PACK = `description: Team pack.
network_mode: policed
approvals: false
options:
  copy: {default: false, allowed: true}
  safe: {default: false, allowed: true}
  yolo: {default: false, allowed: true}
  no_mcp: {default: false, allowed: true}
  learn: {default: false, allowed: false}
  context: {allowed: true, max_items: 2}
  unmask: {allowed: false, max_items: 0}
  host_ports: {allowed: true, max_items: 1, min_port: 3000, max_port: 3999}
  cpu: {allowed: true, default: 1, max: 3}
  memory: {allowed: false, default: 1g}
`;
