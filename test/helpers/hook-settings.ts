// The hook script's settings file ($WARDEN_HOME/hooks/<connector>.json) as `warden setup` writes it (fail-closed
// answer included), for tests that run the hook scripts against a stub sidecar without running setup itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentFor, hookSettings, type HookSettings } from '../../src/connectors/setup/install.js';

export type SettingsValues = Record<string, unknown>;

/** Writes `<home>/hooks/<connector>.json`: setup's content with `extra` over it (a key set to undefined is left out). */
export function writeHookSettings(home: string, connector: string, extra: SettingsValues = {}): HookSettings & SettingsValues {
  const tokenFile = join(home, 'hooks', `${connector}.token`);
  const values = { ...hookSettings(agentFor(connector), { failMode: 'closed', tokenFile }), ...extra };
  writeFileSync(join(home, 'hooks', `${connector}.json`), JSON.stringify(values));
  return values;
}
