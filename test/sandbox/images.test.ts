// Harness image recipes without building them: every connector whose definition names an npm package gets an
// image whose agent config runs the image's own copy of the hook script against the sandbox's ingress folder,
// never a path of the host; connectors without a package have no recipe.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOOK_AGENTS } from '../../src/connectors/registry.js';
import { HOOK_SCRIPT, HOOK_SH_SCRIPT } from '../../src/connectors/setup/hook-command.js';
import { knownHarness, recipeOf } from '../../src/sandbox/images/recipes.js';

describe('harness image recipes', () => {
  const withPackage = HOOK_AGENTS.filter((agent) => agent.harness);

  it('exist for the npm agent CLIs, pinned exactly', () => {
    assert.deepEqual(withPackage.map((a) => a.name).sort(), ['claudecode', 'codex', 'geminicli', 'opencode']);
    for (const agent of withPackage) assert.match(agent.harness!.version, /^\d+\.\d+\.\d+$/, agent.name);
  });

  it('write the agent config with hooks aimed at the image\'s scripts and /run/warden, never at the host', () => {
    for (const agent of withPackage) {
      const recipe = recipeOf(agent.name)!;
      const config = recipe.files[`home/${agent.setup.file}`]!.content;
      assert.ok(agent.setup.installed(config), `${agent.name}: Warden's hooks are installed in ${agent.setup.file}`);
      assert.match(config, /\/opt\/warden\/image\/warden\/hooks\/warden-hook\.(sh|mjs)/, agent.name);
      assert.match(config, /--home\W+\/run\/warden/, agent.name);
      for (const hostPath of [HOOK_SCRIPT, HOOK_SH_SCRIPT]) assert.ok(!config.includes(hostPath), `${agent.name} names the host's ${hostPath}`);
      assert.deepEqual(recipe.hooks, { connector: agent.name, config: agent.setup.file });
      assert.equal(recipe.npm, agent.harness);
      assert.match(recipe.env.PATH!, /^\/opt\/warden\/image\/node_modules\/\.bin:/);
    }
  });

  it('have none for a hook connector without a package, and shell needs no npm', () => {
    assert.equal(knownHarness('cursor'), true);
    assert.equal(recipeOf('cursor'), undefined);
    assert.equal(recipeOf('shell')!.npm, undefined);
    assert.equal(knownHarness('nosuch'), false);
  });
});
