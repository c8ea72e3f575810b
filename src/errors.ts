// The base error of Warden's own failures: a stable `code` (WARDEN_ERR_<FAMILY>_<WHAT>, listed in
// docs/errors.md) that callers and scripts can match on, and the HTTP status it maps to where it has one.
// Fastify's error handlers read `statusCode`, so a route can throw one of these and get the right answer.
export class WardenError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
