// Loading `guardrail.rule_pack` from its `custom_packs` entry: the pinned folder comes first after the digest
// check; a folder missing, named unlike the pack or edited since it was pinned is refused naming the pack.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { rulePackDirs } from '../../src/guardrail/rules/custom-packs.js';
import { loadRulePack } from '../../src/guardrail/rules/load.js';
import { packDigest } from '../../src/guardrail/rules/pack-digest.js';

const home = mkdtempSync(join(tmpdir(), 'warden-custom-packs-'));
after(() => rmSync(home, { recursive: true, force: true }));
const folder = join(home, 'policies/guardrail/acme-1.0');
mkdirSync(folder, { recursive: true });
writeFileSync(join(folder, 'pack.yaml'), 'name: acme-1.0\nextends: default\n');
writeFileSync(join(folder, 'acme.yaml'), 'rules:\n  - id: CMD-ACME-ONE\n    title: Acme one\n    category: command\n    severity: HIGH\n    confidence: 0.8\n    patterns: [\'acme-danger\']\n');
writeFileSync(join(folder, 'README.md'), 'not part of the digest\n');
const digest = () => packDigest(readdirSync(folder).filter((f) => f.endsWith('.yaml')).map((f) => ({ path: f, bytes: readFileSync(join(folder, f)) })));
const rulesDir = join(home, 'rules');
const config = (rulePack: string, path = 'policies/guardrail/acme-1.0', pinned = digest()) =>
  ({ guardrail: { rule_pack: rulePack }, custom_packs: { [rulePack]: { path, digest: pinned } } }) as never;

describe('custom packs', () => {
  it('a pack that is not a custom one is looked for in $WARDEN_HOME/rules only', () => {
    assert.deepEqual(rulePackDirs({ guardrail: { rule_pack: 'strict' }, custom_packs: {} } as never, home, rulesDir), [rulesDir]);
  });

  it('the pinned pack loads from its folder, extending the shipped one', () => {
    const dirs = rulePackDirs(config('acme-1.0'), home, rulesDir);
    assert.deepEqual(dirs, [join(home, 'policies/guardrail'), rulesDir]);
    const pack = loadRulePack('acme-1.0', dirs);
    assert.deepEqual(pack.lineage, ['default', 'acme-1.0']);
    assert.ok(pack.rules.some((r) => r.id === 'CMD-ACME-ONE'));
  });

  it('refuses a folder named unlike the pack, a missing folder, and an edited pack', () => {
    assert.throws(() => rulePackDirs(config('acme'), home, rulesDir), /must be named acme/);
    assert.throws(() => rulePackDirs(config('acme-1.0', 'policies/guardrail/nowhere/acme-1.0'), home, rulesDir), /is not a folder/);
    const pinned = digest();
    appendFileSync(join(folder, 'README.md'), 'edited\n');
    assert.doesNotThrow(() => rulePackDirs(config('acme-1.0', undefined, pinned), home, rulesDir), 'a README is not part of the pack');
    appendFileSync(join(folder, 'acme.yaml'), '# edited\n');
    assert.throws(() => rulePackDirs(config('acme-1.0', undefined, pinned), home, rulesDir), { code: 'WARDEN_ERR_GUARDRAIL_RULE_PACK_INVALID', message: /custom_packs\.acme-1\.0: the files of .* changed since they were pinned/ });
  });
});
