// Splitting a streamed answer into events while keeping each event's exact text, so a clean stream can be
// relayed byte for byte. Server-sent events end at a blank line (WHATWG HTML "server-sent events"), NDJSON at
// a newline. Hand-written rather than eventsource-parser: that library yields parsed fields only, and the
// proxy must forward the original bytes of each event.
import type { StreamEvent } from './formats/types.js';
import { PROXY_LIMITS } from './limits.js';

export interface FramedEvent {
  event: StreamEvent;
  /** The event's text exactly as received, terminator included. */
  raw: string;
}

export interface Framer {
  /** Complete events in `chunk` (text decoded so far); an incomplete tail waits for the next chunk. */
  push(chunk: string): FramedEvent[];
  /** What is left when the stream ends without a final terminator. */
  flush(): FramedEvent[];
}

/** Only one buffered, unterminated event is allowed to grow this large; past that it is passed on as is. */
const MAX_EVENT = PROXY_LIMITS.maxStreamEventChars;

const BLANK_LINE = /\r\n\r\n|\n\n|\r\r|\r\n\n|\n\r\n/g;

function parseSseBlock(block: string): StreamEvent | undefined {
  let name: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0 && name === undefined) return undefined;
  return name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') };
}

export function sseFramer(): Framer {
  let buffer = '';
  const take = (): FramedEvent[] => {
    const out: FramedEvent[] = [];
    let start = 0;
    BLANK_LINE.lastIndex = 0;
    for (let m = BLANK_LINE.exec(buffer); m; m = BLANK_LINE.exec(buffer)) {
      const end = m.index + m[0].length;
      const raw = buffer.slice(start, end);
      out.push({ event: parseSseBlock(raw) ?? { data: '' }, raw });
      start = end;
    }
    buffer = buffer.slice(start);
    return out;
  };
  return {
    push(chunk) {
      buffer += chunk;
      const events = take();
      if (buffer.length > MAX_EVENT) events.push(...this.flush());
      return events;
    },
    flush() {
      if (buffer === '') return [];
      const raw = buffer;
      buffer = '';
      return [{ event: parseSseBlock(raw) ?? { data: '' }, raw }];
    },
  };
}

export function ndjsonFramer(): Framer {
  let buffer = '';
  return {
    push(chunk) {
      buffer += chunk;
      const out: FramedEvent[] = [];
      let start = 0;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', start)) {
        const raw = buffer.slice(start, nl + 1);
        out.push({ event: { data: raw.trim() }, raw });
        start = nl + 1;
      }
      buffer = buffer.slice(start);
      if (buffer.length > MAX_EVENT) out.push(...this.flush());
      return out;
    },
    flush() {
      if (buffer === '') return [];
      const raw = buffer;
      buffer = '';
      return [{ event: { data: raw.trim() }, raw }];
    },
  };
}
