// The gateway reads hook tokens when it starts, so after `warden setup` changes one, a running gateway is sent
// SIGHUP (reload config and tokens, rebind listeners) and, for a new token, asked until it accepts it.
import { runningGateway } from '../../gateway/process-record.js';
import { SetupError } from './install.js';

export interface Reload {
  /** The running gateway that was signalled; undefined when none runs. */
  pid?: number;
  /** Whether the restarted gateway accepts `token` on the connector's hook route (when one was given). */
  accepted?: boolean;
}

/** A request the hook route authenticates before it reads the body: 400 (empty event) means the token passed. */
async function tokenAccepted(sidecar: string, connector: string, token: string): Promise<boolean> {
  try {
    const response = await fetch(`${sidecar}/api/v1/${connector}/hook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-warden-client': 'warden-cli', 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(1000),
    });
    await response.body?.cancel();
    return response.status !== 401 && response.status < 500;
  } catch {
    return false; // between close and listen
  }
}

export async function reloadGateway(pidFile: string, connector: string, token?: string, timeoutMs = 10_000): Promise<Reload> {
  const running = runningGateway(pidFile);
  if (!running) return {};
  try {
    process.kill(running.pid, 'SIGHUP');
  } catch (err) {
    // Alive but not ours to signal (another user's gateway): it keeps its old tokens until it restarts.
    throw new SetupError(`cannot signal the gateway (pid ${running.pid}: ${(err as NodeJS.ErrnoException).code}); restart it to load the hook token`);
  }
  if (token === undefined) return { pid: running.pid };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Re-read the record each time: a restarted gateway on an ephemeral port records its new address.
    const sidecar = runningGateway(pidFile)?.sidecar;
    if (sidecar && (await tokenAccepted(sidecar, connector, token))) return { pid: running.pid, accepted: true };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { pid: running.pid, accepted: false };
}
