// The trigger analyzer: agents pick a skill by matching the request against skill descriptions, so a
// description that claims every request ("use this for any task", "always use this skill", "takes priority over
// other skills") hijacks requests meant for other skills or none. Reports over-broad claims (MEDIUM), vague
// generic wording, descriptions made only of generic words, and keyword stuffing (LOW).
import RE2 from 're2';
import { lineAt, snippetAt } from '../snippet.js';
import type { Analyzer, AnalyzerContext, AnalyzerFinding, ScanSeverity } from '../types.js';
import { excerpt } from './static/findings.js';
import { frontMatterKeyIndex, manifestFileOf } from './static/manifest-checks.js';

interface TriggerRule {
  rule_id: string;
  severity: ScanSeverity;
  title: string;
  description: string;
  patterns: string[];
}

const PHRASE_RULES: readonly TriggerRule[] = [
  {
    rule_id: 'SS-TRIGGER-ANY-REQUEST',
    severity: 'MEDIUM',
    title: 'Description claims every request',
    description: 'The description says the skill applies to any task, everything or all requests, so it would be chosen for unrelated requests.',
    patterns: [
      '\\buse\\s+(?:(?:this|me|it)(?:\\s+skill)?\\s+)?(?:for|on|with|in)\\s+(?:any|every|all)\\s+(?:\\w+\\s+)?(?:tasks?|requests?|questions?|prompts?|queries|things|messages|problems|situations?|conversations?|topics?)\\b',
      '\\b(?:use|invoke|trigger|activate|apply)\\s+(?:this\\s+skill\\s+|me\\s+|it\\s+)?(?:for|on|to)\\s+(?:everything|anything|all\\s+requests|every\\s+request)\\b',
      '\\b(?:helps?|assists?|handles?|works?|deals?)\\s+(?:you\\s+)?with\\s+(?:everything|anything|any\\s+(?:task|request|problem|question)|all\\s+(?:tasks|requests|problems|questions))\\b',
      '\\b(?:whenever|every\\s+time|each\\s+time)\\s+(?:the\\s+)?user\\s+(?:says|asks|types|writes|sends|requests)\\s+(?:anything|something|a\\s+(?:message|question))\\b',
      '\\b(?:regardless\\s+of|no\\s+matter)\\s+(?:the\\s+|what\\s+the\\s+)?(?:task|request|topic|context|user\\s+asks|question)\\b',
      '\\b(?:for|in)\\s+(?:all|every)\\s+(?:conversations?|sessions?|interactions?|situations?|contexts?)\\b',
      '\\b(?:the\\s+)?(?:only|universal)\\s+skill\\s+(?:you\\s+)?(?:need|(?:you\\s+)?should\\s+use)\\b',
    ],
  },
  {
    rule_id: 'SS-TRIGGER-PRIORITY',
    severity: 'MEDIUM',
    title: 'Description demands to be used first or over other skills',
    description: 'The description tells the agent to always use this skill, to use it first, or that it takes priority over other skills.',
    patterns: [
      '\\b(?:always|must\\s+always|should\\s+always)\\s+(?:use|invoke|trigger|activate|load|call|consult|run)\\s+(?:this|me)\\b',
      '\\b(?:takes?|has|have|given)\\s+(?:priority|precedence)\\s+over\\s+(?:all\\s+|any\\s+)?(?:other\\s+)?(?:skills?|tools?|instructions?)',
      '\\b(?:instead\\s+of|rather\\s+than|in\\s+place\\s+of|before)\\s+(?:any|all|other)\\s+(?:other\\s+)?(?:skills?|tools?)\\b',
      '\\b(?:use|invoke|trigger|load)\\s+(?:this\\s+skill\\s+|me\\s+)?(?:first|before\\s+(?:any|all|anything|doing))\\b',
      '\\b(?:default|primary|preferred)\\s+skill\\s+for\\s+(?:all|every|any)\\b',
    ],
  },
  {
    rule_id: 'SS-TRIGGER-VAGUE',
    severity: 'LOW',
    title: 'Vague, general-purpose description',
    description: 'The description advertises general-purpose help rather than a specific task, which makes the skill match requests it was not written for.',
    patterns: [
      '\\b(?:general[-\\s]purpose|all[-\\s]purpose|multi[-\\s]purpose|do[-\\s]it[-\\s]all|swiss[-\\s]army\\s+knife|one[-\\s]stop[-\\s]shop)\\b',
      '\\b(?:various|many|all\\s+kinds\\s+of|any\\s+kind\\s+of|a\\s+wide\\s+(?:range|variety)\\s+of|miscellaneous)\\s+(?:tasks|things|requests|problems|questions|needs)\\b',
    ],
  },
];

/** Words that say nothing about what a skill does. */
const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'helper', 'helpful', 'help', 'helps', 'helping', 'assistant', 'assist', 'assists', 'tool', 'tools', 'utility', 'utilities', 'general',
  'generic', 'various', 'misc', 'miscellaneous', 'stuff', 'things', 'thing', 'tasks', 'task', 'everything', 'anything', 'useful',
  'handy', 'productivity', 'ai', 'smart', 'powerful', 'awesome', 'best', 'ultimate', 'universal', 'common', 'work', 'works', 'do',
  'does', 'requests', 'request', 'questions', 'support', 'improve', 'better', 'easy', 'easily', 'quick', 'quickly', 'simple', 'agent',
  'bot', 'solve', 'solves', 'problems', 'problem', 'skill', 'skills', 'make', 'makes', 'get', 'done', 'great', 'amazing', 'super',
  'advanced', 'good', 'stuff', 'things', 'assistance', 'capable', 'versatile', 'multipurpose', 'general-purpose', 'life',
]);
/** Words that carry no meaning of their own. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'for', 'with', 'of', 'to', 'in', 'on', 'your', 'you', 'any', 'all', 'this', 'that', 'it', 'is',
  'are', 'can', 'will', 'my', 'me', 'i', 'be', 'by', 'at', 'as', 'so', 'more', 'lots', 'many', 'much', 'very', 'just', 'also',
]);
/** A generic-only description longer than this has probably said something specific somewhere. */
const GENERIC_MAX_WORDS = 12;
/** This many comma/semicolon separated short items reads as a keyword list meant to match everything. */
const KEYWORD_STUFFING_ITEMS = 15;

interface CompiledTriggerRule extends TriggerRule {
  regexes: RE2[];
}

let compiledRules: { set: InstanceType<typeof RE2.Set>; owners: { rule: CompiledTriggerRule; pattern: number }[] } | undefined;

function phraseRules() {
  if (compiledRules) return compiledRules;
  const rules: CompiledTriggerRule[] = PHRASE_RULES.map((r) => ({ ...r, regexes: r.patterns.map((p) => new RE2(p, 'iu')) }));
  const owners = rules.flatMap((rule) => rule.patterns.map((_, pattern) => ({ rule, pattern })));
  compiledRules = { set: new RE2.Set(owners.map((o) => o.rule.patterns[o.pattern]!), 'iu'), owners };
  return compiledRules;
}

/** Lower-case words: runs of letters, digits and hyphens. No regex: the text is the skill's. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const ch of text.toLowerCase()) {
    const isWordChar = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '-' || ch === '\'' || ch.toUpperCase() !== ch.toLowerCase();
    if (isWordChar) current += ch;
    else if (current !== '') {
      words.push(current);
      current = '';
    }
  }
  if (current !== '') words.push(current);
  return words.map(trimPunctuation).filter((w) => w !== '');
}

/** `-foo'` → `foo`: hyphens and apostrophes only count inside a word. */
function trimPunctuation(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && (word[start] === '-' || word[start] === '\'')) start++;
  while (end > start && (word[end - 1] === '-' || word[end - 1] === '\'')) end--;
  return word.slice(start, end);
}

interface Located {
  file_path: string;
  line_number?: number;
  snippet?: string;
}

function triggerFindings(text: string, field: string, where: Located): AnalyzerFinding[] {
  const findings: AnalyzerFinding[] = [];
  const base = { category: 'skill_discovery_abuse' as const, ...where };
  const { set, owners } = phraseRules();
  const reported = new Set<string>();
  for (const index of set.match(text)) {
    const { rule, pattern } = owners[index]!;
    if (reported.has(rule.rule_id)) continue;
    reported.add(rule.rule_id);
    const match = rule.regexes[pattern]!.exec(text);
    findings.push({
      ...base, rule_id: rule.rule_id, severity: rule.severity, title: rule.title, description: rule.description,
      remediation: 'Describe the specific task the skill performs and the requests it is for; leave routing to the agent.',
      metadata: { field, phrase: match ? excerpt(match[0]) : undefined },
    });
  }

  const words = wordsOf(text);
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  if (words.length > 0 && words.length <= GENERIC_MAX_WORDS && meaningful.every((w) => GENERIC_WORDS.has(w))) {
    findings.push({
      ...base, rule_id: 'SS-TRIGGER-GENERIC-ONLY', severity: 'LOW', title: 'Description made only of generic words',
      description: `The ${field} ("${excerpt(text, 80)}") names no specific task, so any request could match it.`,
      remediation: 'Say what the skill does, on what inputs, and when it should be used.',
      metadata: { field, words: meaningful },
    });
  }

  let items = 1;
  for (const ch of text) if (ch === ',' || ch === ';' || ch === '|') items++;
  if (items >= KEYWORD_STUFFING_ITEMS && text.length / items < 25) {
    findings.push({
      ...base, rule_id: 'SS-TRIGGER-KEYWORD-STUFFING', severity: 'LOW', title: 'Description stuffed with trigger keywords',
      description: `The ${field} is a list of ${items} short keywords, a way to match as many requests as possible.`,
      remediation: 'Replace the keyword list with a sentence about what the skill does and when to use it.',
      metadata: { field, items },
    });
  }
  return findings;
}

export const triggerAnalyzer: Analyzer = {
  name: 'trigger',
  description: 'Skill descriptions so broad or insistent that they would hijack unrelated requests',
  requires: 'use_trigger',
  analyze(ctx: AnalyzerContext): AnalyzerFinding[] {
    ctx.signal?.throwIfAborted();
    const manifest = ctx.skill.manifest;
    if (!manifest) return [];
    const file = manifestFileOf(ctx.skill);
    const findings: AnalyzerFinding[] = [];
    // `when_to_use` is read by some agents alongside the description, for the same purpose.
    const fields: [string, unknown][] = [['description', manifest.description], ['when_to_use', manifest.raw.when_to_use]];
    for (const [field, value] of fields) {
      if (typeof value !== 'string' || value.trim() === '') continue;
      const index = file?.text !== undefined ? frontMatterKeyIndex(file.text, field) : undefined;
      const where: Located = { file_path: file?.path ?? 'SKILL.md' };
      if (file?.text !== undefined && index !== undefined) {
        where.line_number = lineAt(file.text, index);
        where.snippet = snippetAt(file.text, index);
      }
      findings.push(...triggerFindings(value.trim(), field, where));
    }
    return findings;
  },
};
