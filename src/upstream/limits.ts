// Resource limits of the upstream agent gateway client, in one table (documented in docs/configuration.md "Limits").
import { defineLimits, MiB } from '../util/limit-table.js';

export const UPSTREAM_LIMITS = defineLimits('Upstream agent gateway client', 'src/upstream/limits.ts', {
  callTimeoutMs: { value: 15_000, unit: 'ms', what: 'Wait for the answer to one bridged call; past it the route answers 502.' },
  handshakeTimeoutMs: { value: 10_000, unit: 'ms', what: 'Wait for the challenge and the hello after opening the socket; past it the socket is closed and retried.' },
  reconnectMinMs: { value: 250, unit: 'ms', what: 'First wait before reconnecting after the socket closes; doubled after each failed attempt.' },
  reconnectMaxMs: { value: 5_000, unit: 'ms', what: 'Longest wait between reconnect attempts (the upstream gateway is local: a short cap finds it soon after it restarts).' },
  maxFrameBytes: { value: 32 * MiB, unit: 'bytes', what: 'Largest frame accepted from the upstream gateway; a larger one closes the socket.' },
  inFlightCalls: { value: 64, unit: 'count', what: 'Calls waiting for an answer at once; one more fails with 502.' },
});
