// The one base error of Warden's own failures, in the way undici and Fastify name theirs: a stable `code`
// (WARDEN_ERR_<FAMILY>_<WHAT>, every one listed in docs/errors.md, which a test keeps in step with src/) that
// callers and scripts match on instead of class names or message text; the HTTP status it maps to where it
// has one (Fastify's error handlers read `statusCode`, so a route can throw one and get the right answer);
// and `expose`: whether the message is written for the operator. An exposed error is shown as one line by
// the CLI and sent as is in HTTP answers; anything else is a bug, logged with its stack and answered with a
// generic message. Kept free of imports: the CLI loads it for every command.

export interface WardenErrorOptions {
  /** The HTTP status the error answers with, where it maps to one. */
  statusCode?: number;
  /** Whether the message is for the operator (default true: Warden's own errors say what went wrong). */
  expose?: boolean;
  cause?: unknown;
}

export class WardenError extends Error {
  readonly statusCode?: number;
  readonly expose: boolean;

  constructor(
    readonly code: string,
    message: string,
    { statusCode, expose = true, cause }: WardenErrorOptions = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    if (statusCode !== undefined) this.statusCode = statusCode;
    this.expose = expose;
  }
}

/** The code and message answered for an unexpected failure: its details stay in the log. */
export const INTERNAL_ERROR = { code: 'WARDEN_ERR_INTERNAL', message: 'internal error' } as const;

/** Whether `err` is one of Warden's errors whose message is meant for the operator. */
export function isOperatorError(err: unknown): err is WardenError {
  return err instanceof WardenError && err.expose;
}
