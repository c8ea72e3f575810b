// How this installation is run: by its user (`personal`) or by an administrator who owns config.yaml
// (`managed_enterprise`). A managed install refuses configuration changes through the sidecar API: the gateway
// may run with more rights than the caller, so an API write would let a user change what the administrator set.
import Type from 'typebox';

export const DEPLOYMENT_MODES = ['personal', 'managed_enterprise'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];

export const DeploymentSection = Type.Object(
  {
    mode: Type.Union(DEPLOYMENT_MODES.map((m) => Type.Literal(m)), {
      default: 'personal',
      description: '`personal`: the user runs Warden and may change its settings through the API. ' +
        '`managed_enterprise`: an administrator owns this file; `PATCH /v1/guardrail/config` is refused with 403 ' +
        '`WARDEN_ERR_GUARDRAIL_CONFIG_MANAGED` (edit the file as the administrator and reload instead).',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Who manages this installation.' },
);
