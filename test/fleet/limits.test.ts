// Fleet rules that need a clock or an environment: tenant tokens from WARDEN_FLEET_TENANT_TOKENS, the admin
// token rotation interval, and the 30-second decommission batch deadline.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AuditStore } from '../../src/audit/store.js';
import { FleetAuth, parseTenantTokens } from '../../src/fleet/auth.js';
import { BATCH_DEADLINE_MS, FleetDevices } from '../../src/fleet/devices.js';
import { KeyVault } from '../../src/fleet/key-vault.js';
import { SqliteFleetStore } from '../../src/fleet/store/sqlite.js';

test('WARDEN_FLEET_TENANT_TOKENS: tenant:token pairs, malformed input refused', () => {
  assert.deepEqual([...parseTenantTokens('1:tenant-one-token-123456, 65535:tenant-max-token-12345')], [[1, 'tenant-one-token-123456'], [65535, 'tenant-max-token-12345']]);
  assert.deepEqual([...parseTenantTokens(undefined)], []);
  for (const bad of ['1', '70000:long-enough-token-123', 'x:long-enough-token-123', '1:short']) assert.throws(() => parseTenantTokens(bad), /WARDEN_FLEET_TENANT_TOKENS/, bad);
});

test('tokens: tenant tokens identify their tenant; no admin token, nobody; rotation once a minute', () => {
  let now = 0;
  const auth = new FleetAuth('admin-token-0123456789', new Map([[4, 'tenant-four-token-0123']]), () => now);
  assert.deepEqual(auth.identify('admin-token-0123456789'), { role: 'admin' });
  assert.deepEqual(auth.identify('tenant-four-token-0123'), { role: 'tenant', tenant_id: 4 });
  assert.equal(auth.identify('nope'), undefined);
  now = 120_000;
  const rotated = auth.rotate();
  assert.ok(rotated);
  assert.equal(auth.rotate(), undefined, 'again within the minute');
  now += 60_000;
  assert.ok(auth.rotate(), 'a minute later');
  assert.equal(new FleetAuth(undefined, new Map([[4, 'tenant-four-token-0123']])).identify('tenant-four-token-0123'), undefined, 'no admin token: nobody');
});

test('a decommission batch stops at its 30-second deadline and reports a partial result (207)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-fleet-deadline-'));
  const store = new SqliteFleetStore(join(dir, 'fleet.db'));
  const audit = new AuditStore(join(dir, 'audit.db'));
  let now = 0;
  const devices = new FleetDevices(store, new KeyVault(Buffer.alloc(32, 1)), audit, () => now);
  try {
    const addresses = [1, 2, 3].map((device_id) => ({ tenant_id: 1, fleet_id: 1, device_id }));
    for (const address of addresses) await devices.register(address, 'test');
    // Every step of the batch takes "16 seconds": the third device is past the deadline.
    const slow = new FleetDevices(store, new KeyVault(Buffer.alloc(32, 1)), audit, () => (now += BATCH_DEADLINE_MS / 2 + 1_000));
    const result = await slow.decommissionBatch(addresses, () => true, 'test');
    assert.equal(result.status, 207);
    assert.equal(result.body.status, 'deadline_exceeded');
    assert.ok(result.body.decommissioned >= 1 && result.body.decommissioned < 3, `${result.body.decommissioned} decommissioned before the deadline`);
    assert.ok(await devices.get(addresses[2]!), 'the device past the deadline is untouched');
  } finally {
    await audit.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
