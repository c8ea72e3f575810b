// The HTTP destinations that post a batch as one request: `http_jsonl` (newline-delimited JSON, a bearer token
// when configured) and `splunk_hec` (the HTTP Event Collector's event endpoint: one JSON event object after
// another, `Authorization: Splunk <token>`). A 2xx answer delivers the batch; 408, 429 and 5xx (and transport
// failures) are retried by the queue; any other answer means the receiver refuses this batch for good.
import { request } from 'undici';
import { PermanentDeliveryFailure, type Deliver } from './queue.js';
import type { EventRecord } from '../events/record.js';

const RETRIED = new Set([408, 429]);

async function post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<void> {
  const answer = await request(url, { method: 'POST', headers, body, signal });
  await answer.body.dump();
  if (answer.statusCode >= 200 && answer.statusCode < 300) return;
  // Not the URL: it may carry a credential in its query, and this message is logged.
  const message = `the receiver answered ${answer.statusCode}`;
  if (answer.statusCode >= 500 || RETRIED.has(answer.statusCode)) throw new Error(message);
  throw new PermanentDeliveryFailure(message);
}

export function httpJsonl(url: string, headers: Record<string, string>): Deliver<EventRecord> {
  const sent = { ...headers, 'content-type': 'application/x-ndjson' };
  return (batch, signal) => post(url, sent, batch.map((record) => `${JSON.stringify(record)}\n`).join(''), signal);
}

export interface HecOptions {
  token: string;
  index?: string;
  sourcetype: string;
  host: string;
}

/** HEC wants epoch seconds (with a fraction) for `time`. */
const epochSeconds = (iso: string) => Date.parse(iso) / 1000;

export function splunkHec(url: string, { token, index, sourcetype, host }: HecOptions): Deliver<EventRecord> {
  const headers = { authorization: `Splunk ${token}`, 'content-type': 'application/json' };
  return (batch, signal) => {
    const body = batch
      .map((record) => JSON.stringify({ time: epochSeconds(record.time), host, source: 'warden', sourcetype, ...(index ? { index } : {}), event: record }))
      .join('\n');
    return post(url, headers, body, signal);
  };
}
