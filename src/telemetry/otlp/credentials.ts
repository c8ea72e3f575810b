// Scoped OTLP credentials (spec "Authentication" 7): one token per OTLP source (claudecode, codex), issued by
// `warden setup <connector> --telemetry`. Only the SHA-256 of each token is kept, in
// $WARDEN_HOME/otlp-credentials.json (0600, written atomically): the agent's own settings hold the token, Warden
// needs only to recognise it. A presented token is hashed and compared in constant time with every stored digest.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WardenError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { tokenDigest } from '../../util/token-matcher.js';
import { SCOPED_SOURCES } from './agents/index.js';

export const credentialsPath = (home: string): string => join(home, 'otlp-credentials.json');

interface StoredCredential {
  sha256: string;
  created_at: string;
}

interface CredentialsFile {
  version: 1;
  sources: Record<string, StoredCredential>;
}

const isScopedSource = (source: string): boolean => (SCOPED_SOURCES as readonly string[]).includes(source);

function readFile(path: string): CredentialsFile {
  let text: string;
  try {
    if (lstatSync(path).isSymbolicLink()) throw new WardenError('WARDEN_ERR_CONFIG_INVALID', `refusing ${path}: it is a symbolic link`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, sources: {} };
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<CredentialsFile>;
  const sources: Record<string, StoredCredential> = {};
  for (const [source, entry] of Object.entries(parsed.sources ?? {})) {
    if (isScopedSource(source) && typeof entry?.sha256 === 'string' && /^[0-9a-f]{64}$/.test(entry.sha256)) sources[source] = entry;
  }
  return { version: 1, sources };
}

export class ScopedCredentials {
  private readonly digests: [source: string, digest: Buffer][];

  constructor(path: string) {
    this.digests = Object.entries(readFile(path).sources).map(([source, entry]) => [source, Buffer.from(entry.sha256, 'hex')]);
  }

  /** Whether a scoped token exists for `source` (the master token is then refused for it). */
  has(source: string): boolean {
    return this.digests.some(([s]) => s === source);
  }

  sources(): Set<string> {
    return new Set(this.digests.map(([s]) => s));
  }

  /** The source whose scoped token one of `candidates` is; every pair is compared, so timing says nothing. */
  sourceOf(candidates: readonly string[]): string | undefined {
    let found: string | undefined;
    for (const candidate of candidates) {
      const digest = tokenDigest(candidate);
      for (const [source, expected] of this.digests) if (timingSafeEqual(digest, expected) && found === undefined) found = source;
    }
    return found;
  }

  /** Whether `token` is `source`'s scoped token. */
  matches(source: string, token: string): boolean {
    return this.sourceOf([token]) === source;
  }

  /** Creates (or replaces) `source`'s token, keeps its digest, and returns the token (shown once, to setup). */
  static issue(home: string, source: string): string {
    if (!isScopedSource(source)) throw new WardenError('WARDEN_ERR_SETUP_TELEMETRY', `${source} has no scoped OTLP credential (only ${SCOPED_SOURCES.join(', ')})`);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const path = credentialsPath(home);
    const file = readFile(path);
    const token = `wot_${randomBytes(32).toString('hex')}`;
    file.sources[source] = { sha256: tokenDigest(token).toString('hex'), created_at: new Date().toISOString() };
    writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
    return token;
  }

  /** Removes `source`'s token; returns whether there was one. */
  static revoke(home: string, source: string): boolean {
    const path = credentialsPath(home);
    const file = readFile(path);
    if (!file.sources[source]) return false;
    delete file.sources[source];
    writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
    return true;
  }
}
