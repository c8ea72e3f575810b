// `warden fleet simulate`: virtual devices against the running gateway's fleet API and broker, for trying a
// fleet end to end without hardware. Each registers (getting a real key), heartbeats, and verifies every
// policy and emergency frame it receives before applying it; a JSON report is printed at the end.
import { InvalidArgumentError, type Command } from 'commander';

const count = (max: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`must be between 1 and ${max}`);
  return n;
};
const u16 = (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 0xffff) throw new InvalidArgumentError('must be a uint16');
  return n;
};

interface SimulateOptions { devices: number; tenant: number; fleet: number; seconds: number; interval: number; broker?: string; firstDevice: number }

export function registerFleet(program: Command): void {
  const fleet = program.command('fleet').description('device fleet tools');
  fleet
    .command('simulate')
    .description('run virtual devices against the local gateway (needs fleet.enabled)')
    .option('--devices <n>', 'how many devices', count(10_000), 10)
    .option('--tenant <id>', 'tenant id', u16, 1)
    .option('--fleet <id>', 'fleet id', u16, 1)
    .option('--first-device <id>', 'device id of the first device', count(0xffffffff), 1)
    .option('--seconds <n>', 'how long to run', count(86_400), 10)
    .option('--interval <n>', 'seconds between heartbeats', count(3600), 2)
    .option('--broker <url>', 'MQTT broker (default: the running gateway\'s)')
    .addHelpText('after', `
Environment: WARDEN_FLEET_API_TOKEN (registers the devices), WARDEN_OTA_HMAC_KEY and WARDEN_EMERGENCY_KEY
(64 hex digits each; what devices verify policies and emergency frames with).`)
    .action(async (options: SimulateOptions) => {
      const { localGateway } = await import('../local-gateway.js');
      const { runningGateway } = await import('../../gateway/process-record.js');
      const { hexSecret } = await import('../../util/hex-secret.js');
      const { envVar } = await import('../../config/env.js');
      const { startSimulatedFleet } = await import('../../fleet/simulated-fleet.js');
      const { splitBrokerUrl } = await import('../../fleet/broker-url.js');
      const adminToken = envVar(process.env, 'WARDEN_FLEET_API_TOKEN');
      const otaKey = hexSecret(process.env, 'WARDEN_OTA_HMAC_KEY');
      const emergencyKey = hexSecret(process.env, 'WARDEN_EMERGENCY_KEY');
      if (!adminToken || !otaKey || !emergencyKey) {
        process.stderr.write('warden: set WARDEN_FLEET_API_TOKEN, WARDEN_OTA_HMAC_KEY and WARDEN_EMERGENCY_KEY\n');
        process.exitCode = 2;
        return;
      }
      const gateway = localGateway();
      const mqttConfig = gateway.settings.config.fleet.mqtt;
      const broker = options.broker ?? runningGateway(gateway.settings.paths.pidFile)?.fleet_broker ?? (mqttConfig.url || `mqtt://127.0.0.1:${mqttConfig.embedded_port}`);
      const shownBroker = splitBrokerUrl(broker).url; // devices may connect with userinfo; the output never shows it
      const fleet = await startSimulatedFleet({
        sidecarUrl: gateway.url, adminToken, brokerUrl: broker, tenant_id: options.tenant, fleet_id: options.fleet,
        devices: options.devices, firstDeviceId: options.firstDevice, otaKey, emergencyKey,
      });
      process.stderr.write(`${fleet.devices.length} devices registered and connected to ${shownBroker}\n`);
      let heartbeats = 0;
      const beat = async () => {
        await Promise.all(fleet.devices.map((d) => d.heartbeat()));
        heartbeats += fleet.devices.length;
      };
      await beat();
      const timer = setInterval(() => void beat(), options.interval * 1000);
      await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
      clearInterval(timer);
      await fleet.stop();
      const versions: Record<number, number> = {};
      for (const d of fleet.devices) versions[d.stats.policyVersion] = (versions[d.stats.policyVersion] ?? 0) + 1;
      process.stdout.write(`${JSON.stringify({
        devices: fleet.devices.length,
        heartbeats_sent: heartbeats,
        policy_versions: versions,
        emergency_sequences: [...new Set(fleet.devices.map((d) => d.stats.emergencySequence))],
        in_lockdown: fleet.devices.filter((d) => d.stats.lockdown).length,
        rejected_messages: fleet.devices.reduce((n, d) => n + d.stats.rejected, 0),
      }, null, 2)}\n`);
    });
}
