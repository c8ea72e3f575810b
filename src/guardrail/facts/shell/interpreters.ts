// One-liners of other languages (`python -c`, `python3 -` with a heredoc, `node -e`, `perl -e`, `ruby -e`,
// `php -r`, `deno eval`, `bun -e`, `osascript -e`, `pwsh -c`): where their code is, and what it does that
// matters to the shell rules. The code is not parsed as its language; calls are recognised by name and
// their leading string literals read, which is enough for the shapes one-liners take:
//   - shell commands it spawns (`os.system("…")`, `subprocess.run([…])`, `execSync('…')`, backticks,
//     `do shell script "…"`), handed back to the shell walker;
//   - paths it deletes (`shutil.rmtree`, `os.remove`, `fs.rmSync`, `FileUtils.rm_rf`, `unlink` …), with
//     `~`/home lookups and the working directory recognised, so scope rules apply as to `rm`;
//   - whether it evaluates something fetched from the network (download and execute).
// Every scan is a linear pass (no nested quantifiers); literals are read by hand.
import { findUrls, hostOfAddress } from '../urls.js';
import { INTERPRETER_FIRST_LETTERS, INTERPRETERS, type InterpreterEntry, type InterpreterLanguage } from './catalog.js';

export interface InterpreterCode {
  /** Language family, for the few constructs that differ (backticks run shell only in perl/ruby/php). */
  language: InterpreterLanguage;
  code: string;
}

export interface CodeEffects {
  scripts: string[];
  argvs: string[][];
  deletes: { path: string; recursive: boolean }[];
  /** Hosts of fetched content that the code evaluates ('' when no host is visible); empty when none. */
  remoteCode: string[];
}

/** Each family's bundle patterns, compiled once: `-Ic` / `-ne` take the program next, perl's `-neCODE` attached. */
const BUNDLES = new Map(
  INTERPRETERS.map((entry) => {
    const { bundleCode, attachedAfter } = entry;
    return [entry, {
      bundle: bundleCode ? new RegExp(`^-[A-Za-z0-9]*[${bundleCode}]$`) : undefined,
      attached: bundleCode && attachedAfter ? new RegExp(`^-[${attachedAfter}]*[${bundleCode}]`) : undefined,
    }];
  }),
);

export function interpreterEntry(name: string): InterpreterEntry | undefined {
  if (!INTERPRETER_FIRST_LETTERS.has(name.charAt(0))) return undefined;
  return INTERPRETERS.find((entry) => entry.names.test(name));
}

export function interpreterLanguage(name: string): InterpreterCode['language'] | undefined {
  return interpreterEntry(name)?.language;
}

/** Whether `arg` carries the program: in the next argument, attached to it, or not at all (the catalogue's
 *  code options, bundles ending in a code letter, `--eval=CODE`, perl's `-neCODE`). */
export function codeOption(entry: InterpreterEntry, arg: string): 'next' | 'attached' | undefined {
  const option = entry.ignoreCase ? arg.toLowerCase() : arg;
  if (entry.code.includes(option)) return 'next';
  const { bundle, attached } = BUNDLES.get(entry)!;
  if (bundle?.test(arg)) return 'next';
  if (entry.code.some((long) => long.startsWith('--') && arg.startsWith(`${long}=`))) return 'attached';
  return attached?.test(arg) ? 'attached' : undefined;
}

/** The program text of an interpreter command line, from its arguments or its standard input. */
export function interpreterCode(name: string, args: readonly string[], stdin: string | undefined): InterpreterCode | undefined {
  const entry = interpreterEntry(name);
  if (!entry) return undefined;
  const { language } = entry;
  const parts: string[] = [];
  let programGiven = false;
  let moduleRun = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const where = codeOption(entry, a);
    if (where === 'next' && i + 1 < args.length) {
      let code = args[++i]!;
      if (language === 'powershell' && /^-(e|ec|encodedcommand)$/i.test(a)) code = Buffer.from(code, 'base64').toString('utf16le');
      parts.push(code);
      programGiven = true;
      if (language !== 'perl' && language !== 'applescript') break;
    } else if (where === 'attached') {
      parts.push(a.startsWith('--') ? a.slice(a.indexOf('=') + 1) : a.replace(BUNDLES.get(entry)!.attached!, ''));
      programGiven = true;
    } else if (a === '-m' || a === 'run') {
      moduleRun = true;
      break;
    } else if (!a.startsWith('-') || a === '-') {
      if (a === '-' && stdin !== undefined) parts.push(stdin);
      programGiven = true;
      break;
    }
  }
  if (!programGiven && !moduleRun && stdin !== undefined) parts.push(stdin);
  return parts.length === 0 ? undefined : { language, code: parts.join('\n') };
}

// ------------------------------------------------------------------ literals

interface Literal {
  value: string;
  end: number;
}

/** A string literal starting at `pos` (after optional Python prefixes): '…', "…", `…`, '''…''', """…""". */
function readString(code: string, pos: number): Literal | undefined {
  let i = pos;
  while (i < code.length && i - pos < 2 && /[rRbBfFuU]/.test(code[i]!)) i++;
  const q = code[i];
  if (q !== '"' && q !== "'" && q !== '`') return undefined;
  const triple = code.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  let value = '';
  for (let j = i + close.length; j < code.length; j++) {
    if (code.startsWith(close, j)) return { value, end: j + close.length };
    const c = code[j]!;
    if (c === '\\' && j + 1 < code.length) {
      const n = code[++j]!;
      value += n === 'n' ? '\n' : n === 't' ? '\t' : n;
    } else value += c;
  }
  return undefined;
}

function skipSpace(code: string, pos: number): number {
  while (pos < code.length && (code[pos] === ' ' || code[pos] === '\t' || code[pos] === '\n')) pos++;
  return pos;
}

/** `[ 'a', "b" ]` or `( 'a', 'b' )` (Ruby/Perl lists without brackets are read by the caller). */
function readList(code: string, pos: number): { items: string[]; end: number } | undefined {
  const open = code[pos];
  if (open !== '[' && open !== '(') return undefined;
  const closer = open === '[' ? ']' : ')';
  const items: string[] = [];
  let i = skipSpace(code, pos + 1);
  while (i < code.length && items.length < 256) {
    const lit = readString(code, i);
    if (!lit) break;
    items.push(lit.value);
    i = skipSpace(code, lit.end);
    if (code[i] === ',') i = skipSpace(code, i + 1);
  }
  return code[i] === closer || items.length > 0 ? { items, end: i + 1 } : undefined;
}

/** `'a', "b", 'c'` without brackets (Ruby and Perl `system "git", "push"`). */
function readLiterals(code: string, pos: number): { items: string[]; end: number } | undefined {
  const items: string[] = [];
  let i = pos;
  while (i < code.length && items.length < 256) {
    const lit = readString(code, i);
    if (!lit) break;
    items.push(lit.value);
    i = skipSpace(code, lit.end);
    if (code[i] !== ',') break;
    i = skipSpace(code, i + 1);
  }
  return items.length > 0 ? { items, end: i } : undefined;
}

// ------------------------------------------------------------------ calls

/** Calls that run their argument as a shell command or as an argv. */
const SPAWN_CALL = /(?:\bos\.system|\bos\.popen|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|\bcommands\.getoutput|\bpty\.spawn|\bos\.exec[lv]p?e?|\bos\.spawn[lv]p?e?|\bexecSync|\bexecFileSync|\bspawnSync|\bexecFile|\bexec|\bspawn|\bsystem|\bshell_exec|\bpassthru|\bpopen|\bproc_open|\bpcntl_exec|\bIO\.popen|\bOpen3\.\w+|\bBun\.spawnSync|\bBun\.spawn|\bBun\.\$|\bnew\s+Deno\.Command|\bDeno\.run|\$\.spawn|\bdo shell script|\bStart-Process|\bInvoke-Expression|\biex|\bos\.execute|\b[A-Za-z_]\w*\.(?:Popen|check_call|check_output|getoutput|getstatusoutput|call|run))\s*\(?\s*(?:\{\s*cmd\s*:\s*)?/g;
/** Backtick-style command execution in perl, ruby and php; `qx{}`, `%x()`. */
const BACKTICK_LANGUAGES = new Set(['perl', 'ruby', 'php']);
const QX = /(?:\bqx|%x)\s*([({[<|!/])/g;
/** Longest qx{…} / %x(…) body looked for (a bounded window keeps many unclosed ones linear). */
const MAX_QX = 4096;

/** Calls that delete a path given as their first argument, and whether they recurse. */
const DELETE_CALL = /(\bshutil\.rmtree|\brmtree|\bremove_tree|\bFileUtils\.(?:rm_rf|rm_r|rmtree|remove_dir|remove_entry_secure|remove_entry|rm_f|rm|remove|safe_unlink)|\brm_rf|\bfs(?:Extra|e)?\.(?:rmSync|rm|rmdirSync|rmdir|unlinkSync|unlink|removeSync|remove|emptyDirSync|emptyDir)|\bfs\.promises\.(?:rm|rmdir|unlink)|\b(?:rmSync|rmdirSync|unlinkSync|removeSync|emptyDirSync)|\brimraf(?:\.sync)?|\bDeno\.remove(?:Sync)?|\bos\.(?:remove|unlink|rmdir|removedirs)|\bFile\.(?:delete|unlink)|\bDir\.(?:rmdir|delete|unlink)|\bunlink|\brmdir|\bRemove-Item|\bdelete_all)\s*\(?\s*/g;
const RECURSIVE_CALL = /rmtree|remove_tree|rm_rf|rm_r\b|remove_dir|remove_entry|removeSync|emptyDir|rimraf|Remove-Item|delete_all|removedirs/;
const RECURSIVE_OPTION = /recursive\s*[:=]\s*(true|True|TRUE|\$true)|-Recurse|recursive\s*=>\s*1/;
/** `Path('x').unlink()`, `Path("x").rmdir()`, `pathlib.Path('x').rmtree()`. */
const PATH_METHOD = /\bPath\s*\(\s*/g;

/** Expressions meaning the home directory, or the working directory. */
const HOME_EXPR = /expanduser\s*\(|Path\.home\s*\(|\bhomedir\s*\(|process\.env\.HOME|process\.env\[\s*['"]HOME['"]\s*\]|environ\s*\[\s*['"]HOME['"]\s*\]|environ\.get\s*\(\s*['"]HOME['"]|getenv\s*\(\s*['"]HOME['"]|ENV\s*\[\s*['"]HOME['"]\s*\]|\$ENV\s*\{\s*['"]?HOME['"]?\s*\}|Dir\.home|\$HOME|\$env:USERPROFILE|\$env:HOME|Deno\.env\.get\s*\(\s*['"]HOME['"]/;
const CWD_EXPR = /^\s*(os\.getcwd\s*\(\s*\)|process\.cwd\s*\(\s*\)|Dir\.pwd|getcwd\s*\(\s*\)|Deno\.cwd\s*\(\s*\)|Path\.cwd\s*\(\s*\)|Path\s*\(\s*\)|\$PWD|\.)/;

/** What the first argument of a call at `pos` names as a path: a literal, `~`-based, the cwd, or unknown. */
function pathArgument(code: string, pos: number): string {
  const window = code.slice(pos, pos + 240);
  const end = argumentEnd(window);
  const arg = window.slice(0, end);
  const home = HOME_EXPR.exec(arg);
  if (home) {
    const lit = firstLiteral(home[0].endsWith('(') ? arg.slice(home.index + home[0].length) : arg.slice(home.index + home[0].length));
    const rest = lit === undefined || lit === '~' ? '' : lit.replace(/^~?\/?/, '');
    return rest === '' ? '~' : `~/${rest}`;
  }
  const lit = readString(code, skipSpace(code, pos));
  if (lit && /^\s*(\)|,|$|;|\n)/.test(code.slice(lit.end, lit.end + 2))) return lit.value;
  // os.path.join('/', d), path.resolve('..'): somewhere under the first literal.
  const joined = /\b(join|resolve)\s*\(/.exec(arg);
  if (joined) {
    const inner = arg.slice(joined.index + joined[0].length);
    const base = firstLiteral(inner);
    if (base !== undefined) return /,/.test(inner.slice(inner.indexOf(base) + base.length)) ? `${base.replace(/\/$/, '')}/*` : base;
  }
  if (CWD_EXPR.test(arg)) return '.';
  if (lit) return lit.value;
  return '$CODE';
}

/**
 * Length up to the first top-level stop: the bracket closing the call, `;` or a newline, and with `atComma`
 * a `,` (the end of the first argument). Quoted strings are skipped, so a bracket inside one is not a stop.
 */
function topLevelEnd(text: string, atComma: boolean): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    } else if ((c === ';' || c === '\n' || (atComma && c === ',')) && depth === 0) return i;
    else if (c === '"' || c === "'") {
      const lit = readString(text, i);
      if (lit) i = lit.end - 1;
    }
  }
  return text.length;
}

/** Length of the first argument (up to a top-level `,` or the closing bracket). */
const argumentEnd = (text: string) => topLevelEnd(text, true);
/** Length up to the bracket closing the call (commas included). */
const callEnd = (text: string) => topLevelEnd(text, false);

/** The first string literal of `text` that is not a module name (`require("os")`, `import('fs')`). */
function firstLiteral(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '"' && c !== "'") continue;
    const lit = readString(text, i);
    if (!lit) return undefined;
    if (!/(require|import)\s*\(\s*$/.test(text.slice(Math.max(0, i - 12), i))) return lit.value;
    i = lit.end - 1;
  }
  return undefined;
}

/** Code evaluation and network fetches: both in one program is download-and-execute. */
const EVAL_CALL: Record<InterpreterCode['language'], RegExp> = {
  python: /\b(exec|eval|execfile)\s*\(/,
  node: /\beval\b|\b(Function|runInNewContext|runInThisContext|runInContext)\s*\(|\bimport\s*\(\s*['"`]data:/,
  perl: /\beval\b/,
  ruby: /\b(eval|instance_eval|class_eval)\b/,
  php: /\beval\s*\(/,
  applescript: /\brun script\b/,
  powershell: /\b(Invoke-Expression|iex)\b/i,
  other: /\b(eval|loadstring|dofile)\s*\(/,
};
const FETCH_CALL = /\b(urlopen|urllib|urlretrieve|requests\.(get|post)|httpx|http\.client|fetch|https?\.get|https?\.request|axios|Net::HTTP|open-uri|URI\.open|URI\.parse|LWP|HTTP::Tiny|get\s*\(\s*['"]https?:|file_get_contents\s*\(\s*['"]https?:|curl_exec|DownloadString|DownloadFile|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient)\b/;
/** Shell download piped to a shell inside the code is found by walking the spawned shell text instead. */

/** Calls of each kind read per program: one-liners have a handful; crafted input gets no more work. */
const MAX_CALLS = 64;

export function analyseCode({ language, code }: InterpreterCode): CodeEffects {
  const effects: CodeEffects = { scripts: [], argvs: [], deletes: [], remoteCode: [] };
  for (const m of code.matchAll(SPAWN_CALL)) {
    if (effects.scripts.length + effects.argvs.length >= MAX_CALLS) break;
    // Python's exec() runs Python, not a shell command.
    if (language === 'python' && m[0].startsWith('exec') && !m[0].startsWith('execv')) continue;
    const at = m.index + m[0].length;
    const list = readList(code, at);
    if (list && list.items.length > 0) {
      effects.argvs.push(list.items);
      continue;
    }
    const lit = readString(code, at);
    if (!lit) continue;
    const after = skipSpace(code, lit.end);
    // `"rm -rf " + path`, f"rm -rf {path}", `rm -rf ${dir}`: the computed part is unknown.
    if (code[after] === '+' || code[after] === '.' || /\{[^}]*\}/.test(lit.value)) {
      effects.scripts.push(`${lit.value.replace(/\$?\{[^}]*\}/g, '$CODE')}${code[after] === '+' || code[after] === '.' ? '$CODE' : ''}`);
      continue;
    }
    const rest = code[after] === ',' ? readList(code, skipSpace(code, after + 1)) ?? readLiterals(code, skipSpace(code, after + 1)) : undefined;
    if (rest && rest.items.length > 0) effects.argvs.push([lit.value, ...rest.items]);
    else effects.scripts.push(lit.value);
  }
  if (BACKTICK_LANGUAGES.has(language)) {
    for (let i = code.indexOf('`'); i >= 0 && effects.scripts.length < MAX_CALLS; i = code.indexOf('`', i + 1)) {
      const lit = readString(code, i);
      if (!lit) break;
      effects.scripts.push(lit.value);
      i = lit.end - 1;
    }
    for (const m of code.matchAll(QX)) {
      if (effects.scripts.length >= MAX_CALLS) break;
      const open = m[1]!;
      const close = { '(': ')', '{': '}', '[': ']', '<': '>' }[open] ?? open;
      const start = m.index + m[0].length;
      const end = code.slice(start, start + MAX_QX).indexOf(close);
      if (end > 0) effects.scripts.push(code.slice(start, start + end));
    }
  }
  for (const m of code.matchAll(DELETE_CALL)) {
    if (effects.deletes.length >= MAX_CALLS) break;
    const at = m.index + m[0].length;
    const call = code.slice(m.index, at + callEnd(code.slice(at, at + 400)) + 1);
    const recursive = RECURSIVE_CALL.test(m[1]!) || RECURSIVE_OPTION.test(call) || (language === 'powershell' && /-r\b/i.test(call));
    const path = language === 'powershell' ? powershellPath(code.slice(at, at + 240)) : pathArgument(code, at);
    effects.deletes.push({ path, recursive });
  }
  for (const m of code.matchAll(PATH_METHOD)) {
    if (effects.deletes.length >= MAX_CALLS) break;
    const at = m.index + m[0].length;
    const end = at + argumentEnd(code.slice(at, at + 240));
    const method = /^\)\s*\.\s*(unlink|rmdir|rmtree)\b/.exec(code.slice(end, end + 20));
    if (method) effects.deletes.push({ path: pathArgument(code, at), recursive: method[1] === 'rmtree' });
  }
  if (EVAL_CALL[language].test(code) && (FETCH_CALL.test(code) || /https?:\/\//.test(code))) {
    const hosts: string[] = [];
    findUrls(code, (u) => hosts.push(hostOfAddress(u)));
    effects.remoteCode.push(...(hosts.length > 0 ? hosts : ['']));
  }
  return effects;
}

/** `Remove-Item -Recurse -Force C:\x`, `Remove-Item ~ -Recurse`: the first operand that is not an option. */
function powershellPath(text: string): string {
  const words = text.split(/[\s;|)]+/);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '' ) continue;
    if (/^-(path|literalpath)$/i.test(w)) return unquote(words[i + 1] ?? '');
    if (w.startsWith('-')) continue;
    return unquote(w);
  }
  return '$CODE';
}

function unquote(w: string): string {
  const p = w.replace(/^['"]|['"]$/g, '');
  if (/^[A-Za-z]:\\?$/.test(p)) return '/';
  if (/^(\$env:USERPROFILE|\$HOME|~)$/i.test(p)) return '~';
  return p.replace(/^(\$env:USERPROFILE|\$HOME)/i, '~');
}
