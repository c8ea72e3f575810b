// Known vulnerabilities in exactly pinned dependencies (use_osv), from an OSV-compatible database.
//
// Calls (the public OSV API, https://google.github.io/osv.dev/api/; base SKILL_SCANNER_OSV_URL, default
// https://api.osv.dev, so a mirror or an internal proxy can stand in):
//   POST {base}/v1/querybatch  {"queries": [{"package": {"name", "ecosystem": "PyPI" | "npm" | "crates.io"}, "version"}]}
//        → {"results": [{"vulns"?: [{"id", "modified"}]}]}, one result per query, in order (≤ 1000 queries a call)
//   GET  {base}/v1/vulns/{id}  → the vulnerability record (summary, details, aliases, severity, affected)
// The batch call names only ids, so each distinct id is fetched once for its summary and severity.
//
// Each (vulnerability, package@version) is one finding at the first place the pin appears (a manifest before a
// lock file), the other places in metadata.locations. The service being unreachable, slow or answering 5xx
// fails the analyzer (the scan lists osv in analyzers_failed); a 4xx for one record (withdrawn, unknown id)
// still reports the vulnerability by id at MEDIUM, since the batch answer already says the pin is affected.
import type { Analyzer, AnalyzerContext, AnalyzerFinding, SkillPackage } from '../types.js';
import { snippetAt } from '../snippet.js';
import { httpTimeoutMs, joinUrl, mapLimited, requestJson, serviceUrl, ServiceError } from './http.js';
import { findPins, normalisePypiName, type DependencyPin, type Ecosystem } from './osv-pins.js';
import { osvSeverity } from './osv-severity.js';

/** OSV's limit on queries per querybatch call. */
const QUERY_BATCH = 1000;
const DETAIL_CONCURRENCY = 8;
const VULN_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,100}$/;

interface PinGroup {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  locations: DependencyPin[];
}

const isLockFile = (path: string) => /(^|\/)package-lock\.json$/.test(path);

/** One group per package@version, its locations with manifests first (a reader looks there to upgrade). */
function groupPins(pins: readonly DependencyPin[]): PinGroup[] {
  const groups = new Map<string, PinGroup>();
  for (const pin of pins) {
    const key = `${pin.ecosystem}\0${pin.name}\0${pin.version}`;
    const group = groups.get(key) ?? { ecosystem: pin.ecosystem, name: pin.name, version: pin.version, locations: [] };
    group.locations.push(pin);
    groups.set(key, group);
  }
  for (const group of groups.values()) group.locations.sort((a, b) => Number(isLockFile(a.file_path)) - Number(isLockFile(b.file_path)));
  return [...groups.values()];
}

/** Vulnerability ids per group, in group order. */
async function queryVulnIds(groups: readonly PinGroup[], base: URL, ctx: AnalyzerContext): Promise<string[][]> {
  const batches: PinGroup[][] = [];
  for (let i = 0; i < groups.length; i += QUERY_BATCH) batches.push(groups.slice(i, i + QUERY_BATCH));
  const answers = await mapLimited(batches, 2, async (batch) => {
    const answer = await requestJson({
      service: 'OSV', method: 'POST', url: joinUrl(base, '/v1/querybatch'), timeoutMs: httpTimeoutMs(ctx.env), signal: ctx.signal,
      body: { queries: batch.map((g) => ({ package: { name: g.name, ecosystem: g.ecosystem }, version: g.version })) },
    });
    const results = (answer as { results?: unknown } | null)?.results;
    if (!Array.isArray(results) || results.length !== batch.length) {
      throw new Error(`OSV querybatch answer does not hold one result per query (${batch.length} asked)`);
    }
    // A result may carry next_page_token when a package has more than 1000 vulnerabilities; the first page
    // already makes the pin a finding, so it is not followed.
    return (results as unknown[]).map((result) => {
      const vulns = (result as { vulns?: unknown } | null)?.vulns;
      if (!Array.isArray(vulns)) return [];
      return (vulns as unknown[]).map((v) => (v as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string' && VULN_ID.test(id));
    });
  });
  return answers.flat();
}

type VulnRecord = Record<string, unknown>;

/** The record of one vulnerability; undefined when the database answers 4xx for it. */
async function fetchVuln(id: string, base: URL, ctx: AnalyzerContext): Promise<VulnRecord | undefined> {
  try {
    const record = await requestJson({
      service: 'OSV', method: 'GET', url: joinUrl(base, `/v1/vulns/${encodeURIComponent(id)}`), timeoutMs: httpTimeoutMs(ctx.env), signal: ctx.signal,
    });
    return record && typeof record === 'object' && !Array.isArray(record) ? (record as VulnRecord) : undefined;
  } catch (err) {
    if (err instanceof ServiceError && err.status !== undefined && err.status >= 400 && err.status < 500) return undefined;
    throw err;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Versions the record says fix the vulnerability for this package. */
function fixedVersions(vuln: VulnRecord | undefined, group: PinGroup): string[] {
  const affected = Array.isArray(vuln?.affected) ? (vuln.affected as unknown[]) : [];
  const samePackage = (name: unknown) => typeof name === 'string' && (group.ecosystem === 'PyPI' ? normalisePypiName(name) === group.name : name === group.name);
  const fixed = affected.flatMap((entry) => {
    const { package: pkg, ranges } = (entry ?? {}) as { package?: { name?: unknown; ecosystem?: unknown }; ranges?: unknown };
    if (pkg?.ecosystem !== group.ecosystem || !samePackage(pkg.name) || !Array.isArray(ranges)) return [];
    return (ranges as { events?: unknown }[]).flatMap((range) =>
      (Array.isArray(range?.events) ? (range.events as { fixed?: unknown }[]) : []).map((e) => e?.fixed).filter((v): v is string => typeof v === 'string'),
    );
  });
  return [...new Set(fixed)];
}

function pinSnippet(skill: SkillPackage, pin: DependencyPin): string | undefined {
  const text = skill.files.find((f) => f.path === pin.file_path)?.text;
  if (text === undefined || pin.line_number === undefined) return undefined;
  const offset = text.split('\n').slice(0, pin.line_number - 1).reduce((sum, line) => sum + line.length + 1, 0);
  return snippetAt(text, offset);
}

function vulnFinding(group: PinGroup, id: string, vuln: VulnRecord | undefined, skill: SkillPackage): AnalyzerFinding {
  const at = group.locations[0]!;
  const summary = typeof vuln?.summary === 'string' ? vuln.summary.trim() : '';
  const details = typeof vuln?.details === 'string' ? vuln.details.trim() : '';
  const aliases = strings(vuln?.aliases);
  const fixed = fixedVersions(vuln, group);
  const pkg = `${group.name}@${group.version}`;
  return {
    rule_id: `OSV-${id}`,
    category: 'supply_chain_attack',
    severity: vuln ? osvSeverity(vuln) : 'MEDIUM',
    title: cut(`Vulnerable dependency ${pkg}: ${summary || id}`, 200),
    description: cut(
      `${pkg} (${group.ecosystem}) is affected by ${id}${aliases.length ? ` (${aliases.join(', ')})` : ''}.` +
        (vuln ? ` ${summary || details}` : ' Its details could not be fetched from the vulnerability database.'),
      1000,
    ),
    file_path: at.file_path,
    line_number: at.line_number,
    snippet: pinSnippet(skill, at),
    remediation: fixed.length
      ? `Pin ${group.name} to a fixed version: ${fixed.join(' or ')} (or later).`
      : `No fixed version is listed; replace ${group.name} or confirm the vulnerable code is not reachable.`,
    metadata: {
      vuln_id: id, aliases, ecosystem: group.ecosystem, package: group.name, version: group.version, fixed_versions: fixed,
      modified: typeof vuln?.modified === 'string' ? vuln.modified : undefined,
      locations: group.locations.map((l) => ({ file_path: l.file_path, line_number: l.line_number })),
    },
  };
}

export const osvAnalyzer: Analyzer = {
  name: 'osv',
  description: 'Known vulnerabilities (OSV database) in exactly pinned Python and JavaScript dependencies',
  requires: 'use_osv (network access to SKILL_SCANNER_OSV_URL, default https://api.osv.dev)',
  async analyze(ctx) {
    const groups = groupPins(findPins(ctx.skill));
    if (groups.length === 0) return [];
    const base = serviceUrl(ctx.env, 'SKILL_SCANNER_OSV_URL');
    const idsPerGroup = await queryVulnIds(groups, base, ctx);
    const uniqueIds = [...new Set(idsPerGroup.flat())];
    const records = await mapLimited(uniqueIds, DETAIL_CONCURRENCY, (id) => fetchVuln(id, base, ctx));
    const byId = new Map(uniqueIds.map((id, i) => [id, records[i]]));
    return groups.flatMap((group, i) => [...new Set(idsPerGroup[i])].map((id) => vulnFinding(group, id, byId.get(id), ctx.skill)));
  },
};
