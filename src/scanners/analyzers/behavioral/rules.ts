// Which source → sink flows are findings, with what category and severity. The false-positive rules live here:
//
// - env → network is flagged only when the value is payload (request body, URL, query, a socket write) or the
//   destination is a raw IP / known data-collection service (webhook.site, pastebins, ngrok, Discord webhooks,
//   the Telegram bot API…). An API key sent as an Authorization / X-Api-Key header, `auth=`, a cookie, or an
//   auth-style field or query parameter (`?api_key=`, `{"token": …}`) is how APIs are called, so it is quiet
//   unless the destination is suspicious. A secret-looking name (*KEY*, *TOKEN*, *SECRET*, PASSWORD…) makes the
//   finding CRITICAL; any other variable (MODEL_NAME…) is MEDIUM (HIGH to a suspicious destination).
// - The whole environment (os.environ, process.env, `env`/`printenv` output) sent anywhere is CRITICAL.
// - A credential file (~/.ssh, ~/.aws/credentials, browser profiles, keychains…) sent anywhere is CRITICAL;
//   HIGH when only used as the request's authentication to an ordinary host. A .env file follows the env-var
//   rule; other sensitive files (/etc/passwd, shell history) are HIGH.
// - Only credential-named headers count as credentials: a header dict's `X-Data: <secret>` is payload.
// - An environment variable that is the request's destination (the whole URL, or its scheme/host part, as in
//   `fetch(process.env.SLACK_WEBHOOK_URL)` or `f"{API_BASE}/v1/x"`) configures where data goes; it is not sent.
// - User input sent over the network is what most tools do: not flagged.
// - Code execution: a network response → CRITICAL (download and run; a live socket / nc / /dev/tcp
//   connection feeding a shell is a remote shell, malware); user input → HIGH command injection;
//   decoded data (base64, zlib, hex, chr()) → HIGH obfuscation. Environment values and file contents run as
//   code are not flagged (they are the operator's, not an attacker's).
import type { ScanCategory, ScanSeverity } from '../../types.js';
import { suspiciousDestination, UNKNOWN } from './catalog.js';
import type { Flow, SourceKind } from './values.js';

export type SinkKind = 'network' | 'exec';
/** What part of the sink call the data fills: payload, destination URL/query, credential slot, or code. */
export type Role = 'body' | 'url' | 'credential' | 'code';

export interface SinkSite {
  kind: SinkKind;
  /** The API as written or resolved: `requests.post`, `fetch`, `curl`, `subprocess.run(shell=True)`. */
  api: string;
  file: string;
  /** Offset in the file's text (for the line and snippet). */
  index: number;
  /** `file:line`. */
  at: string;
  /** The destination URL or host as far as known statically (network sinks). */
  dest?: string;
}

export interface Verdict {
  ruleId: string;
  category: ScanCategory;
  severity: ScanSeverity;
  title: string;
  remediation: string;
}

const EXFIL_FIX = 'Do not send local secrets or files off the machine. If the skill needs an API key, pass it only as the documented authentication header to the documented API host.';
const EXEC_FIX = 'Never execute code that was downloaded, decoded at run time or taken from user input; ship the code in the skill and pass data as arguments.';

export const SOURCE_NAMES: Record<SourceKind, string> = {
  env: 'environment variable',
  env_dump: 'the whole environment',
  dotenv_file: '.env file',
  credential_file: 'credential file',
  sensitive_file: 'sensitive file',
  user_input: 'user input',
  network: 'network response',
  decoded: 'decoded data',
  param: 'function parameter',
};

/** The finding a flow arriving at a sink in `role` makes, or undefined when it is not one. */
export function judge(site: SinkSite, role: Role, flow: Flow): Verdict | undefined {
  return site.kind === 'network' ? judgeNetwork(site, role, flow) : judgeExec(flow);
}

function judgeNetwork(site: SinkSite, role: Role, flow: Flow): Verdict | undefined {
  const { source } = flow;
  const suspicious = suspiciousDestination(site.dest);
  switch (source.kind) {
    case 'env_dump':
      return { ruleId: 'BH-EXFIL-ENV-DUMP', category: 'data_exfiltration', severity: 'CRITICAL', title: 'The whole environment is sent over the network', remediation: EXFIL_FIX };
    case 'credential_file': {
      // Reusing a stored token as the Authorization of an ordinary API is less severe than shipping the file.
      const asAuth = (role === 'credential' || flow.credential) && !suspicious;
      return { ruleId: 'BH-EXFIL-CREDFILE', category: 'data_exfiltration', severity: asAuth ? 'HIGH' : 'CRITICAL', title: asAuth ? 'A stored credential is sent as request authentication' : 'A credential file is sent over the network', remediation: EXFIL_FIX };
    }
    case 'sensitive_file':
      return { ruleId: 'BH-EXFIL-FILE', category: 'data_exfiltration', severity: 'HIGH', title: 'A sensitive local file is sent over the network', remediation: EXFIL_FIX };
    case 'env':
    case 'dotenv_file': {
      // A configured endpoint (`fetch(process.env.WEBHOOK_URL)`, `f"{BASE_URL}/v1"`) is not data sent to it.
      if (role === 'url' && flow.destination) return undefined;
      const asCredential = role === 'credential' || flow.credential;
      if (asCredential && !suspicious) return undefined;
      const secret = source.kind === 'dotenv_file' || source.secret === true;
      const severity: ScanSeverity = secret ? 'CRITICAL' : suspicious ? 'HIGH' : 'MEDIUM';
      const what = source.kind === 'dotenv_file' ? 'A .env file' : secret ? 'A secret environment variable' : 'An environment variable';
      const how = asCredential ? `is sent to ${suspicious}` : 'is sent in a request payload or URL';
      return { ruleId: source.kind === 'dotenv_file' ? 'BH-EXFIL-DOTENV' : 'BH-EXFIL-ENV', category: 'data_exfiltration', severity, title: `${what} ${how}`, remediation: EXFIL_FIX };
    }
    default:
      return undefined;
  }
}

function judgeExec(flow: Flow): Verdict | undefined {
  const kind = flow.source.kind;
  if (kind === 'network' && flow.source.live) {
    return { ruleId: 'BH-REMOTE-SHELL', category: 'malware', severity: 'CRITICAL', title: 'Commands received over a network connection are executed (remote shell)', remediation: 'A skill must never hand a shell or an interpreter to a network peer; remove the connection.' };
  }
  if (kind === 'network') {
    return { ruleId: 'BH-DOWNLOAD-EXEC', category: 'supply_chain_attack', severity: 'CRITICAL', title: `Downloaded ${flow.decoded ? 'and decoded ' : ''}content is executed`, remediation: EXEC_FIX };
  }
  if (kind === 'user_input') {
    return { ruleId: 'BH-CMD-INJECTION', category: 'command_injection', severity: 'HIGH', title: 'User input reaches a shell or code execution', remediation: 'Pass user input as a separate argument (argv list, no shell), validate it against an allow-list, and never eval it.' };
  }
  if (kind === 'decoded' || flow.decoded) {
    return { ruleId: 'BH-DECODE-EXEC', category: 'obfuscation', severity: 'HIGH', title: 'Decoded data is executed as code', remediation: EXEC_FIX };
  }
  return undefined;
}

export function describe(site: SinkSite, role: Role, flow: Flow): string {
  const source = flow.source;
  const what = source.kind === 'decoded' ? source.label : `${source.label} (${SOURCE_NAMES[source.kind]})`;
  const where = site.kind === 'network'
    ? ` ${role === 'credential' || flow.credential ? 'as a credential' : role === 'url' ? 'in the URL' : 'in the payload'}${site.dest ? ` to ${site.dest.split(UNKNOWN).join('…')}` : ''}`
    : '';
  const path = [source.at, ...flow.path, site.at].filter((at, i, all) => all[i - 1] !== at).join(' → ');
  return `${what}, read at ${source.at}, reaches ${site.api} at ${site.at}${where}. Flow: ${path}.`;
}
