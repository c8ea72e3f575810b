// The guardrail keys that PATCH /v1/guardrail/config may change besides mode, connector and the HILT pair:
// which scanners judge model traffic and the text a block answers with. Spread into GuardrailSection
// (src/config/schema.ts) so these keys are edited here alone; imports nothing from schema.ts.
import Type from 'typebox';

export const SCANNER_MODES = ['local', 'remote', 'both'] as const;
export type ScannerMode = (typeof SCANNER_MODES)[number];

/** A block message is shown to the agent; a paragraph is plenty. */
export const MAX_BLOCK_MESSAGE_CHARS = 2000;

export const guardrailRuntimeKeys = {
  scanner_mode: Type.Union(SCANNER_MODES.map((m) => Type.Literal(m)), {
    default: 'local',
    description: 'Which scanners judge model traffic: `local` (the rule pack), `remote` (a remote inspection service ' +
      'such as Cisco AI Defense, whose results reach Warden through `POST /v1/guardrail/evaluate`) or `both`. ' +
      'Reported by `GET /v1/guardrail/config` for integrations; `POST /v1/guardrail/evaluate` combines every ' +
      'result it is given whatever this says, so a remote block is never dropped.',
  }),
  block_message: Type.String({
    default: '',
    maxLength: MAX_BLOCK_MESSAGE_CHARS,
    description: 'Text the guardrail proxy answers in place of a blocked model call, followed by the verdict\'s reason ' +
      '(which names the rule). Empty: the reason alone.',
  }),
};
