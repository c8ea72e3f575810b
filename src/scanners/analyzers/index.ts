// Every analyzer the scanner has, and which scan option turns it on. GET /analyzers lists them from here.
import type { Analyzer, AnalyzerContext, AnalyzerFinding, ScanOptions } from '../types.js';
import { aiGuardAnalyzer } from './ai-guard.js';
import { behavioralAnalyzer } from './behavioral/index.js';
import { llmAnalyzer } from './llm.js';
import { metaAnalyzer, metaReview } from './meta.js';
import { osvAnalyzer } from './osv.js';
import { pipelineAnalyzer } from './pipeline.js';
import { reputationAnalyzer } from './reputation.js';
import { staticAnalyzer } from './static/index.js';
import { triggerAnalyzer } from './trigger.js';

export interface AnalyzerEntry {
  analyzer: Analyzer;
  /** The scan option that turns it on (`always` for the ones that always run). */
  option: keyof ScanOptions | 'always';
  enabled(options: ScanOptions): boolean;
  /** Set for analyzers that review the others' findings (meta) instead of reading the skill first-hand. */
  reviewsFindings?: <T extends AnalyzerFinding>(findings: T[], ctx: AnalyzerContext) => Promise<T[]>;
}

const always = (analyzer: Analyzer): AnalyzerEntry => ({ analyzer, option: 'always', enabled: () => true });
const when = (analyzer: Analyzer, option: keyof ScanOptions): AnalyzerEntry => ({ analyzer, option, enabled: (o) => o[option] === true });

export const ANALYZERS: readonly AnalyzerEntry[] = [
  always(staticAnalyzer),
  always(pipelineAnalyzer),
  when(behavioralAnalyzer, 'use_behavioral'),
  when(triggerAnalyzer, 'use_trigger'),
  when(reputationAnalyzer, 'use_reputation'),
  when(osvAnalyzer, 'use_osv'),
  when(llmAnalyzer, 'use_llm'),
  when(aiGuardAnalyzer, 'use_ai_guard'),
  // Its analyze() only checks that it can run; the work is the review of the other analyzers' findings.
  { ...when(metaAnalyzer, 'enable_meta'), reviewsFindings: metaReview },
];
