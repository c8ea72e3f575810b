// What a sandbox needs to reach the egress proxy: its egress folder (the proxy's Unix socket and the sandbox CA's
// files: every sandbox with a network trusts its CA, since model traffic and credentialed endpoints are terminated) bound read-only at EGRESS_MOUNT, the forwarder program and the Node
// binary that runs it, the proxy variables for the harness, and the forwarder as an init step (it listens on
// the sandbox's own loopback before the harness starts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EgressSetup } from './types.js';

/** Where the sandbox's egress folder appears inside it. */
// Beside the hook ingress folder (/run/warden, bound read-only), not inside it: bwrap cannot create a mount point
// in a read-only bind.
export const EGRESS_MOUNT = '/run/warden-egress';
/** The loopback port the forwarder listens on inside the sandbox (each sandbox has its own network namespace). */
export const EGRESS_PORT = 3128;
export const SOCKET_FILE = 'proxy.sock';
/** The per-sandbox CA alone (NODE_EXTRA_CA_CERTS adds it to Node's roots). */
export const CA_FILE = 'ca.pem';
/** The system's roots plus the per-sandbox CA (for programs that take one bundle: curl, OpenSSL, Python, git). */
export const CA_BUNDLE_FILE = 'ca-bundle.pem';

const FORWARDER_MOUNT = '/opt/warden/egress';
const NODE_MOUNT = '/opt/warden/node';
/** `runtime/` at the package root (three levels up from both src/ and dist/sandbox/egress/). */
/**
 * The init step that starts the forwarder: in its own session (`setsid`, so the harness's process group is not
 * its), serving, and returning once it prints `ready` through a FIFO in the sandbox's private /tmp. One Node
 * start instead of the forwarder's own detach-and-wait (a second Node start, about 100 ms of every policed
 * sandbox's start: `npm run bench -- sandbox`). No `ready` (the listener failed) fails the step.
 */
const START_FORWARDER = 'f=/tmp/.warden-egress-ready; mkfifo -m 600 "$f" || exit 1; ' +
  'setsid "$1" "$2" "$3" "$4" --serve >"$f" & read -r ready <"$f"; rm -f "$f"; [ "$ready" = ready ]';

const FORWARDER_DIR = fileURLToPath(new URL('../../../runtime/', import.meta.url));

/** A sandbox's egress folder on the host: `<sandboxes dir>/<name>/egress` (what EgressDeps.dirOf answers). */
export function egressDir(sandboxesDir: string, name: string): string {
  return join(sandboxesDir, name, 'egress');
}

export function egressSetup(dir: string): EgressSetup {
  const proxy = `http://127.0.0.1:${EGRESS_PORT}`;
  const env: Record<string, string> = {
    HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy,
    // The sandbox's own loopback is its own: local servers of the harness are reached directly.
    NO_PROXY: 'localhost,127.0.0.1,::1', no_proxy: 'localhost,127.0.0.1,::1',
    // Node's own fetch and http follow the variables only when asked to.
    NODE_USE_ENV_PROXY: '1',
    NODE_EXTRA_CA_CERTS: `${EGRESS_MOUNT}/${CA_FILE}`,
  };
  for (const name of ['SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'GIT_SSL_CAINFO']) env[name] = `${EGRESS_MOUNT}/${CA_BUNDLE_FILE}`;
  return {
    mounts: [
      { host: dir, target: EGRESS_MOUNT, writable: false },
      { host: FORWARDER_DIR, target: FORWARDER_MOUNT, writable: false },
      // The gateway's own Node binary: the host's /usr may hold none (a Node installed under a home folder).
      { host: process.execPath, target: `${NODE_MOUNT}/node`, writable: false },
    ],
    env,
    init: [['/bin/sh', '-c', START_FORWARDER, 'warden-egress',
      `${NODE_MOUNT}/node`, `${FORWARDER_MOUNT}/egress-forwarder.mjs`, `${EGRESS_MOUNT}/${SOCKET_FILE}`, String(EGRESS_PORT)]],
  };
}
