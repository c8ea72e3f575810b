// The gateway's own records: lifecycle steps of the process (start, reload, stop) and diagnostics (a subsystem
// of GET /health changing state, with its error), in the envelope of record.ts.
import { isoNow } from '../../util/iso-now.js';
import { uuidv7 } from '../../util/uuidv7.js';
import type { SubsystemHealth } from '../../gateway/health.js';
import { EVENT_SCHEMA, type EventRecord } from './record.js';

export type LifecycleStep = 'gateway-start' | 'gateway-reload' | 'gateway-stop';

export function lifecycleRecord(step: LifecycleStep, body: Record<string, unknown>): EventRecord {
  return { schema: EVENT_SCHEMA, kind: 'lifecycle', time: isoNow(), id: uuidv7(), name: step, severity: 'INFO', anchors: {}, body };
}

const DEGRADED = new Set(['degraded', 'error', 'unavailable']);

export function diagnosticRecord(subsystem: string, health: SubsystemHealth): EventRecord {
  return {
    schema: EVENT_SCHEMA, kind: 'diagnostic', time: health.since, id: uuidv7(), name: `${subsystem}-${health.state}`,
    severity: DEGRADED.has(health.state) ? 'HIGH' : 'INFO', anchors: {}, body: { subsystem, ...health },
  };
}
