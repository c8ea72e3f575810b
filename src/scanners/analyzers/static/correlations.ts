// Signals that are ordinary alone and dangerous together, across a skill's code: the whole environment or a
// credential file collected in one place while another place posts data out; a program downloaded and made
// executable; a package install hook whose script reaches the network. Each signal is one RE2 pattern per
// language, so this is a handful of linear scans, not a data-flow analysis (the behavioral analyzer does that).
import RE2 from 're2';
import type { AnalyzerFinding } from '../../types.js';
import { baseName } from './file-types.js';
import { excerpt, findingAt, matchStart, type TextFile } from './findings.js';

type Signal = 'collects_environment' | 'reads_credentials' | 'sends_data' | 'downloads' | 'makes_executable';
type Language = 'python' | 'javascript' | 'shell';

const SIGNAL_SOURCES: Readonly<Record<Signal, Partial<Record<Language, string>>>> = {
  collects_environment: {
    python: '\\bdict\\s*\\(\\s*os\\.environ\\s*\\)|\\bos\\.environ\\.copy\\s*\\(\\s*\\)|\\{\\s*\\*\\*os\\.environ\\s*\\}|\\bjson\\.dumps\\s*\\(\\s*(?:dict\\s*\\(\\s*)?os\\.environ|\\bos\\.environ\\.items\\s*\\(\\s*\\)',
    javascript: '\\{\\s*\\.\\.\\.process\\.env\\s*\\}|\\bJSON\\.stringify\\s*\\(\\s*process\\.env|\\bObject\\.(?:entries|keys|assign)\\s*\\(\\s*(?:\\{\\s*\\}\\s*,\\s*)?process\\.env\\s*\\)',
    shell: '(?:^|[;&|(`]\\s*)(?:env|printenv)\\s*(?:$|[|>])',
  },
  reads_credentials: {
    python: '(?:\\.ssh/id_\\w+|\\.aws/credentials|\\.netrc|\\.npmrc|\\.pypirc|\\.git-credentials|\\.kube/config|\\.docker/config\\.json)\\b[^.]|["\']\\.ssh["\']\\s*[/,]\\s*["\']id_\\w+["\']|["\']\\.aws["\']\\s*[/,]\\s*["\']credentials["\']',
    javascript: '(?:\\.ssh/id_\\w+|\\.aws/credentials|\\.netrc|\\.npmrc|\\.pypirc|\\.git-credentials|\\.kube/config|\\.docker/config\\.json)\\b[^.]|["\']\\.ssh["\']\\s*,\\s*["\']id_\\w+["\']|["\']\\.aws["\']\\s*,\\s*["\']credentials["\']',
    shell: '(?:\\.ssh/id_\\w+|\\.aws/credentials|\\.netrc|\\.git-credentials|\\.kube/config)(?:$|[^.\\w])',
  },
  sends_data: {
    python: '\\b(?:requests|httpx|session|client)\\.(?:post|put|patch)\\s*\\(|\\bRequest\\s*\\([^\\n]*\\bdata\\s*=|\\bmethod\\s*=\\s*["\']POST["\']|\\.sendall\\s*\\(|\\bsmtplib\\.SMTP',
    javascript: '\\bmethod\\s*:\\s*["\']POST["\']|\\baxios\\.(?:post|put|patch)\\s*\\(|\\bnavigator\\.sendBeacon\\s*\\(|\\.write\\s*\\([^\\n]*\\)\\s*;?\\s*\\w*\\.end\\s*\\(',
    shell: '\\bcurl\\b[^\\n]*\\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\\b|\\bwget\\b[^\\n]*--post-(?:data|file)',
  },
  downloads: {
    python: '\\burlretrieve\\s*\\(|\\burlopen\\s*\\([^\\n]*\\)\\s*\\.read\\s*\\(|\\brequests\\.get\\s*\\([^\\n]*\\)\\s*\\.content\\b|\\bstream\\s*=\\s*True',
    javascript: '\\bhttps?\\.get\\s*\\(|\\bfetch\\s*\\([^\\n]*\\)\\s*(?:;|\\.then)|\\bawait\\s+fetch\\s*\\(',
  },
  makes_executable: {
    python: '\\.chmod\\s*\\([^\\n]*(?:S_IEXEC|S_IXUSR|S_IXGRP|S_IXOTH|0o?[0-7]*[1357][0-7]{2}\\b)',
    javascript: '\\bmode\\s*:\\s*0o?[0-7]*[1357][0-7]{2}\\b|\\bchmod(?:Sync)?\\s*\\([^\\n]*0o?[0-7]*[1357][0-7]{2}\\b',
  },
};

/** A signal's match is dropped when its line matches this (an environment copied into a child process's env). */
const CHILD_ENV = new RE2('\\benv\\s*[:=]|\\bPopen\\b|\\bspawn\\w*\\s*\\(|\\bexec\\w*\\s*\\(|subprocess\\.', 'u');

/** Per language: a set naming the signals present in one pass, and one regex per signal to locate it. */
interface LanguageSignals {
  set: InstanceType<typeof RE2.Set>;
  signals: Signal[];
  regexes: RE2[];
}

let compiled: Map<Language, LanguageSignals> | undefined;

function signalPatterns(): Map<Language, LanguageSignals> {
  if (compiled) return compiled;
  const byLanguage = new Map<Language, { signals: Signal[]; sources: string[] }>();
  for (const [signal, sources] of Object.entries(SIGNAL_SOURCES) as [Signal, Partial<Record<Language, string>>][]) {
    for (const [language, source] of Object.entries(sources) as [Language, string][]) {
      if (!byLanguage.has(language)) byLanguage.set(language, { signals: [], sources: [] });
      byLanguage.get(language)!.signals.push(signal);
      byLanguage.get(language)!.sources.push(source);
    }
  }
  compiled = new Map();
  for (const [language, { signals, sources }] of byLanguage) {
    compiled.set(language, { set: new RE2.Set(sources, 'mu'), signals, regexes: sources.map((source) => new RE2(source, 'gmu')) });
  }
  return compiled;
}

function languageOf(file: TextFile): Language | undefined {
  if (file.type === 'python' || file.type === 'shell') return file.type;
  if (file.type === 'javascript' || file.type === 'typescript') return 'javascript';
  return undefined;
}

interface Site {
  file: TextFile;
  index: number;
  text: string;
}

/** Lines skipped looking for an environment collection that is not a child process's env. */
const MAX_SKIPPED = 20;

/** The first occurrence of a signal in a file (global regex), skipping environments handed to child processes. */
function firstSite(regex: RE2, file: TextFile, signal: Signal): Site | undefined {
  regex.lastIndex = 0;
  let site: Site | undefined;
  for (let match = regex.exec(file.text), skipped = 0; match !== null && skipped < MAX_SKIPPED; match = regex.exec(file.text), skipped++) {
    const start = matchStart(match.index, match[0]);
    if (signal !== 'collects_environment' || !CHILD_ENV.test(file.lines.lineTextAt(start))) {
      site = { file, index: start, text: match[0] };
      break;
    }
    const nextLine = file.text.indexOf('\n', start);
    if (nextLine < 0) break;
    regex.lastIndex = nextLine + 1;
  }
  regex.lastIndex = 0;
  return site;
}

/** Where each signal first occurs in each code file. */
function collectSites(files: readonly TextFile[]): Map<Signal, Site[]> {
  const sites = new Map<Signal, Site[]>();
  const patterns = signalPatterns();
  for (const file of files) {
    const language = languageOf(file);
    const compiledLanguage = language ? patterns.get(language) : undefined;
    if (!compiledLanguage) continue;
    for (const index of compiledLanguage.set.match(file.text)) {
      const signal = compiledLanguage.signals[index]!;
      const site = firstSite(compiledLanguage.regexes[index]!, file, signal);
      if (!site) continue;
      if (!sites.has(signal)) sites.set(signal, []);
      sites.get(signal)!.push(site);
    }
  }
  return sites;
}

const where = (site: Site) => `${site.file.path}:${site.file.lines.lineOf(site.index)}`;

/** package.json install hooks that run a script of the skill: `"postinstall": "node scripts/setup.js"`. */
const INSTALL_HOOK = new RE2('"((?:pre|post)?install|prepare)"\\s*:\\s*"(?:node|python3?|bash|sh)\\s+(?:\\./)?([^"\\s]+)', 'u');

export function correlationFindings(files: readonly TextFile[]): AnalyzerFinding[] {
  const findings: AnalyzerFinding[] = [];
  const sites = collectSites(files);
  const at = (signal: Signal) => sites.get(signal) ?? [];

  const sender = at('sends_data')[0];
  if (sender) {
    const collected: [Signal, string][] = [['collects_environment', 'the whole environment'], ['reads_credentials', 'a credential file']];
    for (const [signal, what] of collected) {
      for (const source of at(signal)) {
        findings.push(findingAt({
          rule_id: 'SS-FLOW-SECRETS-SENT',
          category: 'data_exfiltration',
          severity: 'HIGH',
          title: 'Environment or credentials collected by a skill that sends data out',
          description: `${source.file.path} collects ${what}, and ${where(sender)} posts data to the network.`,
          remediation: 'Send only the specific values an API needs, never the environment or credential files; disclose any telemetry.',
          metadata: { signal, source: excerpt(source.text), sink: where(sender) },
        }, source.file, source.index));
      }
    }
  }

  for (const download of at('downloads')) {
    const executable = at('makes_executable').find((s) => s.file === download.file);
    if (!executable) continue;
    findings.push(findingAt({
      rule_id: 'SS-FLOW-DOWNLOAD-EXECUTABLE',
      category: 'supply_chain_attack',
      severity: 'HIGH',
      title: 'Code downloads a program and makes it executable',
      description: `${download.file.path} downloads content and marks a file executable (${where(executable)}): an unreviewed program will run.`,
      remediation: 'Ship the program with the skill, or verify a published checksum and signature before running it.',
      metadata: { download: excerpt(download.text), executable: where(executable) },
    }, download.file, download.index));
  }

  for (const manifest of files) {
    if (baseName(manifest.path) !== 'package.json') continue;
    const hook = INSTALL_HOOK.exec(manifest.text);
    if (!hook) continue;
    const folder = manifest.path.includes('/') ? manifest.path.slice(0, manifest.path.lastIndexOf('/') + 1) : '';
    const script = files.find((f) => f.path === `${folder}${hook[2]}`);
    const network = script ? [...at('downloads'), ...at('sends_data')].find((s) => s.file === script) : undefined;
    if (!script || !network) continue;
    findings.push(findingAt({
      rule_id: 'SS-FLOW-INSTALL-HOOK-NETWORK',
      category: 'supply_chain_attack',
      severity: 'HIGH',
      title: 'Install hook runs a script that reaches the network',
      description: `The ${hook[1]} hook runs ${script.path}, which contacts the network (${where(network)}) when the package is installed, before anyone reviews it.`,
      remediation: 'Remove the install hook; ship what it downloads, or let the user run a documented setup step.',
      metadata: { hook: hook[1], script: script.path, network: where(network) },
    }, manifest, hook.index));
  }
  return findings;
}
