// A broker URL may carry credentials (`mqtt://user:pass@host:1883`). They are used to connect and never
// reported: gateway.json, RunningGateway.fleetBrokerUrl and CLI output show the address without them.

export interface BrokerUrl {
  /** The URL without userinfo. */
  url: string;
  username?: string;
  password?: string;
}

export function splitBrokerUrl(url: string): BrokerUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not the URL itself in the message: it may hold a password.
    throw new Error('the MQTT broker URL cannot be parsed');
  }
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), ...(username ? { username } : {}), ...(password ? { password } : {}) };
}
