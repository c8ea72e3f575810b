// How the analyzers' lookups (OSV, LLM, AI guard, reputation) retry a service that is briefly unable to answer:
// undici's retry interceptor on one shared Agent, so the policy is declared here once instead of being written
// as a loop around each call. Every call made through `requestJson` is a lookup (it changes nothing on the
// far side), so POST is retried too: OSV's querybatch and the chat completions are POSTs that only read.
//
// The limits are in the scanners' table (../limits.ts): at most lookupAttempts - 1 retries after the first try;
// waits double from lookupFirstRetryWaitMs; a `Retry-After` (seconds or an HTTP date) is honoured but never
// waited more than lookupMaxRetryWaitMs; and the caller's deadline (SKILL_SCANNER_HTTP_TIMEOUT_MS) covers all attempts together, so
// a service that keeps failing costs at most that long. After the last attempt the service's own answer (its
// status and body) is what the caller sees, as without retries.
import { Agent, interceptors, type Dispatcher } from 'undici';
import { SCANNER_LIMITS } from '../limits.js';

/** Answers that mean "not now": rate limited, or a gateway or the service temporarily down. */
const RETRIED_STATUS_CODES = [429, 502, 503, 504];
/** Transport failures worth another try: the connection was reset, refused or dropped. */
const RETRIED_ERROR_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET'];

/** The dispatcher every analyzer lookup goes through. */
export const lookupDispatcher: Dispatcher = new Agent().compose(
  interceptors.retry({
    maxRetries: SCANNER_LIMITS.lookupAttempts - 1,
    minTimeout: SCANNER_LIMITS.lookupFirstRetryWaitMs,
    timeoutFactor: 2,
    maxTimeout: SCANNER_LIMITS.lookupMaxRetryWaitMs,
    retryAfter: true,
    methods: ['GET', 'POST'],
    statusCodes: RETRIED_STATUS_CODES,
    errorCodes: RETRIED_ERROR_CODES,
    // Hand the last answer to the caller instead of a generic RequestRetryError, so its message keeps the status.
    throwOnError: false,
  }),
);
