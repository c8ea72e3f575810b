// The `sandbox` subsystem of GET /health (spec, "Health"): present only when sandboxes are enabled or a
// legacy standalone install is still around. `running` names the hook ingress folder and the egress proxy's
// socket path (one per sandbox), `degraded` names each failing part in last_error, `disabled` gives the
// reason, `error` the cause (sandbox routes then answer 503 unavailable), `stopped` while the listener restarts.
import type { Config } from '../config/schema.js';
import type { SandboxService } from '../sandbox/service.js';
import type { HealthRegistry } from './health.js';

/** What the operator reads on a legacy host: what was detected, where, and the command that cleans it up. */
function legacyStandaloneMessage(configPath: string): string {
  return (
    `legacy standalone install detected: ${configPath} sets openshell.mode: standalone, the marker of a sandbox host ` +
    'set up before config_version 9 (while it is set, the sidecar binds to guardrail.host). Stop and remove the old ' +
    'standalone sandbox service on this host, then run `warden sandbox legacy-cleanup` (it removes the openshell.mode ' +
    'line) and reload the gateway (SIGHUP) or restart it'
  );
}

const NOT_CONFIGURED = 'not configured (sandboxes have loopback only)';

export function reportSandboxHealth(
  health: HealthRegistry,
  config: Config,
  configPath: string,
  platform: NodeJS.Platform = process.platform,
  service?: SandboxService,
): void {
  if (config.openshell.mode === 'standalone') {
    health.set('sandbox', 'degraded', {
      last_error: legacyStandaloneMessage(configPath),
      details: { config: configPath, key: 'openshell.mode', value: 'standalone' },
    });
  } else if (!config.openshell.enabled) {
    health.remove('sandbox');
  } else if (platform !== 'linux' && platform !== 'darwin') {
    health.set('sandbox', 'disabled', { details: { reason: `sandboxes are not supported on ${platform}` } });
  } else if (!service) {
    health.set('sandbox', 'error', { last_error: 'manager: this gateway was started without the sandbox policy and workspace components' });
  } else if (service.state === 'disabled') {
    health.set('sandbox', 'disabled', { details: { reason: service.reason } });
  } else if (service.state === 'error') {
    health.set('sandbox', 'error', { last_error: service.reason ?? 'the sandbox runtime cannot be set up' });
  } else {
    const details = { ingress: service.ingress?.address ?? NOT_CONFIGURED, egress: service.egressAddress ?? NOT_CONFIGURED, compute_driver: service.driverName, limits: service.limits };
    if (service.state === 'degraded') health.set('sandbox', 'degraded', { last_error: service.reason ?? 'manager', details });
    else health.set('sandbox', 'running', { details });
  }
}

/** While the API listener restarts, the sandboxes keep running but nobody can reach the manager. */
export function reportSandboxRestarting(health: HealthRegistry): void {
  if (health.snapshot().sandbox) health.set('sandbox', 'stopped', {});
}
