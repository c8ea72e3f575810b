// Static decoding of literal blobs (base64, hex, zlib/gzip, rot13), so that `exec(zlib.decompress(
// base64.b64decode("eNp…")))` can be analysed as the code it runs. Decoded bytes are carried as latin1 strings
// (one char per byte) until they are used as code, when they are read as UTF-8.
import { inflateRawSync, unzipSync } from 'node:zlib';
import { UNKNOWN } from './catalog.js';

export type Codec = 'base64' | 'hex' | 'zlib' | 'rot13';

const LIMITS = { maxInput: 256 * 1024, maxOutput: 1024 * 1024 } as const;

/** The decoded bytes (latin1) of a fully known text, or undefined when it is not known or does not decode. */
export function decodeText(text: string | undefined, codec: Codec): string | undefined {
  if (text === undefined || text.length > LIMITS.maxInput || text.length === 0) return undefined;
  // Compressed input is binary (an earlier decoder's output) and may hold NUL bytes; the textual codecs
  // refuse text with unknown (NUL-marked) parts.
  if (codec !== 'zlib' && text.includes(UNKNOWN)) return undefined;
  try {
    switch (codec) {
      case 'base64': {
        const clean = text.replace(/\\n|\s/g, '').replace(/-/g, '+').replace(/_/g, '/');
        if (!/^[A-Za-z0-9+/]+=*$/.test(clean)) return undefined;
        return Buffer.from(clean, 'base64').toString('latin1');
      }
      case 'hex': {
        const clean = text.replace(/\s/g, '');
        return /^(?:[0-9a-fA-F]{2})+$/.test(clean) ? Buffer.from(clean, 'hex').toString('latin1') : undefined;
      }
      case 'zlib': {
        const bytes = Buffer.from(text, 'latin1');
        try {
          return unzipSync(bytes, { maxOutputLength: LIMITS.maxOutput }).toString('latin1');
        } catch {
          return inflateRawSync(bytes, { maxOutputLength: LIMITS.maxOutput }).toString('latin1');
        }
      }
      case 'rot13':
        return text.replace(/[a-z]/gi, (ch) => {
          const base = ch <= 'Z' ? 65 : 97;
          return String.fromCharCode(((ch.charCodeAt(0) - base + 13) % 26) + base);
        });
    }
  } catch {
    return undefined;
  }
}

/** Decoded bytes as source code, when they are valid UTF-8 text. */
export function asCode(bytes: string): string | undefined {
  const buffer = Buffer.from(bytes, 'latin1');
  if (buffer.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return undefined;
  }
}
