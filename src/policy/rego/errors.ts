// Rego engine errors, printed as OPA prints them: `<file>:<line>:<col>: <code>: <message>` for parse and compile
// errors, `<file>:<line>: <code>: <message>` for evaluation errors. The code is the
// stable part callers match on (rego_parse_error, rego_compile_error, eval_type_error, eval_builtin_error,
// eval_conflict_error, eval_budget_error).

export interface Location {
  file: string;
  row: number;
  col: number;
}

export type RegoErrorCode =
  | 'rego_parse_error'
  | 'rego_compile_error'
  | 'rego_unsafe_var_error'
  | 'rego_recursion_error'
  | 'eval_type_error'
  | 'eval_builtin_error'
  | 'eval_conflict_error'
  | 'eval_budget_error';

export class RegoError extends Error {
  constructor(
    readonly code: RegoErrorCode,
    readonly detail: string,
    readonly location?: Location,
  ) {
    super((location ? (code.startsWith('eval_') ? `${location.file}:${location.row}: ` : `${location.file}:${location.row}:${location.col}: `) : '') + `${code}: ${detail}`);
    this.name = 'RegoError';
  }
}

/** A builtin's failure; the evaluator adds the call's location and decides (strict or not) whether it aborts. */
export class BuiltinError extends Error {
  constructor(
    readonly code: 'eval_type_error' | 'eval_builtin_error',
    message: string,
  ) {
    super(message);
  }
}

export function typeError(message: string): BuiltinError {
  return new BuiltinError('eval_type_error', message);
}

export function builtinError(message: string): BuiltinError {
  return new BuiltinError('eval_builtin_error', message);
}
