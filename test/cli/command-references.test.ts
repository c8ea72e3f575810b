// Every `warden …` command that Warden tells an operator to run must exist: an error message or a health
// answer that names a missing command leaves the operator stuck exactly when they need help. Checked against
// the commands the real CLI registers (its --help, in a subprocess), not against a list kept by hand.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadSettings } from '../../src/config/settings.js';
import { runCli, spawnGateway } from '../helpers/gateway.js';
import { EPHEMERAL_CONFIG, tempHome } from '../helpers/home.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface CommandHelp {
  /** Subcommand names listed under "Commands:" (commander's layout), without `help`. */
  subcommands: string[];
  /** Whether the usage line declares arguments (`setup [connector]`), so a non-subcommand word can be one. */
  takesArguments: boolean;
}

function parseHelp(help: string): CommandHelp {
  const usage = /^Usage: \S+(?: [a-z][a-z0-9-]*)* (.*)$/m.exec(help)?.[1] ?? '';
  const takesArguments = usage.split(' ').some((token) => token !== '' && token !== '[options]' && token !== '[command]');
  const section = help.split(/^Commands:$/m)[1]?.split(/\n\s*\n/)[0] ?? '';
  const subcommands = [...section.matchAll(/^ {2}([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
  return { subcommands, takesArguments };
}

const helpCache = new Map<string, Promise<CommandHelp>>();
function helpOf(path: string[], env: NodeJS.ProcessEnv): Promise<CommandHelp> {
  const key = path.join(' ');
  let known = helpCache.get(key);
  if (!known) {
    known = runCli([...path, '--help'], env).then((r) => {
      assert.equal(r.code, 0, `warden ${key} --help failed: ${r.stderr}`);
      return parseHelp(r.stdout);
    });
    helpCache.set(key, known);
  }
  return known;
}

/**
 * `warden <words…>` references in a text, each cut to its command path: words are followed while the command
 * so far has subcommands, so `warden start once` is `start`, `warden setup rotate-token --yes` is
 * `setup rotate-token` and `warden setup codex` is `setup` with an argument. Returns the references whose
 * command path does not exist.
 */
async function missingCommands(references: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const missing: string[] = [];
  for (const reference of references) {
    const words = reference.trim().split(/\s+/).slice(1);
    const path: string[] = [];
    for (const word of words) {
      if (!/^[a-z][a-z0-9-]*$/.test(word)) break; // an option, placeholder or punctuation ends the command
      const help = await helpOf(path, env);
      if (!help.subcommands.includes(word)) {
        // A leaf command, or one taking arguments: the rest is its arguments or prose.
        if ((help.subcommands.length === 0 || help.takesArguments) && path.length > 0) break;
        missing.push(`warden ${[...path, word].join(' ')}`);
        break;
      }
      path.push(word);
    }
  }
  return missing;
}

/** Lower-case `warden <word>` in running text (messages); `Warden` the product name is not a command. */
const referencesInMessage = (text: string): string[] => [...text.matchAll(/\bwarden(?:-gateway)?(?:[ \t]+[a-z][a-z0-9-]*)+/g)].map((m) => m[0]);

/** Code spans and fenced lines of Markdown that start with a `warden` command (optionally after `npx ` or `$ `). */
function referencesInMarkdown(text: string): string[] {
  const spans = [...text.matchAll(/`((?:npx )?warden(?:-gateway)? [^`\n]+)`/g)].map((m) => m[1]!);
  const fenced = [...text.matchAll(/^(?:\$ )?((?:npx )?warden(?:-gateway)? .+)$/gm)].map((m) => m[1]!);
  return [...spans, ...fenced].map((r) => r.replace(/^npx /, '').replace(/^warden-gateway/, 'warden'));
}

describe('commands named to the operator exist', () => {
  const home = tempHome(null);
  after(() => home.remove());

  it('the checker tells a registered command from a missing one (so the checks below can fail)', async () => {
    assert.deepEqual(await missingCommands(['warden setup rotate-token --yes', 'warden setup codex', 'warden start once', 'warden proxy key'], home.env), []);
    assert.deepEqual(await missingCommands(['warden no-such-command', 'warden sandbox no-such-tool', 'warden proxy no-such-tool'], home.env), [
      'warden no-such-command', 'warden sandbox no-such-tool', 'warden proxy no-such-tool',
    ]);
  });

  it('a version 8 config.yaml that cannot be migrated: the start error names `warden migrate`, which exists', async () => {
    // Unmigratable in memory (a rule pack folder that does not exist), or a build without the migration: either
    // way the start stops with one line naming the command.
    const old = tempHome('config_version: 8\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\n  rule_pack_dir: /nonexistent/warden-pack\n', { WARDEN_GATEWAY_TOKEN: 't' });
    try {
      const configPath = join(old.dir, 'config.yaml');
      const refused = await runCli(['start'], old.env);
      assert.equal(refused.code, 1);
      const message = refused.stderr.trim();
      assert.equal(message.split('\n').length, 1, `one line for an operator error: ${message}`);
      assert.match(message, /config_version 8/);
      assert.match(message, /run `warden migrate`/);
      assert.deepEqual(await missingCommands(referencesInMessage(message), old.env), [], message);
      assert.ok(message.includes(configPath), 'names the file');
      assert.equal(readFileSync(configPath, 'utf8').startsWith('config_version: 8'), true, 'the refused file is left as it was');
    } finally {
      old.remove();
    }
  });

  it('a config.yaml too old to migrate: the start error names no missing command, and the advice it gives works', async () => {
    const old = tempHome('config_version: 6\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\n', { WARDEN_GATEWAY_TOKEN: 't' });
    try {
      const configPath = join(old.dir, 'config.yaml');
      const refused = await runCli(['start'], old.env);
      assert.equal(refused.code, 1);
      const message = refused.stderr.trim();
      assert.equal(message.split('\n').length, 1, `one line for an operator error: ${message}`);
      assert.deepEqual(await missingCommands(referencesInMessage(message), old.env), [], message);
      assert.match(message, /config_version 6/);
      assert.match(message, /config_version 9 only/);
      assert.ok(message.includes(configPath), 'names the file');
      assert.equal(readFileSync(configPath, 'utf8').startsWith('config_version: 6'), true, 'the refused file is left as it was');

      // The advice: move the file aside, and the next start writes a fresh version 9 file.
      const aside = /rename it to (\S+?\.v6)\b/.exec(message)?.[1];
      assert.ok(aside, `the message says where to move the file: ${message}`);
      renameSync(configPath, aside);
      // What `warden start` loads first (in process: the fresh file listens on the fixed default ports, which
      // a parallel test may hold).
      const settings = loadSettings({ env: old.env, initialise: true });
      assert.equal(settings.createdConfig, true);
      assert.equal(settings.config.config_version, 9);
      assert.match(readFileSync(configPath, 'utf8'), /^config_version: 9$/m);
      assert.ok(existsSync(aside), 'the old file is kept where the operator moved it');
    } finally {
      old.remove();
    }
  });

  it('a legacy standalone sandbox host: /health says what was detected and where, and names no missing command', async () => {
    const legacy = tempHome(`${EPHEMERAL_CONFIG}openshell:\n  mode: standalone\n`, { WARDEN_GATEWAY_TOKEN: 't' });
    try {
      const gw = await spawnGateway(legacy.env);
      try {
        const health = (await (await fetch(`${gw.sidecar}/health`)).json()) as { subsystems: { sandbox: { state: string; last_error: string } } };
        const { state, last_error: lastError } = health.subsystems.sandbox;
        assert.equal(state, 'degraded');
        assert.match(lastError, /legacy standalone install detected/);
        assert.deepEqual(await missingCommands(referencesInMessage(lastError), legacy.env), [], lastError);
        assert.ok(lastError.includes(join(legacy.dir, 'config.yaml')), `names the file: ${lastError}`);
        assert.match(lastError, /openshell\.mode: standalone/);
      } finally {
        await gw.terminate();
      }
    } finally {
      legacy.remove();
    }
  });

  it('the README and docs/ name only commands that exist', async () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
    const missing: string[] = [];
    for (const file of files) {
      for (const command of await missingCommands(referencesInMarkdown(readFileSync(join(ROOT, file), 'utf8')), home.env)) {
        missing.push(`${file}: ${command}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

