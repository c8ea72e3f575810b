// `warden setup <connector>` as users run it: the real CLI in a subprocess, with HOME and WARDEN_HOME in temp dirs,
// editing each agent's own hook configuration.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BUILTIN_CONNECTORS } from '../../src/connectors/registry.js';
import { runCli } from '../helpers/gateway.js';
import { tempHome, type TempHome } from '../helpers/home.js';

// Where curl >= 7.68 is on PATH (scripts/bootstrap.sh installs it), setup installs the sh command.
const SCRIPT_NAME = 'warden-hook.sh';
const eventsOf = (name: string) => BUILTIN_CONNECTORS.find((c) => c.name === name)!.hook_events;
type Json = Record<string, unknown>;

let home: TempHome;
let user = '';
let env: NodeJS.ProcessEnv;
const setup = (...args: string[]) => runCli(['setup', ...args], env);
const userFile = (path: string) => join(user, path);
const write = (path: string, text: string) => {
  mkdirSync(dirname(userFile(path)), { recursive: true });
  writeFileSync(userFile(path), text);
};
const read = (path: string) => readFileSync(userFile(path), 'utf8');
const backups = (path: string) => readdirSync(dirname(userFile(path))).filter((f) => f.startsWith(`${path.split('/').at(-1)}.warden-backup-`));

beforeEach(() => {
  home = tempHome();
  user = mkdtempSync(join(tmpdir(), 'warden-user-'));
  env = { ...home.env, HOME: user };
});
afterEach(() => {
  home.remove();
  rmSync(user, { recursive: true, force: true });
});

/** Our commands per event in a Claude Code-shaped `{Event: [{matcher?, hooks: [{command}]}]}` map. */
const nestedCommands = (container: Json) => new Map(Object.entries(container).map(([event, groups]) => [
  event, (groups as { hooks: { command: string }[] }[]).flatMap((g) => g.hooks).map((h) => h.command).filter((c) => c.includes(SCRIPT_NAME)),
]));

/** Installs twice (the second run changes nothing), undoes, and checks the file is as the user left it. */
async function roundTrip(connector: string, original: string | undefined, check: (text: string) => void): Promise<void> {
  const path = FILES[connector]!;
  if (original !== undefined) write(path, original);
  const first = await setup(connector);
  assert.equal(first.code, 0, first.stderr);
  const installed = read(path);
  check(installed);
  const saved = backups(path).map((f) => readFileSync(join(dirname(userFile(path)), f), 'utf8'));
  assert.deepEqual(saved, original === undefined ? [] : [original], 'one backup, of the file as it was');
  const again = await setup(connector);
  assert.match(again.stdout, /already installed .*\(unchanged\)/, again.stderr);
  assert.deepEqual([read(path), backups(path).length], [installed, saved.length], 'a second run changes nothing');
  const undone = await setup(connector, '--undo');
  assert.equal(undone.code, 0, undone.stderr);
  if (original === undefined) assert.ok(!existsSync(userFile(path)), 'a file that held only our hooks is removed');
  else assert.equal(read(path), original);
}

const FILES: Record<string, string> = {
  claudecode: '.claude/settings.json', codex: '.codex/config.toml', cursor: '.cursor/hooks.json',
  windsurf: '.codeium/windsurf/hooks.json', geminicli: '.gemini/settings.json', copilot: '.copilot/hooks/warden.json',
  openhands: '.openhands/hooks.json', antigravity: '.gemini/config/hooks.json', opencode: '.config/opencode/plugins/warden.js',
  hermes: '.hermes/config.yaml', omnigent: '.omnigent/settings.json',
};

describe('warden setup claudecode', () => {
  const original = `${JSON.stringify({
    model: 'opus',
    permissions: { allow: ['Bash(ls:*)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo user-hook' }] }] },
  }, null, 2)}\n`;

  it('hooks every event, keeps user settings and hooks, backs up, is idempotent, and --undo removes only ours', async () => {
    await roundTrip('claudecode', original, (text) => {
      const settings = JSON.parse(text) as { model: string; permissions: Json; hooks: Json };
      assert.deepEqual([settings.model, settings.permissions], ['opus', { allow: ['Bash(ls:*)'] }]);
      const ours = nestedCommands(settings.hooks);
      assert.deepEqual([...ours.keys()].sort(), [...eventsOf('claudecode')].sort());
      // Exactly one command per event (two would not match as one line), with the event named.
      for (const event of eventsOf('claudecode')) {
        assert.match(ours.get(event)!.join('|'), new RegExp(`^/bin/sh \\S+${SCRIPT_NAME} claudecode --home \\S+ --event ${event}$`), event);
      }
      const preToolUse = (settings.hooks.PreToolUse as { matcher: string; hooks: { command: string }[] }[]);
      assert.deepEqual(preToolUse[0], { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo user-hook' }] });
      assert.equal(preToolUse[1]?.matcher, '*');
    });
  });

  it('writes a 0600 hook token and the script settings; config.yaml supplies fail mode and sidecar', async () => {
    writeFileSync(join(home.dir, 'config.yaml'), 'config_version: 9\ngateway:\n  api_port: 18999\nguardrail:\n  hook_fail_mode: open\n');
    const result = await setup('claudecode');
    assert.equal(result.code, 0, result.stderr);
    const tokenFile = join(home.dir, 'hooks', 'claudecode.token');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    assert.match(readFileSync(tokenFile, 'utf8'), /^wh_[0-9a-f]{64}\n$/);
    const settings = JSON.parse(readFileSync(join(home.dir, 'hooks', 'claudecode.json'), 'utf8')) as Json;
    assert.deepEqual(settings, {
      connector: 'claudecode', sidecar: 'http://127.0.0.1:18999', fail_mode: 'open', token_file: tokenFile,
      fail_closed: { gates: ['UserPromptSubmit', 'PreToolUse'], refusal: { stderr: '{{reason}}', exit_code: 2 } },
    });
    assert.match(result.stdout, /no running gateway/);
    const curlrc = join(home.dir, 'hooks', 'claudecode.curlrc');
    assert.equal(statSync(curlrc).mode & 0o777, 0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.match(readFileSync(curlrc, 'utf8'), new RegExp(`\\n# sidecar=http://127\\.0\\.0\\.1:18999\\n# total_ms=10000\\nheader = "Authorization: Bearer ${token}"\\n$`));
    assert.equal((await setup('claudecode', '--fail-mode', 'closed')).code, 0);
    assert.equal((JSON.parse(readFileSync(join(home.dir, 'hooks', 'claudecode.json'), 'utf8')) as Json).fail_mode, 'closed');
    const undone = await setup('claudecode', '--undo');
    assert.equal(undone.code, 0, undone.stderr);
    assert.ok(!existsSync(tokenFile) && !existsSync(join(home.dir, 'hooks', 'claudecode.json')) && !existsSync(curlrc));
  });

  it('installs the Node command, and no curlrc, where no curl is on PATH', async () => {
    const result = await runCli(['setup', 'claudecode'], { ...env, PATH: '/nonexistent' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /hook command: \S+ hooks\/warden-hook\.mjs \(no curl >= 7\.68 on PATH/);
    const ours = nestedCommands((JSON.parse(read(FILES.claudecode!)) as { hooks: Json }).hooks);
    assert.equal(ours.get('PreToolUse')!.length, 0, 'no sh command');
    const commands = JSON.stringify(JSON.parse(read(FILES.claudecode!)));
    assert.match(commands, new RegExp(`"${process.execPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\S+warden-hook\\.mjs claudecode --home \\S+ --event PreToolUse"`));
    assert.ok(!existsSync(join(home.dir, 'hooks', 'claudecode.curlrc')));
    const again = await setup('claudecode');
    assert.match(again.stdout, /hook installed in .*settings\.json/, 'switching to the sh command replaces the Node entries in place');
    assert.equal(nestedCommands((JSON.parse(read(FILES.claudecode!)) as { hooks: Json }).hooks).get('PreToolUse')!.length, 1);
  });

  it("keeps the user's comments, trailing commas and formatting in a commented settings file", async () => {
    const commented = [
      '// My Claude Code settings',
      '{',
      '    "model": "opus", // the big one',
      '    /* hooks I wrote myself */',
      '    "hooks": {',
      '        "PreToolUse": [',
      '            // audit every shell call',
      '            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo user-hook" }] },',
      '        ],',
      '    },',
      '}',
      '',
    ].join('\n');
    await roundTrip('claudecode', commented, (text) => {
      for (const line of commented.split('\n').slice(0, 8)) assert.ok(text.includes(`${line}\n`), `kept: ${line}`);
      assert.match(text, /\n {12}\{\n {16}"matcher": "\*",\n {16}"hooks": \[\n {20}\{\n {24}"type": "command",\n {24}"command": "[^"]+warden-hook\.sh claudecode [^"]+--event PreToolUse"/);
      for (const event of eventsOf('claudecode')) assert.match(text, new RegExp(`\\n {8}"${event}": \\[`), event);
    });
  });

  it('refuses a commented settings file that is broken, naming the problem and leaving it untouched', async () => {
    const broken = '{\n  "model": "opus", /* the big one\n}\n';
    write(FILES.claudecode!, broken);
    const result = await setup('claudecode');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\.claude\/settings\.json: invalid JSON: UnexpectedEndOfComment at line 2, column 20; the file was left unchanged/);
    assert.equal(read(FILES.claudecode!), broken);
    assert.deepEqual(backups(FILES.claudecode!), []);
  });

  it('refuses an agent config it cannot parse, naming it and leaving it (and Warden) untouched', async () => {
    write(FILES.claudecode!, '{"model": "opus",');
    const result = await setup('claudecode');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\.claude\/settings\.json: invalid JSON: .*; the file was left unchanged/);
    assert.match(result.stderr, /^warden: .*\(WARDEN_ERR_SETUP_FAILED\)\n$/, 'one line with its code, no stack');
    assert.equal(read(FILES.claudecode!), '{"model": "opus",');
    assert.ok(!existsSync(join(home.dir, 'hooks', 'claudecode.token')));
  });
});

describe('warden setup cursor', () => {
  it('adds flat entries for every event next to the user\'s own', async () => {
    const original = `${JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './audit.sh' }] } }, null, 2)}\n`;
    await roundTrip('cursor', original, (text) => {
      const file = JSON.parse(text) as { version: number; hooks: Record<string, { command: string }[]> };
      assert.equal(file.version, 1);
      assert.deepEqual([...Object.keys(file.hooks)].sort(), [...eventsOf('cursor')].sort());
      assert.equal(file.hooks.beforeShellExecution?.[0]?.command, './audit.sh');
      for (const event of eventsOf('cursor')) assert.equal(file.hooks[event]!.filter((h) => h.command.includes(SCRIPT_NAME)).length, 1, event);
    });
  });

  it('a second run leaves their later additions, and the order of keys, exactly as they are', async () => {
    assert.equal((await setup('cursor')).code, 0);
    const file = JSON.parse(read(FILES.cursor!)) as { hooks: Json; theme?: string };
    file.hooks.afterTabFileEdit = [{ command: './format.sh' }];
    file.theme = 'dark';
    write(FILES.cursor!, `${JSON.stringify(file, null, 4)}\n`);
    const edited = read(FILES.cursor!);
    assert.equal((await setup('cursor')).code, 0);
    assert.equal(read(FILES.cursor!), edited);
    assert.equal((await setup('cursor', '--undo')).code, 0);
    assert.deepEqual(JSON.parse(read(FILES.cursor!)), { version: 1, hooks: { afterTabFileEdit: [{ command: './format.sh' }] }, theme: 'dark' });
    assert.match(read(FILES.cursor!), /^ {4}"version": 1,$/m, "the file's own indentation is kept");
  });
});

describe('warden setup codex (config.toml)', () => {
  const original = '# my settings\nmodel = "gpt-5"\n\n[projects."/home/me/app"]\ntrust_level = "trusted"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = [\n  "-y",\n  "[not-a-table]",\n]\n';

  it('adds [[hooks.<Event>]] tables and notify, keeps everything else, and --undo restores the file', async () => {
    await roundTrip('codex', original, (text) => {
      assert.ok(text.startsWith('# my settings\nmodel = "gpt-5"\n'));
      assert.match(text, /\n# warden: .*\nnotify = \["\/bin\/sh", "[^"]+warden-hook\.sh", "codex", "--home", "[^"]+", "--notify"\]\n\n\[projects\."\/home\/me\/app"\]/);
      for (const event of eventsOf('codex')) {
        assert.match(text, new RegExp(`\\[\\[hooks\\.${event}\\]\\]\\n\\[\\[hooks\\.${event}\\.hooks\\]\\]\\ntype = "command"\\ncommand = ".*--event ${event}"`));
      }
      assert.ok(text.includes('args = [\n  "-y",\n  "[not-a-table]",\n]\n'));
      assertValidToml(text);
    });
  });

  it("keeps the user's own notify program and says so", async () => {
    write(FILES.codex!, 'notify = ["notify-send", "done"]\n');
    const result = await setup('codex');
    assert.match(result.stdout, /already sets notify to another program/, result.stderr);
    assert.match(read(FILES.codex!), /^notify = \["notify-send", "done"\]\n[^]*\[\[hooks\.PreToolUse\]\]/);
  });

  it('refuses a config.toml that is not TOML, naming the line, and leaves it (and Warden) untouched', async () => {
    write(FILES.codex!, 'model = "gpt-5\n[projects]\n');
    const result = await setup('codex');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /config\.toml: invalid TOML: .*\(line 1, column \d+\); the file was left unchanged/);
    assert.equal(read(FILES.codex!), 'model = "gpt-5\n[projects]\n');
    assert.deepEqual(backups(FILES.codex!), []);
    assert.ok(!existsSync(join(home.dir, 'hooks', 'codex.token')));
  });

  it('refuses hooks written in a form our tables would clash with', async () => {
    write(FILES.codex!, '[hooks]\nPreToolUse = []\n');
    const result = await setup('codex');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /config\.toml: line 2 \("PreToolUse = \[\]"\).*left unchanged/);
    assert.equal(read(FILES.codex!), '[hooks]\nPreToolUse = []\n');
  });
});

/** config.toml must stay valid TOML (Codex refuses to start otherwise); checked with Python's tomllib where present. */
function assertValidToml(text: string): void {
  const python = spawnSync('python3', ['-c', 'import sys, tomllib; tomllib.loads(sys.stdin.read())'], { input: text, encoding: 'utf8' });
  if (python.error || /No module named .?tomllib/.test(python.stderr)) return; // no Python 3.11 here: the text checks stand
  assert.equal(python.status, 0, python.stderr);
}

describe('warden setup geminicli and hermes', () => {
  it('geminicli: hooks in ~/.gemini/settings.json next to the user\'s settings', async () => {
    const original = `${JSON.stringify({ theme: 'dark', hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'lint' }] }] } }, null, 2)}\n`;
    await roundTrip('geminicli', original, (text) => {
      const settings = JSON.parse(text) as { theme: string; hooks: Json };
      const ours = nestedCommands(settings.hooks);
      for (const event of eventsOf('geminicli')) assert.equal(ours.get(event)?.length, 1, event);
      assert.equal(settings.theme, 'dark');
      assert.equal((settings.hooks.BeforeTool as unknown[]).length, 2);
    });
  });

  it("hermes: the hooks: block of ~/.hermes/config.yaml, keeping comments and the user's hooks", async () => {
    const original = '# Hermes settings\nmodel:\n  default: nous/hermes # the default\nhooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/guard.sh\n  outbound:\n    - url: https://ci.example.com/hermes\n';
    await roundTrip('hermes', original, (text) => {
      assert.ok(text.startsWith('# Hermes settings\nmodel:\n  default: nous/hermes # the default\n'));
      assert.match(text, /- matcher: terminal\n\s+command: ~\/\.hermes\/agent-hooks\/guard\.sh\n\s+- command: \/bin\/sh \S+warden-hook\.sh hermes --home \S+ --event pre_tool_call\n\s+fail_closed: true\n/);
      assert.match(text, /outbound:\n\s+- url: https:\/\/ci\.example\.com\/hermes/);
      for (const event of ['on_session_start', 'pre_llm_call', 'post_tool_call', 'post_llm_call', 'on_session_end']) {
        assert.match(text, new RegExp(`${event}:\\n\\s+- command: .*--event ${event}\\n`));
      }
    });
  });
});

describe('warden setup, every other connector', () => {
  for (const connector of ['windsurf', 'copilot', 'openhands', 'antigravity', 'opencode', 'omnigent']) {
    it(`${connector}: installs into ${FILES[connector]}, is idempotent, and --undo removes the file it created`, async () => {
      await roundTrip(connector, undefined, (text) => assert.ok(text.includes(SCRIPT_NAME)));
    });
  }
});

describe('warden setup --list and errors', () => {
  it('--list shows one row per hook connector with its state and config file', async () => {
    assert.equal((await setup('cursor')).code, 0);
    const list = await setup('--list');
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split('\n').map((r) => r.split(/\s{2,}/));
    const hookConnectors = BUILTIN_CONNECTORS.filter((c) => c.hook_events.length > 0).map((c) => c.name);
    assert.deepEqual(rows.slice(1).map((r) => r[0]), hookConnectors);
    for (const row of rows.slice(1)) {
      assert.equal(row[1], row[0] === 'cursor' ? 'installed' : 'not installed');
      assert.equal(row[2], `~/${FILES[row[0]!]}`);
    }
  });

  it('names the known connectors for an unknown one, and refuses proxy connectors', async () => {
    const unknown = await setup('claude');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown connector "claude"; hook connectors: claudecode, codex, cursor/);
    for (const proxy of ['openclaw', 'zeptoclaw']) {
      const result = await setup(proxy);
      assert.deepEqual([result.code, result.stderr], [1, `warden: ${proxy} is a proxy connector: it has no hooks (its LLM traffic goes through the guardrail proxy) (WARDEN_ERR_SETUP_FAILED)\n`]);
    }
  });

  it('--help says what is written where', async () => {
    const help = await setup('--help');
    assert.equal(help.code, 0);
    const parts = ['hooks/<connector>.token', 'hooks/<connector>.json', 'hooks/<connector>.curlrc', '.warden-backup-', 'hook-failures.jsonl', '--undo', 'rotate-token'];
    for (const part of parts) assert.ok(help.stdout.includes(part), part);
  });
});
