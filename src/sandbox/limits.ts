// Limits of the sandbox manager (spec "Limits"), in one table (docs/configuration.md "Limits").
import { defineLimits, MiB } from '../util/limit-table.js';

export const SANDBOX_LIMITS = defineLimits('Sandbox manager', 'src/sandbox/limits.ts', {
  nameChars: { value: 19, unit: 'characters', what: 'Sandbox name (`[a-z0-9-]`); a longer one is refused with 400 `invalid_request`.' },
  keptLogBytes: { value: 1 * MiB, unit: 'bytes', what: 'Run log kept on the host after a detached run ends or is stopped: the last bytes, the rest dropped.' },
  envEntries: { value: 256, unit: 'count', what: 'Variables in a create request\'s `env`, `llm.credentials` and `credentials` together.' },
  activityEvents: { value: 4096, unit: 'count', what: 'Activity events the gateway keeps for `GET /api/v1/sandbox/activity` and stream replay; older ones are dropped first.' },
  activityStreams: { value: 32, unit: 'count', what: 'Activity streams (server-sent events) open at once; one more is refused with 429 `unavailable`.' },
  activitySubscriberQueue: { value: 1024, unit: 'count', what: 'Events waiting for one slow stream reader; past it new events are skipped and the reader gets one `dropped` event saying how many.' },
  activityKeepaliveMs: { value: 15_000, unit: 'ms', what: 'Interval of the `: keepalive` comment on an activity stream.' },
  approvalQuietMs: { value: 2_000, unit: 'ms', what: 'Time without hook traffic after which a sandbox\'s hooks count as quiet and its decided approvals are applied (as one batch).' },
  approvalMaxHoldMs: { value: 30_000, unit: 'ms', what: 'Longest a decided approval waits for the sandbox\'s hooks to go quiet; then it is applied anyway.' },
  approvalsOpen: { value: 256, unit: 'count', what: 'Approvals waiting (pending or queued) per sandbox; a further ask is refused (the connection is rejected) until some are decided.' },
  approvalsKept: { value: 1000, unit: 'count', what: 'Finished approvals (approved, rejected, failed) kept per sandbox for `GET /approvals`; older ones are deleted as new ones arrive.' },
  unblockedHosts: { value: 1024, unit: 'count', what: 'Hosts unblocked for one sandbox alone; past it an unblock answers 409 `conflict` (`openshell.egress.unblocked` and `.block` hold at most 4,096 each, and an `always` past that is 409 too).' },
});
