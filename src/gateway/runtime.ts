// The gateway process: load settings, open the audit store, start the sidecar and proxy listeners, and
// restart or stop them cleanly. Signals are wired by the CLI; this module only exposes start/restart/stop.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { destination, pino } from 'pino';
import { AuditStore } from '../audit/store.js';
import { connectAddress, httpUrl, isLoopbackAddress, sidecarBindAddress } from '../config/bind.js';
import { envVar } from '../config/env.js';
import { ConfigError, loadConfigFile } from '../config/load.js';
import { loadSettings, type Settings } from '../config/settings.js';
import type Database from 'better-sqlite3';
import { HookInspector } from '../connectors/hook-inspection.js';
import { HookTokens } from '../connectors/hook-tokens.js';
import { CHAIN_SCHEMA, ChainTracker } from '../guardrail/chains/index.js';
import { openDatabase } from '../db/open.js';
import { connectorConfigProblems } from '../connectors/registry.js';
import { InspectionEngine } from '../guardrail/engine.js';
import { Inspector } from '../guardrail/inspector.js';
import { loadRulePack } from '../guardrail/rules/load.js';
import { verdictThresholds } from '../guardrail/thresholds.js';
import { ProxyAuthenticator } from '../proxy/auth.js';
import { ProxyInspection } from '../proxy/inspection.js';
import { deriveMasterKey } from '../proxy/master-key.js';
import { ProviderRegistry } from '../proxy/providers.js';
import { buildProxy } from '../proxy/server.js';
import { Upstream } from '../proxy/upstream.js';
import { listenOn } from '../util/listen.js';
import { VERSION } from '../version.js';
import type { GatewayContext } from './context.js';
import { openFleet } from '../fleet/context.js';
import { resolvePolicyDir } from '../policy/files.js';
import { PolicyService } from '../policy/service.js';
import { homeOf } from '../scanners/paths.js';
import { HealthRegistry } from './health.js';
import { removeProcessInfoIfOurs, writeProcessInfo } from './process-record.js';
import { reportSandboxHealth, reportSandboxRestarting } from './sandbox-health.js';
import { sandboxPorts } from '../sandbox/index.js';
import { createSandboxService, type SandboxService } from '../sandbox/service.js';
import type { SandboxPolicyPort, WorkspacePort } from '../sandbox/ports.js';
import type { EmitActivity } from '../sandbox/ingress/ingress.js';
import { buildSidecar } from './server.js';

export interface RunningGateway {
  readonly sidecarUrl: string;
  readonly proxyUrl: string;
  readonly settings: Settings;
  /** Where fleet devices connect (the embedded broker's address when embedded); undefined without a fleet. */
  readonly fleetBrokerUrl: string | undefined;
  /** The sandbox subsystem, when openshell.enabled. */
  readonly sandbox: SandboxService | undefined;
  /** Reload config and token and rebind both listeners; on a bad config the running instance is kept. */
  restart(): Promise<void>;
  /** Resolves once every audit row queued so far is committed. */
  flushAudit(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the sandbox manager's two collaborators (policy resolver, workspace keeper) for a configuration. */
export type SandboxPortsFactory = (settings: Settings) => { policy: SandboxPolicyPort; workspace: WorkspacePort; emit?: EmitActivity };

export interface GatewayOptions {
  /** The sandbox manager's collaborators; the real ones (src/sandbox/index.ts) unless a test gives its own. */
  sandboxPorts?: SandboxPortsFactory;
}

/** Chain state lives in its own file: its updates sit on the hook path and must not wait on the audit writer. */
function openChainsDatabase(path: string): Database.Database {
  return openDatabase(path, { busyTimeoutMs: 1000, schema: CHAIN_SCHEMA });
}

export function createLogger(level: string): FastifyBaseLogger {
  // Logs go to stderr so stdout carries only the `ready` line that scripts wait for.
  return pino(
    { level, redact: ['req.headers.authorization', 'req.headers["x-warden-token"]', 'req.headers["x-warden-auth"]'] },
    destination({ fd: 2, sync: true }),
  );
}

/** Everything a start or restart must load before it touches the running listeners. */
interface Prepared {
  settings: Settings;
  inspector: Inspector;
  registry: ProviderRegistry;
  policy: PolicyService;
}

export function prepare(env: NodeJS.ProcessEnv): Prepared {
  const settings = loadSettings({ env, initialise: true });
  const problems = connectorConfigProblems(settings.config);
  if (problems.length > 0) throw new ConfigError(`invalid configuration in ${settings.path}:\n  ${problems.join('\n  ')}`);
  // A bad rule pack refuses the start (or, on restart, keeps the running pack).
  const engine = new InspectionEngine(loadRulePack(settings.config.guardrail.rule_pack, [settings.paths.rulesDir]));
  // A bad provider registry refuses the start too.
  const registry = new ProviderRegistry(settings.config);
  // A policy that does not compile refuses the start too (on restart, the running one is kept).
  const policy = new PolicyService(settings.config, { policyDir: resolvePolicyDir(settings.config.policy_dir, settings.paths.home, homeOf(env)) });
  return { settings, inspector: new Inspector(engine, verdictThresholds(settings.config)), registry, policy };
}

interface Listeners {
  sidecar: FastifyInstance;
  proxy: FastifyInstance;
  audit: AuditStore;
  chainsDb: Database.Database;
  upstream: Upstream;
  ctx: GatewayContext;
  sidecarUrl: string;
  proxyUrl: string;
}

async function listen({ settings, inspector, registry, policy }: Prepared, logger: FastifyBaseLogger, startedAt: Date, sandbox?: SandboxService): Promise<Listeners> {
  const { config, paths } = settings;
  const health = new HealthRegistry();
  const audit = new AuditStore(paths.auditDb, (err) => {
    logger.error({ err: err.message }, 'audit trail write failed');
    health.set('audit', 'degraded', { last_error: err.message, details: { path: paths.auditDb } });
  });
  health.set('audit', 'running', { details: { path: paths.auditDb } });
  reportSandboxHealth(health, config, settings.path, process.platform, sandbox);
  const hookTokens = new HookTokens(paths.hooksDir);
  const chainsDb = openChainsDatabase(paths.chainsDb);
  const hookInspector = new HookInspector(inspector, new ChainTracker(chainsDb));
  const ctx: GatewayContext = { settings, audit, health, inspector, hookInspector, hookTokens, policy, version: VERSION, startedAt, ...(sandbox ? { sandbox } : {}) };
  sandbox?.attachHookPipeline({ hookInspector, audit }, config.openshell.hooks);
  const upstream = new Upstream(config.llm.timeout_ms);
  let sidecar: FastifyInstance | undefined;
  let proxy: FastifyInstance | undefined;
  try {
    if (config.fleet.enabled) {
      ctx.fleet = await openFleet(
        { dbPath: paths.fleetDb, vaultKeyPath: paths.fleetVaultKey, tenantTokens: config.fleet.tenant_tokens, trustedTlsProxy: config.fleet.trusted_tls_proxy, mqtt: config.fleet.mqtt },
        settings.env, audit, logger,
      );
    }
    const bind = sidecarBindAddress(config);
    if (!isLoopbackAddress(bind)) {
      logger.warn({ bind }, 'sidecar API bound to a non-loopback address: the authenticated API is reachable from the network');
    }
    sidecar = await buildSidecar(ctx, logger);
    await listenOn(sidecar, bind, config.gateway.api_port, 'the sidecar API (gateway.api_port)');
    health.set('sidecar', 'running');
    const proxyContext = {
      config, audit, registry, upstream, logger,
      readConfig: () => loadConfigFile(settings.path).config,
      auth: new ProxyAuthenticator(settings.token?.token, await deriveMasterKey(paths.deviceKey)),
      inspection: new ProxyInspection(inspector),
    };
    proxy = await buildProxy(proxyContext, logger);
    await listenOn(proxy, config.guardrail.host, config.guardrail.port, 'the guardrail proxy (guardrail.port)');
    health.set('guardrail_proxy', 'running', { details: { mode: config.guardrail.mode } });
    const urlOf = (app: FastifyInstance, host: string) => httpUrl(connectAddress(host), (app.server.address() as { port: number }).port);
    return { sidecar, proxy, audit, chainsDb, upstream, ctx, sidecarUrl: urlOf(sidecar, bind), proxyUrl: urlOf(proxy, config.guardrail.host) };
  } catch (err) {
    await sidecar?.close();
    await proxy?.close();
    await upstream.close();
    await ctx.fleet?.close();
    await audit.close();
    chainsDb.close();
    throw err;
  }
}

async function close(listeners: Listeners): Promise<void> {
  // Stop accepting, let in-flight requests finish, then flush and close the audit store.
  listeners.ctx.sandbox?.detachHookPipeline();
  await Promise.all([listeners.sidecar.close(), listeners.proxy.close()]);
  await listeners.upstream.close();
  await listeners.ctx.fleet?.close();
  await listeners.audit.close();
  listeners.chainsDb.close();
}

export async function startGateway(env: NodeJS.ProcessEnv = process.env, options: GatewayOptions = {}): Promise<RunningGateway> {
  let prepared = prepare(env);
  let { settings } = prepared;
  const logger = createLogger(envVar(env, 'WARDEN_LOG_LEVEL') ?? settings.config.gateway.log_level);
  const startedAt = new Date();
  if (settings.createdConfig) logger.info({ path: settings.path }, 'created default configuration');
  if (settings.createdToken) logger.info({ path: settings.paths.dotenv }, 'created gateway token WARDEN_GATEWAY_TOKEN');
  // The sandboxes are this process's children and outlive listener restarts: the service is built once.
  const ports = options.sandboxPorts ?? ((s: Settings) => sandboxPorts(s.config, s.paths.home));
  const bwrap = envVar(env, 'WARDEN_BWRAP');
  const sandbox = settings.config.openshell.enabled
    ? await createSandboxService({
      config: settings.config, home: settings.paths.home, ...ports(settings), ...(bwrap === undefined ? {} : { bwrap }),
    })
    : undefined;
  if (sandbox && sandbox.state !== 'running') logger.warn({ state: sandbox.state, reason: sandbox.reason }, 'sandbox manager not running');
  let listeners = await listen(prepared, logger, startedAt, sandbox);
  const writePidFile = () =>
    writeProcessInfo(settings.paths.pidFile, {
      pid: process.pid, sidecar: listeners.sidecarUrl, proxy: listeners.proxyUrl, started_at: startedAt.toISOString(),
      ...(listeners.ctx.fleet?.mqtt ? { fleet_broker: listeners.ctx.fleet.mqtt.url } : {}),
    });
  writePidFile();

  return {
    get sidecarUrl() { return listeners.sidecarUrl; },
    get proxyUrl() { return listeners.proxyUrl; },
    get settings() { return settings; },
    get fleetBrokerUrl() { return listeners.ctx.fleet?.mqtt?.url; },
    sandbox,
    async restart() {
      let next: Prepared;
      try {
        next = prepare(env);
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'restart refused: keeping the running configuration');
        return;
      }
      reportSandboxRestarting(listeners.ctx.health);
      await close(listeners);
      prepared = next;
      settings = next.settings;
      listeners = await listen(prepared, logger, startedAt, sandbox);
      writePidFile();
      logger.info('gateway restarted');
    },
    flushAudit: () => listeners.audit.flush(),
    async stop() {
      await close(listeners);
      await sandbox?.close();
      removeProcessInfoIfOurs(settings.paths.pidFile);
    },
  };
}
