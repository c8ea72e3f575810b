// The sandbox policy resolver the manager uses (SandboxPolicyPort): built from a Config
// and the home folders, and simply built again when the config is reloaded (it holds no other state).
import { homedir } from 'node:os';
import type { Config } from '../../config/schema.js';
import type { RunOptions, SandboxPolicyPort } from '../ports.js';
import { buildCatalog, type PolicyCatalog } from './catalog.js';
import { adminStatus, machineCapacity, resolvePolicy, type HostCapacity, type PolicyResolution } from './resolve.js';

export { SandboxPolicyError, type SandboxPolicyApiCode } from './errors.js';
export type { Explain, ExplainRun } from './explain.js';
export type { HostCapacity, PolicyResolution } from './resolve.js';

export interface SandboxPolicyInputs {
  config: Pick<Config, 'openshell'>;
  /** $WARDEN_HOME. */
  wardenHome: string;
  /** The user's home folder, for `~` in paths (default: the process's). */
  home?: string;
  /** The machine's CPUs and memory (default: this machine's). */
  host?: HostCapacity;
}

export class SandboxPolicy implements SandboxPolicyPort {
  private readonly catalog: PolicyCatalog;
  private readonly host: HostCapacity;

  constructor({ config, wardenHome, home = homedir(), host = machineCapacity() }: SandboxPolicyInputs) {
    this.catalog = buildCatalog({ config, wardenHome, home });
    this.host = host;
  }

  /** Throws SandboxPolicyError: pack_invalid (400), admin_violation or policy_violation (403). */
  resolve(options: RunOptions): PolicyResolution {
    return resolvePolicy(this.catalog, options, this.host);
  }

  /** What `GET /status` reports: the configured pack and profile and the administrator file's status. */
  status(): { pack: string; profile: string; admin: ReturnType<typeof adminStatus>; packs: string[] } {
    return {
      pack: this.catalog.user.pack || 'default',
      profile: this.catalog.user.profile || 'default',
      admin: adminStatus(this.catalog.admin),
      packs: [...this.catalog.packs.keys()].sort(),
    };
  }
}
