// The sandbox runtime's keys of the `openshell` section (the policy keys are in openshell-policy.ts): the
// resource limits a sandbox gets when neither its request nor its pack sets one.
import Type from 'typebox';

export const OpenshellRuntimeKeys = {
  runtime: Type.Object(
    {
      cpu: Type.Number({
        minimum: 0, maximum: 1024, default: 0,
        description: 'CPU cores a sandbox may use when its request and pack set none (fractions allowed; `0`: no limit). ' +
          'Enforced through cgroup v2 where the gateway\'s cgroup delegates `cpu`; with prlimit it is not enforced and the sandbox says so in `warnings`.',
      }),
      memory: Type.String({
        pattern: '^$|^[1-9][0-9]{0,6}[mMgG]$', default: '',
        description: 'Memory a sandbox may use when its request and pack set none, `<n>m` or `<n>g` (empty: no limit). ' +
          'cgroup v2 `memory.max` where delegated, else the address-space limit (`prlimit --as`). `GET /api/v1/sandbox/status` says which.',
      }),
    },
    { additionalProperties: false, default: {}, description: 'Default resource limits of a sandbox.' },
  ),
};
