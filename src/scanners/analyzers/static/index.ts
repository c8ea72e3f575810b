// The static analyzer: everything that can be decided from the skill's files alone, without running or asking
// anything. Signature rules (policies/scanner/rules/*.yaml), also over text hidden in base64 literals and argv
// lists; co-occurring signals across the skill's code; SKILL.md front-matter checks; file checks (hidden code,
// binaries, archives, disguised files); invisible-Unicode checks; and declared allowed-tools versus what the
// scripts and instructions do.
import type { Analyzer, AnalyzerContext, AnalyzerFinding } from '../../types.js';
import { allowedToolsFindings } from './allowed-tools.js';
import { correlationFindings } from './correlations.js';
import { derivedFindings } from './derived-texts.js';
import { fileFindings } from './file-checks.js';
import { FindingSet, textFilesOf } from './findings.js';
import { manifestFindings } from './manifest-checks.js';
import { loadSignatureRules } from './rule-loader.js';
import { signatureFindings } from './signatures.js';
import { unicodeFindings } from './unicode-checks.js';

export const staticAnalyzer: Analyzer = {
  name: 'static',
  description: 'Signature rules, SKILL.md manifest checks, binary/hidden/disguised file checks, invisible Unicode, and allowed-tools versus behaviour',
  requires: 'always on',
  analyze(ctx: AnalyzerContext): AnalyzerFinding[] {
    ctx.signal?.throwIfAborted();
    // Loaded before anything else so that a broken rule folder fails the analyzer rather than half-running it.
    const rules = loadSignatureRules();
    const files = textFilesOf(ctx.skill);
    const out = new FindingSet();
    if (!ctx.skill.source) out.addAll(manifestFindings(ctx.skill));
    out.addAll(fileFindings(ctx.skill));
    signatureFindings(files, rules, out);
    derivedFindings(files, rules, out);
    out.addAll(correlationFindings(files));
    out.addAll(unicodeFindings(files));
    out.addAll(allowedToolsFindings(ctx.skill.manifest?.allowedTools, files));
    return out.findings;
  },
};
