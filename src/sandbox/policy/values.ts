// The run option values that need reading: a memory limit is written `<n>m` or `<n>g` and compared in MiB; the
// network modes are ordered from closed to open, so "at most this open" can be checked.
import type { NetworkMode } from '../ports.js';

/** MiB of a memory limit written `<n>m` or `<n>g` (the pattern is checked by the schemas). */
export function memoryMiB(text: string): number {
  const amount = Number(text.slice(0, -1));
  return text.endsWith('g') ? amount * 1024 : amount;
}

const OPENNESS: Record<NetworkMode, number> = { none: 0, policed: 1, open: 2 };

export function moreOpen(mode: NetworkMode, than: NetworkMode): boolean {
  return OPENNESS[mode] > OPENNESS[than];
}
