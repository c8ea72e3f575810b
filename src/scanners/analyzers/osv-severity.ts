// The severity of an OSV vulnerability record in our scale. OSV gives CVSS *vectors*, not scores, so the CVSS
// v3.x base score is computed here (the formula is short and fixed by the FIRST specification, section 7; no
// CVSS package is among the project's dependencies). CVSS v4 needs the specification's large lookup tables,
// so for v4-only records the database's own label is used instead. Order: the highest CVSS v3 base score, then
// a `severity` label in database_specific / ecosystem_specific (GHSA's LOW/MODERATE/HIGH/CRITICAL), then MEDIUM.
import { SCAN_SEVERITIES, type ScanSeverity } from '../types.js';

const WEIGHTS = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  CIA: { H: 0.56, L: 0.22, N: 0 },
} as const;

/** CVSS v3.1 "Roundup": the smallest one-decimal number ≥ x, robust to floating-point noise. */
function roundUp(x: number): number {
  const scaled = Math.round(x * 100_000);
  return scaled % 10_000 === 0 ? scaled / 100_000 : (Math.floor(scaled / 10_000) + 1) / 10;
}

const pick = <T extends Record<string, number>>(table: T, key: string | undefined): number | undefined =>
  key !== undefined && Object.hasOwn(table, key) ? table[key as keyof T] : undefined;

/** The base score of a `CVSS:3.x/AV:…` vector, or undefined when the vector is not a complete v3 one. */
export function cvss3BaseScore(vector: string): number | undefined {
  const parts = vector.trim().split('/');
  if (!/^CVSS:3\.[01]$/.test(parts[0] ?? '')) return undefined;
  const metrics = new Map(parts.slice(1).map((part) => part.split(':') as [string, string]));
  const scope = metrics.get('S');
  if (scope !== 'U' && scope !== 'C') return undefined;
  const changed = scope === 'C';
  const privileges = changed ? { N: 0.85, L: 0.68, H: 0.5 } : { N: 0.85, L: 0.62, H: 0.27 };
  const av = pick(WEIGHTS.AV, metrics.get('AV'));
  const ac = pick(WEIGHTS.AC, metrics.get('AC'));
  const pr = pick(privileges, metrics.get('PR'));
  const ui = pick(WEIGHTS.UI, metrics.get('UI'));
  const c = pick(WEIGHTS.CIA, metrics.get('C'));
  const i = pick(WEIGHTS.CIA, metrics.get('I'));
  const a = pick(WEIGHTS.CIA, metrics.get('A'));
  if (av === undefined || ac === undefined || pr === undefined || ui === undefined || c === undefined || i === undefined || a === undefined) {
    return undefined;
  }
  const iss = 1 - (1 - c) * (1 - i) * (1 - a);
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss;
  if (impact <= 0) return 0;
  const exploitability = 8.22 * av * ac * pr * ui;
  return roundUp(Math.min((changed ? 1.08 : 1) * (impact + exploitability), 10));
}

/** CVSS qualitative rating (v3 specification, table 14), with "None" as INFO. */
export function severityFromScore(score: number): ScanSeverity {
  if (score >= 9) return 'CRITICAL';
  if (score >= 7) return 'HIGH';
  if (score >= 4) return 'MEDIUM';
  return score > 0 ? 'LOW' : 'INFO';
}

const LABELS: Record<string, ScanSeverity> = {
  CRITICAL: 'CRITICAL', HIGH: 'HIGH', MODERATE: 'MEDIUM', MEDIUM: 'MEDIUM', LOW: 'LOW',
};

function label(record: unknown): ScanSeverity | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const severity = (record as { severity?: unknown }).severity;
  return typeof severity === 'string' ? LABELS[severity.trim().toUpperCase()] : undefined;
}

/** Our severity for an OSV vulnerability record (the JSON of GET /v1/vulns/{id}). */
export function osvSeverity(vuln: Record<string, unknown>): ScanSeverity {
  const scores = (Array.isArray(vuln.severity) ? (vuln.severity as unknown[]) : []).flatMap((entry) => {
    const { type, score } = (entry ?? {}) as { type?: unknown; score?: unknown };
    if (typeof score !== 'string') return [];
    // Some OSV-compatible databases put a plain number here instead of a vector.
    if (/^\d+(\.\d+)?$/.test(score.trim())) return [Number(score)];
    const computed = type === 'CVSS_V3' ? cvss3BaseScore(score) : undefined;
    return computed === undefined ? [] : [computed];
  });
  if (scores.length > 0) return severityFromScore(Math.max(...scores));

  const affected = Array.isArray(vuln.affected) ? (vuln.affected as unknown[]) : [];
  const labels = [
    label(vuln.database_specific),
    ...affected.flatMap((a) => [label((a as { database_specific?: unknown })?.database_specific), label((a as { ecosystem_specific?: unknown })?.ecosystem_specific)]),
  ].filter((s): s is ScanSeverity => s !== undefined);
  // SCAN_SEVERITIES runs from the most severe down, so the first one named is the highest.
  return SCAN_SEVERITIES.find((s) => labels.includes(s)) ?? 'MEDIUM';
}
