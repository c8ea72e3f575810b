// The two answer forms many agents share: a JSON object on stdout, and the stderr notice for events an agent
// cannot stop or annotate.
import type { HookDecision, NativeHookAnswer } from '../hook-event.js';
import type { JsonObject } from '../../util/json.js';

/** A JSON answer on stdout. */
export function json(stdout: JsonObject, exit_code = 0): NativeHookAnswer {
  return { stdout, exit_code };
}

/** For events the agent cannot stop or annotate: the hook succeeds and any reason goes to stderr. */
export function notice(decision: HookDecision): NativeHookAnswer {
  return decision.action === 'allow' || decision.reason === '' ? { exit_code: 0 } : { stderr: decision.reason, exit_code: 0 };
}

/** The simplest refusal most agents understand: exit code 2 with the reason on stderr. */
export function exit2(reason: string): NativeHookAnswer {
  return { stderr: reason, exit_code: 2 };
}
