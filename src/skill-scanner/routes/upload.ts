// POST /scan-upload: a skill as a ZIP (multipart field `file`) plus the scan flags as form fields. The file is
// streamed to a private temp folder (at most 50 MB), unpacked with the ZIP limits, scanned, and removed
// whatever happens.
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import Value from 'typebox/value';
import Type from 'typebox';
import { rootForms } from '../../scanners/paths.js';
import type { ScanOptions } from '../../scanners/types.js';
import type { ScannerContext } from '../context.js';
import { ScanFlags } from '../../scanners/options.js';
import { ScanResultSchema } from '../schemas.js';
import { extractZip, skillRootOf, UploadRejected } from '../zip.js';
import { errorAnswers } from './scan.js';
import { SKILL_SCANNER_LIMITS } from '../limits.js';

export const MAX_UPLOAD_BYTES = SKILL_SCANNER_LIMITS.maxUploadBytes;
const UploadFlags = Type.Object(ScanFlags, { additionalProperties: false });

/** Form values are strings: `true`/`false`/`1`/`0` for flags, digits for the run count. */
function formValue(name: string, value: string): unknown {
  if (name === 'policy') return value;
  if (name === 'llm_consensus_runs') return /^\d+$/.test(value) ? Number(value) : value;
  if (['true', '1', 'on'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'off', ''].includes(value.toLowerCase())) return false;
  return value;
}

export function uploadRoutes(app: FastifyInstance, ctx: ScannerContext): void {
  app.post('/scan-upload', {
    schema: {
      summary: 'Scan an uploaded skill ZIP (multipart: field `file` plus scan flags as form fields)',
      consumes: ['multipart/form-data'],
      response: { 200: ScanResultSchema, ...errorAnswers },
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) return reply.code(400).send({ detail: 'send multipart/form-data with the ZIP in field "file"' });
    const work = mkdtempSync(join(tmpdir(), 'warden-upload-'));
    try {
      const fields: Record<string, unknown> = {};
      let zipPath: string | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || zipPath) {
            part.file.resume();
            return reply.code(400).send({ detail: 'exactly one file, in field "file", is expected' });
          }
          zipPath = join(work, 'upload.zip');
          await pipeline(part.file, createWriteStream(zipPath, { flags: 'wx', mode: 0o600 }));
          if (part.file.truncated) return reply.code(413).send({ detail: 'the upload is larger than 50 MB' });
        } else {
          fields[part.fieldname] = formValue(part.fieldname, String(part.value));
        }
      }
      if (!zipPath) return reply.code(400).send({ detail: 'no file in field "file"' });
      if (!Value.Check(UploadFlags, fields)) {
        const first = Value.Errors(UploadFlags, fields)[0];
        return reply.code(400).send({ detail: `invalid scan option: ${first ? `${first.instancePath || '/'} ${first.message}` : 'bad form'}` });
      }
      const unpacked = join(work, 'skill');
      mkdirSync(unpacked, { mode: 0o700 });
      await extractZip(zipPath, unpacked);
      const directory = skillRootOf(unpacked, readdirSync(unpacked));
      // The temp folder is ours: it is the one root of this scan, instead of the roots meant for caller-named paths.
      const outcome = await ctx.pool.run({ directory, options: fields as Partial<ScanOptions>, env: ctx.env, roots: rootForms(work) });
      if (!outcome.ok) return reply.code(outcome.status).send({ detail: outcome.detail });
      return outcome.result;
    } catch (err) {
      if (err instanceof UploadRejected) return reply.code(err.statusCode).send({ detail: err.message });
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return reply.code(413).send({ detail: 'the upload is larger than 50 MB' });
      throw err;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}
