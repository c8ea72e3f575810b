// After `warden setup` changes a hook token, a running gateway is reloaded (it reads hook tokens when it
// starts) and, for a new token, asked until it accepts it.
import { reloadGateway, type Reload } from '../../gateway/reload.js';
import { SetupError } from './install.js';

/** A request the hook route authenticates before it reads the body: 400 (empty event) means the token passed. */
async function tokenAccepted(sidecar: string, connector: string, token: string): Promise<boolean> {
  const response = await fetch(`${sidecar}/api/v1/${connector}/hook`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-warden-client': 'warden-cli', 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(1000),
  });
  await response.body?.cancel();
  return response.status !== 401 && response.status < 500;
}

export async function reloadForHookToken(pidFile: string, connector: string, token?: string): Promise<Reload> {
  try {
    return await reloadGateway(pidFile, token === undefined ? undefined : (sidecar) => tokenAccepted(sidecar, connector, token));
  } catch (err) {
    throw new SetupError(`${(err as Error).message} to load the hook token`);
  }
}
