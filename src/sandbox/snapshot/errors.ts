// The failures of the workspace keeper (undo points, review, project checks), with stable codes listed in
// docs/errors.md. The manager maps them onto the sandbox API's error codes (`not_found`, `conflict`, …).
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

export class WorkspaceError extends WardenError {
  constructor(code: WorkspaceErrorCode, message: string, cause?: unknown) {
    // A failing git command's message may carry host paths and git's own wording: it is logged, not answered.
    super(code, message, { statusCode: STATUS[code], expose: code !== 'WARDEN_ERR_SANDBOX_GIT_FAILED', cause });
  }
}
