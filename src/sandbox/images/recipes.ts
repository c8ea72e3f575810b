// What each harness image holds. `shell` is a plain shell: the image brings the sandbox's own passwd and group
// (the host's are not shown) and an entry program that announces the sandbox and keeps it up. A connector
// harness (claudecode, codex, …) will add its agent CLI from the npm registry with Warden's hooks in the
// agent's own config; until its recipe is written it answers "not buildable yet".
import { HOOK_AGENTS } from '../../connectors/registry.js';
import { IMAGE_MOUNT, SANDBOX_HOME } from '../runtime/bwrap-args.js';

export interface ImageRecipe {
  /** Files of the image, relative path → content and mode. */
  files: Record<string, { content: string; mode: number }>;
  /** The program the sandbox runs in the background. */
  entry: string[];
  /** Variables the image sets itself; a create request may not override them. */
  env: Record<string, string>;
}

const PASSWD = `root:x:0:0:sandbox:${SANDBOX_HOME}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`;
const GROUP = 'root:x:0:\nnogroup:x:65534:\n';

const SHELL_ENTRY = `#!/bin/sh
# The shell harness: say the sandbox is up, then wait until it is stopped.
echo "warden: sandbox $(hostname) ready in $(pwd)"
exec sleep infinity
`;

const RECIPES: Record<string, ImageRecipe> = {
  shell: {
    files: {
      'etc/passwd': { content: PASSWD, mode: 0o644 },
      'etc/group': { content: GROUP, mode: 0o644 },
      'bin/entry': { content: SHELL_ENTRY, mode: 0o755 },
    },
    entry: ['/bin/sh', `${IMAGE_MOUNT}/bin/entry`],
    env: { HOME: SANDBOX_HOME, PATH: '/usr/local/bin:/usr/bin:/bin', SHELL: '/bin/sh', TERM: 'xterm-256color', LANG: 'C.UTF-8' },
  },
};

/** Every harness name a create request may ask for: `shell` and the hook connectors. */
export function knownHarness(harness: string): boolean {
  return harness in RECIPES || HOOK_AGENTS.some((agent) => agent.name === harness);
}

export function recipeOf(harness: string): ImageRecipe | undefined {
  return RECIPES[harness];
}
