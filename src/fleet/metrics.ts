// The fleet's Prometheus metrics (spec document 2, "Metrics"; names per DESIGN.md). A registry per fleet
// context rather than prom-client's global one, so a restart or a second gateway in one process starts clean.
import { Counter, Gauge, Registry } from 'prom-client';
import type { FleetStore } from './store/types.js';
import type { VerdictCache } from './verdict-cache.js';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4';

export class FleetMetrics {
  readonly registry = new Registry();
  readonly heartbeats = new Counter({ name: 'warden_fleet_heartbeats_received_total', help: 'Authenticated device heartbeats received', registers: [this.registry] });
  readonly blocks = new Counter({ name: 'warden_fleet_blocks_total', help: 'Tool calls devices reported blocked', registers: [this.registry] });
  readonly allows = new Counter({ name: 'warden_fleet_allows_total', help: 'Tool calls devices reported allowed', registers: [this.registry] });
  readonly policyRollbacks = new Counter({ name: 'warden_fleet_policy_rollback_total', help: 'Devices that first reported a canary rollback', registers: [this.registry] });
  readonly otaRollbacks = new Counter({ name: 'warden_fleet_ota_rollbacks_total', help: 'OTA rollbacks (counted with policy rollbacks, once per flag transition)', registers: [this.registry] });
  readonly rejected = new Counter({ name: 'warden_fleet_inbound_rejected_total', help: 'Device messages dropped (forged, replayed, stale, unknown device)', labelNames: ['reason'], registers: [this.registry] });
  readonly alerts = new Counter({ name: 'warden_fleet_alerts_total', help: 'Alerts raised by fleet devices', registers: [this.registry] });

  constructor(store: FleetStore, cache: VerdictCache) {
    new Gauge({
      name: 'warden_fleet_devices_total', help: 'Registered devices by status', labelNames: ['status'], registers: [this.registry],
      async collect() {
        for (const [status, count] of Object.entries(await store.statusCounts())) this.set({ status }, count);
      },
    });
    // The cache keeps its own counts; these mirror them at each scrape.
    new Counter({ name: 'warden_fleet_verdict_cache_hits_total', help: 'Verdict cache hits', registers: [this.registry], collect() { this.reset(); this.inc(cache.hits); } });
    new Counter({ name: 'warden_fleet_verdict_cache_misses_total', help: 'Verdict cache misses', registers: [this.registry], collect() { this.reset(); this.inc(cache.misses); } });
    new Gauge({ name: 'warden_fleet_verdict_cache_size', help: 'Verdicts cached', registers: [this.registry], collect() { this.set(cache.size); } });
  }
}
