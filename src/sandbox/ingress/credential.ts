// The ingress's only credential: the sandbox's current `wardensb_` binding credential, compared by its SHA-256
// with the hash the manager keeps (constant time). The gateway token, another sandbox's credential or an earlier
// session's are all refused with the same answer.
import { createHash, timingSafeEqual } from 'node:crypto';
import { WardenError } from '../../errors.js';
import { SANDBOX_CREDENTIAL_PREFIX } from '../../util/bearer.js';

export class IngressCredentialError extends WardenError {
  constructor() {
    super('WARDEN_ERR_SANDBOX_INGRESS_CREDENTIAL', 'this hook ingress takes only its sandbox\'s binding credential', { statusCode: 401 });
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,256})$/;

/** Throws IngressCredentialError unless `authorization` carries the credential whose SHA-256 (hex) is `hash`. */
export function checkBindingCredential(authorization: string | undefined, hash: string): void {
  const token = BEARER.exec(authorization ?? '')?.[1];
  const expected = Buffer.from(hash, 'hex');
  if (!token || !token.startsWith(SANDBOX_CREDENTIAL_PREFIX) || expected.length !== 32) throw new IngressCredentialError();
  if (!timingSafeEqual(createHash('sha256').update(token).digest(), expected)) throw new IngressCredentialError();
}
