// The behavioral analyzer: dataflow (taint) analysis of a skill's Python, JavaScript/TypeScript and shell code,
// including the code blocks of its Markdown files. It follows data from sources (environment variables,
// credential files, user input, network responses, decoded blobs) through assignments, string building,
// function parameters and returns, and calls into other files of the skill, to sinks (network requests, code
// and shell execution, writes to persistence locations). rules.ts says which flows are findings and why
// some are deliberately quiet (an API key in an Authorization header, user input sent to an API).
//
// Cost: grammars load once per process; each file is parsed once into a plain tree (syntax.ts) and the
// tree-sitter tree freed; evaluation runs two rounds over those trees (so calls to functions defined later,
// or in files analysed later, resolve) under a per-skill step budget. Files over 512 KiB are skipped.
import type { Analyzer, AnalyzerContext, AnalyzerFinding, SkillPackage } from '../../types.js';
import { LineIndex } from '../../snippet.js';
import { Analysis, type FileInfo } from './engine.js';
import { JavaScriptEvaluator } from './javascript.js';
import { javascriptResolver, pythonResolver } from './modules.js';
import { PythonEvaluator } from './python.js';
import { ShellEvaluator } from './shell.js';
import { loadParsers, parseToSyntax, type CodeModule, type Parsers, type SyntaxNode } from './syntax.js';
import { codeUnits, type CodeUnit } from './units.js';
import { EMPTY } from './values.js';

interface Evaluator {
  run(): unknown;
}

const ROUNDS = 2;

export const behavioralAnalyzer: Analyzer = {
  name: 'behavioral',
  description: 'Dataflow analysis of Python, JavaScript/TypeScript and shell code (scripts and Markdown code blocks): secrets and files sent over the network, downloaded or decoded code executed, user input reaching a shell, writes to persistence locations.',
  requires: 'use_behavioral',
  async analyze(ctx: AnalyzerContext): Promise<AnalyzerFinding[]> {
    const units = codeUnits(ctx.skill);
    if (units.length === 0) return [];
    const parsers = await loadParsers();
    return analyzeUnits(ctx.skill, units, parsers, ctx.signal);
  },
};

/** Parses and evaluates the code units of a skill; synchronous once the parsers are loaded. */
function analyzeUnits(skill: SkillPackage, units: readonly CodeUnit[], parsers: Parsers, signal?: AbortSignal): AnalyzerFinding[] {
  const texts = new Map(skill.files.map((f) => [f.path, f.text]));
  const files = new Map<string, FileInfo>();
  for (const unit of units) {
    if (files.has(unit.file)) continue;
    const text = texts.get(unit.file) ?? unit.source;
    files.set(unit.file, { path: unit.file, text, lines: new LineIndex(text) });
  }
  const analysis = new Analysis(files);
  const importable = units.filter((u) => u.importable);
  const resolvePy = pythonResolver(new Set(importable.filter((u) => u.lang === 'python').map((u) => u.file)));
  const resolveJs = javascriptResolver(new Set(importable.filter((u) => u.lang !== 'python' && u.lang !== 'bash').map((u) => u.file)));

  // Command lines run by Python/JS (os.system, subprocess, child_process) go through the shell evaluator;
  // the same strings come back in the second round, so their parses are cached for the scan.
  const commandTrees = new Map<string, SyntaxNode | undefined>();
  analysis.embeddedShell = (command, bindings, host, summary, stdin) => {
    if (!commandTrees.has(command)) commandTrees.set(command, parseToSyntax(parsers, 'bash', command));
    const root = commandTrees.get(command);
    if (!root) return EMPTY;
    const module: CodeModule = { file: host.file, source: command, root, importable: false };
    return new ShellEvaluator(analysis, module, { site: host, bindings, summary }).run(stdin ?? EMPTY);
  };

  // Code strings with a known text (python -c "…", bash -c "…", a decoded blob given to exec/eval) are
  // analysed as code of their language, reported at the call that runs them.
  const codeTrees = new Map<string, SyntaxNode | undefined>();
  analysis.embeddedCode = (lang, code, host, summary) => {
    const key = `${lang}\u0000${code}`;
    if (!codeTrees.has(key)) codeTrees.set(key, parseToSyntax(parsers, lang, code));
    const root = codeTrees.get(key);
    if (!root) return;
    const module: CodeModule = { file: host.file, source: code, root, importable: false };
    if (lang === 'bash') new ShellEvaluator(analysis, module, { site: host, bindings: [], summary }).run();
    else if (lang === 'python') new PythonEvaluator(analysis, module, resolvePy, host).run(summary);
    else new JavaScriptEvaluator(analysis, module, resolveJs, host).run(summary);
  };

  const evaluators: Evaluator[] = [];
  for (const unit of units) {
    const root = parseToSyntax(parsers, unit.lang, unit.source);
    if (!root) continue;
    const module: CodeModule = { file: unit.file, source: unit.source, root, importable: unit.importable };
    if (unit.lang === 'python') evaluators.push(new PythonEvaluator(analysis, module, resolvePy));
    else if (unit.lang === 'bash') evaluators.push(new ShellEvaluator(analysis, module));
    else evaluators.push(new JavaScriptEvaluator(analysis, module, resolveJs));
  }
  analysis.startClock();
  for (let round = 0; round < ROUNDS; round++) {
    for (const evaluator of evaluators) {
      if (signal?.aborted) break;
      try {
        evaluator.run();
      } catch {
        // Odd input must cost findings, not the scan (e.g. a pathological file exhausting the stack).
      }
    }
  }
  return [...analysis.findings.values()].sort((x, y) => (x.file_path ?? '').localeCompare(y.file_path ?? '') || (x.line_number ?? 0) - (y.line_number ?? 0));
}
