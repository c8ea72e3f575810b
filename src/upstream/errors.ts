// The failures of the upstream agent gateway bridge, as the sidecar answers them (spec "Asset enable and
// disable, inventory, config bridge"): 503 when Warden has no upstream client at all (the bridge is not
// configured), 502 when the client exists but the call cannot be made or fails (not connected yet, the socket
// dropped mid-call, the upstream refused it, no answer in time).
import { WardenError } from '../errors.js';

/** No upstream client exists: neither `gateway.upstream_enabled` nor the `openclaw` connector is configured. */
export class UpstreamNotConfiguredError extends WardenError {
  constructor() {
    super('WARDEN_ERR_UPSTREAM_NOT_CONFIGURED',
      'no upstream agent gateway client: set gateway.upstream_enabled (or guardrail.connector: openclaw)', { statusCode: 503 });
  }
}

/** The client exists but is not connected (it is reconnecting): the call fails fast instead of waiting. */
export class UpstreamDisconnectedError extends WardenError {
  constructor(detail: string) {
    super('WARDEN_ERR_UPSTREAM_DISCONNECTED', `upstream agent gateway not connected: ${detail}`, { statusCode: 502 });
  }
}

/** The upstream gateway answered the call with an error, or did not answer within the call timeout. */
export class UpstreamCallError extends WardenError {
  constructor(method: string, detail: string, readonly upstreamCode?: string) {
    super('WARDEN_ERR_UPSTREAM_CALL_FAILED', `upstream agent gateway call ${method} failed: ${detail}`, { statusCode: 502 });
  }
}
