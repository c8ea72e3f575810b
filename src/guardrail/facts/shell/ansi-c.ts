// Decoding of bash ANSI-C quoting, `$'…'`, as bash does it (octal escapes take one to three digits, so
// `$'\0162'` is `\016` followed by `2`, exactly what bash runs).

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

function digitsAt(text: string, from: number, max: number, pattern: RegExp): string {
  let end = from;
  while (end < text.length && end - from < max && pattern.test(text.charAt(end))) end++;
  return text.slice(from, end);
}

const OCTAL = /[0-7]/;
const HEX = /[0-9A-Fa-f]/;

/** `body` is the text between `$'` and the closing quote. */
export function decodeAnsiC(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    const slash = body.indexOf('\\', i);
    if (slash < 0 || slash === body.length - 1) return out + body.slice(i);
    out += body.slice(i, slash);
    const c = body.charAt(slash + 1);
    i = slash + 2;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      out += simple;
    } else if (OCTAL.test(c)) {
      const digits = digitsAt(body, slash + 1, 3, OCTAL);
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i = slash + 1 + digits.length;
    } else if (c === 'x' || c === 'u' || c === 'U') {
      const digits = digitsAt(body, i, c === 'x' ? 2 : c === 'u' ? 4 : 8, HEX);
      if (digits === '') {
        out += `\\${c}`;
      } else {
        const code = parseInt(digits, 16);
        out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
        i += digits.length;
      }
    } else if (c === 'c' && i < body.length) {
      out += String.fromCharCode(body.charCodeAt(i) & 0x1f);
      i++;
    } else {
      out += `\\${c}`;
    }
  }
  return out;
}
