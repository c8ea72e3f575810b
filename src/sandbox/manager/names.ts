// Sandbox names (spec "CreateRequest"): at most 19 characters of `[a-z0-9-]`; an empty name becomes
// `<folder>-<random>`, the folder name lowercased, reduced to the allowed characters and cut to fit.
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { SandboxApiError } from '../errors.js';
import { SANDBOX_LIMITS } from '../limits.js';

const NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const SUFFIX_CHARS = 6;

export function checkName(name: string): string {
  if (name.length > SANDBOX_LIMITS.nameChars || !NAME.test(name)) {
    throw new SandboxApiError('invalid_request', `invalid sandbox name ${JSON.stringify(name)}`, {
      detail: `at most ${SANDBOX_LIMITS.nameChars} characters of lowercase letters, digits and '-', not starting or ending with '-'`,
    });
  }
  return name;
}

export function pickName(project: string): string {
  const suffix = randomBytes(8).toString('hex').slice(0, SUFFIX_CHARS);
  const folder = basename(project).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  const room = SANDBOX_LIMITS.nameChars - SUFFIX_CHARS - 1;
  const stem = folder.slice(0, room).replace(/-+$/, '') || 'sandbox';
  return `${stem}-${suffix}`;
}
