// The sandbox API's errors (spec "Sandbox API error body"): `{code, error, detail?, violation?}` where `code`
// is the spec's short code (`not_found`, `conflict`, …). Each short code also has a stable Warden code,
// WARDEN_ERR_SANDBOX_<CODE> (docs/errors.md, sandbox family), so logs and the CLI name it like every other error.
import { WardenError } from '../errors.js';

export const SANDBOX_API_CODES = {
  invalid_request: { status: 400, code: 'WARDEN_ERR_SANDBOX_INVALID_REQUEST' },
  pack_invalid: { status: 400, code: 'WARDEN_ERR_SANDBOX_PACK_INVALID' },
  admin_violation: { status: 403, code: 'WARDEN_ERR_SANDBOX_ADMIN_VIOLATION' },
  policy_violation: { status: 403, code: 'WARDEN_ERR_SANDBOX_POLICY_VIOLATION' },
  not_found: { status: 404, code: 'WARDEN_ERR_SANDBOX_NOT_FOUND' },
  conflict: { status: 409, code: 'WARDEN_ERR_SANDBOX_CONFLICT' },
  needs_copy: { status: 409, code: 'WARDEN_ERR_SANDBOX_NEEDS_COPY' },
  image_unavailable: { status: 409, code: 'WARDEN_ERR_SANDBOX_IMAGE_UNAVAILABLE' },
  policy_rejected: { status: 422, code: 'WARDEN_ERR_SANDBOX_POLICY_REJECTED' },
  upstream_error: { status: 502, code: 'WARDEN_ERR_SANDBOX_UPSTREAM_ERROR' },
  disabled: { status: 503, code: 'WARDEN_ERR_SANDBOX_DISABLED' },
  unavailable: { status: 503, code: 'WARDEN_ERR_SANDBOX_UNAVAILABLE' },
  internal: { status: 500, code: 'WARDEN_ERR_SANDBOX_INTERNAL' },
} as const;

export type SandboxApiCode = keyof typeof SANDBOX_API_CODES;

export interface SandboxApiErrorOptions {
  detail?: string;
  /** The refusing policy decision (a setting key, a variable name). */
  violation?: string;
  cause?: unknown;
  /** Overrides the code's usual status (504 for a timed-out `unavailable`). */
  status?: number;
}

export class SandboxApiError extends WardenError {
  readonly apiCode: SandboxApiCode;
  readonly detail?: string;
  readonly violation?: string;

  constructor(apiCode: SandboxApiCode, message: string, options: SandboxApiErrorOptions = {}) {
    const known = SANDBOX_API_CODES[apiCode];
    super(known.code, message, { statusCode: options.status ?? known.status, cause: options.cause });
    this.apiCode = apiCode;
    if (options.detail !== undefined) this.detail = options.detail;
    if (options.violation !== undefined) this.violation = options.violation;
  }
}

/** The body of a sandbox error answer. */
export interface SandboxErrorBody {
  code: string;
  error: string;
  detail?: string;
  violation?: string;
}

/**
 * Any error carrying a known `apiCode` (ours, or the policy resolver's SandboxPolicyError, which stays free of
 * this module) as its status and body; anything else is null.
 */
export function sandboxErrorAnswer(err: unknown): { status: number; body: SandboxErrorBody } | null {
  const candidate = err as { apiCode?: unknown; message?: unknown; statusCode?: unknown; detail?: unknown; violation?: unknown };
  if (typeof candidate?.apiCode !== 'string' || !(candidate.apiCode in SANDBOX_API_CODES)) return null;
  const known = SANDBOX_API_CODES[candidate.apiCode as SandboxApiCode];
  const body: SandboxErrorBody = { code: candidate.apiCode, error: String(candidate.message) };
  if (typeof candidate.detail === 'string') body.detail = candidate.detail;
  if (typeof candidate.violation === 'string') body.violation = candidate.violation;
  return { status: typeof candidate.statusCode === 'number' ? candidate.statusCode : known.status, body };
}
