// The bubblewrap command line of one sandbox: the isolation list of the issue in one place. New user, PID,
// IPC, UTS, cgroup and network namespaces (`--unshare-all`: the network is loopback only; the egress proxy's
// socket, mounted in, is the one way out), every capability dropped, the sandbox killed with its monitor (`--die-with-parent`) and cut
// from the caller's terminal (`--new-session`, no TIOCSTI). The host system is visible read-only and minimal:
// /usr and its /bin, /lib* links, and a short list of /etc files (no shadow, no host passwd: the image
// brings its own). /proc, /dev and /tmp are fresh; home is the sandbox's own folder; the project is mounted
// at its own absolute path. Nothing else of the host exists inside (no ~/.ssh, no other homes, no sockets).
import { lstatSync, readlinkSync } from 'node:fs';
import type { SandboxSpec } from './driver.js';

/** Where the harness image appears inside the sandbox. */
export const IMAGE_MOUNT = '/opt/warden/image';
export const SANDBOX_HOME = '/home/sandbox';

/** Top-level system folders: a symlink on merged-/usr systems (re-created as such), else bound read-only. */
const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** The /etc entries a program needs to start, resolve names and check TLS; nothing with secrets. */
const ETC_FILES = [
  '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/nsswitch.conf', '/etc/hosts', '/etc/localtime',
  '/etc/ssl', '/etc/ca-certificates', '/etc/alternatives', '/etc/os-release', '/etc/profile', '/etc/mime.types',
];

function systemDirArgs(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let stats;
    try {
      stats = lstatSync(dir);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stats.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  return args;
}

export function bwrapArgs(spec: SandboxSpec, homeDir: string): string[] {
  const args = [
    '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
    '--hostname', spec.name,
    '--ro-bind', '/usr', '/usr',
    ...systemDirArgs(),
    ...ETC_FILES.flatMap((path) => ['--ro-bind-try', path, path]),
    '--ro-bind', `${spec.imageDir}/etc/passwd`, '/etc/passwd',
    '--ro-bind', `${spec.imageDir}/etc/group`, '/etc/group',
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    '--dir', '/home',
    '--bind', homeDir, SANDBOX_HOME,
    '--ro-bind', spec.imageDir, IMAGE_MOUNT,
  ];
  for (const mount of spec.mounts) args.push(mount.writable ? '--bind' : '--ro-bind', mount.host, mount.target);
  // The root itself (a tmpfs holding the mount points) becomes read-only: nothing can be written beside the mounts.
  args.push('--remount-ro', '/', '--chdir', spec.workdir, '--info-fd', '3', '--', ...entryWithInit(spec));
  return args;
}

const shellQuote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** `$0` of the shell that runs the init steps: the driver waits until it is gone (replaced by the entry program). */
export const INIT_MARKER = 'warden-init';

/** The entry program, after the spec's init steps when it has some (a failed step ends the sandbox with 70). */
function entryWithInit(spec: SandboxSpec): string[] {
  if (!spec.init || spec.init.length === 0) return spec.entry;
  const steps = spec.init.map((argv) => argv.map(shellQuote).join(' ')).join(' && ');
  return ['/bin/sh', '-c', `${steps} || exit 70\nexec "$@"`, INIT_MARKER, ...spec.entry];
}
