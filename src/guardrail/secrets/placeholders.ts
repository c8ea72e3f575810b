// Placeholders, templates and documented example credentials: values that have a secret's shape but are
// not secrets. Docs, `.env.example` files, tests and tutorials are full of them, and flagging them is the
// main source of false alarms of secret scanners. Two levels:
//   basic  (prefixed tokens: the prefix already says "credential"): templates, filler runs, example words,
//          values that vendors publish as documentation or test keys.
//   strict (generic `keyword = value` rules, where the value alone must look random): additionally common
//          weak/demo words, ascending sequences, identifiers and code expressions, URLs, paths, public keys.

/** Credentials that vendors print in their documentation (never live). Compared on the whole match and the value. */
const DOCUMENTED_EXAMPLES = new Set([
  'AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AKIAI44QH8DHBEXAMPLE',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  // Stripe's documented test keys (also *_test_, which no live rule matches)
  'sk_test_4eC39HqLyjWDarjtT1zdp7dc', 'pk_test_TYooMQauvdEDq54NiTphI7jx', 'sk_test_BQokikJOvBiI2HlWgH4olfQ2',
  'sk_test_26PHem9AhJZvU623DfE1x4sd', 'sk_test_51ABCDEFghijklmnopqrstuvwxyz',
  // the UUID of RFC 4122's and countless tutorials' examples
  '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456-426655440000',
  // Telegram Bot API documentation token
  '110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11',
  // jwt.io's default example token (HS256, "John Doe")
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  // Slack's documentation sample
  'xoxb-not-a-real-token-this-will-not-work',
]);

/** Substrings (lower case) that mark a value as a stand-in in every secret rule. */
const PLACEHOLDER_WORDS = [
  'example', 'placeholder', 'redacted', 'dummy', 'sample', 'changeme', 'change_me', 'change-me', 'your_', 'your-',
  'yourkey', 'yourtoken', 'yoursecret', 'yourpass', 'youraccess', 'yourapi', 'replace_me', 'replaceme', 'replace-with',
  'insert_', 'insert-', 'notreal', 'not_real', 'not-real', 'not-a-real', 'fake_', 'fakekey', 'faketoken', 'abc123',
  'xxxx', '****', '....', '<', '>', '${', '{{', '}}', 'todo', 'fixme', 'dontuse', 'do_not_use',
];

/** Template syntaxes that need more than a substring: %(name)s, $(command). */
const TEMPLATE = /%\(\w+\)[sd]|\$\(\s*[a-z]/;

/** One segment of a dotted name in code: lower, UPPER_SNAKE, camelCase or PascalCase words, not random case. */
const NAME_SEGMENT = /^(?:[a-z][a-z0-9_]*|[A-Z][A-Z0-9_]*|[a-z]+(?:[A-Z][a-z0-9]+)+|(?:[A-Z][a-z0-9]+)+)$/;

/** Whole values (lower case) that are demo or default passwords and configuration words, not secrets. */
const WEAK_VALUES = new Set([
  'password', 'passw0rd', 'password1', 'password123', 'p@ssw0rd', 'p@ssword', 'secret', 'secret123', 'changeit',
  'admin', 'admin123', 'root', 'toor', 'test', 'test123', 'testing', 'demo', 'guest', 'letmein', 'qwerty', 'hunter2',
  'welcome', 'welcome1', '123456', '12345678', '123456789', 'default', 'none', 'null', 'nil', 'undefined', 'true',
  'false', 'required', 'optional', 'string', 'env', 'secretvalue', 'mysecret', 'mypassword', 'supersecret',
  'topsecret', 'pass123', 'pa55word', 'token', 'apikey', 'api_key', 'bearer', 'basic', 'postgres', 'mysql',
  'mariadb', 'guest', 'pass', 'user', 'redis', 'mongo', 'mongodb', 'rabbitmq', 'dev', 'local', 'localhost',
  'secretpassword', 'mysecretpassword', 'postgrespassword', 'rootpassword', 'adminpassword', 'sa', 'oracle',
  'foobared', 'pass1234', 'qwerty123', 'iloveyou', 'trustno1', 'abc12345',
]);

/** Leetspeak undone (p4ssw0rd, s3cr3t, pa$$word), so spelled-out demo words are recognised. */
const LEET: Record<string, string> = { '4': 'a', '@': 'a', '3': 'e', '1': 'i', '!': 'i', '0': 'o', '5': 's', $: 's', '7': 't' };
const unleet = (lower: string) => lower.replace(/[4@31!05$7]/g, (c) => LEET[c]!);

/** Prefixes of values that are public by design or not secrets at all (generic rules only). */
const NOT_SECRET_PREFIXES = [
  'pk_live_', 'pk_test_', 'pk.ey', 'sha1-', 'sha256-', 'sha384-', 'sha512-', 'sha256:', 'sha1:', 'md5:', 'ssh-rsa',
  'ssh-ed25519', 'ecdsa-sha2', 'aaaab3nza', 'aaaac3nza', 'http://', 'https://', 'file://', 'arn:aws:', 'projects/',
  'ocid1.', 'sk_test_', 'rk_test_', 'vault:', 'ref+', 'op://', 'secretsmanager:', 'awssm:', 'env:', 'file:', 'base64:',
  'pbkdf2', 'argon2', 'bcrypt', 'scrypt', '$2a$', '$2b$', '$2y$', '$6$', '$argon',
];

/** Words (lower case) that a generic value containing them was written by hand as a stand-in. */
const STAND_IN_WORDS = ['secret', 'password', 'passwd', 'token', 'apikey', 'api_key', 'private', 'test', 'demo', 'mock', 'default'];

/** A run of one character this long is a filler: x/X/0/1/*-style fillers early, anything else later. */
const FILLER_RUN = 6;
const ANY_RUN = 12;
const FILLERS = new Set(['x', 'X', '0', '1', '*', '#', '.', '-', '_', '=']);

import { isSignedJwt } from '../validators.js';

export type PlaceholderLevel = 'basic' | 'strict';

/** Why `value` (the secret part) or `match` (the whole match) is a placeholder, or undefined when it looks real. */
export function placeholderReason(value: string, match: string, level: PlaceholderLevel): string | undefined {
  if (DOCUMENTED_EXAMPLES.has(value) || DOCUMENTED_EXAMPLES.has(match)) return 'documented example';
  const lower = value.toLowerCase();
  for (const word of PLACEHOLDER_WORDS) if (lower.includes(word)) return `placeholder word ${word}`;
  if (TEMPLATE.test(value)) return 'template';
  const run = longestRun(value);
  if (run.length >= ANY_RUN || (run.length >= FILLER_RUN && FILLERS.has(run.char))) return 'filler run';
  if (level === 'basic') return undefined;

  if (WEAK_VALUES.has(lower) || WEAK_VALUES.has(lower.replace(/[^a-z0-9@]/g, ''))) return 'weak or default value';
  // Kubernetes Secret data and Basic credentials are base64: judge what they encode (cGFzc3dvcmQ= is "password")
  const decoded = decodedText(value);
  if (decoded !== undefined && decoded !== value && placeholderReason(decoded, decoded, 'strict') !== undefined) return 'encodes a placeholder';
  for (const prefix of NOT_SECRET_PREFIXES) if (lower.startsWith(prefix)) return `not a secret: ${prefix}`;
  for (const word of STAND_IN_WORDS) if (lower.includes(word)) return `stand-in word ${word}`;
  const plain = unleet(lower);
  if (plain !== lower && (WEAK_VALUES.has(plain) || /passwor|secret|admin/.test(plain))) return 'demo word in leetspeak';
  // a JWT assigned to a generic name counts only if signed (the jwt tag's rule), like SECRET-JWT
  if (/^eyJ[\w-]+\.eyJ[\w-]*\./.test(value) && !isSignedJwt(value)) return 'unsigned JWT';
  if (longestSequence(value) >= 6) return 'ascending or descending sequence';
  // code that reads a secret from elsewhere: process.env.X, os.getenv("X"), config.api.key, settings[...]
  if (/^[[(]|^[A-Za-z_$][\w$.]*[([]/.test(value)) return 'code expression';
  if (value.includes('.') && value.split('.').every((segment) => NAME_SEGMENT.test(segment))) return 'dotted name';
  // $NAME, %NAME%: a shell or Windows variable, not its value
  if (/^\$[A-Za-z_]\w*$|^%[A-Za-z_]\w*%$/.test(value)) return 'variable reference';
  // words joined by separators (my-secret-name, SECRET_KEY_NAME) and bare identifiers: names, not values
  if (/^[A-Za-z]+(?:[_\-.][A-Za-z]+)*$/.test(value)) return 'identifier';
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return 'environment variable name';
  if (/^[~.]?\/|^[A-Za-z]:\\/.test(value)) return 'path';
  // lower-case words between slashes (prod/orders/db-credentials) name a secret in a store; base64 has capitals
  if (value.includes('/') && /^[a-z0-9_.-]+(?:\/[a-z0-9_.-]*)+$/.test(value)) return 'path or secret name';
  if (/^\d+(?:\.\d+)*$/.test(value)) return 'number or version';
  return undefined;
}

function longestRun(value: string): { char: string; length: number } {
  let best = { char: '', length: 0 };
  for (let i = 0; i < value.length; ) {
    let j = i + 1;
    while (j < value.length && value[j] === value[i]) j++;
    if (j - i > best.length) best = { char: value[i]!, length: j - i };
    i = j;
  }
  return best;
}

/** Longest run of characters whose codes go up (or down) by one: 123456, abcdef, 987654. */
function longestSequence(value: string): number {
  let best = 1, up = 1, down = 1;
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1);
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    best = Math.max(best, up, down);
  }
  return best;
}

/**
 * Variable names that contain a secret word but hold no secret: pagination and CSRF tokens, token counts and
 * limits, and ids, names, URLs, paths, sizes, hashes or lifetimes of secrets (the secret itself lives elsewhere).
 */
const NOT_SECRET_NAME = new RegExp([
  '(?:page|cursor|continuation|next|sync|csrf|xsrf|refresh_?interval)[_.\\-]?token',
  '(?:max|num|total|prompt|completion|input|output)[_.\\-]?tokens?',
  'tokens?[_.\\-]?(?:count|usage|limit|budget|type|length)',
  'public',
  '(?:^|[_.\\-])(?:id|ids|count|url|uri|endpoint|path|file|filename|name|type|ttl|length|size|hash|digest|checksum|fingerprint|version|expiry|expires|timeout|header|prefix|format|field|ref|arn)$',
  '[a-z](?:Id|Ids|Url|Uri|Path|File|Name|Type|Ttl|Length|Hash|Version|Header|Prefix|Ref)$',
].join('|'));

export function notSecretName(name: string): boolean {
  return NOT_SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name.toLowerCase());
}

/** The text a short base64 value encodes, when it is printable ASCII; otherwise undefined. */
function decodedText(value: string): string | undefined {
  if (value.length > 96 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const text = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) ? text : undefined;
}
