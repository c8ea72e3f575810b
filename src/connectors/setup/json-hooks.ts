// Hook entries in an agent's JSON configuration. Two shapes cover every JSON-configured agent:
//   nested (Claude Code's, which Gemini CLI, OpenHands, Antigravity and Omnigent follow):
//     {<container>: {<Event>: [{matcher?, hooks: [{type: "command", command}]}]}}
//   flat (Cursor, Windsurf, Copilot):  {<container>: {<event>: [{command}]}}
// Our entries are the ones whose command runs the hook script; everything else in the file is left as it was,
// comments and formatting included: the file is changed by edits (jsonc-edit.ts), not re-serialised.
import type { SetupTarget } from '../definition.js';
import { hookCommand, isWardenCommand, type HookTarget } from './hook-command.js';
import { isObject, type JsonObject } from '../../util/json.js';
import { AgentConfigError, formatJson } from './config-file.js';
import { editJsonc, parseJsoncObject } from './jsonc-edit.js';

export interface JsonHookLayout {
  shape: 'nested' | 'flat';
  /** Root key of the object that maps event names to hook lists. */
  container: string;
  /** Nested shape: the matcher written on our group (omitted: the agent's default, every tool). */
  matcher?: string;
  /** Root keys the agent requires, set when missing (Cursor and Copilot need `version: 1`). */
  rootDefaults?: JsonObject;
  /** Keys set on the container (Antigravity hook groups need `enabled: true`). */
  containerDefaults?: JsonObject;
  /** The command hook entry for the hook script's shell command. */
  entry(command: string): JsonObject;
}

const entryIsOurs = (entry: unknown): boolean =>
  isObject(entry) && (isWardenCommand(entry.command) || isWardenCommand(entry.bash));

function itemHoldsOurs(layout: JsonHookLayout, item: unknown): boolean {
  if (layout.shape === 'flat') return entryIsOurs(item);
  return isObject(item) && Array.isArray(item.hooks) && item.hooks.some(entryIsOurs);
}

/** The list without our entries; a nested group that held only ours goes with them. */
function withoutOurs(layout: JsonHookLayout, list: unknown[]): unknown[] {
  if (layout.shape === 'flat') return list.filter((item) => !entryIsOurs(item));
  return list.flatMap((item) => {
    if (!itemHoldsOurs(layout, item)) return [item];
    const hooks = ((item as JsonObject).hooks as unknown[]).filter((h) => !entryIsOurs(h));
    return hooks.length > 0 ? [{ ...(item as JsonObject), hooks }] : [];
  });
}

function containerOf(layout: JsonHookLayout, root: JsonObject): JsonObject | undefined {
  const container = root[layout.container];
  if (container === undefined) return undefined;
  if (!isObject(container)) throw new AgentConfigError(`"${layout.container}" is not an object`);
  return container;
}

/**
 * Removes our entries from every event, leaving emptied lists in place (a reinstall keeps keys where they were);
 * returns the index each event's first one had, so a reinstall puts ours back in the same place too.
 */
function removeOurs(layout: JsonHookLayout, root: JsonObject): Map<string, number> {
  const positions = new Map<string, number>();
  const container = containerOf(layout, root) ?? {};
  for (const [event, list] of Object.entries(container)) {
    if (!Array.isArray(list)) continue;
    const at = list.findIndex((item) => itemHoldsOurs(layout, item));
    if (at === -1) continue;
    positions.set(event, at);
    container[event] = withoutOurs(layout, list);
  }
  return positions;
}

/** Deletes the lists our removal emptied, and the container when nothing of the user's is left in it. */
function prune(layout: JsonHookLayout, root: JsonObject, emptied: Iterable<string>): void {
  const container = containerOf(layout, root);
  if (!container) return;
  for (const event of emptied) if ((container[event] as unknown[] | undefined)?.length === 0) delete container[event];
  const defaults = Object.keys(layout.containerDefaults ?? {});
  if (Object.keys(container).every((key) => defaults.includes(key))) delete root[layout.container];
}

export function installJsonHooks(layout: JsonHookLayout, text: string | undefined, events: readonly string[], target: HookTarget): string {
  const root = parseJsoncObject(text);
  for (const [key, value] of Object.entries(layout.rootDefaults ?? {})) root[key] ??= value;
  const positions = removeOurs(layout, root);
  const container = containerOf(layout, root) ?? {};
  Object.assign(container, layout.containerDefaults);
  for (const event of events) {
    const list = container[event] ?? [];
    if (!Array.isArray(list)) throw new AgentConfigError(`"${layout.container}.${event}" is not a list`);
    const entry = layout.entry(hookCommand(target, event));
    const item = layout.shape === 'flat' ? entry : { ...(layout.matcher === undefined ? {} : { matcher: layout.matcher }), hooks: [entry] };
    list.splice(Math.min(positions.get(event) ?? list.length, list.length), 0, item);
    container[event] = list;
  }
  root[layout.container] = container;
  prune(layout, root, positions.keys());
  return rewritten(text, root);
}

/** A new (or blank) file is written whole; an existing one is edited, so its comments and formatting survive. */
function rewritten(text: string | undefined, root: JsonObject): string {
  if (text === undefined || text.trim() === '') return formatJson(root);
  return editJsonc(text, parseJsoncObject(text), root);
}

/** The file without our entries; null when nothing else is left in it, so the file goes. */
export function removeJsonHooks(layout: JsonHookLayout, text: string): string | null {
  const root = parseJsoncObject(text);
  const positions = removeOurs(layout, root);
  if (positions.size === 0) return text;
  prune(layout, root, positions.keys());
  const defaults = Object.keys(layout.rootDefaults ?? {});
  if (Object.keys(root).every((key) => defaults.includes(key))) return null;
  return rewritten(text, root);
}

export function jsonHooksInstalled(layout: JsonHookLayout, text: string): boolean {
  const container = containerOf(layout, parseJsoncObject(text)) ?? {};
  return Object.values(container).some((list) => Array.isArray(list) && list.some((item) => itemHoldsOurs(layout, item)));
}

/** A Claude Code-style command hook entry. */
export const commandEntry = (command: string): JsonObject => ({ type: 'command', command });

/** The setup target of an agent whose hooks live in the JSON file `file` (relative to the user's home). */
export function jsonHookFile(file: string, layout: JsonHookLayout): SetupTarget {
  return {
    file,
    install: (text, events, target) => installJsonHooks(layout, text, events, target),
    remove: (text) => removeJsonHooks(layout, text),
    installed: (text) => jsonHooksInstalled(layout, text),
  };
}
