// How a CLI entry point reports a failure nothing else handled: an operator error (a WardenError meant for
// the operator) as one line with its stable code, which docs/errors.md explains; anything else is a bug and
// keeps its stack for the report. Imports only errors.ts, so loading it costs nothing for any command.
import { isOperatorError } from '../errors.js';

export function describeFailure(err: unknown): string {
  if (isOperatorError(err)) return `${err.message} (${err.code})`;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
