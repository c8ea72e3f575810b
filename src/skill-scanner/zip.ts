// Unpacking an uploaded skill ZIP safely (spec document 3 "Limits"): at most 500 entries and 200 MB of
// content, counted from the bytes actually inflated (a bomb's headers can say anything); no entry may leave
// the target folder (`..`, absolute paths, drive letters) and no symlink is accepted.
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { SKILL_SCANNER_LIMITS } from './limits.js';
import { WardenError } from '../errors.js';


export class UploadRejected extends WardenError {
  declare readonly statusCode: 400 | 413;
  constructor(message: string, statusCode: 400 | 413 = 400) {
    super('WARDEN_ERR_SCAN_UPLOAD_REJECTED', message, { statusCode });
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolvePromise, reject) => {
    // validateEntrySizes: an entry inflating past its declared size is an error, not silently accepted.
    yauzl.open(path, { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) reject(new UploadRejected('the upload is not a valid ZIP archive'));
      else resolvePromise(zip);
    });
  });
}

function safeTarget(root: string, name: string): string {
  if (name.includes('\0') || name.includes('\\') || isAbsolute(name) || /^[A-Za-z]:/.test(name)) {
    throw new UploadRejected(`archive entry has an unsafe path: ${JSON.stringify(name.slice(0, 200))}`);
  }
  if (name.split('/').includes('..')) throw new UploadRejected(`archive entry leaves the archive: ${JSON.stringify(name.slice(0, 200))}`);
  const target = resolve(root, name);
  const rel = relative(root, target);
  if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) throw new UploadRejected('archive entry leaves the archive');
  return target;
}

/** Extracts `zipPath` into the (empty, existing) folder `root`. */
export async function extractZip(zipPath: string, root: string): Promise<void> {
  const zip = await openZip(zipPath);
  if (zip.entryCount > SKILL_SCANNER_LIMITS.maxZipEntries) {
    zip.close();
    throw new UploadRejected(`the archive has ${zip.entryCount} entries; at most ${SKILL_SCANNER_LIMITS.maxZipEntries} are accepted`);
  }
  let entries = 0;
  let inflated = 0;
  const counter = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        inflated += chunk.length;
        if (inflated > SKILL_SCANNER_LIMITS.maxZipUncompressedBytes) done(new UploadRejected('the archive unpacks to more than 200 MB'));
        else done(null, chunk);
      },
    });
  try {
    for (;;) {
      zip.readEntry();
      const [entry] = (await Promise.race([once(zip, 'entry'), once(zip, 'end').then(() => [undefined])])) as [yauzl.Entry | undefined];
      if (!entry) break;
      if (++entries > SKILL_SCANNER_LIMITS.maxZipEntries) throw new UploadRejected(`the archive has more than ${SKILL_SCANNER_LIMITS.maxZipEntries} entries`);
      const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
      if (mode === S_IFLNK) throw new UploadRejected(`archive entry is a symlink: ${JSON.stringify(entry.fileName.slice(0, 200))}`);
      const target = safeTarget(root, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        mkdirSync(target, { recursive: true, mode: 0o700 });
        continue;
      }
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      const stream = await new Promise<NodeJS.ReadableStream>((ok, fail) =>
        zip.openReadStream(entry, (err, s) => (err || !s ? fail(new UploadRejected('the archive is corrupt')) : ok(s))),
      );
      // 'wx': never overwrite (a duplicate entry name is refused, not merged).
      await pipeline(stream, counter(), createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    }
  } catch (err) {
    zip.close();
    if (err instanceof UploadRejected) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UploadRejected(code === 'EEXIST' ? 'the archive holds the same path twice' : 'the archive is corrupt or inconsistent');
  }
}

/** The skill folder inside an unpacked upload: the root itself, or its single top-level folder. */
export function skillRootOf(root: string, names: string[]): string {
  if (names.includes('SKILL.md')) return root;
  const folders = names.filter((n) => !n.startsWith('.') && n !== '__MACOSX');
  return folders.length === 1 ? join(root, folders[0]!) : root;
}
