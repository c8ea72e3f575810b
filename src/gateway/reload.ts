// Asking a running gateway to reload (SIGHUP: config, gateway token and hook tokens are read again and the
// listeners rebound), and waiting until it accepts whatever the caller just changed; and, inside the gateway,
// applying one section the gateway itself just wrote without that restart.
import type { Config } from '../config/schema.js';
import type { Settings } from '../config/settings.js';
import type { Inspector } from '../guardrail/inspector.js';
import { verdictThresholds } from '../guardrail/thresholds.js';
import type { HealthRegistry } from './health.js';
import { runningGateway } from './process-record.js';

export interface Reload {
  /** The running gateway that was signalled; undefined when none runs. */
  pid?: number;
  /** Whether the restarted gateway passed `accepts` within the time allowed (when one was given). */
  accepted?: boolean;
}

/** `accepts` gets the sidecar's current base URL and says whether the reloaded gateway is as expected. */
export async function reloadGateway(
  pidFile: string,
  accepts?: (sidecarUrl: string) => Promise<boolean>,
  timeoutMs = 10_000,
): Promise<Reload> {
  const running = runningGateway(pidFile);
  if (!running) return {};
  try {
    process.kill(running.pid, 'SIGHUP');
  } catch (err) {
    // Alive but not ours to signal (another user's gateway): it keeps its old state until it restarts.
    throw new Error(`cannot signal the gateway (pid ${running.pid}: ${(err as NodeJS.ErrnoException).code}); restart it instead`);
  }
  if (!accepts) return { pid: running.pid };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Re-read the record each time: a restarted gateway on an ephemeral port records its new address.
    const sidecar = runningGateway(pidFile)?.sidecar;
    if (sidecar && (await accepts(sidecar).catch(() => false))) return { pid: running.pid, accepted: true };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { pid: running.pid, accepted: false };
}

/**
 * Applies one top-level section the gateway has just written to config.yaml to its running settings. A SIGHUP
 * restart would rebind both listeners (a new port when the port is 0, a window of refused connections, and a
 * route cannot wait for its own server to close), far too much for a list edit. Only `key` is taken from
 * `written`: another edit of config.yaml still waiting for its SIGHUP stays unapplied, as it would have.
 */
export function applyWrittenSection<K extends keyof Config>(running: { settings: Settings }, written: Config, key: K): void {
  running.settings = { ...running.settings, config: { ...running.settings.config, [key]: written[key] } };
}

/**
 * Applies a `guardrail` section the gateway has just written: the running settings, and the thresholds every
 * verdict is decided with (sidecar hooks and inspections, and the proxy, share the one inspector). What needs new
 * listeners or a new rule pack (the connector, the pack, the ports) waits for a restart; see guardrail/runtime-settings.ts.
 */
export function applyWrittenGuardrail(running: { settings: Settings; inspector: Inspector; health: HealthRegistry }, written: Config): void {
  applyWrittenSection(running, written, 'guardrail');
  running.inspector.useThresholds(verdictThresholds(running.settings.config));
  // GET /health reports the proxy's mode: keep it true.
  const proxy = running.health.snapshot().guardrail_proxy;
  if (proxy) running.health.set('guardrail_proxy', proxy.state, { ...proxy, details: { ...proxy.details, mode: written.guardrail.mode } });
}
