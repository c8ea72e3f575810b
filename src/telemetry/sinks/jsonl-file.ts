// The `jsonl` destination: records appended to a local file, one JSON object a line, rotated by size
// (`<path>` → `<path>.1` → … → `<path>.<max_files>`, the oldest deleted). The file is created with mode 0600
// (records hold session ids and verdict reasons) and opened without following a symlink, so a link planted
// at the path cannot redirect the writes.
import { constants } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { Deliver } from './queue.js';

export interface JsonlFileOptions {
  path: string;
  maxBytes: number;
  maxFiles: number;
}

const OPEN_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW;

export function jsonlFile<T>({ path, maxBytes, maxFiles }: JsonlFileOptions): Deliver<T> {
  return async (batch) => {
    const text = batch.map((record) => `${JSON.stringify(record)}\n`).join('');
    const bytes = Buffer.byteLength(text);
    const size = await stat(path).then((s) => s.size, () => 0);
    if (size > 0 && size + bytes > maxBytes) await rotate(path, maxFiles);
    const file = await open(path, OPEN_FLAGS, 0o600);
    try {
      await file.write(text);
    } finally {
      await file.close();
    }
  };
}

async function rotate(path: string, maxFiles: number): Promise<void> {
  await rm(`${path}.${maxFiles}`, { force: true });
  for (let n = maxFiles - 1; n >= 1; n--) {
    await rename(`${path}.${n}`, `${path}.${n + 1}`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  await rename(path, `${path}.1`);
}
