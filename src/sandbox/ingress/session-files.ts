// A sandbox's ingress folder on the host (0700, outside $WARDEN_HOME so socket paths stay short), mounted
// read-only at INGRESS_MOUNT: the ingress socket, and for a connector harness the hook scripts' settings for this
// session, written as `warden setup` writes them (hooks/<connector>.json, .curlrc, .token) but naming the socket and
// holding the session's binding credential. Rewritten at each session start, removed when the sandbox stops.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { findHookAgent } from '../../connectors/registry.js';
import { detectShellRunner } from '../../connectors/setup/hook-command.js';
import { hookCurlrc } from '../../connectors/setup/hook-curlrc.js';
import { agentFor, hookSettings } from '../../connectors/setup/install.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { Mount } from '../runtime/driver.js';
import { INGRESS_MOUNT, INGRESS_SOCKET, SOCKET_NAME } from './paths.js';

/** The URL origin the hook scripts put in front of the hook path; the connection goes to the socket. */
const SOCKET_ORIGIN = 'http://localhost';

export interface SessionFiles {
  dir: string;
  socket: string;
  mounts: Mount[];
  env: Record<string, string>;
}

export function writeSessionFiles(root: string, sandbox: string, harness: string, token: string): SessionFiles {
  const dir = join(root, sandbox);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'hooks'), { recursive: true, mode: 0o700 });
  if (findHookAgent(harness)) {
    const agent = agentFor(harness);
    // Hooks in a sandbox fail closed: a harness that cannot reach its ingress must not run tools unchecked.
    const settings = {
      ...hookSettings(agent, { sidecar: SOCKET_ORIGIN, failMode: 'closed', tokenFile: `${INGRESS_MOUNT}/hooks/${harness}.token` }),
      socket: INGRESS_SOCKET,
    };
    writeFileAtomic(join(dir, 'hooks', `${harness}.json`), `${JSON.stringify(settings, null, 2)}\n`, 0o600);
    writeFileAtomic(join(dir, 'hooks', `${harness}.token`), `${token}\n`, 0o600);
    const shell = detectShellRunner();
    if (shell) writeFileAtomic(join(dir, 'hooks', `${harness}.curlrc`), hookCurlrc(settings, token, shell), 0o600);
  }
  return {
    dir,
    socket: join(dir, SOCKET_NAME),
    mounts: [{ host: dir, target: INGRESS_MOUNT, writable: false }],
    env: { WARDEN_HOME: INGRESS_MOUNT },
  };
}

export function removeSessionFiles(root: string, sandbox: string): void {
  rmSync(join(root, sandbox), { recursive: true, force: true });
}
