// Resource limits and deadlines of the device fleet, in one table (documented in docs/configuration.md "Limits").
import { defineLimits } from '../util/limit-table.js';

export const FLEET_LIMITS = defineLimits('Device fleet', 'src/fleet/limits.ts', {
  publishTimeoutMs: { value: 5_000, unit: 'ms', what: 'Wait for the broker to accept a publication; past it the publication fails (broker not connected or not answering).' },
  maxClockSkewMs: { value: 5 * 60_000, unit: 'ms', what: 'Difference allowed between a device message\'s timestamp and the gateway clock; beyond it the message is rejected as stale.' },
  keyRotationIntervalMs: { value: 60_000, unit: 'ms', what: 'A device key can be rotated once in this interval (429 otherwise).' },
  decommissionBatchDeadlineMs: { value: 30_000, unit: 'ms', what: 'Time one decommission batch may take; it then stops with status `deadline_exceeded`.' },
});
