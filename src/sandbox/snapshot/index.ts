// The sandbox workspace keeper: undo points, review, undo and project checks (WorkspacePort). Domain code only;
// the manager calls it, the routes never do.
export { GitWorkspace } from './workspace.js';
export { WorkspaceError, type WorkspaceErrorCode } from './errors.js';
export { EXCLUDED_DIRS, GIT_METADATA_ENTRIES } from './excludes.js';
export { SNAPSHOT_LIMITS } from './limits.js';
export { RISK_KINDS, type RiskKind } from './risk.js';
