// Listening on a configured port. A port another process holds is the operator's to fix (another
// instance running, or a port to change in the configuration), so it becomes an operator error naming the
// address instead of Node's system error with a stack.
import type { FastifyInstance } from 'fastify';
import { WardenError } from '../errors.js';

export async function listenOn(app: FastifyInstance, host: string, port: number, what: string): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    throw new WardenError('WARDEN_ERR_CONFIG_PORT_IN_USE', `${what} cannot listen on ${shownHost}:${port}: the port is in use (EADDRINUSE)`, { cause: err });
  }
}
