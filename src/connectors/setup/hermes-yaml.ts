// Hermes' shell hooks: the `hooks:` block of ~/.hermes/config.yaml, `{<event>: [{matcher?, command, timeout?,
// fail_closed?}]}` (Hermes "Event Hooks" docs, NousResearch/hermes-agent website/docs/user-guide/features/hooks.md).
// Edited as a YAML document so the user's comments and every other key (`hooks.outbound`, `hooks_auto_accept`, …)
// survive. Hermes runs the command with shlex.split and no shell, which POSIX quoting satisfies.
import { isMap, isSeq, parseDocument, type Document, type YAMLMap } from 'yaml';
import { AgentConfigError } from './config-file.js';
import { hookCommand, isWardenCommand, type HookTarget } from './hook-command.js';

/** No folding: a command stays on one line. */
const FORMAT = { lineWidth: 0 };

function parse(text: string | undefined): Document {
  const doc = parseDocument(text ?? '');
  const error = doc.errors[0];
  if (error) throw new AgentConfigError(`invalid YAML: ${error.message.split('\n')[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new AgentConfigError('the top level must be a mapping');
  return doc;
}

function hooksMap(doc: Document): YAMLMap | undefined {
  const hooks: unknown = doc.get('hooks', true);
  if (hooks === undefined || hooks === null) return undefined;
  if (!isMap(hooks)) throw new AgentConfigError('"hooks" is not a mapping');
  return hooks;
}

const isOurs = (item: unknown): boolean => isMap(item) && isWardenCommand(item.get('command'));

/** Removes our entries, leaving emptied lists in place; returns the index each event's first one had. */
function removeOurs(doc: Document): Map<string, number> {
  const positions = new Map<string, number>();
  for (const pair of hooksMap(doc)?.items ?? []) {
    const list = pair.value;
    if (!isSeq(list)) continue;
    const at = list.items.findIndex(isOurs);
    if (at === -1) continue;
    positions.set(String(pair.key), at);
    list.items = list.items.filter((item) => !isOurs(item));
  }
  return positions;
}

/** Deletes the lists our removal emptied, and `hooks:` when nothing is left in it. */
function prune(doc: Document, emptied: Iterable<string>): void {
  const hooks = hooksMap(doc);
  if (!hooks) return;
  for (const event of emptied) {
    const list: unknown = hooks.get(event, true);
    if (isSeq(list) && list.items.length === 0) hooks.delete(event);
  }
  if (hooks.items.length === 0) doc.delete('hooks');
}

/** `gates` (the events that can block) get `fail_closed`, so Hermes blocks them when the script cannot even start. */
export function installHermesConfig(text: string | undefined, events: readonly string[], target: HookTarget, gates: readonly string[]): string {
  const doc = parse(text);
  const before = doc.toString(FORMAT);
  const positions = removeOurs(doc);
  if (!hooksMap(doc)) doc.set('hooks', doc.createNode({}));
  const hooks = hooksMap(doc)!;
  for (const event of events) {
    const list: unknown = hooks.get(event, true) ?? doc.createNode([]);
    if (!isSeq(list)) throw new AgentConfigError(`"hooks.${event}" is not a list`);
    const entry = { command: hookCommand(target, event), ...(gates.includes(event) && target.failMode === 'closed' ? { fail_closed: true } : {}) };
    list.items.splice(Math.min(positions.get(event) ?? list.items.length, list.items.length), 0, doc.createNode(entry));
    hooks.set(event, list);
  }
  prune(doc, positions.keys());
  const after = doc.toString(FORMAT);
  return text !== undefined && after === before ? text : after;
}

/** The file without our entries; null when nothing else is left in it, so the file goes. */
export function removeHermesConfig(text: string): string | null {
  const doc = parse(text);
  const positions = removeOurs(doc);
  if (positions.size === 0) return text;
  prune(doc, positions.keys());
  return doc.contents === null || (isMap(doc.contents) && doc.contents.items.length === 0) ? null : doc.toString(FORMAT);
}

export function hermesConfigInstalled(text: string): boolean {
  const hooks = hooksMap(parse(text));
  return hooks?.items.some((pair) => isSeq(pair.value) && pair.value.items.some(isOurs)) ?? false;
}
