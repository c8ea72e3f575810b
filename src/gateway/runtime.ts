// The gateway process: load settings, open the audit store, start the sidecar and proxy listeners, and
// restart or stop them cleanly. Signals are wired by the CLI; this module only exposes start/restart/stop.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { destination, pino } from 'pino';
import { AuditStore } from '../audit/store.js';
import { connectAddress, httpUrl, isLoopbackAddress, sidecarBindAddress } from '../config/bind.js';
import { envVar } from '../config/env.js';
import { ConfigError, loadConfigFile, type LegacyConversion } from '../config/load.js';
import { wardenPaths } from '../config/home.js';
import { loadSettings, type Settings } from '../config/settings.js';
import { inMemoryMigration } from '../migration/in-memory.js';
import type { MigrationDeps } from '../migration/index.js';
import type Database from 'better-sqlite3';
import { HookInspector } from '../connectors/hook-inspection.js';
import { HookTokens } from '../connectors/hook-tokens.js';
import { CHAIN_SCHEMA, ChainTracker } from '../guardrail/chains/index.js';
import { openDatabase } from '../db/open.js';
import { connectorConfigProblems } from '../connectors/registry.js';
import { InspectionEngine } from '../guardrail/engine.js';
import { Inspector } from '../guardrail/inspector.js';
import { rulePackDirs } from '../guardrail/rules/custom-packs.js';
import { loadRulePack } from '../guardrail/rules/load.js';
import { verdictThresholds } from '../guardrail/thresholds.js';
import { ProxyAuthenticator } from '../proxy/auth.js';
import { ProxyInspection } from '../proxy/inspection.js';
import { deriveMasterKey } from '../proxy/master-key.js';
import { ProviderRegistry } from '../proxy/providers.js';
import { isModelCall } from '../proxy/routes/control.js';
import { buildProxy } from '../proxy/server.js';
import { Upstream } from '../proxy/upstream.js';
import { listenOn } from '../util/listen.js';
import { VERSION } from '../version.js';
import type { GatewayContext, GatewayLifecycle } from './context.js';
import { openFleet } from '../fleet/context.js';
import { resolvePolicyDir } from '../policy/files.js';
import { PolicyService } from '../policy/service.js';
import { homeOf } from '../scanners/paths.js';
import { HealthRegistry } from './health.js';
import { removeProcessInfoIfOurs, writeProcessInfo } from './process-record.js';
import { reportSandboxHealth, reportSandboxRestarting } from './sandbox-health.js';
import { sandboxPorts } from '../sandbox/index.js';
import { createSandboxService, type SandboxService, type SandboxServiceOptions } from '../sandbox/service.js';
import type { SandboxPolicyPort, WorkspacePort } from '../sandbox/ports.js';
import type { EmitActivity } from '../sandbox/ingress/ingress.js';
import { buildSidecar } from './server.js';
import { openTelemetry } from '../telemetry/context.js';
import { redactOtlpPathToken } from '../telemetry/otlp/redact.js';
import { SIDECAR_LIMITS } from './limits.js';
import { recordFromAudit } from '../telemetry/events/from-audit.js';
import { diagnosticRecord, lifecycleRecord } from '../telemetry/events/from-gateway.js';
import { otlpSignal, recordFromOtlp } from '../telemetry/events/from-otlp.js';
import { EventWriter } from '../telemetry/events/writer.js';
import { EVENT_WRITER_LIMITS } from '../telemetry/events/limits.js';
import { GatewayMetrics } from '../telemetry/metrics.js';
import { buildSinks, destinationProblems } from '../telemetry/sinks/build.js';
import { openUpstream } from '../upstream/index.js';

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

/** Options of the gateway process: tests replace the sandbox manager's collaborators or the migration. */
export interface GatewayOptions {
  /** The sandbox manager's collaborators; the real ones (src/sandbox/index.ts) unless a test gives its own. */
  sandboxPorts?: SandboxPortsFactory;
  /** The config_version 8 → 9 migration run in memory at start and reload; the built-in one by default. */
  migration?: MigrationDeps;
  /**
   * How the process restarts when a route asks it to (a connector change through PATCH /v1/guardrail/config): the
   * CLI passes its SIGHUP handler (which prints the new ready line, and exits 1 when the listeners cannot be bound
   * again); without one the gateway restarts and logs a failure.
   */
  onRestartRequest?: () => void;
  /**
   * How the process stops when a route asks it to (POST /api/v1/admin/shutdown): the CLI passes the same stop its
   * SIGTERM handler runs, which exits the process; without one the gateway only stops its listeners.
   */
  onShutdownRequest?: () => void;
  /** The sandbox service's egress proxy, refusal facts, hook ingress and tuning, when a test drives them. */
  sandboxLinks?: Pick<SandboxServiceOptions, 'egress' | 'refusals' | 'lastHookAt' | 'activity' | 'approvals'>;
}

/** Chain state lives in its own file: its updates sit on the hook path and must not wait on the audit writer. */
function openChainsDatabase(path: string): Database.Database {
  return openDatabase(path, { busyTimeoutMs: 1000, schema: CHAIN_SCHEMA });
}

export function createLogger(level: string): FastifyBaseLogger {
  // Logs go to stderr so stdout carries only the `ready` line that scripts wait for.
  return pino(
    {
      level,
      redact: ['req.headers.authorization', 'req.headers["x-warden-token"]', 'req.headers["x-warden-auth"]'],
      // The OTLP path-token route carries a credential in its URL: no logged URL ever shows it.
      serializers: { req: (req: { url?: string }) => (typeof req?.url === 'string' ? { ...req, url: redactOtlpPathToken(req.url) } : req) },
    },
    destination({ fd: 2, sync: true }),
  );
}

/** Everything a start or restart must load before it touches the running listeners. */
interface Prepared {
  settings: Settings;
  inspector: Inspector;
  registry: ProviderRegistry;
  policy: PolicyService;
  /** How an older config.yaml was migrated in memory; undefined when it is version 9. */
  legacy?: LegacyConversion;
}

/** Loads everything; `legacy` migrates a version 8 config.yaml in memory (see prepareMigrating). */
export function prepare(env: NodeJS.ProcessEnv, legacy?: LegacyConversion): Prepared {
  const settings = loadSettings({ env, initialise: true, legacy });
  const problems = [...connectorConfigProblems(settings.config), ...destinationProblems(settings.config, settings.env)];
  if (problems.length > 0) throw new ConfigError(`invalid configuration in ${settings.path}:\n  ${problems.join('\n  ')}`);
  // A bad rule pack refuses the start (or, on restart, keeps the running pack).
  const engine = new InspectionEngine(loadRulePack(settings.config.guardrail.rule_pack, rulePackDirs(settings.config, settings.paths.home, settings.paths.rulesDir)));
  // A bad provider registry refuses the start too.
  const registry = new ProviderRegistry(settings.config);
  // A policy that does not compile refuses the start too (on restart, the running one is kept).
  const policy = new PolicyService(settings.config, { policyDir: resolvePolicyDir(settings.config.policy_dir, settings.paths.home, homeOf(env)) });
  return { settings, inspector: new Inspector(engine, verdictThresholds(settings.config)), registry, policy, legacy };
}

/** prepare() with a version 8 config.yaml migrated in memory first: read-only, nothing is written. */
async function prepareMigrating(env: NodeJS.ProcessEnv, options: GatewayOptions): Promise<Prepared> {
  return prepare(env, await inMemoryMigration(wardenPaths(env).home, options.migration));
}

interface Listeners {
  events: EventWriter;
  sidecar: FastifyInstance;
  proxy: FastifyInstance;
  audit: AuditStore;
  chainsDb: Database.Database;
  upstream: Upstream;
  ctx: GatewayContext;
  sidecarUrl: string;
  proxyUrl: string;
}

/** The event writer of one start: config.yaml's destinations, each reporting to the metrics and the log. */
function openEventWriter(settings: Settings, inspector: Inspector, metrics: GatewayMetrics, logger: FastifyBaseLogger): EventWriter {
  const sinks = buildSinks(settings.config, {
    home: settings.paths.home, env: settings.env, version: VERSION,
    events: (name) => {
      const counted = metrics.sinkEvents(name);
      return {
        ...counted,
        failed: (err: Error) => {
          counted.failed();
          logger.warn({ destination: name, err: err.message }, 'event destination delivery failed');
        },
      };
    },
  });
  return new EventWriter(sinks, (text) => inspector.redactSecrets(text));
}

async function listen(
  { settings, inspector, registry, policy, legacy }: Prepared, logger: FastifyBaseLogger, startedAt: Date, metrics: GatewayMetrics,
  lifecycle: GatewayLifecycle, sandbox?: SandboxService,
): Promise<Listeners> {
  const { config, paths } = settings;
  const health = new HealthRegistry();
  const events = openEventWriter(settings, inspector, metrics, logger);
  health.onChange((name, state) => events.write(diagnosticRecord(name, state)));
  const audit = new AuditStore(paths.auditDb, (err) => {
    logger.error({ err: err.message }, 'audit trail write failed');
    health.set('audit', 'degraded', { last_error: err.message, details: { path: paths.auditDb } });
  });
  audit.observeCommits((rows, commitMs) => {
    metrics.observeCommit(rows, commitMs);
    // No destination configured (the default): no record is even built on the commit path.
    if (events.destinations.length > 0) for (const row of rows) events.write(recordFromAudit(row));
  });
  metrics.readDepthsFrom(() => audit.queuedRows, () => events.destinations.map((sink) => ({ name: sink.name, depth: sink.queue.depth })));
  health.set('audit', 'running', { details: { path: paths.auditDb } });
  reportSandboxHealth(health, config, settings.path, process.platform, sandbox);
  const hookTokens = new HookTokens(paths.hooksDir);
  const chainsDb = openChainsDatabase(paths.chainsDb);
  const hookInspector = new HookInspector(inspector, new ChainTracker(chainsDb));
  const telemetry = openTelemetry({
    home: paths.home, auditDb: paths.auditDb, retentionDays: config.telemetry.retention_days, storePromptText: config.telemetry.store_prompt_text,
    maxBodyBytes: SIDECAR_LIMITS.otlpBodyBytes, onError: (err) => logger.error({ err: err.message }, 'telemetry store failed'),
    onRecord: (record) => {
      // The counter counts data points for metrics (docs/telemetry.md): one stored metric summarises its points.
      metrics.countOtlpRecords(otlpSignal(record), record.record_type === 'metric' ? record.points : 1);
      if (events.destinations.length > 0) events.write(recordFromOtlp(record)); // as on the commit path: none built for no destination
    },
  });
  const ctx: GatewayContext = { settings, audit, health, inspector, hookInspector, hookTokens, policy, registry, version: VERSION, startedAt, telemetry, metrics, events, lifecycle, ...(sandbox ? { sandbox } : {}) };
  ctx.upstream = openUpstream(settings, VERSION, (level, message, fields) => logger[level](fields ?? {}, message));
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
      // Read through the routes' settings, so a guardrail change applied in place (PATCH /v1/guardrail/config)
      // reaches the proxy too.
      get config() { return ctx.settings.config; },
      audit, registry, upstream, logger,
      readConfig: () => loadConfigFile(settings.path, { legacy }).config,
      auth: new ProxyAuthenticator(settings.token?.token, await deriveMasterKey(paths.deviceKey)),
      inspection: new ProxyInspection(inspector),
      metrics,
    };
    proxy = await buildProxy(proxyContext, logger);
    await listenOn(proxy, config.guardrail.host, config.guardrail.port, 'the guardrail proxy (guardrail.port)');
    health.set('guardrail_proxy', 'running', { details: { mode: config.guardrail.mode } });
    const urlOf = (app: FastifyInstance, host: string) => httpUrl(connectAddress(host), (app.server.address() as { port: number }).port);
    const sidecarUrl = urlOf(sidecar, bind);
    const proxyUrl = urlOf(proxy, config.guardrail.host);
    return { events, sidecar, proxy, audit, chainsDb, upstream, ctx, sidecarUrl, proxyUrl };
  } catch (err) {
    await sidecar?.close();
    await proxy?.close();
    await upstream.close();
    await ctx.upstream?.client.close();
    await ctx.fleet?.close();
    telemetry.close();
    await audit.close();
    chainsDb.close();
    await events.close(0);
    throw err;
  }
}

async function close(listeners: Listeners, step: 'gateway-reload' | 'gateway-stop'): Promise<void> {
  listeners.events.write(lifecycleRecord(step, { version: VERSION, pid: process.pid, ...(step === 'gateway-reload' ? { phase: 'stopping' } : {}) }));
  // Stop accepting, let in-flight requests finish, then flush and close the audit store, then send what the
  // event destinations hold (its last rows included), for a bounded time.
  listeners.ctx.sandbox?.detachHookPipeline();
  await Promise.all([listeners.sidecar.close(), listeners.proxy.close()]);
  await listeners.upstream.close();
  await listeners.ctx.upstream?.client.close();
  await listeners.ctx.fleet?.close();
  listeners.ctx.telemetry?.close();
  await listeners.audit.close();
  listeners.chainsDb.close();
  await listeners.events.close(EVENT_WRITER_LIMITS.shutdownFlushMs);
}

const startRecord = (listeners: Listeners, reload: boolean) =>
  lifecycleRecord(reload ? 'gateway-reload' : 'gateway-start', {
    version: VERSION, pid: process.pid, sidecar: listeners.sidecarUrl, proxy: listeners.proxyUrl, ...(reload ? { phase: 'started' } : {}),
  });

export async function startGateway(env: NodeJS.ProcessEnv = process.env, options: GatewayOptions = {}): Promise<RunningGateway> {
  let prepared = await prepareMigrating(env, options);
  let { settings } = prepared;
  const logger = createLogger(envVar(env, 'WARDEN_LOG_LEVEL') ?? settings.config.gateway.log_level);
  const startedAt = new Date();
  const noteMigration = () => {
    if (settings.migratedFrom === undefined) return;
    logger.warn({ path: settings.path, config_version: settings.migratedFrom },
      'config.yaml migrated in memory to config_version 9 (nothing written); run `warden migrate` to write it');
  };
  noteMigration();
  if (settings.createdConfig) logger.info({ path: settings.path }, 'created default configuration');
  if (settings.createdToken) logger.info({ path: settings.paths.dotenv }, 'created gateway token WARDEN_GATEWAY_TOKEN');
  // The sandboxes are this process's children and outlive listener restarts: the service is built once.
  const ports = options.sandboxPorts ?? ((s: Settings) => sandboxPorts(s.config, s.paths.home));
  const bwrap = envVar(env, 'WARDEN_BWRAP');
  const sandbox = settings.config.openshell.enabled
    ? await createSandboxService({
      config: settings.config, home: settings.paths.home, configPath: settings.path, ...ports(settings), ...(bwrap === undefined ? {} : { bwrap }),
      // The listeners (and their audit store and policy service) are replaced on reload: read the ones in force.
      network: {
        firewall: (input) => prepared.policy.evaluate('firewall', input),
        audit: (record) => listeners.audit.appendEgress(record),
        gatewayPorts: () => [Number(new URL(listeners.proxyUrl).port)],
        // Model traffic from a sandbox goes through the guardrail proxy in force, with its registry and token.
        guardrail: () => ({
          url: listeners.proxyUrl, token: settings.token?.token,
          provider: (url) => listeners.ctx.registry?.lookup(url)?.name, isModelCall,
        }),
      },
      ...options.sandboxLinks,
    })
    : undefined;
  if (sandbox && sandbox.state !== 'running') logger.warn({ state: sandbox.state, reason: sandbox.reason }, 'sandbox manager not running');
  const metrics = new GatewayMetrics();
  // Restarts run one at a time; a request for one while another runs is served by the one running.
  let restarting: Promise<void> | undefined;
  const lifecycle: GatewayLifecycle = {
    requestRestart: () => {
      if (options.onRestartRequest) return options.onRestartRequest();
      restarting ??= running.restart().catch((err: Error) => logger.error({ err: err.message }, 'requested restart failed'))
        .finally(() => (restarting = undefined));
    },
    requestShutdown: () => {
      if (options.onShutdownRequest) options.onShutdownRequest();
      else void running.stop().catch((err: Error) => logger.error({ err: err.message }, 'requested shutdown failed'));
    },
  };
  let listeners = await listen(prepared, logger, startedAt, metrics, lifecycle, sandbox);
  listeners.events.write(startRecord(listeners, false));
  const writePidFile = () =>
    writeProcessInfo(settings.paths.pidFile, {
      pid: process.pid, sidecar: listeners.sidecarUrl, proxy: listeners.proxyUrl, started_at: startedAt.toISOString(),
      ...(listeners.ctx.fleet?.mqtt ? { fleet_broker: listeners.ctx.fleet.mqtt.url } : {}),
    });
  writePidFile();

  const running: RunningGateway = {
    get sidecarUrl() { return listeners.sidecarUrl; },
    get proxyUrl() { return listeners.proxyUrl; },
    get settings() { return settings; },
    get fleetBrokerUrl() { return listeners.ctx.fleet?.mqtt?.url; },
    sandbox,
    async restart() {
      let next: Prepared;
      try {
        next = await prepareMigrating(env, options);
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'restart refused: keeping the running configuration');
        return;
      }
      reportSandboxRestarting(listeners.ctx.health);
      await close(listeners, 'gateway-reload');
      prepared = next;
      settings = next.settings;
      sandbox?.applyConfig(settings.config);
      listeners = await listen(prepared, logger, startedAt, metrics, lifecycle, sandbox);
      listeners.events.write(startRecord(listeners, true));
      writePidFile();
      noteMigration();
      logger.info('gateway restarted');
    },
    flushAudit: () => listeners.audit.flush(),
    async stop() {
      await close(listeners, 'gateway-stop');
      await sandbox?.close();
      removeProcessInfoIfOurs(settings.paths.pidFile);
    },
  };
  return running;
}
