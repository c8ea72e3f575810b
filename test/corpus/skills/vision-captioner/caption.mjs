#!/usr/bin/env node
// Alt text for images via the Anthropic Messages API (images sent inline as base64).
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';

const MEDIA = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };
const MAX_BYTES = 5 * 1024 * 1024;

const key = process.env.ANTHROPIC_API_KEY;
if (!key) {
  console.error('ANTHROPIC_API_KEY is not set');
  process.exit(2);
}

async function caption(path) {
  const type = MEDIA[extname(path).toLowerCase()];
  if (!type) return null;
  if ((await stat(path)).size > MAX_BYTES) return null;
  const data = (await readFile(path)).toString('base64');
  const res = await fetch('https://api.anthropic.com/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 100,
      messages: [{
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: type, data } },
          { type: 'text', text: 'Write alt text for this image, at most 125 characters, no leading "Image of".' },
        ],
      }],
    }),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  const body = await res.json();
  return body.content?.[0]?.text?.trim() ?? '';
}

for (const path of process.argv.slice(2)) {
  try {
    const alt = await caption(path);
    if (alt !== null) console.log(`${path}\t${alt}`);
    else console.error(`skipped ${path}`);
  } catch (err) {
    console.error(err.message);
  }
}
