// Prompt injection and jailbreaks (issue 12, section 3): test/corpus/injections.jsonl, written for this
// repository: direct attacks (override in several languages, system-prompt extraction, personas, refusal
// suppression, fictional framing), indirect ones planted in tool output and pages (addressed to the AI,
// hidden in comments or invisible characters, encoded, image-link exfiltration, fake turns), and benign
// prompts, answers and tool output, many of them hard negatives that use the same words innocently.
// Caught = the text lane's verdict is not `allow` under the default pack (alert at MEDIUM).
import { readCases, scoreCases, type Lane, type LaneCase } from './lane.js';

export interface InjectionCase extends LaneCase {
  lane: 'request' | 'response' | 'tool-response';
  text: string;
  technique: string;
  language: string;
  note: string;
}

export const cases = (): InjectionCase[] => readCases<InjectionCase>('injections.jsonl');

export const lane: Lane = {
  name: 'prompt-injection',
  score(inspector) {
    return scoreCases('prompt-injection', 'flagged (alert or block) by the text lane under the default pack', cases(), (c) => inspector.text(c.text).verdict.raw_action !== 'allow');
  },
};
