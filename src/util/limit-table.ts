// The shape of a subsystem's limits table (`limits.ts`): each limit once, with its unit and why it exists.
// Code reads a limit as a plain number (`PROXY_LIMITS.maxBufferedAnswerBytes`); the rows, kept under a symbol so
// they are not a limit themselves, feed the "Limits" section of docs/configuration.md (scripts/emit-schemas.ts).

export type LimitUnit = 'bytes' | 'characters' | 'ms' | 'count';

export interface LimitDefinition {
  value: number;
  unit: LimitUnit;
  /** What it bounds and what happens past it, for the operator reading the docs. */
  what: string;
}

export interface LimitRow extends LimitDefinition {
  name: string;
}

export interface LimitTable {
  /** The subsystem, as the docs name it. */
  subsystem: string;
  /** Where the table is defined, for the docs. */
  source: string;
  rows: readonly LimitRow[];
}

export const LIMIT_TABLE: unique symbol = Symbol('limit table');

export type Limits<T extends Record<string, LimitDefinition>> = { readonly [K in keyof T]: number } & { readonly [LIMIT_TABLE]: LimitTable };

export const KiB = 1024;
export const MiB = 1024 * KiB;

export function defineLimits<const T extends Record<string, LimitDefinition>>(subsystem: string, source: string, limits: T): Limits<T> {
  const values = Object.fromEntries(Object.entries(limits).map(([name, limit]) => [name, limit.value]));
  const rows = Object.entries(limits).map(([name, limit]) => ({ name, ...limit }));
  return Object.freeze(Object.assign(values, { [LIMIT_TABLE]: { subsystem, source, rows } })) as Limits<T>;
}
