// The `sandbox` subsystem of GET /health (spec, "Health"): present only when sandboxes are enabled or a
// legacy standalone install is still around.
import type { Config } from '../config/schema.js';
import type { HealthRegistry } from './health.js';

/**
 * What the operator reads on a legacy host. No cleanup command ships yet, so it says what was detected, where,
 * and what to do by hand, and names no command that does not exist.
 */
function legacyStandaloneMessage(configPath: string): string {
  return (
    `legacy standalone install detected: ${configPath} sets openshell.mode: standalone, the marker of a sandbox host ` +
    'set up before config_version 9 (while it is set, the sidecar binds to guardrail.host). To clean up by hand: stop ' +
    `and remove the old standalone sandbox service on this host, then delete the openshell.mode line from ${configPath} ` +
    '(or set it to managed) and reload the gateway (SIGHUP) or restart it'
  );
}

export function reportSandboxHealth(health: HealthRegistry, config: Config, configPath: string, platform: NodeJS.Platform = process.platform): void {
  if (config.openshell.mode === 'standalone') {
    health.set('sandbox', 'degraded', {
      last_error: legacyStandaloneMessage(configPath),
      details: { config: configPath, key: 'openshell.mode', value: 'standalone' },
    });
  } else if (!config.openshell.enabled) {
    health.remove('sandbox');
  } else if (platform !== 'linux' && platform !== 'darwin') {
    health.set('sandbox', 'disabled', { details: { reason: `sandboxes are not supported on ${platform}` } });
  } else {
    // The sandbox manager is not part of this build yet: report it honestly rather than pretend to run.
    health.set('sandbox', 'error', { last_error: 'sandbox runtime is not available in this build' });
  }
}
