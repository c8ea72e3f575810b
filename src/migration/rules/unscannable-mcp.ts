// Rule 12: MCP servers whose command is not npx or uvx with a package, and not a URL, can no longer be scanned:
// they keep running without a scan, a new or changed definition is blocked at install admission, and they are
// listed under `unscannable_mcp` with the command that fixes them. Version 8 kept no MCP servers of its own: the
// agents do, so the definitions are read from the agents' own configuration files exactly as
// `warden mcp scan` reads them (src/scanners/mcp/), given in MigrationInput.files under `~/<path>` (the
// AGENT_MCP_CONFIGS paths, and `claw.config_file` for the OpenClaw connector). A file that cannot be parsed is
// noted and skipped: the agent reads it, not Warden.
import { parse as parseToml } from 'smol-toml';
import { AGENT_MCP_CONFIGS, definitionsIn, parseJsonWithComments, type McpAgent } from '../../scanners/mcp/definitions.js';
import { launchOf } from '../../scanners/mcp/launch.js';
import { read } from '../doc-edit.js';
import type { MigrationRule } from '../types.js';

/** The connector (agent) each MCP configuration belongs to. */
const CONNECTOR_OF: Record<McpAgent, string | undefined> = {
  'claude-code': 'claudecode', cursor: 'cursor', windsurf: 'windsurf', 'gemini-cli': 'geminicli', codex: 'codex',
  vscode: 'copilot', unknown: undefined,
};

const UNSCANNABLE_NOTE = 'MCP servers listed under unscannable_mcp keep running without a scan; a new or changed definition of one is blocked at install admission';

/** An option or variable name that says its value is a credential. */
const SECRET_NAME = /(?:token|secret|password|passwd|api[-_]?key|apikey|auth|credential)/i;

/**
 * The command as the record shows it: credentials agents' configs often pass on the command line (`--token X`,
 * `--api-key=X`, `API_KEY=X`, `https://user:pw@host`) become <redacted>; the record is printed by --json and doctor.
 */
function redactArgs(argv: string[]): string[] {
  return argv.map((arg, i) => {
    const assigned = /^(-{0,2}[A-Za-z0-9_.-]+)=(.*)$/.exec(arg);
    if (assigned) return `${assigned[1]}=${SECRET_NAME.test(assigned[1]!) ? '<redacted>' : redactUrl(assigned[2]!)}`;
    const previous = argv[i - 1];
    if (previous !== undefined && /^--?[A-Za-z]/.test(previous) && !previous.includes('=') && SECRET_NAME.test(previous)) return '<redacted>';
    return redactUrl(arg);
  });
}

function redactUrl(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  try {
    const url = new URL(text);
    if (url.username === '' && url.password === '') return text;
    url.username = 'redacted';
    url.password = '';
    return url.href;
  } catch {
    return text;
  }
}

export const unscannableMcp: MigrationRule = (ctx) => {
  const clawFile = read(ctx.doc, ['claw', 'config_file']);
  const sources = [...ctx.input.files.values()]
    .filter((f) => f.path.startsWith('~/'))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of sources) {
    const agent = AGENT_MCP_CONFIGS.find((c) => c.path === file.path)?.agent ?? 'unknown';
    const connector = file.path === clawFile ? 'openclaw' : CONNECTOR_OF[agent];
    const text = file.bytes.toString('utf8');
    let document: unknown;
    if (file.path.endsWith('.toml')) {
      try {
        document = parseToml(text);
      } catch (err) {
        ctx.record.notes.push(`${file.path} is not valid TOML (${(err as Error).message.split('\n')[0]}); its MCP servers were not checked`);
        continue;
      }
    } else {
      const parsed = parseJsonWithComments(text);
      if (parsed.error !== undefined) {
        ctx.record.notes.push(`${file.path} is not valid JSON (${parsed.error}); its MCP servers were not checked`);
        continue;
      }
      document = parsed.value;
    }
    for (const definition of definitionsIn(document, file.path, agent)) {
      if (launchOf(definition).kind !== 'unscannable') continue;
      const command = definition.url ? redactUrl(definition.url) : redactArgs([definition.command ?? '', ...definition.args]).join(' ').trim();
      ctx.record.unscannable_mcp.push({
        name: definition.name,
        ...(connector ? { connector } : {}),
        command,
        fix: `run "${definition.name}" from a pinned package (npx -y <package>@<version>, uvx <package>==<version>) or give its URL in ${file.path}, then: warden mcp scan ${file.path}`,
      });
    }
  }
  if (ctx.record.unscannable_mcp.length > 0) ctx.record.notes.push(UNSCANNABLE_NOTE);
};
