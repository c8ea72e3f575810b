// `judge_source`: whether the LLM judge uses the shared model settings or its own. Version 8 expressed the
// override as a non-empty `llm` block beside a scanner or the guardrail (migration rule 6 sets `override`);
// reserved for the LLM judge's settings resolution (a later step).
import Type from 'typebox';

export const JudgeSource = Type.Union([Type.Literal('shared'), Type.Literal('override')], {
  default: 'shared',
  description: '`shared`: the LLM judge uses the same model settings as everything else; `override`: it has its ' +
    'own (a version 8 `llm` block under a scanner or the guardrail). Reserved for the judge\'s settings (a later step).',
});
