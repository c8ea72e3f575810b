// The failures of the workspace keeper (undo points, review, project checks), with stable codes listed in
// docs/errors.md, each with the sandbox API's short code it is answered with (`not_found`, `conflict`, …).
import { WardenError } from '../../errors.js';

export type WorkspaceErrorCode =
  | 'WARDEN_ERR_SANDBOX_NO_SNAPSHOT'
  | 'WARDEN_ERR_SANDBOX_UNSAFE_PATH'
  | 'WARDEN_ERR_SANDBOX_SNAPSHOT_TOO_LARGE'
  | 'WARDEN_ERR_SANDBOX_PROJECT_INVALID'
  | 'WARDEN_ERR_SANDBOX_GIT_FAILED';

const STATUS: Record<WorkspaceErrorCode, number> = {
  WARDEN_ERR_SANDBOX_NO_SNAPSHOT: 404,
  WARDEN_ERR_SANDBOX_UNSAFE_PATH: 409,
  WARDEN_ERR_SANDBOX_SNAPSHOT_TOO_LARGE: 409,
  WARDEN_ERR_SANDBOX_PROJECT_INVALID: 400,
  WARDEN_ERR_SANDBOX_GIT_FAILED: 500,
};

/**
 * The sandbox API's short code for each (the route renders any error carrying an `apiCode`). A failed git
 * command has none: its message may carry host paths and git's own wording, so it is logged and answered as
 * `internal`.
 */
const API_CODE: Record<WorkspaceErrorCode, 'not_found' | 'conflict' | 'invalid_request' | undefined> = {
  WARDEN_ERR_SANDBOX_NO_SNAPSHOT: 'not_found',
  WARDEN_ERR_SANDBOX_UNSAFE_PATH: 'conflict',
  WARDEN_ERR_SANDBOX_SNAPSHOT_TOO_LARGE: 'conflict',
  WARDEN_ERR_SANDBOX_PROJECT_INVALID: 'invalid_request',
  WARDEN_ERR_SANDBOX_GIT_FAILED: undefined,
};

export class WorkspaceError extends WardenError {
  readonly apiCode: 'not_found' | 'conflict' | 'invalid_request' | undefined;

  constructor(code: WorkspaceErrorCode, message: string, cause?: unknown) {
    super(code, message, { statusCode: STATUS[code], expose: code !== 'WARDEN_ERR_SANDBOX_GIT_FAILED', cause });
    this.apiCode = API_CODE[code];
  }
}
