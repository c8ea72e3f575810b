// Resource limits of the guardrail proxy, in one table (documented in docs/configuration.md "Limits").
import { defineLimits, KiB, MiB } from '../util/limit-table.js';

export const PROXY_LIMITS = defineLimits('Guardrail proxy', 'src/proxy/limits.ts', {
  maxRequestBodyBytes: { value: 10 * MiB, unit: 'bytes', what: 'A model request body; a larger one is refused with 413 while it is read.' },
  maxBufferedAnswerBytes: {
    value: 64 * MiB,
    unit: 'bytes',
    what: 'A non-streamed answer buffered for inspection; a larger one is refused with 502, so nothing uninspected is passed on.',
  },
  maxStreamEventChars: {
    value: 8 * MiB,
    unit: 'characters',
    what: 'One unterminated server-sent event held while it arrives; past that it is passed on as it is.',
  },
  streamOverlapChars: { value: 1 * KiB, unit: 'characters', what: 'Text of a stream re-scanned before newly settled text, longer than any pattern match relied on.' },
  maxHeldWordChars: { value: 64 * KiB, unit: 'characters', what: 'A "word" of a stream held back for scanning; a longer one is released as it is scanned (no secret is this long).' },
  streamTrimChars: { value: 1 * MiB, unit: 'characters', what: 'Scanned stream text kept beyond the overlap; dropped once an answer grows past this.' },
  drainMs: { value: 10_000, unit: 'ms', what: 'On stop or restart, how long model calls in progress (streams included) may finish before every connection is closed.' },
  authFailureWindowMs: { value: 60_000, unit: 'ms', what: 'Refused credentials are tallied per network over this window, then written as one audit row each.' },
  maxAuthFailureNetworks: { value: 1000, unit: 'count', what: 'Networks tallied per window; refusals from further networks share one `other` row, so memory is bounded.' },
});
