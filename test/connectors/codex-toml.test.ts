// The smol-toml check on every config.toml Warden's line editor writes: an edit that would not parse, would lose or
// change one of the user's settings, or would not install what it should, is refused instead of written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'smol-toml';
import { checkCodexInstall, checkCodexRemove } from '../../src/connectors/setup/codex-toml-check.js';
import { installCodexConfig, removeCodexConfig } from '../../src/connectors/setup/codex-toml.js';

const TARGET = { connector: 'codex', home: '/home/me/.warden', failMode: 'closed' as const };
const EVENTS = ['PreToolUse', 'Stop'];
const USER = '# mine\nmodel = "gpt-5"\nnotify_sound = true\n\n[projects."/home/me/[app]"]\ntrust_level = "trusted"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "./audit.sh"\n';

describe('codex config.toml edits, checked with smol-toml', () => {
  it("a real edit parses, keeps the user's settings and hooks, and undo gives the file back", () => {
    const after = installCodexConfig(USER, EVENTS, TARGET);
    const doc = parse(after) as { model: string; notify: string[]; projects: Record<string, unknown>; hooks: Record<string, { hooks: { command: string }[] }[]> };
    assert.equal(doc.model, 'gpt-5');
    assert.deepEqual(JSON.parse(JSON.stringify(doc.projects)), { '/home/me/[app]': { trust_level: 'trusted' } }); // smol-toml's tables have no prototype
    assert.equal(doc.hooks.PreToolUse![0]!.hooks[0]!.command, './audit.sh');
    assert.match(doc.hooks.PreToolUse![1]!.hooks[0]!.command, /warden-hook\.mjs codex .*--event PreToolUse$/);
    assert.match(doc.notify.join(' '), /warden-hook\.mjs codex/);
    assert.equal(removeCodexConfig(after), USER);
  });

  it('refuses a user file that is not TOML, naming where', () => {
    assert.throws(() => installCodexConfig('model = "gpt-5\n', EVENTS, TARGET), /^AgentConfigError: invalid TOML: .*\(line 1, column \d+\)$/);
  });

  it('refuses an edit that would not parse', () => {
    const good = installCodexConfig(USER, EVENTS, TARGET);
    assert.throws(() => checkCodexInstall(USER, `${good}[[hooks.Stop]\n`, EVENTS), /would not be valid TOML/);
  });

  it("refuses an edit that loses or changes one of the user's keys", () => {
    const good = installCodexConfig(USER, EVENTS, TARGET);
    assert.doesNotThrow(() => checkCodexInstall(USER, good, EVENTS));
    assert.throws(() => checkCodexInstall(USER, good.replace('notify_sound = true\n', ''), EVENTS), /change or lose the file's own settings/);
    assert.throws(() => checkCodexInstall(USER, good.replace('trust_level = "trusted"', 'trust_level = "untrusted"'), EVENTS), /change or lose/);
    assert.throws(() => checkCodexInstall(USER, good.replace('command = "./audit.sh"', 'command = "./other.sh"'), EVENTS), /change or lose/);
  });

  it('refuses an edit that misses an event or puts notify anywhere but the top level', () => {
    const good = installCodexConfig(USER, EVENTS, TARGET);
    assert.throws(() => checkCodexInstall(USER, good, [...EVENTS, 'SessionStart']), /exactly the events/);
    const notify = good.split('\n').find((l) => l.startsWith('notify = '))!;
    const moved = `${good.replace(`${notify}\n`, '')}${notify}\n`; // now a key of the last hook table
    assert.throws(() => checkCodexInstall(USER, moved, EVENTS), /top-level notify/);
  });

  it("refuses an undo that would leave Warden's entries or drop the user's", () => {
    const installed = installCodexConfig(USER, EVENTS, TARGET);
    assert.doesNotThrow(() => checkCodexRemove(installed, USER));
    assert.throws(() => checkCodexRemove(installed, installed), /leave some of Warden's entries/);
    assert.throws(() => checkCodexRemove(installed, USER.replace('model = "gpt-5"\n', '')), /change or lose/);
  });
});
