// Connector hook tokens: one narrow credential per connector in $WARDEN_HOME/hooks/<connector>.token (0600),
// written by `warden setup <connector>` for that agent's hook script. A hook token is accepted only over
// loopback, on its own connector's hook route, or on /api/v1/inspect/* with X-Warden-Connector naming the
// same connector; it opens nothing else.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { TokenMatcher } from '../util/token-matcher.js';

export class HookTokens {
  private readonly matchers = new Map<string, TokenMatcher>();

  /** Reads every `<connector>.token` in `dir`; a missing folder means no hook tokens yet. */
  constructor(readonly dir: string) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const name of names) {
      const match = /^([a-z0-9]+)\.token$/.exec(name);
      if (!match) continue;
      const token = readFileSync(join(dir, name), 'utf8').trim();
      if (token) this.matchers.set(match[1]!, new TokenMatcher(token));
    }
  }

  /** Whether `credential` is `connector`'s hook token (constant time in the credential). */
  matches(connector: string, credential: string): boolean {
    return this.matchers.get(connector)?.matches(credential) ?? false;
  }

  /** Create (or replace) a connector's token file and return the token. */
  static issue(dir: string, connector: string): string {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const token = `wh_${randomBytes(32).toString('hex')}`;
    writeFileAtomic(join(dir, `${connector}.token`), `${token}\n`, 0o600);
    return token;
  }
}
