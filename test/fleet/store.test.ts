// The fleet's foundations: composite device ids, the key vault, and the SQLite store on a real file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { compositeId, formatCompositeId, parseCompositeId } from '../../src/fleet/ids.js';
import { KeyVault } from '../../src/fleet/key-vault.js';
import { SqliteFleetStore } from '../../src/fleet/store/sqlite.js';
import { EMERGENCY_PAGE, MAX_POLICY_VERSION } from '../../src/fleet/store/types.js';

describe('composite device ids', () => {
  test('tenant in bits 63-48, fleet in 47-32, device in 31-0', () => {
    const address = { tenant_id: 0xffff, fleet_id: 0x0102, device_id: 0xdeadbeef };
    assert.equal(compositeId(address), 0xffff0102deadbeefn);
    assert.deepEqual(parseCompositeId(formatCompositeId(address)), address);
    assert.deepEqual(parseCompositeId('18446744073709551615'), { tenant_id: 0xffff, fleet_id: 0xffff, device_id: 0xffffffff });
  });

  test('anything but a canonical decimal uint64 is refused', () => {
    for (const bad of ['', '-1', '18446744073709551616', '0x10', '1e3', ' 1', '01', '1.0', '99999999999999999999999']) {
      assert.equal(parseCompositeId(bad), undefined, JSON.stringify(bad));
    }
    assert.throws(() => compositeId({ tenant_id: 65536, fleet_id: 0, device_id: 1 }), RangeError);
  });
});

describe('key vault', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'warden-vault-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('creates an owner-only key file once and reuses it', () => {
    const path = join(dir, 'fleet.key');
    const sealed = KeyVault.open(path, {}).seal(Buffer.from('device-key'), '42');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(KeyVault.open(path, {}).open(sealed, '42').toString(), 'device-key');
  });

  test('a sealed key opens only under its own vault key and its own device id', () => {
    const vault = new KeyVault(Buffer.alloc(32, 1));
    const sealed = vault.seal(Buffer.from('k'), '42');
    assert.throws(() => vault.open(sealed, '43'), 'moved to another device');
    assert.throws(() => new KeyVault(Buffer.alloc(32, 2)).open(sealed, '42'), 'another vault');
    const tampered = Buffer.from(sealed);
    tampered[14] = tampered[14]! ^ 1;
    assert.throws(() => vault.open(tampered, '42'), 'altered');
  });

  test('WARDEN_FLEET_VAULT_KEY must be 64 hex digits', () => {
    assert.throws(() => KeyVault.open(join(dir, 'unused'), { WARDEN_FLEET_VAULT_KEY: 'short' }), /64 hex/);
    assert.ok(KeyVault.open(join(dir, 'unused'), { WARDEN_FLEET_VAULT_KEY: 'ab'.repeat(32) }));
  });
});

describe('SQLite fleet store', () => {
  let dir: string;
  let store: SqliteFleetStore;
  const vault = new KeyVault(Buffer.alloc(32, 9));
  const device = { tenant_id: 7, fleet_id: 3, device_id: 1001 };
  const sealFor = (key: string) => vault.seal(Buffer.from(key), formatCompositeId(device));

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-fleet-'));
    store = new SqliteFleetStore(join(dir, 'fleet.db'));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('register creates, re-register replaces the key, and the record starts as the spec says', async () => {
    const created = await store.register({ ...device, hw_profile: 'esp32-s3', fw_version: '1.4.0' }, sealFor('first'), false);
    assert.equal(created.outcome, 'created');
    assert.equal(created.device!.device_id, compositeId(device).toString());
    assert.equal(created.device!.status, 'online');
    assert.equal(created.device!.last_heartbeat, '0001-01-01T00:00:00Z');
    const again = await store.register(device, sealFor('second'), false);
    assert.equal(again.outcome, 'replaced');
    assert.equal(vault.open(again.device!.sealed_key, formatCompositeId(device)).toString(), 'second');
    assert.equal(again.device!.hw_profile, 'esp32-s3', 'fields not supplied are kept');
  });

  test('keys are not stored in the clear', async () => {
    await store.register({ ...device, device_id: 1002 }, vault.seal(Buffer.from('cafebabe'.repeat(8)), formatCompositeId({ ...device, device_id: 1002 })), false);
    const raw = readFileSync(join(dir, 'fleet.db'));
    assert.equal(raw.includes(Buffer.from('cafebabe'.repeat(8))), false);
  });

  test('decommissioned devices stay tombstoned unless force_reregister', async () => {
    const address = { ...device, device_id: 2001 };
    await store.register(address, sealFor('k'), false);
    assert.equal(await store.decommission(address), true);
    assert.equal(await store.decommission(address), false, 'already decommissioned');
    assert.equal(await store.replaceKey(address, sealFor('x')), false, 'no key for a tombstoned device');
    assert.equal((await store.register(address, sealFor('k2'), false)).outcome, 'decommissioned');
    assert.ok(!(await store.listDevices(7)).some((d) => d.device_id === formatCompositeId(address)));
    assert.equal((await store.register(address, sealFor('k3'), true)).outcome, 'reenabled');
    assert.ok((await store.listDevices(7)).some((d) => d.device_id === formatCompositeId(address)));
  });

  test('listing is scoped by tenant', async () => {
    await store.register({ tenant_id: 8, fleet_id: 1, device_id: 1 }, sealFor('t8'), false);
    const tenant8 = await store.listDevices(8);
    assert.ok(tenant8.length > 0 && tenant8.every((d) => d.tenant_id === 8));
    assert.ok(!('sealed_key' in tenant8[0]!) && !('decommissioned' in tenant8[0]!), 'no key material in listings');
    assert.ok((await store.listDevices()).some((d) => d.tenant_id === 7));
    assert.deepEqual(await store.fleets(), [{ tenant_id: 7, fleet_id: 3 }, { tenant_id: 8, fleet_id: 1 }]);
  });

  test('policy wire versions count up per fleet and stop at 65534', async () => {
    const entry = { tenant_id: 7, fleet_id: 3, profile: 'standard' };
    const build = (version: number) => ({ policy_bin: Buffer.from([version, 2]), signature: Buffer.alloc(32) });
    assert.equal(await store.addPolicyVersion(entry, build), 1);
    assert.equal(await store.addPolicyVersion(entry, build), 2);
    assert.equal(await store.addPolicyVersion({ ...entry, fleet_id: 4 }, build), 1, 'another fleet has its own lineage');
    const listed = await store.listPolicyVersions(7, 3);
    assert.deepEqual(listed.map((v) => v.version), [2, 1]);
    assert.equal(listed[0]!.policy_bin, null, 'no blobs in listings');
    assert.deepEqual((await store.latestPolicy(7, 3))!.policy_bin, Buffer.from([2, 2]), 'the blob built for version 2');

    // Seed a history that reached the last version, as an old fleet would have.
    const db = new Database(join(dir, 'fleet.db'));
    db.prepare('INSERT INTO policy_versions (tenant_id, fleet_id, version, profile, policy_bin, signature, created_at) VALUES (9, 9, ?, ?, ?, ?, ?)')
      .run(MAX_POLICY_VERSION, 'standard', Buffer.from([0]), Buffer.alloc(32), new Date().toISOString());
    db.close();
    assert.equal(await store.addPolicyVersion({ ...entry, tenant_id: 9, fleet_id: 9 }, build), undefined);
  });

  test('emergency history: gapless sequences per fleet, replayed in order 32 at a time', async () => {
    for (let i = 0; i < 40; i++) await store.appendEmergency(7, 3, i % 2 ? 'ENTER_LOCKDOWN' : 'RELEASE_LOCKDOWN', (seq) => Buffer.from(`frame-${seq}`));
    const first = await store.emergencyAfter(7, 3, 0);
    assert.equal(first.length, EMERGENCY_PAGE);
    assert.deepEqual(first.map((e) => e.sequence), Array.from({ length: 32 }, (_, i) => i + 1));
    assert.deepEqual(first[4]!.frame, Buffer.from('frame-5'));
    const rest = await store.emergencyAfter(7, 3, 32);
    assert.deepEqual(rest.map((e) => e.sequence), [33, 34, 35, 36, 37, 38, 39, 40]);
    assert.equal((await store.appendEmergency(7, 4, 'BLOCK_ALL', () => Buffer.alloc(112))).sequence, 1, 'per fleet');
  });
});
