// A stored device as the API shows it: no key material, no tombstone, no replay-protection state.
import type { DeviceRecord, StoredDevice } from './types.js';

export function publicDevice(stored: StoredDevice): DeviceRecord {
  const copy: Partial<StoredDevice> = { ...stored };
  delete copy.sealed_key;
  delete copy.decommissioned;
  delete copy.last_message_seq;
  delete copy.emergency_applied;
  return copy as DeviceRecord;
}
