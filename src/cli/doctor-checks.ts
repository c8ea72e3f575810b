// The checks behind `warden doctor`: one row each, so an operator sees at once what is wrong and where.
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { AuditReader } from '../audit/reader.js';
import { connectAddress, httpUrl, sidecarBindAddress } from '../config/bind.js';
import { wardenPaths } from '../config/home.js';
import type { Config } from '../config/schema.js';
import { loadSettings, type Settings } from '../config/settings.js';
import { connectorConfigProblems } from '../connectors/registry.js';
import { runningGateway } from '../gateway/process-record.js';
import { inMemoryMigration } from '../migration/in-memory.js';
import type { MigrationDeps } from '../migration/index.js';
import { migrationStatus } from '../migration/status.js';

export type Outcome = 'ok' | 'warn' | 'fail';
export interface Check { name: string; outcome: Outcome; detail: string }

export async function runChecks(env: NodeJS.ProcessEnv, migration?: MigrationDeps): Promise<Check[]> {
  const paths = wardenPaths(env);
  const checks: Check[] = [];
  const mode = existsSync(paths.home) ? statSync(paths.home).mode & 0o777 : undefined;
  checks.push(
    mode === undefined
      ? { name: 'data dir', outcome: 'fail', detail: `${paths.home} does not exist (run \`warden start\` once)` }
      : mode & 0o077
        ? { name: 'data dir', outcome: 'warn', detail: `${paths.home} is accessible to other users (mode ${mode.toString(8)}); chmod 700 it` }
        : { name: 'data dir', outcome: 'ok', detail: paths.home },
  );

  let settings: Settings | undefined;
  try {
    // A version 8 file is checked as the gateway would run it: migrated in memory.
    settings = loadSettings({ env, legacy: await inMemoryMigration(paths.home, migration) });
    const problems = connectorConfigProblems(settings.config);
    const version = settings.migratedFrom === undefined ? `config_version ${settings.config.config_version}` : `config_version ${settings.migratedFrom}, migrated in memory`;
    checks.push(problems.length > 0
      ? { name: 'config', outcome: 'fail', detail: problems.join('; ') }
      : { name: 'config', outcome: 'ok', detail: `${settings.path} (${version})` });
  } catch (err) {
    checks.push({ name: 'config', outcome: 'fail', detail: (err as Error).message.replace(/\n\s*/g, ' ') });
  }
  const migrationRow = migrationStatus(paths.home);
  if (migrationRow) checks.push({ name: 'migration', ...migrationRow });

  if (settings) {
    checks.push(settings.token
      ? { name: 'token', outcome: 'ok', detail: `from ${settings.token.source}` }
      : { name: 'token', outcome: 'warn', detail: 'no gateway token yet; `warden start` creates one in .env' });
    checks.push(await checkRulePack(settings.config, paths.home, paths.rulesDir));
    const running = runningGateway(paths.pidFile);
    const bind = sidecarBindAddress(settings.config);
    checks.push(await checkPort('sidecar port', bind, settings.config.gateway.api_port, running?.sidecar));
    checks.push(await checkPort('proxy port', settings.config.guardrail.host, settings.config.guardrail.port, running?.proxy));
  }

  if (!existsSync(paths.auditDb)) {
    checks.push({ name: 'database', outcome: 'warn', detail: `${paths.auditDb} not created yet (the gateway creates it)` });
  } else {
    try {
      const store = new AuditReader(paths.auditDb);
      const integrity = store.db.pragma('quick_check', { simple: true });
      const detail = `${paths.auditDb} (schema v${store.schemaVersion()}, ${store.count()} events)`;
      store.close();
      checks.push(integrity === 'ok'
        ? { name: 'database', outcome: 'ok', detail }
        : { name: 'database', outcome: 'fail', detail: `${paths.auditDb}: integrity check failed: ${String(integrity)}` });
    } catch (err) {
      checks.push({ name: 'database', outcome: 'fail', detail: `${paths.auditDb}: ${(err as Error).message}` });
    }
  }
  return checks;
}

async function checkRulePack(config: Config, home: string, rulesDir: string): Promise<Check> {
  const name = config.guardrail.rule_pack;
  try {
    const { loadRulePack } = await import('../guardrail/rules/load.js');
    const { rulePackDirs } = await import('../guardrail/rules/custom-packs.js');
    const pack = loadRulePack(name, rulePackDirs(config, home, rulesDir));
    return { name: 'rule pack', outcome: 'ok', detail: `${name}: ${pack.rules.filter((r) => r.enabled).length} of ${pack.rules.length} rules enabled` };
  } catch (err) {
    return { name: 'rule pack', outcome: 'fail', detail: (err as Error).message };
  }
}

/** A port is fine when it is free, or when the Warden gateway itself is the one listening on it. */
async function checkPort(name: string, host: string, port: number, runningUrl: string | undefined): Promise<Check> {
  if (runningUrl) {
    return (await answersHealth(runningUrl))
      ? { name, outcome: 'ok', detail: `${runningUrl} served by the running Warden gateway` }
      : { name, outcome: 'fail', detail: `${runningUrl} recorded by the running gateway does not answer /health` };
  }
  const where = `${host}:${port}`;
  if (port === 0) return { name, outcome: 'ok', detail: `${host}: ephemeral port chosen at start` };
  const free = await new Promise<boolean | Error>((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' ? false : err));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
  if (free instanceof Error) return { name, outcome: 'fail', detail: `${where}: cannot bind: ${free.message}` };
  if (free) return { name, outcome: 'ok', detail: `${where} free` };
  return (await answersHealth(httpUrl(connectAddress(host), port)))
    ? { name, outcome: 'ok', detail: `${where} in use by a Warden gateway` }
    : { name, outcome: 'fail', detail: `${where} is in use by another program` };
}

async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    const body = (await response.json()) as { status?: unknown };
    return response.ok && typeof body.status === 'string';
  } catch {
    return false;
  }
}

