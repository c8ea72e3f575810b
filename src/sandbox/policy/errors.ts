// The refusals of sandbox policy resolution. Each carries the Sandbox API's error `code` (`apiCode`, spec
// document 1 "Sandbox API error body") and the policy decision that refused (`violation`), so the manager's
// routes can answer `{code, error, violation}` without knowing how a pack or the administrator file works.
import { WardenError } from '../../errors.js';

export type SandboxPolicyApiCode = 'pack_invalid' | 'admin_violation' | 'policy_violation';

const CODES: Record<SandboxPolicyApiCode, { code: string; status: number }> = {
  pack_invalid: { code: 'WARDEN_ERR_SANDBOX_PACK_INVALID', status: 400 },
  admin_violation: { code: 'WARDEN_ERR_SANDBOX_ADMIN_VIOLATION', status: 403 },
  policy_violation: { code: 'WARDEN_ERR_SANDBOX_POLICY_VIOLATION', status: 403 },
};

/** The wording the spec requires at the start of every refusal by the administrator file. */
export const ADMIN_REFUSAL_PREFIX = "blocked by your organization's policy";

/** A refusal; `statusCode` is the HTTP status of `apiCode` (400 or 403). */
export class SandboxPolicyError extends WardenError {
  constructor(
    readonly apiCode: SandboxPolicyApiCode,
    message: string,
    /** The refusing decision, e.g. `pack:strict/options.yolo` or `admin:forbid.yolo`. */
    readonly violation?: string,
  ) {
    const { code, status } = CODES[apiCode];
    super(code, apiCode === 'admin_violation' ? `${ADMIN_REFUSAL_PREFIX}: ${message}` : message, { statusCode: status });
  }
}
