// HTTP helpers of the sandbox API tests: a client that sends the token and CSRF header, the in-test ports for
// a gateway, and project folders.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GatewayOptions } from '../../src/gateway/runtime.js';
import { EPHEMERAL_CONFIG } from '../helpers/home.js';
import { FixedPolicy, MemoryWorkspace } from './fixtures.js';

export const TOKEN = 'sandbox-api-test-token-0123456789';
export const ENABLED = `${EPHEMERAL_CONFIG}openshell:\n  enabled: true\n`;
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function ports(workspace = new MemoryWorkspace(), policy = new FixedPolicy()): GatewayOptions & { workspace: MemoryWorkspace; policy: FixedPolicy } {
  return { workspace, policy, sandboxPorts: () => ({ policy, workspace }) };
}

export function client(url: string, token = TOKEN) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}/api/v1/sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`, 'x-warden-client': 'test',
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }), ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json, text };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body ?? '', headers),
    del: (path: string, body?: unknown) => call('DELETE', path, body ?? ''),
  };
}

export function project(root: string, name: string, files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
}

