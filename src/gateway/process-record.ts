// $WARDEN_HOME/gateway.json: the running gateway's pid and listener addresses, so the CLI finds it even when
// it listens on ephemeral ports or was restarted onto new ones.
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.js';

export interface GatewayProcessInfo {
  pid: number;
  sidecar: string;
  proxy: string;
  started_at: string;
  /** Where fleet devices connect, when the fleet is enabled. */
  fleet_broker?: string;
}

export function writeProcessInfo(path: string, info: GatewayProcessInfo): void {
  writeFileAtomic(path, `${JSON.stringify(info)}\n`, 0o600);
}

function readProcessInfo(path: string): GatewayProcessInfo | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as GatewayProcessInfo;
  } catch {
    return undefined;
  }
}

/** The record, when the process it names is still alive. */
export function runningGateway(path: string): GatewayProcessInfo | undefined {
  const info = readProcessInfo(path);
  return info && isAlive(info.pid) ? info : undefined;
}

export function removeProcessInfoIfOurs(path: string): void {
  if (readProcessInfo(path)?.pid === process.pid) rmSync(path, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
