// The check on every config.toml that Warden's line editor (codex-toml.ts) produces, made with a real TOML parser
// (smol-toml, TOML 1.0): the result must parse, must hold every key and value the user's file held, and must hold
// Warden's hooks for every installed event (and its notify, unless the user has their own), or nothing of Warden's
// after an undo. Codex refuses to start on an invalid config.toml, so a bad edit must stop `warden setup` instead.
import { parse, TomlError } from 'smol-toml';
import { isDeepStrictEqual } from 'node:util';
import { isObject, type JsonObject } from '../../util/json.js';
import { AgentConfigError } from './config-file.js';
import { isWardenCommand } from './hook-command.js';

/** The parsed document; the user's own file is named as theirs when it is the one that does not parse. */
export function parseCodexToml(text: string | undefined, whose: 'the file' | "Warden's edit"): JsonObject {
  try {
    return parse(text ?? '') as JsonObject;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const what = `${err.message.split('\n')[0]} (line ${err.line}, column ${err.column})`;
    throw new AgentConfigError(whose === 'the file' ? `invalid TOML: ${what}` : `Warden's edit would not be valid TOML: ${what}; please report this`);
  }
}

const isOurGroup = (group: unknown): boolean =>
  isObject(group) && Array.isArray(group.hooks) && group.hooks.some((h) => isObject(h) && isWardenCommand(h.command));

const isOurNotify = (notify: unknown): boolean => Array.isArray(notify) && notify.some(isWardenCommand);

/** The document without Warden's hook groups and notify, and without the lists and `hooks` table that held only ours. */
function withoutOurs(doc: JsonObject): JsonObject {
  const { notify, hooks, ...rest } = doc;
  const out: JsonObject = { ...rest };
  if (notify !== undefined && !isOurNotify(notify)) out.notify = notify;
  if (!isObject(hooks)) return hooks === undefined ? out : { ...out, hooks };
  const userHooks = Object.fromEntries(
    Object.entries(hooks)
      .map(([event, list]) => [event, Array.isArray(list) ? list.filter((group) => !isOurGroup(group)) : list] as const)
      .filter(([, list]) => !Array.isArray(list) || list.length > 0),
  );
  return Object.keys(userHooks).length > 0 ? { ...out, hooks: userHooks } : out;
}

/** The events whose hook list holds one of Warden's groups. */
function ourEvents(doc: JsonObject): string[] {
  const hooks = isObject(doc.hooks) ? doc.hooks : {};
  return Object.entries(hooks).filter(([, list]) => Array.isArray(list) && list.some(isOurGroup)).map(([event]) => event);
}

function refuse(what: string): never {
  throw new AgentConfigError(`Warden's edit would ${what}, so it was not written; please report this`);
}

/** Throws unless `after` keeps everything of `before` that is the user's and installs exactly `events`. */
export function checkCodexInstall(before: string | undefined, after: string, events: readonly string[]): void {
  const original = parseCodexToml(before, 'the file');
  const result = parseCodexToml(after, "Warden's edit");
  if (!isDeepStrictEqual(withoutOurs(result), withoutOurs(original))) refuse("change or lose the file's own settings");
  if (!isDeepStrictEqual(ourEvents(result).sort(), [...events].sort())) refuse('not install the hooks for exactly the events Warden hooks');
  const userNotify = original.notify !== undefined && !isOurNotify(original.notify);
  if (!userNotify && !isOurNotify(result.notify)) refuse('not set the top-level notify');
}

/** Throws unless `after` is `before` without Warden's entries. */
export function checkCodexRemove(before: string, after: string | null): void {
  const original = parseCodexToml(before, 'the file');
  const result = parseCodexToml(after ?? '', "Warden's edit");
  if (!isDeepStrictEqual(withoutOurs(result), withoutOurs(original))) refuse("change or lose the file's own settings");
  if (ourEvents(result).length > 0 || isOurNotify(result.notify)) refuse("leave some of Warden's entries behind");
}
