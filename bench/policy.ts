// Policy engine: the shipped admission decision (policies/rego/admission.rego through the policy service, cache
// off, so each call is a real Rego evaluation) in process, median microseconds, beside a plain TypeScript
// function that makes the same decision as the baseline, in the same run; and the cached decision the gateway
// answers a repeated input with. Target: Rego decision <= 50 us median. The two are checked to agree first.
import assert from 'node:assert/strict';
import { validateConfigObject } from '../src/config/load.js';
import { PolicyService, type AdmissionInput, type AdmissionOutput, type EnforcementLists } from '../src/policy/service.js';
import { microbench, round, writeResult } from './lib/report.js';

const BLOCK = { install: 'block', file: 'quarantine', runtime: 'disable' } as const;
const WARN = { install: 'none', file: 'none', runtime: 'enable' } as const;
const ALLOW = { install: 'allow', file: 'none', runtime: 'enable' } as const;
const BLOCKING: Record<string, readonly string[]> = { skill: ['CRITICAL', 'HIGH'], mcp: ['CRITICAL', 'HIGH', 'MEDIUM'], plugin: ['CRITICAL', 'HIGH'] };

const LISTS: EnforcementLists = {
  skill: {
    denied: Array.from({ length: 20 }, (_, i) => ({ name: `denied-${i}`, reason: 'bench' })),
    allowed: Array.from({ length: 20 }, (_, i) => ({ name: `allowed-${i}`, reason: 'bench', source_path_contains: '/team/' })),
  },
};

/** The baseline: today's defaults and the lists, as plain TypeScript (no first-party entries, no overrides). */
function plainDecision(input: AdmissionInput, lists: EnforcementLists): AdmissionOutput {
  const severity = input.scan_result ? input.scan_result.max_severity.toUpperCase() : 'NONE';
  const typeLists = lists[input.target_type];
  const denied = typeLists?.denied.find((e) => e.name === input.target_name);
  if (denied) return { verdict: 'blocked', reason: `on the block list: ${denied.reason}`, actions: BLOCK, matched_list: 'denied', severity };
  const allowed = typeLists?.allowed.find((e) => e.name === input.target_name && (!e.source_path_contains || [e.source_path_contains].flat().some((m) => input.path?.includes(m))));
  if (allowed) return { verdict: 'allowed', reason: `on the allow list: ${allowed.reason}`, actions: ALLOW, matched_list: 'allowed', severity };
  if (input.target_type === 'mcp' && input.scan_result?.unscannable) {
    return { verdict: 'blocked', reason: 'MCP server command cannot be scanned: not npx or uvx with a package, nor a URL', actions: BLOCK, matched_list: null, severity };
  }
  if (!input.scan_result) return { verdict: 'scan', reason: 'no scan result yet: scan before install', actions: { install: 'none', file: 'none', runtime: 'enable' }, matched_list: null, severity };
  if (severity === 'NONE') return { verdict: 'clean', reason: 'scan found nothing', actions: ALLOW, matched_list: null, severity };
  if (BLOCKING[input.target_type]!.includes(severity)) {
    return { verdict: 'rejected', reason: `scan severity ${severity} is set to block/quarantine/disable`, actions: BLOCK, matched_list: null, severity };
  }
  return { verdict: 'warning', reason: `scan severity ${severity} is allowed with a warning`, actions: WARN, matched_list: null, severity };
}

const INPUTS: AdmissionInput[] = [
  { target_type: 'skill', target_name: 'release-notes', path: '/home/u/.claude/skills/release-notes', scan_result: { max_severity: 'HIGH' } },
  { target_type: 'skill', target_name: 'formatter', scan_result: { max_severity: 'LOW' } },
  { target_type: 'skill', target_name: 'denied-7', scan_result: { max_severity: 'NONE' } },
  { target_type: 'skill', target_name: 'allowed-3', path: '/srv/team/skills/allowed-3', scan_result: { max_severity: 'CRITICAL' } },
  { target_type: 'mcp', target_name: 'github', scan_result: { max_severity: 'MEDIUM' } },
  { target_type: 'mcp', target_name: 'local-tool', scan_result: { max_severity: 'NONE', unscannable: true } },
  { target_type: 'plugin', target_name: 'helper', scan_result: { max_severity: 'NONE' } },
  { target_type: 'plugin', target_name: 'helper', path: '/tmp/helper' },
];

/** Median microseconds per decision over the input set; a batch of 80 takes each of the 8 inputs 10 times. */
const decisionUs = (decide: (input: AdmissionInput) => unknown): number =>
  microbench((i) => decide(INPUTS[i % INPUTS.length]!), { warmUp: 2000, perBatch: 80 });

export async function run(): Promise<void> {
  const config = validateConfigObject({ config_version: 9, admission: { skill: { first_party_allow_list: [] }, plugin: { first_party_allow_list: [] } } }, 'bench');
  const uncached = new PolicyService(config, { policyDir: undefined, cache: false });
  const cached = new PolicyService(config, { policyDir: undefined });
  for (const input of INPUTS) assert.deepEqual(uncached.evaluate('admission', input, LISTS), plainDecision(input, LISTS), JSON.stringify(input));

  const regoUs = decisionUs((input) => uncached.evaluate('admission', input, LISTS));
  const cachedUs = decisionUs((input) => cached.evaluate('admission', input, LISTS));
  const plainUs = decisionUs((input) => plainDecision(input, LISTS));
  const file = writeResult({
    name: 'policy',
    metrics: { admission_rego_median_us: round(regoUs, 2), admission_cached_median_us: round(cachedUs, 2), target_us: 50 },
    baseline: { admission_plain_ts_median_us: round(plainUs, 3) },
    ratio: { rego_over_plain: round(regoUs / plainUs, 1), rego_within_target: regoUs <= 50 ? 1 : 0 },
    notes: [
      `${INPUTS.length} admission inputs in rotation (deny and pinned-allow lists of 20 entries each, every verdict); the Rego and TypeScript decisions were checked equal first`,
      'admission_cached is what the gateway answers for an input it has decided since the last reload or list change',
    ],
  });
  process.stdout.write(`admission decision: Rego ${round(regoUs, 2)} us, cached ${round(cachedUs, 2)} us, plain TypeScript ${round(plainUs, 3)} us (target <= 50 us) -> ${file}\n`);
}
