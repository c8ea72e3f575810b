// Which ordered-chain steps one hook event is. classify() reads what the tool call does (parsed facts), the
// rules it matched (so an operator pack's rules count too) and, for a result, whether it failed with a
// permission error. Facts are checked as well as findings because a pack may disable the rule that would
// have said the same thing.
import type { ActionFacts } from '../facts/types.js';
import {
  anyFits, bypassesAgentGuards, elevates, findsSetuid, GUARDRAILS_OFF, LATERAL_COMMANDS, listsIdentity, listsSudoRights, PERMISSION_CHANGERS,
  PRIVILEGE_DISCOVERY_COMMANDS, reachesRemoteHost, SECRET_MANAGER_READS, setsSetuid, skipsHooks, WORKLOAD_IDENTITY_COMMANDS,
} from './commands.js';
import { classifyHost } from './hosts.js';

export const CHAIN_SIGNALS = [
  'guardrails_disabled', 'external_egress', 'permission_denied', 'runtime_bypass', 'privilege_discovery',
  'privilege_elevation', 'secret_manager_read', 'sensitive_secret_read', 'workload_identity_access', 'lateral_execution',
] as const;
export type ChainSignal = (typeof CHAIN_SIGNALS)[number];

/** The part of a finding classify() looks at (a Finding's rule has all three). */
export interface SignalFinding {
  ruleId: string;
  category: string;
  tags: readonly string[];
}

export interface ClassifyInput {
  phase: 'pre_tool' | 'post_tool';
  facts?: ActionFacts;
  findings: readonly SignalFinding[];
  toolOutput?: string;
  toolSucceeded?: boolean;
}

interface FindingSelector {
  ids?: readonly string[];
  categories?: readonly string[];
  /** At least one of these tags. */
  tags?: readonly string[];
  exceptTags?: readonly string[];
}

const FINDING_SIGNALS: readonly [ChainSignal, FindingSelector][] = [
  ['guardrails_disabled', {
    ids: [
      'CMD-WARDEN-TAMPER', 'CMD-AGENT-DISABLE-HOOKS', 'CMD-AGENT-BYPASS-PERMISSIONS', 'CMD-AGENT-YOLO-MODE', 'CMD-AGENT-NO-SANDBOX',
      'COGNITIVE-PERMISSIVE-SETTINGS-CONTENT', 'COGNITIVE-WARDEN-CONFIG-WRITE', 'CMD-FIREWALL-DISABLE', 'CMD-MAC-POLICY-DISABLE',
      'CMD-SECURITY-AGENT-STOP',
    ],
  }],
  // `injection`: a capture URL written into a file or a message is content, not a connection.
  ['external_egress', { categories: ['c2', 'command'], tags: ['exfiltration', 'tunnel', 'tor', 'reverse-shell', 'dynamic-dns'], exceptTags: ['injection'] }],
  ['runtime_bypass', { categories: ['command'], tags: ['agent-bypass'] }],
  ['runtime_bypass', { ids: ['CMD-SUDO-ROOT-SHELL'] }],
  ['privilege_discovery', { ids: ['PATH-SUDOERS-READ'] }],
  ['privilege_elevation', { categories: ['command'], tags: ['privilege-escalation'] }],
  // Reconnaissance (known_hosts, /etc/passwd, sudoers) and persistence (writes) reveal no secret.
  ['sensitive_secret_read', { categories: ['sensitive-path'], exceptTags: ['reconnaissance', 'persistence'] }],
  ['workload_identity_access', { tags: ['cloud-metadata'] }],
];

function selects(selector: FindingSelector, finding: SignalFinding): boolean {
  return (
    (selector.ids === undefined || selector.ids.includes(finding.ruleId)) &&
    (selector.categories === undefined || selector.categories.includes(finding.category)) &&
    (selector.tags === undefined || selector.tags.some((t) => finding.tags.includes(t))) &&
    !(selector.exceptTags ?? []).some((t) => finding.tags.includes(t))
  );
}

/** Where agents keep their hooks and permission settings (where `warden setup` installs Warden's hooks). */
const AGENT_GUARD_FILES = [
  '.claude/settings.json', '.claude/settings.local.json', 'managed-settings.json', '.codex/config.toml', '.codex/hooks.json',
  '.cursor/hooks.json', '.codeium/windsurf/hooks.json', '.gemini/settings.json', '.gemini/config/hooks.json',
  '.copilot/hooks/warden.json', '.openhands/hooks.json', '.config/opencode/plugins/warden.js', '.hermes/config.yaml',
  '.omnigent/settings.json', 'warden-hook.mjs', 'warden-hook.sh',
];
const FILE_REMOVERS = new Set(['rm', 'mv', 'unlink', 'shred', 'truncate']);

function isGuardFile(arg: string): boolean {
  return AGENT_GUARD_FILES.some((f) => arg === f || arg.endsWith(`/${f}`));
}

/** Deleting, moving away or sed-editing an agent's hook settings takes Warden out of the agent's loop. */
function removesAgentHooks(facts: ActionFacts): boolean {
  return facts.commands.some(
    (c) => (FILE_REMOVERS.has(c.name) || (c.name === 'sed' && c.args.some((a) => a.startsWith('-i')))) && c.args.some(isGuardFile),
  );
}

/** Files whose contents are credentials: private keys, cloud and registry credentials, .env files … */
const SECRET_FILES: readonly RegExp[] = [
  /(?:^|\/)\.ssh\/(?:id_[\w*-]+|identity|[^/]*\.pem)$/, // private keys only: id_rsa.pub is public
  /(?:^|\/)\.aws\/(?:credentials|sso\/cache|cli\/cache)/,
  /(?:^|\/)\.config\/gcloud\/(?:credentials\.db|access_tokens\.db|application_default_credentials\.json|legacy_credentials)/,
  /(?:^|\/)\.azure\/(?:accessTokens\.json|msal_token_cache)/,
  /(?:^|\/)\.kube\/config$/,
  /(?:^|\/)\.docker\/config\.json$/,
  /(?:^|\/)\.env(?:rc)?(?:\.[\w-]+)*$/,
  /(?:^|\/)(?:[._]netrc|\.git-credentials|\.npmrc|\.pypirc|\.pgpass|\.my\.cnf)$/,
  /(?:^|\/)\.gnupg\/(?:private-keys-v1\.d|secring\.gpg)/,
  /^\/etc\/(?:g?shadow|master\.passwd)$/,
  /\.tfstate(?:\.backup)?$/,
  /^\/proc\/[^/]+\/environ$/,
];
/** Templates of secret files (`.env.example`) hold placeholders. */
const TEMPLATE = /\.(?:example|sample|template|dist|defaults|schema|tpl|tmpl)$/;
const SUDOERS = /^(?:\/private)?\/etc\/sudoers(?:\.d(?:\/.*)?)?$/;
const SERVICE_ACCOUNT_TOKENS = /^\/(?:var\/)?run\/secrets\/(?:(?:kubernetes\.io|eks\.amazonaws\.com)\/serviceaccount\/token$|azure\/tokens\/)/;

const FACT_SIGNALS: readonly [ChainSignal, (facts: ActionFacts) => boolean][] = [
  ['guardrails_disabled', (f) => anyFits(f.commands, GUARDRAILS_OFF) || f.commands.some(bypassesAgentGuards) || removesAgentHooks(f)],
  ['external_egress', (f) => f.hosts.some((h) => classifyHost(h) === 'external')],
  ['runtime_bypass', (f) => f.commands.some((c) => elevates(c) || bypassesAgentGuards(c) || skipsHooks(c) || PERMISSION_CHANGERS.has(c.name))],
  ['privilege_discovery', (f) =>
    anyFits(f.commands, PRIVILEGE_DISCOVERY_COMMANDS) || f.commands.some((c) => listsSudoRights(c) || listsIdentity(c) || findsSetuid(c)) || f.paths_read.some((p) => SUDOERS.test(p))],
  ['privilege_elevation', (f) => f.commands.some((c) => elevates(c) || setsSetuid(c))],
  ['secret_manager_read', (f) => anyFits(f.commands, SECRET_MANAGER_READS)],
  ['sensitive_secret_read', (f) => f.paths_read.some((p) => !TEMPLATE.test(p) && SECRET_FILES.some((r) => r.test(p)))],
  ['workload_identity_access', (f) =>
    f.hosts.some((h) => classifyHost(h) === 'metadata') || f.paths_read.some((p) => SERVICE_ACCOUNT_TOKENS.test(p)) ||
    anyFits(f.commands, WORKLOAD_IDENTITY_COMMANDS)],
  ['lateral_execution', (f) => anyFits(f.commands, LATERAL_COMMANDS) || f.commands.some(reachesRemoteHost)],
];

const PERMISSION_ERRORS =
  /permission denied|operation not permitted|\bEACCES\b|\bEPERM\b|not in the sudoers|is not allowed to execute|access is denied|a password is required|must be run as root/i;
/** Permission errors are printed first or last: look at both ends of a long output, a bounded amount. */
const OUTPUT_END = 32 * 1024;

function failedWithPermissionError(output: string): boolean {
  const text = output.length > 2 * OUTPUT_END ? `${output.slice(0, OUTPUT_END)}\n${output.slice(-OUTPUT_END)}` : output;
  return PERMISSION_ERRORS.test(text);
}

export function classify(input: ClassifyInput): Set<ChainSignal> {
  const signals = new Set<ChainSignal>();
  for (const [signal, selector] of FINDING_SIGNALS) {
    if (input.findings.some((f) => selects(selector, f))) signals.add(signal);
  }
  const facts = input.facts;
  if (facts) for (const [signal, detect] of FACT_SIGNALS) if (!signals.has(signal) && detect(facts)) signals.add(signal);
  // The failure is the step: a result that reports success did not hit the permission error it may print.
  if (input.phase === 'post_tool' && input.toolSucceeded !== true && failedWithPermissionError(input.toolOutput ?? '')) {
    signals.add('permission_denied');
  }
  return signals;
}
