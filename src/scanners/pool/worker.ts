// A scan in a worker thread (piscina): the server's event loop keeps answering while analyzers parse and
// match. Errors come back as data, because error classes do not survive the trip between threads.
import { INTERNAL_ERROR } from '../../errors.js';
import { PresetError } from '../presets.js';
import { PathRejected, confinePath } from '../paths.js';
import { scanSkill } from '../scan.js';
import { SkillLoadError } from '../skill.js';
import { AnalyzerUnavailable, type ScanOptions, type ScanResult } from '../types.js';

export interface ScanTask {
  directory: string;
  options: Partial<ScanOptions>;
  env: Record<string, string | undefined>;
  /** Where the scan may read (the folder and a policy file path); null only for the operator's own command line. */
  roots: string[] | null;
  /** A source tree rather than a skill (see ScanDeps.source). */
  source?: boolean;
}

/** A failed scan carries its HTTP status and its WardenError code (stable, see docs/errors.md). */
export type ScanOutcome = { ok: true; result: ScanResult } | { ok: false; status: number; code: string; detail: string };

export function outcomeOf(err: unknown): ScanOutcome {
  if (err instanceof PathRejected) return { ok: false, status: err.statusCode, code: err.code, detail: err.message };
  if (err instanceof PresetError || err instanceof AnalyzerUnavailable) return { ok: false, status: 400, code: err.code, detail: err.message };
  if (err instanceof SkillLoadError) {
    const status = err.kind === 'not_found' ? 404 : err.kind === 'malformed_manifest' ? 422 : 400;
    return { ok: false, status, code: err.code, detail: err.message };
  }
  return { ok: false, status: 500, code: INTERNAL_ERROR.code, detail: 'scan failed' };
}

export async function runScan(task: ScanTask): Promise<ScanOutcome> {
  try {
    const roots = task.roots ?? undefined;
    const directory = confinePath(task.directory, roots, 'directory');
    const result = await scanSkill(directory, task.options, { env: task.env, source: task.source, allowPath: (path) => void confinePath(path, roots, 'file') });
    return { ok: true, result };
  } catch (err) {
    return outcomeOf(err);
  }
}

export default runScan;
