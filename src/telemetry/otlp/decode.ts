// Turning an OTLP/HTTP body into the request object: gzip undone (bounded by the same 64 MiB as the body, so a
// small compressed body cannot expand without limit), then protobuf decoded with the official message
// definitions (proto.ts) or JSON parsed. Both encodings come out in one shape: OTLP/JSON's lowerCamelCase field
// names, 64-bit numbers as decimal strings, ids as bytes (protobuf) or hex text (JSON; normalise.ts reads both).
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { WardenError } from '../../errors.js';
import { OTLP_MESSAGES, type Signal } from './proto.js';

const gunzipAsync = promisify(gunzip);

export type OtlpEncoding = 'json' | 'protobuf';

/** A body whose decompressed size passes the OTLP limit: answered 413 and recorded like an oversized body. */
export class OtlpBodyTooLarge extends WardenError {
  constructor(limit: number) {
    super('WARDEN_ERR_REQUEST_TOO_LARGE', `decompressed OTLP body is larger than ${limit} bytes`, { statusCode: 413 });
  }
}

export const OTLP_CONTENT_TYPES: Record<string, OtlpEncoding> = {
  'application/json': 'json',
  'application/x-protobuf': 'protobuf',
};

/** The encoding a Content-Type names, or undefined when it is not an OTLP one. */
export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  if (!contentType) return undefined;
  return OTLP_CONTENT_TYPES[contentType.split(';')[0]!.trim().toLowerCase()];
}

export async function decompress(body: Buffer, contentEncoding: string | undefined, limit: number): Promise<Buffer> {
  const coding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return body;
  if (coding !== 'gzip') {
    throw new WardenError('WARDEN_ERR_OTLP_ENCODING', `unsupported Content-Encoding "${coding.slice(0, 32)}" (gzip or none)`, { statusCode: 415 });
  }
  try {
    return await gunzipAsync(body, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new OtlpBodyTooLarge(limit);
    throw new WardenError('WARDEN_ERR_OTLP_DECODE', 'body is not valid gzip', { statusCode: 400 });
  }
}

export function decodeRequest(signal: Signal, body: Buffer, encoding: OtlpEncoding): Record<string, unknown> {
  if (encoding === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new WardenError('WARDEN_ERR_OTLP_DECODE', `body is not valid OTLP/JSON for ${signal}`, { statusCode: 400 });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new WardenError('WARDEN_ERR_OTLP_DECODE', `OTLP/JSON ${signal} body must be an object`, { statusCode: 400 });
    }
    return parsed as Record<string, unknown>;
  }
  const type = OTLP_MESSAGES[signal].request;
  try {
    return type.toObject(type.decode(body), { longs: String, arrays: true }) as Record<string, unknown>;
  } catch {
    throw new WardenError('WARDEN_ERR_OTLP_DECODE', `body is not a valid protobuf Export${signal === 'traces' ? 'Trace' : signal === 'logs' ? 'Logs' : 'Metrics'}ServiceRequest`, { statusCode: 400 });
  }
}

/** The OTLP answer in the request's encoding: an empty Export*ServiceResponse, or one with partial_success. */
export function encodeAnswer(signal: Signal, encoding: OtlpEncoding, rejected: number, errorMessage: string): { contentType: string; body: Buffer | string } {
  const { response, rejectedField } = OTLP_MESSAGES[signal];
  const partial = rejected > 0 || errorMessage !== '' ? { partialSuccess: { [rejectedField]: String(rejected), errorMessage } } : {};
  if (encoding === 'json') return { contentType: 'application/json', body: JSON.stringify(partial) };
  return { contentType: 'application/x-protobuf', body: Buffer.from(response.encode(response.fromObject(partial)).finish()) };
}
