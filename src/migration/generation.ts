// config.generation.json: which configuration is in force. Nothing else in the tree kept such a file before the
// migration; it is small on purpose: a counter that goes up by one each time Warden itself writes a new whole
// config.yaml (the migration, a rollback), the SHA-256 of the bytes written, when, and by whom. A reader compares
// `sha256` with config.yaml's hash to know whether the file still describes what is on disk (an interrupted
// migration leaves it one generation ahead of a config.yaml that was never replaced; an operator's hand edit
// leaves it behind).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATION_FILE } from './files-left.js';

export interface ConfigGeneration {
  generation: number;
  sha256: string;
  written_at: string;
  by: 'migration' | 'lifecycle' | 'rollback';
}

export function readGeneration(home: string): ConfigGeneration | undefined {
  try {
    const value = JSON.parse(readFileSync(join(home, GENERATION_FILE), 'utf8')) as Partial<ConfigGeneration>;
    return typeof value.generation === 'number' && typeof value.sha256 === 'string' ? (value as ConfigGeneration) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The generation that follows the one on disk (1 when there is none). A write of the same bytes again (a run
 * resumed after an interruption) keeps the number: it is the same configuration.
 */
export function nextGeneration(home: string, sha256: string, by: ConfigGeneration['by'], now: Date): ConfigGeneration {
  const current = readGeneration(home);
  const generation = current?.sha256 === sha256 ? current.generation : (current?.generation ?? 0) + 1;
  return { generation, sha256, written_at: now.toISOString(), by };
}
