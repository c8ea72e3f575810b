// A throwaway $WARDEN_HOME with a config.yaml that listens on ephemeral ports.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const EPHEMERAL_CONFIG = `config_version: 9
gateway:
  api_port: 0
guardrail:
  port: 0
`;

export interface TempHome {
  dir: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** A temp data dir; `config` (YAML text) is written as config.yaml unless null. */
export function tempHome(config: string | null = EPHEMERAL_CONFIG, extraEnv: NodeJS.ProcessEnv = {}): TempHome {
  const dir = mkdtempSync(join(tmpdir(), 'warden-test-'));
  if (config !== null) writeFileSync(join(dir, 'config.yaml'), config);
  const env: NodeJS.ProcessEnv = { ...withoutSecretVariables(process.env), WARDEN_HOME: dir, ...extraEnv };
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The test machine's own token variables and broker password must not leak into a test's gateway. */
function withoutSecretVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.WARDEN_GATEWAY_TOKEN;
  delete copy.AGENT_GATEWAY_TOKEN;
  delete copy.WARDEN_FLEET_MQTT_PASSWORD;
  return copy;
}
