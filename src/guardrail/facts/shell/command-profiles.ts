// What the walker does for a command beyond recording it, by command name, gathered from the effect,
// spawn, wrapper and output tables: most commands of a script need none of it, and cost one lookup.
import type { Effect } from './effect-sink.js';
import { FILE_EFFECTS } from './file-effects.js';
import { HOST_EFFECTS, TEXT_ARGUMENT_COMMANDS } from './network-effects.js';
import { SPAWNING_COMMANDS } from './spawned.js';
import { STATIC_OUTPUT_COMMANDS } from './stdin.js';
import { WRAPPER_COMMANDS } from './wrappers.js';

export interface CommandProfile {
  files?: Effect;
  hosts?: Effect;
  /** Arguments are text (echo, grep): URLs in them are not contacted. */
  textArguments: boolean;
  /** May run shell text or commands from its arguments or standard input (bash -c, find -exec). */
  spawns: boolean;
  /** Runs the command given by its operands (sudo, env, xargs). */
  wraps: boolean;
  /** Its output may be known from its arguments and input (echo, base64 -d). */
  staticOutput: boolean;
}

function buildProfiles(): Map<string, CommandProfile> {
  const profiles = new Map<string, CommandProfile>();
  const profile = (name: string): CommandProfile => {
    let p = profiles.get(name);
    if (!p) profiles.set(name, (p = { textArguments: false, spawns: false, wraps: false, staticOutput: false }));
    return p;
  };
  for (const [name, effect] of FILE_EFFECTS) profile(name).files = effect;
  for (const [name, effect] of HOST_EFFECTS) profile(name).hosts = effect;
  for (const name of TEXT_ARGUMENT_COMMANDS) profile(name).textArguments = true;
  for (const name of SPAWNING_COMMANDS) profile(name).spawns = true;
  for (const name of WRAPPER_COMMANDS) profile(name).wraps = true;
  for (const name of STATIC_OUTPUT_COMMANDS) profile(name).staticOutput = true;
  return profiles;
}

export const COMMAND_PROFILES: ReadonlyMap<string, CommandProfile> = buildProfiles();
