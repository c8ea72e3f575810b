// How the analyzers' lookups (OSV, LLM, AI guard, reputation) retry a service that is briefly unable to answer:
// undici's retry interceptor on one shared Agent, so the policy is declared here once instead of being written
// as a loop around each call. Every call made through `requestJson` is a lookup (it changes nothing on the
// far side), so POST is retried too: OSV's querybatch and the chat completions are POSTs that only read.
//
// The limits, all in one table: at most RETRY_LIMITS.attempts - 1 retries after the first try; waits grow from
// minWaitMs by `factor` each time; a `Retry-After` (seconds or an HTTP date) is honoured but never waited more
// than maxWaitMs; and the caller's deadline (SKILL_SCANNER_HTTP_TIMEOUT_MS) covers all attempts together, so
// a service that keeps failing costs at most that long. After the last attempt the service's own answer (its
// status and body) is what the caller sees, as without retries.
import { Agent, interceptors, type Dispatcher } from 'undici';

export const RETRY_LIMITS = {
  /** Tries in all, the first included. */
  attempts: 4,
  /** The wait before the first retry; later waits are multiplied by `factor`. */
  minWaitMs: 250,
  factor: 2,
  /** The longest wait before a retry, also the cap on a service's Retry-After. */
  maxWaitMs: 5_000,
  /** Answers that mean "not now": rate limited, or a gateway or the service temporarily down. */
  statusCodes: [429, 502, 503, 504],
  /** Transport failures worth another try: the connection was reset, refused or dropped. */
  errorCodes: ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET'],
} as const;

/** The dispatcher every analyzer lookup goes through. */
export const lookupDispatcher: Dispatcher = new Agent().compose(
  interceptors.retry({
    maxRetries: RETRY_LIMITS.attempts - 1,
    minTimeout: RETRY_LIMITS.minWaitMs,
    timeoutFactor: RETRY_LIMITS.factor,
    maxTimeout: RETRY_LIMITS.maxWaitMs,
    retryAfter: true,
    methods: ['GET', 'POST'],
    statusCodes: [...RETRY_LIMITS.statusCodes],
    errorCodes: [...RETRY_LIMITS.errorCodes],
    // Hand the last answer to the caller instead of a generic RequestRetryError, so its message keeps the status.
    throwOnError: false,
  }),
);
