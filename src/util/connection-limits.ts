// Limits on slow and greedy clients, the same for every listener (sidecar, guardrail proxy, skill scanner).
// A client that trickles its headers or body would otherwise hold a socket (and Fastify's request state) for
// as long as it likes; one that opens connection after connection would exhaust file descriptors. Node ends
// a request whose headers or whole body are late, checking every CHECK_INTERVAL_MS; the timers stop once the
// request has arrived, so a long answer (the proxy's SSE streams) is never cut by them.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { isLoopbackAddress } from '../config/bind.js';
import { defineLimits } from './limit-table.js';

export const CONNECTION_LIMITS = defineLimits('Every listener (sidecar, guardrail proxy, skill scanner)', 'src/util/connection-limits.ts', {
  headersTimeoutMs: { value: 10_000, unit: 'ms', what: 'A request\'s headers must have arrived this long after its first byte; later, the request is ended (408).' },
  requestTimeoutMs: { value: 30_000, unit: 'ms', what: 'A request\'s whole body must have arrived this long after its first byte; later, the request is ended (408).' },
  checkIntervalMs: { value: 1_000, unit: 'ms', what: 'How often Node looks for requests past those deadlines (its default, 30 s, would double them).' },
  maxConnectionsPerIp: {
    value: 64,
    unit: 'count',
    what: 'Open connections one non-loopback address may hold; more are closed at once. Loopback is not capped.',
  },
});

/** Fastify server options that apply the timeouts. */
export function slowClientTimeouts() {
  return {
    requestTimeout: CONNECTION_LIMITS.requestTimeoutMs,
    http: { headersTimeout: CONNECTION_LIMITS.headersTimeoutMs, connectionsCheckingInterval: CONNECTION_LIMITS.checkIntervalMs },
  };
}

/** Closes a new connection when its (non-loopback) address already holds maxConnectionsPerIp open ones. */
export function capConnectionsPerIp(server: Server, max: number = CONNECTION_LIMITS.maxConnectionsPerIp): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isLoopbackAddress(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
