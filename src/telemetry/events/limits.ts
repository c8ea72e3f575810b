// Resource limits of the event writer and its destinations (documented in docs/configuration.md "Limits";
// each destination's own buffer and batch sizes are config keys, observability.destinations[]).
import { defineLimits } from '../../util/limit-table.js';

export const EVENT_WRITER_LIMITS = defineLimits('Event writer', 'src/telemetry/events/limits.ts', {
  shutdownFlushMs: {
    value: 5000, unit: 'ms',
    what: 'On stop or reload, how long the destinations may take to send what they hold; what is left is dropped and counted (`reason="shutdown"`).',
  },
});
