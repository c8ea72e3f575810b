// What each harness image holds. `shell` is a plain shell: the image brings the sandbox's own passwd and group
// (the host's are not shown) and an entry program that announces the sandbox and keeps it up. A connector harness
// (claudecode, codex, geminicli, opencode: every hook connector whose definition names a `harness` package) adds
// its agent CLI from the npm registry, copies of Warden's hook scripts, and the agent's own config file (in the
// image's `home/`) with Warden's hooks written by the connector's `setup` writer, pointing at the hook ingress the
// sandbox reaches at INGRESS_MOUNT (src/sandbox/ingress/).
import { readFileSync } from 'node:fs';
import { installedEvents, type HarnessPackage } from '../../connectors/definition.js';
import { findHookAgent, HOOK_AGENTS } from '../../connectors/registry.js';
import { detectShellRunner, HOOK_SCRIPT, HOOK_SCRIPT_NAME, HOOK_SH_SCRIPT, HOOK_SH_SCRIPT_NAME } from '../../connectors/setup/hook-command.js';
import { INGRESS_MOUNT } from '../ingress/paths.js';
import { IMAGE_MOUNT, SANDBOX_HOME } from '../runtime/bwrap-args.js';

export interface ImageRecipe {
  /** Files of the image, relative path → content and mode. */
  files: Record<string, { content: string; mode: number }>;
  /** The program the sandbox runs in the background. */
  entry: string[];
  /** Variables the image sets itself; a create request may not override them. */
  env: Record<string, string>;
  /** The agent CLI installed into the image from the npm registry. */
  npm?: HarnessPackage;
  /** The hook connector whose hooks the image's agent config carries, and that file relative to the home. */
  hooks?: { connector: string; config: string };
}

/** Where the image keeps its copies of the hook scripts (relative to the image). */
export const IMAGE_HOOKS_DIR = 'warden/hooks';
/** The agent's home files in the image, copied into the sandbox's home at each session start. */
export const IMAGE_HOME_DIR = 'home';

const PASSWD = `root:x:0:0:sandbox:${SANDBOX_HOME}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`;
const GROUP = 'root:x:0:\nnogroup:x:65534:\n';

const SHELL_ENTRY = `#!/bin/sh
# The harness entry: say the sandbox is up, then wait until it is stopped (the agent is started by attaching).
echo "warden: sandbox $(hostname) ready in $(pwd)"
exec sleep infinity
`;

const BASE_FILES = {
  'etc/passwd': { content: PASSWD, mode: 0o644 },
  'etc/group': { content: GROUP, mode: 0o644 },
  'bin/entry': { content: SHELL_ENTRY, mode: 0o755 },
};
const BASE_ENV = { HOME: SANDBOX_HOME, PATH: '/usr/local/bin:/usr/bin:/bin', SHELL: '/bin/sh', TERM: 'xterm-256color', LANG: 'C.UTF-8' };
const ENTRY = ['/bin/sh', `${IMAGE_MOUNT}/bin/entry`];

const SHELL: ImageRecipe = { files: BASE_FILES, entry: ENTRY, env: BASE_ENV };

/** A hook connector's image: its CLI, the hook scripts, and its config with Warden's hooks aimed at the ingress. */
function connectorRecipe(connector: string): ImageRecipe | undefined {
  const agent = findHookAgent(connector);
  if (!agent?.harness) return undefined;
  // The hook command as the agent inside runs it: the image's script copies, the ingress folder as Warden's home,
  // and sh + curl from the host's /usr (visible read-only in every sandbox) when this machine has them.
  const shell = detectShellRunner();
  const target = { connector, home: INGRESS_MOUNT, failMode: 'closed' as const, scripts: `${IMAGE_MOUNT}/${IMAGE_HOOKS_DIR}`, ...(shell ? { shell } : {}) };
  const config = agent.setup.install(undefined, installedEvents(agent), target);
  return {
    files: {
      ...BASE_FILES,
      [`${IMAGE_HOOKS_DIR}/${HOOK_SCRIPT_NAME}`]: { content: readFileSync(HOOK_SCRIPT, 'utf8'), mode: 0o755 },
      [`${IMAGE_HOOKS_DIR}/${HOOK_SH_SCRIPT_NAME}`]: { content: readFileSync(HOOK_SH_SCRIPT, 'utf8'), mode: 0o755 },
      [`${IMAGE_HOME_DIR}/${agent.setup.file}`]: { content: config, mode: 0o644 },
      // npm names the install after its folder unless told: a fixed name keeps the lock files, and image_id, the same.
      'package.json': { content: `${JSON.stringify({ name: `warden-image-${connector}`, private: true })}\n`, mode: 0o644 },
    },
    entry: ENTRY,
    env: { ...BASE_ENV, PATH: `${IMAGE_MOUNT}/node_modules/.bin:${BASE_ENV.PATH}` },
    npm: agent.harness,
    hooks: { connector, config: agent.setup.file },
  };
}

/** Every harness name a create request may ask for: `shell` and the hook connectors. */
export function knownHarness(harness: string): boolean {
  return harness === 'shell' || HOOK_AGENTS.some((agent) => agent.name === harness);
}

export function recipeOf(harness: string): ImageRecipe | undefined {
  return harness === 'shell' ? SHELL : connectorRecipe(harness);
}
