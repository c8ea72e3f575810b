// A fleet of simulated devices: registered through the fleet API (so each gets a real key), then connected to
// the broker. Shared by `warden fleet simulate`, the tests and bench/fleet.
import type { DeviceAddress } from './ids.js';
import { SimulatedDevice } from './simulated-device.js';

export interface SimulatedFleetOptions {
  sidecarUrl: string;
  adminToken: string;
  brokerUrl: string;
  tenant_id: number;
  fleet_id: number;
  devices: number;
  firstDeviceId?: number;
  otaKey: Buffer;
  emergencyKey: Buffer;
  /** Parallel registrations and connections. */
  concurrency?: number;
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

export async function registerDevice(sidecarUrl: string, adminToken: string, address: DeviceAddress): Promise<Buffer> {
  const response = await fetch(`${sidecarUrl}/api/v1/fleet/devices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'x-warden-client': 'warden-fleet-simulator', 'content-type': 'application/json' },
    body: JSON.stringify({ ...address, hw_profile: 'simulator', fw_version: '0.0.0' }),
  });
  if (response.status !== 200 && response.status !== 201) throw new Error(`registering device ${address.device_id} failed: HTTP ${response.status} ${await response.text()}`);
  return Buffer.from(((await response.json()) as { device_key: string }).device_key, 'hex');
}

export async function startSimulatedFleet(options: SimulatedFleetOptions): Promise<{ devices: SimulatedDevice[]; stop(): Promise<void> }> {
  const first = options.firstDeviceId ?? 1;
  const addresses = Array.from({ length: options.devices }, (_, i) => ({ tenant_id: options.tenant_id, fleet_id: options.fleet_id, device_id: first + i }));
  const devices: SimulatedDevice[] = [];
  await inBatches(addresses, options.concurrency ?? 16, async (address) => {
    const key = await registerDevice(options.sidecarUrl, options.adminToken, address);
    const device = new SimulatedDevice(address, { device: key, ota: options.otaKey, emergency: options.emergencyKey });
    await device.connect(options.brokerUrl);
    devices.push(device);
  });
  devices.sort((a, b) => a.address.device_id - b.address.device_id);
  return { devices, stop: async () => void (await Promise.all(devices.map((d) => d.disconnect()))) };
}
