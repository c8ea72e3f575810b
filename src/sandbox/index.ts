// The sandbox subsystem's composition: the real policy resolver and workspace keeper the gateway hands the
// manager (tests hand it their own through GatewayOptions.sandboxPorts).
import type { Config } from '../config/schema.js';
import { SandboxPolicy } from './policy/index.js';
import type { SandboxPolicyPort, WorkspacePort } from './ports.js';
import { GitWorkspace } from './snapshot/index.js';

export function sandboxPorts(config: Config, wardenHome: string): { policy: SandboxPolicyPort; workspace: WorkspacePort } {
  return { policy: new SandboxPolicy({ config, wardenHome }), workspace: new GitWorkspace(wardenHome) };
}
