// Ordered-chain detection: classify a hook event into chain signals, track them per (connector, session),
// and turn a match into a finding.
export { CHAINS, chainFinding, type ChainDefinition, type ChainFinding, type ChainId, type ChainMatch } from './chains.js';
export { fingerprintOf } from './fingerprint.js';
export { CHAIN_SCHEMA } from './schema.js';
export type { DenyReceipt } from './session.js';
export { CHAIN_SIGNALS, classify, type ChainSignal, type ClassifyInput, type SignalFinding } from './signals.js';
export { ChainTracker, type ChainEvent, type ChainOutcome, type ChainTrackerOptions } from './tracker.js';
