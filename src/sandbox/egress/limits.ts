// Limits of the sandbox egress proxy (docs/configuration.md "Limits"). Everything a sandbox sends out passes
// through it, so what it holds per connection, per request and per sandbox is bounded.
import { defineLimits } from '../../util/limit-table.js';

export const SANDBOX_EGRESS_LIMITS = defineLimits('Sandbox egress proxy', 'src/sandbox/egress/limits.ts', {
  askTimeoutMs: { value: 10 * 60_000, unit: 'ms', what: 'How long a connection is held for an approval (an `ask` decision); past it the connection is refused (category `ask_timeout`).' },
  dnsTimeoutMs: { value: 5_000, unit: 'ms', what: 'Resolving a destination name in the proxy; past it the connection is refused (category `dns`).' },
  connectTimeoutMs: { value: 15_000, unit: 'ms', what: 'Connecting to an allowed destination; past it the client gets 504 (plain HTTP) or the tunnel is closed.' },
  requestHeadBytes: { value: 64 * 1024, unit: 'bytes', what: 'Request line and headers of one proxied request (CONNECT or plain HTTP); a larger one is closed with 431.' },
  hostsTracked: { value: 4096, unit: 'count', what: 'Destinations per sandbox whose upload bytes, refusals and endpoint results are remembered; the oldest are forgotten past it.' },
  leafCertificates: { value: 256, unit: 'count', what: 'TLS certificates the per-sandbox CA keeps issued (one per credentialed host); the oldest are dropped and issued again when needed.' },
});
