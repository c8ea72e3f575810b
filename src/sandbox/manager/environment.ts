// The harness process environment. A create request's `env` and `llm.credentials` names are refused when they
// are Warden's own, a proxy's, a loader's (they would change what runs, not what it is told) or pinned by the
// harness image: 403 policy_violation naming the variable. Secrets (llm.credentials, credentials) go to the
// process only; the binding credential is generated here and only its hash is kept.
import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_CREDENTIAL_PREFIX } from '../../util/bearer.js';
import { SandboxApiError } from '../errors.js';

/** Variables the sandbox binding credential reaches the harness in (the hook ingress reads it). */
export const BINDING_ENV = 'WARDEN_SANDBOX_TOKEN';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Why a variable may not be set by a request, or null. */
function refusal(name: string, pinned: Record<string, string>): string | null {
  const upper = name.toUpperCase();
  if (upper.startsWith('WARDEN_') || upper === 'AGENT_GATEWAY_TOKEN') return 'it is one of Warden\'s own variables';
  if (upper.endsWith('_PROXY') || upper === 'NO_PROXY') return 'proxy variables are set by the sandbox, not the request';
  if (/^(?:LD_|DYLD_|GCONV_|MALLOC_)/.test(upper) || LOADER_VARIABLES.has(upper)) return 'it changes how programs are loaded';
  if (name in pinned) return 'the harness image sets it';
  return null;
}

const LOADER_VARIABLES = new Set([
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'IFS',
  'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5LIB', 'PERL5OPT', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS', 'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'GIT_SSH_COMMAND', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'HOSTALIASES', 'LOCPATH', 'TMPDIR',
]);

export function checkVariables(names: string[], pinned: Record<string, string>): void {
  for (const name of names) {
    if (!VARIABLE.test(name)) throw new SandboxApiError('invalid_request', `invalid environment variable name ${JSON.stringify(name)}`);
    const why = refusal(name, pinned);
    if (why !== null) throw new SandboxApiError('policy_violation', `environment variable ${name} is refused: ${why}`, { violation: name });
  }
}

export function newBindingCredential(): { token: string; hash: string } {
  const token = `${SANDBOX_CREDENTIAL_PREFIX}${randomBytes(32).toString('hex')}`;
  return { token, hash: createHash('sha256').update(token).digest('hex') };
}
