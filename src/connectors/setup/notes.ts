// Notes `warden setup` prints that several agents share.

/** For agents whose hook file format Warden could not verify against the agent's own documentation. */
export const bestGuessNote = (agent: string): string =>
  `${agent} documents no hook file format Warden could verify; this is a best guess (see docs/hooks.md): check that the hooks fire.`;
