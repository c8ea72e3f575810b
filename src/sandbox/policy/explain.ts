// The Explain answer (spec document 1, "Explain" and `GET /policy/explain`): the resolution of a run, setting by
// setting, and with `run` the run parameters the request would carry. Secret values never appear: a withheld
// variable and a credential are named only.
import type { PolicySetting, PolicyViolation, ResolvedPolicy } from '../ports.js';

/** The run parameters of `GET /policy/explain?run=true` (run_env, run_env_withheld, run_credential, …). */
export interface ExplainRun {
  /** Non-secret variables, as given. */
  env?: Record<string, string>;
  /** Variables whose value was withheld because it may be secret: names only. */
  env_withheld?: string[];
  /** Credential names (never values). */
  credentials?: string[];
  llm_profile?: string;
  bedrock_region?: string;
}

export interface Explain {
  pack: string;
  pack_source: string;
  pack_digest: string;
  profile: string;
  network_mode: ResolvedPolicy['network_mode'];
  approvals: boolean;
  admin: ResolvedPolicy['admin'];
  settings: PolicySetting[];
  violations: PolicyViolation[];
  warnings: string[];
  /** True when the image to boot has no prepared MicroVM disk yet; always false on bwrap, which boots no VM. */
  vm_first_boot: boolean;
  run?: Required<Pick<ExplainRun, 'env' | 'env_withheld' | 'credentials'>> & Pick<ExplainRun, 'llm_profile' | 'bedrock_region'> & {
    /** A withheld value means the run files cannot be prepared ahead of the boot: the answer counts as a first boot. */
    first_boot: boolean;
  };
}

/** The Explain answer of a resolution (a port's `ResolvedPolicy`; the shipped resolver adds its `warnings`). */
export function buildExplain(resolution: ResolvedPolicy & { warnings?: string[] }, run?: ExplainRun): Explain {
  const { pack, pack_source, pack_digest, profile, network_mode, approvals, admin, settings, violations } = resolution;
  const explain: Explain = {
    pack, pack_source, pack_digest, profile, network_mode, approvals, admin, settings, violations,
    warnings: resolution.warnings ?? [], vm_first_boot: false,
  };
  if (run) {
    const withheld = [...new Set(run.env_withheld ?? [])].sort();
    explain.run = {
      env: { ...run.env },
      env_withheld: withheld,
      credentials: [...new Set(run.credentials ?? [])].sort(),
      ...(run.llm_profile === undefined ? {} : { llm_profile: run.llm_profile }),
      ...(run.bedrock_region === undefined ? {} : { bedrock_region: run.bedrock_region }),
      first_boot: withheld.length > 0,
    };
  }
  return explain;
}
