// The enforcement lists as config.yaml holds them: what loading accepts and refuses, and the shape
// `enforcementLists` hands to admission.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config/load.js';
import { enforcementLists } from '../../src/policy/lists.js';

const withLists = (lists: string) => `config_version: 9\nasset_policy:\n${lists}`;

describe('asset_policy in config.yaml', () => {
  it('defaults to empty lists for every type', () => {
    const lists = enforcementLists(parseConfig('config_version: 9\n', 'config.yaml'));
    assert.deepEqual(lists, {
      skill: { denied: [], allowed: [] },
      mcp: { denied: [], allowed: [] },
      plugin: { denied: [], allowed: [] },
      tool: { denied: [], allowed: [] },
    });
  });

  it('hands admission the entries, with an empty reason where none was written', () => {
    const config = parseConfig(withLists(`  tool:
    denied:
      - {name: Bash, connector: cursor, reason: shell}
      - {name: Bash}
    allowed:
      - {name: Read, source_path_contains: /srv}
`), 'config.yaml');
    assert.deepEqual(enforcementLists(config).tool, {
      denied: [{ name: 'Bash', connector: 'cursor', reason: 'shell' }, { name: 'Bash', reason: '' }],
      allowed: [{ name: 'Read', reason: '', source_path_contains: '/srv' }],
    });
  });

  it('refuses a second entry for one name and connector, naming its line', () => {
    const text = withLists(`  skill:
    denied:
      - {name: a, connector: codex}
      - {name: a}
      - {name: a, connector: codex, reason: again}
`);
    assert.throws(() => parseConfig(text, 'config.yaml'), (err: Error) => {
      assert.match(err.message, /config\.yaml:7: asset_policy\.skill\.denied\.2: "a" for connector "codex" is already listed/);
      assert.doesNotMatch(err.message, /denied\.1/, 'no connector is another entry');
      return true;
    });
  });

  it('accepts one name in both lists (a block wins at admission)', () => {
    const config = parseConfig(withLists('  mcp:\n    denied: [{name: s}]\n    allowed: [{name: s}]\n'), 'config.yaml');
    assert.equal(config.asset_policy.mcp.denied.length + config.asset_policy.mcp.allowed.length, 2);
  });

  it('refuses what the schema bounds: empty names, unknown fields, a pinned path on a block, a bad connector', () => {
    const refused: [string, RegExp][] = [
      ['  skill:\n    denied: [{name: ""}]\n', /asset_policy\.skill\.denied\.0\.name/],
      ['  skill:\n    denied: [{name: a, note: x}]\n', /unknown key "asset_policy\.skill\.denied\.0\.note"/],
      ['  skill:\n    denied: [{name: a, source_path_contains: /p}]\n', /unknown key "asset_policy\.skill\.denied\.0\.source_path_contains"/],
      ['  plugin:\n    allowed: [{name: a, connector: "Not A Name"}]\n', /asset_policy\.plugin\.allowed\.0\.connector/],
      ['  agent:\n    denied: []\n', /unknown key "asset_policy\.agent"/],
    ];
    for (const [lists, message] of refused) {
      assert.throws(() => parseConfig(withLists(lists), 'config.yaml'), message, lists);
    }
  });
});
