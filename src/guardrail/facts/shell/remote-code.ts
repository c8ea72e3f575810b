// Download-and-execute: which commands fetch content from the network, which commands run what they are
// given as code (a shell reading its standard input, `python3 -`, `bash FILE`, `source`), and the hosts
// the content came from. The walker joins the two: `curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`,
// `curl -o x.sh … && bash x.sh`.
import { findUrls, hostOfAddress } from '../urls.js';
import { HOST_EFFECTS } from './network-effects.js';
import { catalogEntry, roleOptions, type CommandEntry } from './catalog.js';
import { hasOption, optionValues, parseOptions } from './options.js';
import { SHELLS } from './spawned.js';
import type { Script } from './syntax.js';

export const DOWNLOADERS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'xhs', 'lwp-request', 'GET', 'axel', 'wget2', 'curlie',
  'iwr', 'irm', 'Invoke-WebRequest', 'Invoke-RestMethod',
]);

/** Interpreters that run a program read from standard input when given no program (or `-`). */
const STDIN_INTERPRETERS = /^(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|bun|deno|lua[0-9.]*|Rscript|osascript|pwsh|powershell)$/;
/** Their options that mean "the program is in the arguments" or "run a module", so stdin is data. */
const PROGRAM_GIVEN = /^(-[A-Za-z]*[cemrEp]|--eval|--print|-Command|-command|-File|-file|-EncodedCommand|-m|run|eval|x|exec)$/;

/** Hosts a downloader command line contacts ('' when none is visible). */
export function downloadHosts(name: string, args: readonly string[]): string[] {
  const hosts = new Set<string>();
  for (const a of args) if (a.includes('://')) findUrls(a, (u) => hosts.add(hostOfAddress(u)));
  const effect = HOST_EFFECTS.get(name);
  if (hosts.size === 0 && effect) {
    effect(args, { addHost: (h) => hosts.add(hostOfAddress(h)), addUrl: (u) => hosts.add(hostOfAddress(u)), addRead: () => {}, addWrite: () => {} });
  }
  if (hosts.size === 0) for (const a of args) if (!a.startsWith('-') && /^[A-Za-z0-9.-]+\.[A-Za-z]{2,}(:\d+)?(\/|$)/.test(a)) hosts.add(hostOfAddress(a));
  hosts.delete('');
  return hosts.size === 0 ? [''] : [...hosts];
}

/** The downloaders the command catalogue describes, with the options naming the file they save to. */
const CATALOGUED_DOWNLOADERS: ReadonlyMap<string, { entry: CommandEntry; save: string[] }> = new Map(
  ['curl', 'wget', 'wget2'].map((name) => {
    const entry = catalogEntry(name);
    return [name, { entry, save: [...roleOptions(entry, 'save')] }];
  }),
);

/** Files a downloader saves (curl -o F / -O, wget -O F or the URL's basename), by basename. */
export function downloadedFiles(name: string, args: readonly string[]): string[] {
  const files: string[] = [];
  const urlBase = (): string | undefined => {
    for (const a of args) if (a.includes('://')) return a.replace(/[?#].*$/, '').split('/').pop() || undefined;
    return undefined;
  };
  const downloader = CATALOGUED_DOWNLOADERS.get(name);
  if (downloader) {
    const { entry } = downloader;
    const parsed = parseOptions(args, entry);
    const saved = optionValues(parsed, ...downloader.save);
    files.push(...saved);
    if (hasOption(parsed, ...(entry.remoteName ?? [])) || (entry.savesUnderUrlName && saved.length === 0)) files.push(urlBase() ?? '');
  } else if (name === 'aria2c' || name === 'fetch' || name === 'axel') {
    files.push(urlBase() ?? '');
  }
  return files.filter((f) => f !== '' && f !== '-' && f !== '/dev/stdout').map(baseName);
}

export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** Whether `name args` executes what arrives on its standard input. */
export function runsStdin(name: string, args: readonly string[]): boolean {
  if (SHELLS.has(name)) {
    const first = args.findIndex((a) => !a.startsWith('-') && !a.startsWith('+'));
    const flags = args.slice(0, first < 0 ? args.length : first);
    if (flags.some((f) => !f.startsWith('--') && f.includes('c'))) return false;
    return first < 0 || flags.some((f) => !f.startsWith('--') && f.includes('s')) || args[first] === '-';
  }
  if (name === 'iex' || name === 'Invoke-Expression') return true;
  if (!STDIN_INTERPRETERS.test(name)) return false;
  if (args.some((a) => PROGRAM_GIVEN.test(a))) return false;
  const operand = args.find((a) => !a.startsWith('-') || a === '-');
  return operand === undefined || operand === '-';
}

/** Whether `name` runs a program given as a file operand (a shell, `source`, an interpreter). */
export function runsFileOperand(name: string): boolean {
  return SHELLS.has(name) || name === 'source' || name === '.' || STDIN_INTERPRETERS.test(name);
}

/** The hosts of every downloader among the top-level commands of a substitution's scripts. */
export function substitutionDownloads(scripts: readonly Script[]): string[] {
  const hosts: string[] = [];
  for (const script of scripts) {
    for (const pipeline of script) {
      for (const command of pipeline.commands) {
        if (command.kind !== 'simple' || command.words.length === 0) continue;
        const argv = command.words.map((w) => w.text);
        const name = baseName(argv[0]!);
        const inner = name === 'sudo' || name === 'env' || name === 'command' ? argv.slice(1).filter((a) => !a.startsWith('-') && !a.includes('=')) : argv;
        const innerName = baseName(inner[0] ?? '');
        if (DOWNLOADERS.has(innerName)) hosts.push(...downloadHosts(innerName, inner.slice(1)));
      }
    }
  }
  return hosts;
}
