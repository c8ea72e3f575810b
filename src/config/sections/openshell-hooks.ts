// The `openshell.hooks` keys: how the sandbox hook ingress watches a harness's hooks (src/sandbox/ingress/) and
// what a tamper does. docs/sandbox.md "Hook ingress and tamper" says what each signal means.
import Type from 'typebox';

export const OpenshellHooksKeys = {
  hooks: Type.Object(
    {
      on_tamper: Type.Union([Type.Literal('alert'), Type.Literal('stop')], {
        default: 'alert',
        description: 'What a tamper finding does (`hook_tamper`: the harness\'s hook configuration in the sandbox differs from its image\'s; ' +
          '`hook_silence`: tool processes run with no hook traffic). `alert`: a `finding` activity event and the count in the ' +
          'Sandbox\'s `hooks.tamper`. `stop`: the same, then the sandbox is stopped and its run log is not kept.',
      }),
      check_interval_ms: Type.Integer({
        minimum: 100, maximum: 600_000, default: 2000,
        description: 'How often the ingress checks each running sandbox\'s hook configuration and process tree (it also checks on every hook call).',
      }),
      silence_seconds: Type.Integer({
        minimum: 1, maximum: 3600, default: 30,
        description: 'A tool process of the harness seen this many seconds after the last hook call (or the session start) is `hook_silence`.',
      }),
    },
    { additionalProperties: false, default: {}, description: 'Hook ingress of the sandboxes: tamper checks and what a tamper does.' },
  ),
};
