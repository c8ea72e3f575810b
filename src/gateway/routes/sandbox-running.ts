// The running sandbox service as the sandbox routes need it, or the 503 the spec gives while the runtime does
// not run (`disabled` when openshell.enabled is false, `unavailable` otherwise).
import { SandboxApiError } from '../../sandbox/errors.js';
import type { SandboxManager } from '../../sandbox/manager/manager.js';
import type { SandboxService } from '../../sandbox/service.js';
import type { GatewayContext } from '../context.js';

/** The service with everything a running one has. */
export type RunningSandboxService = SandboxService & {
  manager: SandboxManager;
  activity: NonNullable<SandboxService['activity']>;
  approvals: NonNullable<SandboxService['approvals']>;
};

export function runningService(ctx: GatewayContext): RunningSandboxService {
  const service = ctx.sandbox;
  if (!ctx.settings.config.openshell.enabled) throw new SandboxApiError('disabled', 'sandboxes are disabled: set openshell.enabled: true');
  if (!service?.manager || !service.activity || !service.approvals) {
    throw new SandboxApiError('unavailable', `the sandbox runtime is not running: ${service?.reason ?? 'no sandbox manager in this gateway'}`);
  }
  return service as RunningSandboxService;
}
