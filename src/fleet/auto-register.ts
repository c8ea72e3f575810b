// MQTT auto-registration, for unmanaged local development only (spec document 2, "Register"): a device that
// has no key yet asks for one over the embedded loopback broker and gets it back on its own topic. Off by
// default (`fleet.mqtt.auto_register`) and refused with an external broker, where the key would cross the
// network unprotected; production devices are registered through the API.
//
// The device publishes a 16-byte nonce of its choosing to `…/device/<id>/enroll`; the gateway answers on
// `…/device/<id>/key` with that nonce followed by the 32-byte key, so the device can tell its answer apart.
// Only a device id never seen before is enrolled: an existing or decommissioned device keeps its key.
import type { FleetDevices } from './devices.js';
import type { DeviceAddress } from './ids.js';
import { topics, type FleetMqtt } from './mqtt.js';

const ENROLL_NONCE_BYTES = 16;

export type EnrollOutcome = 'enrolled' | 'bad_enroll' | 'enroll_existing';

export class AutoRegistration {
  constructor(
    private readonly devices: FleetDevices,
    private readonly mqtt: FleetMqtt,
  ) {}

  async enroll(address: DeviceAddress, nonce: Buffer): Promise<EnrollOutcome> {
    if (nonce.length !== ENROLL_NONCE_BYTES) return 'bad_enroll';
    const result = await this.devices.register(address, 'mqtt-auto-register', { createOnly: true });
    if (!('device_key' in result)) return 'enroll_existing';
    const key = Buffer.from(result.device_key, 'hex');
    await this.mqtt.publish(topics.deviceKey(address.tenant_id, address.fleet_id, address.device_id), Buffer.concat([nonce, key]));
    return 'enrolled';
  }
}
