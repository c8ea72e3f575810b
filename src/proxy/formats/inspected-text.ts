// The text the guardrail inspects in a conversation: the newest turn of a request (the last user item and
// the tool results after the last model item), the text parts of a message's content, and every string of a
// body whose shape is unknown (read only in part when deep or huge).
import { asArray, asString, isObject } from '../../util/json.js';

/** Joins the inspected pieces with newlines; empty pieces add nothing (not even a blank line). */
export function joinText(pieces: readonly string[]): string {
  return pieces.filter((piece) => piece !== '').join('\n');
}

/**
 * The text of a message `content` that is either a string or a list of typed parts: the `text` of every part
 * whose `type` is one of `partTypes` (images, audio and files carry nothing to read), joined by newlines.
 */
export function contentText(content: unknown, partTypes: readonly string[]): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of asArray(content)) {
    if (!isObject(part)) continue;
    const text = asString(part.text);
    if (text !== undefined && partTypes.includes(asString(part.type) ?? '')) texts.push(text);
  }
  return joinText(texts);
}

/** Who spoke a conversation item, as far as "the newest turn" is concerned. */
export type Speaker = 'user' | 'model' | 'other';

/** A piece of an item: text the user wrote, or a tool result sent back to the model. */
export interface TurnPiece {
  kind: 'userText' | 'toolResult';
  text: string;
}

/**
 * The text the guardrail inspects on the way in: the text of the last user item, and the tool results in the
 * items after the last model item, in conversation order. Earlier history was inspected when it was new;
 * reading it again on every turn would re-flag (and re-pay for) the same content each time.
 */
export function newestTurnText<T>(items: readonly T[], speaker: (item: T) => Speaker, pieces: (item: T) => TurnPiece[]): string {
  let lastUser = -1;
  let lastModel = -1;
  items.forEach((item, index) => {
    const who = speaker(item);
    if (who === 'user') lastUser = index;
    else if (who === 'model') lastModel = index;
  });
  const texts: string[] = [];
  items.forEach((item, index) => {
    for (const piece of pieces(item)) {
      if (piece.kind === 'userText' ? index === lastUser : index > lastModel) texts.push(piece.text);
    }
  });
  return joinText(texts);
}

/** Bounds for reading a body whose shape is unknown: deep or huge structures are read only in part. */
const STRING_COLLECTION_LIMITS = { maxDepth: 8, maxStrings: 2000 } as const;

/**
 * Every string value in `value`, depth first, in document order: strings inside at most `maxDepth` nested
 * arrays/objects, and at most `maxStrings` of them. Object keys are not collected (they are schema, not text).
 */
export function collectStrings(value: unknown, limits: { maxDepth: number; maxStrings: number } = STRING_COLLECTION_LIMITS): string[] {
  const found: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (found.length >= limits.maxStrings) return;
    if (typeof node === 'string') {
      found.push(node);
      return;
    }
    if (typeof node !== 'object' || node === null || depth >= limits.maxDepth) return;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) visit(child, depth + 1);
  };
  visit(value, 0);
  return found;
}
