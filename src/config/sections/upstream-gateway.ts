// The `gateway.*` keys of the upstream agent gateway bridge (src/upstream/), spread into the gateway section
// of schema.ts: kept in their own file so that the bridge's keys are edited in one place.
import Type from 'typebox';

export const UpstreamGatewayKeys = {
  upstream_enabled: Type.Boolean({
    default: false,
    description: 'Connect to the upstream agent gateway (OpenClaw) at `gateway.host`:`gateway.port` and bridge the ' +
      '`/skill/*`, `/plugin/*`, `/skills`, `/tools/catalog` and `/config/patch` routes to it. Also on when ' +
      '`guardrail.connector` is `openclaw`. Off: those routes answer 503.',
  }),
  upstream_token_env: Type.String({
    default: 'OPENCLAW_GATEWAY_TOKEN',
    pattern: '^([A-Za-z_][A-Za-z0-9_]*)?$',
    description: 'Name of the environment variable (or `$WARDEN_HOME/.env` entry) holding the upstream gateway\'s ' +
      'shared token (its `gateway.auth.token`). Empty: connect without a token.',
  }),
  device_key_file: Type.String({
    default: '',
    description: 'Ed25519 device key (PKCS#8 PEM, mode 0600) Warden signs the upstream handshake with; the ' +
      'upstream gateway pairs this device. Empty: `$WARDEN_HOME/upstream-device.pem`, created on first connect.',
  }),
};
