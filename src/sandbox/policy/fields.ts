// Schema pieces shared by the pack and administrator file formats and the `openshell` config keys. A leaf
// module (TypeBox and the limits only), so the config schema can use it without an import cycle.
import Type from 'typebox';
import { SANDBOX_POLICY_LIMITS } from './limits.js';

/** Pack and profile names: what a flag, a file name and a config key can all carry. */
export const POLICY_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';
/** `<n>m` or `<n>g` (MiB, GiB), as the `memory` run option is written. */
export const MEMORY_PATTERN = '^[1-9][0-9]{0,6}[mg]$';

export const Memory = (description: string) => Type.String({ pattern: MEMORY_PATTERN, description });
export const Cpu = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: SANDBOX_POLICY_LIMITS.maxCpu, description });
