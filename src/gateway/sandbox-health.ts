// The `sandbox` subsystem of GET /health (spec, "Health"): present only when sandboxes are enabled or a
// legacy standalone install is still around.
import type { Config } from '../config/schema.js';
import type { HealthRegistry } from './health.js';

export function reportSandboxHealth(health: HealthRegistry, config: Config, platform: NodeJS.Platform = process.platform): void {
  if (config.openshell.mode === 'standalone') {
    health.set('sandbox', 'degraded', { last_error: 'legacy standalone install detected; run `warden sandbox legacy-cleanup`' });
  } else if (!config.openshell.enabled) {
    health.remove('sandbox');
  } else if (platform !== 'linux' && platform !== 'darwin') {
    health.set('sandbox', 'disabled', { details: { reason: `sandboxes are not supported on ${platform}` } });
  } else {
    // The sandbox manager is not part of this build yet: report it honestly rather than pretend to run.
    health.set('sandbox', 'error', { last_error: 'sandbox runtime is not available in this build' });
  }
}
