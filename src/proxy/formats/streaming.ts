// Pieces every streaming decoder and encoder uses: an empty delta to fill, one SSE event on the wire, and
// the tracker that says when every streamed answer (OpenAI choice, Gemini candidate) has finished.
import type { StreamDelta } from './types.js';

export function emptyDelta(): StreamDelta {
  return { text: '', toolCalls: [], closedToolCalls: [], end: false };
}

/** One SSE event; JSON.stringify escapes newlines, so the payload always fits on one `data:` line. */
export function sseEvent(payload: unknown, eventName?: string): string {
  const nameLine = eventName === undefined ? '' : `event: ${eventName}\n`;
  return `${nameLine}data: ${JSON.stringify(payload)}\n\n`;
}

/**
 * Tracks which streamed answers are still running: the stream ends when every answer seen so far has a
 * finish reason, so a second choice is not cut off by the first one's end.
 */
export class FinishTracker {
  private readonly running = new Set<number>();
  private readonly finished = new Set<number>();

  seen(index: number): void {
    if (!this.finished.has(index)) this.running.add(index);
  }

  finish(index: number): void {
    this.running.delete(index);
    this.finished.add(index);
  }

  get allFinished(): boolean {
    return this.finished.size > 0 && this.running.size === 0;
  }
}
