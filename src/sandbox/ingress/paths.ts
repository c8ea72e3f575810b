// Where the hook ingress appears inside a sandbox: one read-only folder holding the ingress socket and the hook
// scripts' settings for this session (Warden's home as the hook command inside sees it, `--home`).
export const INGRESS_MOUNT = '/run/warden';
export const INGRESS_SOCKET = `${INGRESS_MOUNT}/hook.sock`;
/** The socket's file name in the sandbox's ingress folder on the host. */
export const SOCKET_NAME = 'hook.sock';
