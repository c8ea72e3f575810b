// Limits of the sandbox hook ingress (docs/configuration.md "Limits").
import { defineLimits, MiB } from '../../util/limit-table.js';

export const INGRESS_LIMITS = defineLimits('Sandbox hook ingress', 'src/sandbox/ingress/limits.ts', {
  eventNames: { value: 48, unit: 'count', what: 'Hook event names counted one by one in a Sandbox\'s `hooks.events`; calls of further names only add to `other_events` (spec "Limits").' },
  bodyBytes: { value: 8 * MiB, unit: 'bytes', what: 'A hook event posted to the ingress (the hook script sends at most this much); a larger one is refused with 413.' },
});
