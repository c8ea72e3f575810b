// Device registration and keys (spec document 2: Register, Rotate key, Decommission batch). Every credential
// change is written to the audit trail durably before it is made (the pre-commit credential audit); when the
// audit or the store is unavailable the change is refused (fail closed) and the existing key stays valid.
import { randomBytes, randomUUID } from 'node:crypto';
import type { NewAuditEvent } from '../audit/store.js';
import { formatCompositeId, type DeviceAddress } from './ids.js';
import type { KeyVault } from './key-vault.js';
import { publicDevice } from './store/public.js';
import type { DeviceRecord, FleetStore, Registration } from './store/types.js';
import { FLEET_LIMITS } from './limits.js';
import { WardenError } from '../errors.js';

export interface DurableAudit {
  appendDurably(event: NewAuditEvent): void;
}

/** The fleet store or its credential audit cannot take the change; nothing was changed (HTTP 503). */
export class FleetUnavailable extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_FLEET_UNAVAILABLE', message, { statusCode: 503 });
  }
}

export type RegisterResult =
  | { status: 200 | 201; device: DeviceRecord; device_key: string }
  | { status: 409; error: string };

export type RotateResult =
  | { status: 200; device_id: string; device_key: string }
  | { status: 404 | 429; error: string };

export interface BatchResult {
  status: 200 | 207;
  body: {
    batch_id: string;
    requested: number;
    decommissioned: number;
    status: 'completed' | 'partial' | 'deadline_exceeded';
    not_found?: string[];
    audit_failed?: string[];
    persistence_failed?: string[];
    tenant_denied_count?: number;
  };
}

const KEY_ROTATION_INTERVAL_MS = FLEET_LIMITS.keyRotationIntervalMs;
export const BATCH_DEADLINE_MS = FLEET_LIMITS.decommissionBatchDeadlineMs;

export class FleetDevices {
  private readonly lastRotation = new Map<string, number>();

  constructor(
    private readonly store: FleetStore,
    private readonly vault: KeyVault,
    private readonly audit: DurableAudit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs a store call; any failure there means the store is unavailable (503, nothing changed). */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new FleetUnavailable(`fleet store unavailable: ${(err as Error).message}`);
    }
  }

  private auditCredential(action: string, id: string, actor: string): void {
    try {
      this.audit.appendDurably({ action, target: id, actor, severity: 'INFO', details: 'device credential changed' });
    } catch (err) {
      throw new FleetUnavailable(`credential audit unavailable: ${(err as Error).message}`);
    }
  }

  /** `createOnly`: a device that exists (or is tombstoned) keeps its key and the answer is 409 (MQTT auto-registration). */
  async register(input: Registration & { force_reregister?: boolean }, actor: string, { createOnly = false } = {}): Promise<RegisterResult> {
    const id = formatCompositeId(input);
    const existing = await this.guarded(() => this.store.getDevice(input));
    if (existing && createOnly) return { status: 409, error: `device ${id} already exists` };
    if (existing?.decommissioned && !input.force_reregister) {
      return { status: 409, error: `device ${id} is decommissioned; send force_reregister: true to enable it again` };
    }
    const key = randomBytes(32);
    this.auditCredential(existing ? 'fleet-device-reregister' : 'fleet-device-register', id, actor);
    const { outcome, device } = await this.guarded(() => this.store.register(input, this.vault.seal(key, id), input.force_reregister ?? false));
    if (outcome === 'decommissioned' || !device) return { status: 409, error: `device ${id} is decommissioned` };
    return { status: outcome === 'created' ? 201 : 200, device: publicDevice(device), device_key: key.toString('hex') };
  }

  async rotateKey(address: DeviceAddress, actor: string): Promise<RotateResult> {
    const id = formatCompositeId(address);
    const device = await this.guarded(() => this.store.getDevice(address));
    if (!device || device.decommissioned) return { status: 404, error: `device ${id} not found` };
    const last = this.lastRotation.get(id);
    if (last !== undefined && this.now() - last < KEY_ROTATION_INTERVAL_MS) return { status: 429, error: 'a device key can be rotated once per minute' };
    const key = randomBytes(32);
    this.auditCredential('fleet-device-rotate-key', id, actor);
    const replaced = await this.guarded(() => this.store.replaceKey(address, this.vault.seal(key, id)));
    if (!replaced) return { status: 404, error: `device ${id} not found` };
    this.lastRotation.set(id, this.now());
    return { status: 200, device_id: id, device_key: key.toString('hex') };
  }

  async get(address: DeviceAddress): Promise<DeviceRecord | undefined> {
    const device = await this.guarded(() => this.store.getDevice(address));
    return device && !device.decommissioned ? publicDevice(device) : undefined;
  }

  async list(tenantId?: number): Promise<DeviceRecord[]> {
    return this.guarded(() => this.store.listDevices(tenantId));
  }

  /** `allowed(address)` says whether the caller may touch that device (tenant scoping). */
  async decommissionBatch(addresses: DeviceAddress[], allowed: (a: DeviceAddress) => boolean, actor: string): Promise<BatchResult> {
    const started = this.now();
    const body: BatchResult['body'] = { batch_id: randomUUID(), requested: addresses.length, decommissioned: 0, status: 'completed' };
    const notFound: string[] = [];
    const auditFailed: string[] = [];
    const persistenceFailed: string[] = [];
    let denied = 0;
    for (const address of addresses) {
      if (this.now() - started > BATCH_DEADLINE_MS) {
        body.status = 'deadline_exceeded';
        break;
      }
      if (!allowed(address)) {
        denied++;
        continue;
      }
      const id = formatCompositeId(address);
      let device;
      try {
        device = await this.store.getDevice(address);
      } catch {
        persistenceFailed.push(id);
        continue;
      }
      if (!device || device.decommissioned) {
        notFound.push(id);
        continue;
      }
      try {
        this.audit.appendDurably({ action: 'fleet-device-decommission', target: id, actor, severity: 'INFO', details: `batch ${body.batch_id}` });
      } catch {
        auditFailed.push(id);
        continue;
      }
      try {
        if (await this.store.decommission(address)) body.decommissioned++;
        else notFound.push(id);
      } catch {
        persistenceFailed.push(id);
      }
    }
    if (notFound.length > 0) body.not_found = notFound;
    if (auditFailed.length > 0) body.audit_failed = auditFailed;
    if (persistenceFailed.length > 0) body.persistence_failed = persistenceFailed;
    if (denied > 0) body.tenant_denied_count = denied;
    const partial = auditFailed.length > 0 || persistenceFailed.length > 0 || denied > 0 || body.status === 'deadline_exceeded';
    if (partial && body.status === 'completed') body.status = 'partial';
    return { status: partial ? 207 : 200, body };
  }
}
