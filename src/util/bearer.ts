// `Authorization: Bearer <token>` (and the same form in X-Warden-Auth): the token, or undefined when the header
// is missing or not exactly one bearer credential. Also the prefix of sandbox-binding credentials, which every
// authenticated sidecar route refuses (spec "Authentication" 5).

export const SANDBOX_CREDENTIAL_PREFIX = 'wardensb_';

export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
}
