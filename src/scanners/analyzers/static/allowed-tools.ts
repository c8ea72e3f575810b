// Declared tools versus behaviour: when SKILL.md declares `allowed-tools`, scripts and instructions that reach
// the network, run shell commands or write files beyond what those tools grant are reported. A skill that says
// "Read, Grep" but ships an uploader either lies about its scope or was not meant to be used as declared.
import RE2 from 're2';
import type { AnalyzerFinding, ScanSeverity } from '../../types.js';
import type { FileType } from './file-types.js';
import { excerpt, findingAt, matchStart, type TextFile } from './findings.js';

type Capability = 'network' | 'shell' | 'file_write';

export interface ToolGrants {
  network: boolean;
  shell: boolean;
  file_write: boolean;
  /** A scoped shell permission runs an interpreter or script, so the skill's scripts can execute. */
  scriptsMayRun: boolean;
}

const SHELL_TOOLS: ReadonlySet<string> = new Set([
  'bash', 'shell', 'sh', 'zsh', 'powershell', 'pwsh', 'cmd', 'terminal', 'exec', 'execute', 'run_command', 'execute_command',
  'run_terminal_cmd', 'local_shell', 'computer',
]);
const NETWORK_TOOLS: ReadonlySet<string> = new Set([
  'webfetch', 'websearch', 'web_fetch', 'web_search', 'fetch', 'http', 'http_request', 'browser', 'browse', 'read_url', 'curl',
]);
const WRITE_TOOLS: ReadonlySet<string> = new Set([
  'write', 'edit', 'multiedit', 'notebookedit', 'apply_patch', 'create_file', 'write_file', 'edit_file', 'str_replace_editor',
  'str_replace_based_edit_tool', 'delete_file',
]);
/** Commands that reach the network when a scoped shell permission (`Bash(git:*)`) allows them. */
const NETWORK_COMMANDS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'http', 'xh', 'gh', 'git', 'npm', 'npx', 'pnpm', 'yarn', 'pip', 'pip3', 'uv', 'ssh', 'scp', 'rsync', 'aws', 'gcloud', 'az', 'kubectl', 'docker',
]);
const INTERPRETERS: ReadonlySet<string> = new Set(['python', 'python3', 'node', 'bash', 'sh', 'zsh', 'deno', 'bun', 'ruby', 'perl', 'uv', 'npx', 'tsx', 'pwsh']);

/** `git status:*` → `git`. */
function firstWord(scope: string): string {
  let end = 0;
  while (end < scope.length && scope[end] !== ' ' && scope[end] !== ':' && scope[end] !== '\t') end++;
  return scope.slice(0, end);
}

export function grantsOf(tools: readonly string[]): ToolGrants {
  const grants: ToolGrants = { network: false, shell: false, file_write: false, scriptsMayRun: false };
  for (const spec of tools) {
    const paren = spec.indexOf('(');
    const close = spec.lastIndexOf(')');
    const name = (paren < 0 ? spec : spec.slice(0, paren)).trim().toLowerCase();
    const scope = paren < 0 ? '' : spec.slice(paren + 1, close > paren ? close : spec.length).trim();
    if (NETWORK_TOOLS.has(name)) grants.network = true;
    if (WRITE_TOOLS.has(name)) grants.file_write = true;
    if (!SHELL_TOOLS.has(name)) continue;
    grants.shell = true;
    const command = firstWord(scope);
    if (scope === '' || command === '*' || command === '') {
      // An unrestricted shell can do anything.
      grants.network = grants.file_write = grants.scriptsMayRun = true;
    } else {
      if (NETWORK_COMMANDS.has(command)) grants.network = true;
      if (INTERPRETERS.has(command) || command.startsWith('./') || command.includes('/')) grants.scriptsMayRun = true;
    }
  }
  return grants;
}

/** Behaviour patterns per capability and file type (RE2: the text is the skill's). */
const BEHAVIOUR_SOURCES: Readonly<Record<Capability, Partial<Record<FileType, string[]>>>> = {
  network: {
    python: [
      '\\b(?:requests|httpx|aiohttp|urllib3)\\.(?:get|post|put|patch|delete|head|request|Session|AsyncClient|Client|ClientSession|PoolManager)\\b',
      '\\burllib\\.request\\b', '\\burlopen\\s*\\(', '\\bhttp\\.client\\b', '\\bsocket\\.(?:socket|create_connection)\\b',
      '\\b(?:smtplib|ftplib|paramiko)\\b', '\\bwebsockets?\\.connect\\b',
    ],
    javascript: [
      '\\bfetch\\s*\\(', '\\baxios\\b', '\\bXMLHttpRequest\\b', '\\bnew\\s+WebSocket\\b', '\\b(?:https?|http2|net|tls|dgram)\\.(?:request|get|connect|createConnection|createSocket)\\s*\\(',
      '\\bnode-fetch\\b', '\\bundici\\b', '\\bsuperagent\\b',
    ],
    shell: ['(?:^|[\\s;&|(`])(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|sftp|ftp|rsync|aria2c|xh)\\s', '/dev/(?:tcp|udp)/'],
    powershell: ['(?i)\\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Net\\.WebClient|Start-BitsTransfer|Net\\.Sockets)\\b'],
    markdown: [
      // A real command names what it fetches; `curl …` in prose describes one.
      '(?:^|[\\s`(])(?:curl|wget)\\s+(?:-\\S+\\s+)*["\']?(?:https?://|\\$|[\\w-]+\\.[a-z]{2,})', '\\b(?:WebFetch|WebSearch)\\b',
      '(?i)\\b(?:fetch|download|post|upload|send)\\s+(?:\\w+\\s+){0,4}(?:from|to)\\s+https?://',
    ],
  },
  shell: {
    python: [
      '\\bsubprocess\\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\\b', '\\bos\\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)\\s*\\(',
      '\\bpty\\.spawn\\b',
    ],
    javascript: ['\\bchild_process\\b', '\\b(?:execSync|execFileSync|spawnSync|execFile)\\s*\\(', '\\bexeca\\b', '\\bBun\\.spawn\\b', '\\bDeno\\.(?:run|Command)\\b', '\\bshelljs\\b'],
    powershell: ['(?i)\\b(?:Start-Process|Invoke-Expression|iex)\\b', '(?i)\\bcmd(?:\\.exe)?\\s+/c\\b'],
    markdown: [
      '(?i)^[ \\t]*(?:```|~~~)[ \\t]*(?:bash|sh|shell|zsh|console|terminal|powershell|pwsh|cmd)\\b',
      '(?i)\\b(?:run|execute)\\s+(?:the\\s+)?(?:command\\s+|script\\s+)?`[^`\\n]+`', '\\b(?:Bash|Shell)\\s+tool\\b',
    ],
  },
  file_write: {
    python: [
      '\\bopen\\s*\\([^)\\n]*,\\s*(?:mode\\s*=\\s*)?["\'][rbt+]*[wax]', '\\.write_(?:text|bytes)\\s*\\(', '\\bshutil\\.(?:copy\\w*|move|rmtree)\\s*\\(',
      '\\bos\\.(?:remove|unlink|rename|replace|makedirs|mkdir|rmdir)\\s*\\(',
    ],
    javascript: [
      '\\bfs(?:\\.promises)?\\.(?:writeFile|appendFile|createWriteStream|rm|rmdir|unlink|rename|mkdir|copyFile|cp)(?:Sync)?\\s*\\(',
      '\\b(?:writeFileSync|appendFileSync|createWriteStream)\\s*\\(',
    ],
    shell: [
      // A redirect to a file (not `2>&1`, `&>`, `>/dev/null`).
      '(?:^|[^<>&0-9=-])>>?\\s*["\']?(?:[~$.A-Za-z_]|/[^d\\s])',
      '(?:^|[\\s;&|])(?:rm|mv|cp|tee|touch|mkdir|truncate|chmod|chown|ln)\\s', '\\bsed\\s+-i\\b',
    ],
    powershell: ['(?i)\\b(?:Set-Content|Add-Content|Out-File|New-Item|Remove-Item|Copy-Item|Move-Item)\\b'],
    markdown: [
      '\\b(?:Write|Edit|MultiEdit)\\s+tool\\b',
      '(?i)\\b(?:write|save|create|overwrite|append)\\s+(?:\\w+\\s+){0,4}(?:to|in|into|as)\\s+(?:a\\s+|the\\s+|new\\s+)*files?\\b',
      '(?i)\\b(?:write|save|create|overwrite)\\s+(?:a\\s+|the\\s+|new\\s+)*files?\\b',
    ],
  },
};

const CAPABILITY_WORDING: Readonly<Record<Capability, { rule_id: string; what: string; tools: string }>> = {
  network: { rule_id: 'SS-TOOLS-UNDECLARED-NETWORK', what: 'Network access', tools: 'WebFetch/WebSearch or an unrestricted Bash' },
  shell: { rule_id: 'SS-TOOLS-UNDECLARED-SHELL', what: 'Shell command execution', tools: 'Bash' },
  file_write: { rule_id: 'SS-TOOLS-UNDECLARED-WRITE', what: 'File writes', tools: 'Write/Edit or an unrestricted Bash' },
};

/** The behaviour patterns of one file type: a set to learn in one pass which capabilities occur, and one
 *  alternation per capability to locate the first occurrence. */
interface TypeBehaviour {
  set: InstanceType<typeof RE2.Set>;
  capabilities: Capability[];
  /** Non-global regexes find the first match fastest; the global ones step past negated lines in instructions. */
  regexes: Map<Capability, RE2>;
  globalRegexes: Map<Capability, RE2>;
}

let compiled: Map<FileType, TypeBehaviour> | undefined;

function behaviourPatterns(): Map<FileType, TypeBehaviour> {
  if (compiled) return compiled;
  const byType = new Map<FileType, Map<Capability, string>>();
  for (const [capability, sourcesByType] of Object.entries(BEHAVIOUR_SOURCES) as [Capability, Partial<Record<FileType, string[]>>][]) {
    for (const [type, sources] of Object.entries(sourcesByType) as [FileType, string[]][]) {
      if (!byType.has(type)) byType.set(type, new Map());
      byType.get(type)!.set(capability, sources.map((source) => `(?:${source})`).join('|'));
    }
  }
  compiled = new Map();
  for (const [type, alternations] of byType) {
    const capabilities = [...alternations.keys()];
    compiled.set(type, {
      set: new RE2.Set(capabilities.map((c) => alternations.get(c)!), 'mu'),
      capabilities,
      regexes: new Map(capabilities.map((c) => [c, new RE2(alternations.get(c)!, 'mu')])),
      globalRegexes: new Map(capabilities.map((c) => [c, new RE2(alternations.get(c)!, 'gmu')])),
    });
  }
  // TypeScript shares JavaScript's patterns.
  compiled.set('typescript', compiled.get('javascript')!);
  return compiled;
}

/** In instructions, "never write it to a file" forbids the behaviour rather than asking for it. */
const NEGATED = new RE2("(?i)\\b(?:never|do\\s+not|don't|must\\s+not|should\\s+not|avoid)\\b", 'u');
const MAX_NEGATED_SKIPS = 20;

/** The first behaviour of `capability` in the file; in instructions, lines that forbid it are skipped. */
function firstBehaviour(behaviour: TypeBehaviour, capability: Capability, file: TextFile): { index: number; 0: string } | undefined {
  if (file.type !== 'markdown') return behaviour.regexes.get(capability)?.exec(file.text) ?? undefined;
  const regex = behaviour.globalRegexes.get(capability);
  if (!regex) return undefined;
  regex.lastIndex = 0;
  let found: { index: number; 0: string } | undefined;
  for (let match = regex.exec(file.text), skips = 0; match !== null && skips < MAX_NEGATED_SKIPS; match = regex.exec(file.text), skips++) {
    if (!NEGATED.test(file.lines.lineTextAt(match.index))) {
      found = match;
      break;
    }
    const nextLine = file.text.indexOf('\n', match.index);
    if (nextLine < 0) break;
    regex.lastIndex = nextLine + 1;
  }
  regex.lastIndex = 0;
  return found;
}

function severityFor(capability: Capability, file: TextFile, grants: ToolGrants): ScanSeverity {
  const instructions = file.type === 'markdown';
  // A permitted interpreter runs the scripts, so what they do is reachable, just not declared.
  if (!instructions && grants.scriptsMayRun) return 'LOW';
  if (capability === 'network') return instructions ? 'MEDIUM' : 'HIGH';
  return 'MEDIUM';
}

export function allowedToolsFindings(declared: readonly string[] | undefined, files: readonly TextFile[]): AnalyzerFinding[] {
  if (declared === undefined) return [];
  const grants = grantsOf(declared);
  if (grants.network && grants.shell && grants.file_write) return [];
  const findings: AnalyzerFinding[] = [];
  const patterns = behaviourPatterns();
  const declaredText = declared.join(', ') || '(none)';
  for (const file of files) {
    const behaviour = patterns.get(file.type);
    if (!behaviour) continue;
    for (const index of behaviour.set.match(file.text)) {
      const capability = behaviour.capabilities[index]!;
      if (grants[capability]) continue;
      const match = firstBehaviour(behaviour, capability, file);
      if (!match) continue;
      const wording = CAPABILITY_WORDING[capability];
      findings.push(findingAt({
        rule_id: wording.rule_id,
        category: 'unauthorized_tool_use',
        severity: severityFor(capability, file, grants),
        title: `${wording.what} beyond the declared allowed-tools`,
        description: `SKILL.md declares allowed-tools: ${declaredText}, but ${file.path} ${file.type === 'markdown' ? 'instructs' : 'performs'} ${wording.what.toLowerCase()}, which needs ${wording.tools}.`,
        remediation: `Declare the tools the skill really needs in allowed-tools, or remove the ${wording.what.toLowerCase()}.`,
        metadata: { capability, allowed_tools: declared, match: excerpt(match[0]) },
      }, file, matchStart(match.index, match[0])));
    }
  }
  return findings;
}
