// The severity of an OSV vulnerability record in our scale. OSV gives CVSS *vectors*, not scores; the base
// score of a CVSS 2.0, 3.0, 3.1 or 4.0 vector is computed by `ae-cvss-calculator` (maintained, implements
// FIRST's specifications including v4.0's macro-vector tables, which are too large to keep by hand).
// Order: the highest base score of a complete vector (or a plain number some databases put there), then a
// `severity` label in database_specific / ecosystem_specific (GHSA's LOW/MODERATE/HIGH/CRITICAL), then MEDIUM.
import cvss from 'ae-cvss-calculator';
import { SCAN_SEVERITIES, type ScanSeverity } from '../types.js';

/** The calculator class for a vector, chosen by its prefix; CVSS 2.0 vectors usually carry none. */
function calculatorFor(vector: string): (new (vector: string) => InstanceType<typeof cvss.Cvss2 | typeof cvss.Cvss3P0 | typeof cvss.Cvss3P1 | typeof cvss.Cvss4P0>) | undefined {
  if (vector.startsWith('CVSS:4.0/')) return cvss.Cvss4P0;
  if (vector.startsWith('CVSS:3.1/')) return cvss.Cvss3P1;
  if (vector.startsWith('CVSS:3.0/')) return cvss.Cvss3P0;
  if (vector.startsWith('CVSS:2.0/') || /^AV:[LAN]\//.test(vector)) return cvss.Cvss2;
  return undefined;
}

/** The base score of a complete CVSS 2.0/3.x/4.0 vector, or undefined when it is incomplete or malformed. */
export function cvssBaseScore(vector: string): number | undefined {
  const trimmed = vector.trim();
  const Calculator = calculatorFor(trimmed);
  if (Calculator === undefined) return undefined;
  try {
    const parsed = new Calculator(trimmed);
    return parsed.isBaseFullyDefined() ? parsed.calculateScores().base : undefined;
  } catch {
    return undefined; // the library throws on unknown metrics or values: not a vector we can score
  }
}

/** CVSS qualitative rating (v3 specification, table 14; v4 uses the same bands), with "None" as INFO. */
function severityFromScore(score: number): ScanSeverity {
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
    const { score } = (entry ?? {}) as { score?: unknown };
    if (typeof score !== 'string') return [];
    // Some OSV-compatible databases put a plain number here instead of a vector.
    if (/^\d+(\.\d+)?$/.test(score.trim())) return [Number(score)];
    const computed = cvssBaseScore(score);
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
