// The one runner of the shell facts case files (test/guardrail/cases/*.yaml), in the way regorus keeps its
// cases as data: each case is a command (a Bash tool call), optionally the working directory of the call,
// and what must come out of it. A case checks only the keys it has:
//   facts        every fact of the compact summary (commands, pipelines, read, write, hosts, urls, parsed);
//                a list not given must be empty
//   path_ops     the path operations, as `op[ -r] scope path`, in order
//   remote_code  the hosts whose content runs
//   commands_include  command texts that must be among the commands
//   verdict      the default rule pack's action (`block`, `allow`…), or `not block`
// Adding a case is adding a few lines of YAML; a new kind of expectation is a new key here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { extractFacts } from '../../src/guardrail/facts/index.js';
import { defaultInspector } from '../corpus/lanes/lane.js';
import { NOTHING, summary, type Summary } from '../helpers/facts.js';

interface ShellCase {
  name: string;
  command: string;
  cwd?: string;
  facts?: Partial<Summary>;
  path_ops?: string[];
  remote_code?: string[];
  commands_include?: string[];
  verdict?: string;
}

interface CaseFile {
  suites: { suite: string; cases: ShellCase[] }[];
}

const KEYS = new Set(['name', 'command', 'cwd', 'facts', 'path_ops', 'remote_code', 'commands_include', 'verdict']);
const CASES_DIR = join(import.meta.dirname, 'cases');
let inspector: ReturnType<typeof defaultInspector> | undefined;

function check(c: ShellCase): void {
  const unknown = Object.keys(c).filter((key) => !KEYS.has(key));
  assert.deepEqual(unknown, [], 'a case key this runner does not know would check nothing');
  assert.ok(c.facts ?? c.path_ops ?? c.remote_code ?? c.commands_include ?? c.verdict, 'a case must expect something');
  const facts = extractFacts('Bash', { command: c.command }, c.cwd);
  if (c.facts) assert.deepEqual(summary(facts), { ...NOTHING, ...c.facts });
  if (c.path_ops) {
    assert.deepEqual((facts.path_ops ?? []).map((o) => `${o.op}${o.recursive ? ' -r' : ''} ${o.scope} ${o.path}`), c.path_ops);
  }
  if (c.remote_code) assert.deepEqual(facts.remote_code ?? [], c.remote_code);
  if (c.commands_include) {
    const texts = facts.commands.map((command) => command.text);
    for (const text of c.commands_include) assert.ok(texts.includes(text), `${text} is not among ${JSON.stringify(texts)}`);
  }
  if (c.verdict) {
    inspector ??= defaultInspector();
    const action = inspector.tool('Bash', { command: c.command }, { cwd: c.cwd }).verdict.raw_action;
    if (c.verdict === 'not block') assert.notEqual(action, 'block');
    else assert.equal(action, c.verdict);
  }
}

const files = readdirSync(CASES_DIR).filter((f) => f.endsWith('.yaml')).sort();
assert.ok(files.length > 0, `no case files in ${CASES_DIR}`);
for (const file of files) {
  const { suites } = parse(readFileSync(join(CASES_DIR, file), 'utf8')) as CaseFile;
  describe(file, () => {
    for (const { suite, cases } of suites) {
      describe(suite, () => {
        for (const c of cases) it(c.name, () => check(c));
      });
    }
  });
}
