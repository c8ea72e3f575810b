// One (connector, session)'s chain state and how an event changes it. Pure data and functions: the tracker
// loads, caches and saves it. Everything here is bounded and holds no command text, only chain ids, signal
// masks, fingerprints, times and event numbers.
import { CHAIN_BY_ID, CHAINS, LONGEST_WINDOW_MS, type ChainDefinition, type ChainId, type ChainMatch } from './chains.js';
import { CHAIN_SIGNALS, type ChainSignal } from './signals.js';

/** A first step that happened: its tool call ran (or, for `permission_denied`, failed). */
export interface Step {
  chain: ChainId;
  at: number;
  /** Number of the session's hook event that made the step (see SessionState.events). */
  event: number;
}

/** A pre-tool call with first-step signals, waiting for its result to show that it ran. */
export interface Proposal {
  callId?: string;
  fingerprint: string;
  /** Its first-step signals, one bit per CHAIN_SIGNALS entry. */
  mask: number;
  at: number;
  event: number;
}

export interface DenyReceipt {
  chain: ChainId;
  reason: string;
  at: number;
}

export interface Receipt extends DenyReceipt {
  fingerprint: string;
}

export interface SessionState {
  /** Hook events observed in the session; the current event's number once it is counted. */
  events: number;
  steps: Step[];
  proposals: Proposal[];
  receipts: Receipt[];
}

export interface SettledEvent {
  toolCallId?: string;
  fingerprint: string;
  signals: ReadonlySet<ChainSignal>;
  succeeded?: boolean;
  at: number;
}

const MAX_STEPS_PER_CHAIN = 8;
const MAX_PROPOSALS = 16;
const MAX_RECEIPTS = 16;

const bit = (signal: ChainSignal): number => 1 << CHAIN_SIGNALS.indexOf(signal);
/** `permission_denied` is a result, never a proposal: the failure itself is the step. */
const PROPOSED_CHAINS = CHAINS.filter((c) => c.first !== 'permission_denied');

export function emptyState(): SessionState {
  return { events: 0, steps: [], proposals: [], receipts: [] };
}

export function isEmpty(state: SessionState): boolean {
  return state.steps.length === 0 && state.proposals.length === 0 && state.receipts.length === 0;
}

function chainOf(id: ChainId): ChainDefinition {
  return CHAIN_BY_ID.get(id)!;
}

/** A step or receipt stamped slightly after `at` (clocks of concurrent hook requests) still counts. */
function inWindow(chain: ChainDefinition, since: number, at: number): boolean {
  return at - since <= chain.windowMs;
}

/** Drops what can no longer take part in a chain at time `at`; says whether anything was dropped. */
export function expire(state: SessionState, at: number): boolean {
  const before = state.steps.length + state.proposals.length + state.receipts.length;
  if (before === 0) return false; // most sessions: nothing to look at, nothing to allocate
  state.steps = state.steps.filter((s) => {
    const chain = chainOf(s.chain);
    return inWindow(chain, s.at, at) && state.events - s.event <= chain.horizon;
  });
  state.proposals = state.proposals.filter((p) => at - p.at <= LONGEST_WINDOW_MS);
  state.receipts = state.receipts.filter((r) => inWindow(chainOf(r.chain), r.at, at));
  return state.steps.length + state.proposals.length + state.receipts.length !== before;
}

/** The deny receipt for this exact call, if the caller blocked it earlier within the chain's window (after expire()). */
export function replay(state: SessionState, fingerprint: string): DenyReceipt | undefined {
  const receipt = state.receipts.find((r) => r.fingerprint === fingerprint);
  return receipt && { chain: receipt.chain, reason: receipt.reason, at: receipt.at };
}

/** Chains whose final step this pre-tool event is, each with its most recent first step (after expire()). */
export function matchFinals(state: SessionState, signals: ReadonlySet<ChainSignal>): ChainMatch[] {
  const matches: ChainMatch[] = [];
  for (const chain of CHAINS) {
    if (!signals.has(chain.final)) continue;
    let firstAt: number | undefined;
    for (const s of state.steps) if (s.chain === chain.id && (firstAt === undefined || s.at > firstAt)) firstAt = s.at;
    if (firstAt !== undefined) matches.push({ chain: chain.id, steps: [chain.first, chain.final], firstAt });
  }
  return matches;
}

/** Records a pre-tool call with first-step signals; it counts only once its result shows it ran. */
export function propose(state: SessionState, e: SettledEvent): boolean {
  const mask = PROPOSED_CHAINS.reduce((m, c) => (e.signals.has(c.first) ? m | bit(c.first) : m), 0);
  if (mask === 0) return false;
  const proposal: Proposal = { fingerprint: e.fingerprint, mask, at: e.at, event: state.events };
  if (e.toolCallId !== undefined) proposal.callId = e.toolCallId;
  state.proposals.push(proposal);
  if (state.proposals.length > MAX_PROPOSALS) state.proposals.shift();
  return true;
}

/**
 * A post-tool result: it settles the matching proposal (same tool call id when both have one, else same
 * fingerprint), which becomes a step only if the call did not fail; and a permission error is a step itself.
 */
export function settle(state: SessionState, e: SettledEvent): boolean {
  let changed = false;
  const proposal = takeProposal(state, e);
  if (proposal) {
    changed = true;
    if (e.succeeded !== false) {
      for (const chain of PROPOSED_CHAINS) {
        if (proposal.mask & bit(chain.first)) addStep(state, { chain: chain.id, at: proposal.at, event: proposal.event });
      }
    }
  }
  if (e.signals.has('permission_denied')) {
    for (const chain of CHAINS) if (chain.first === 'permission_denied') addStep(state, { chain: chain.id, at: e.at, event: state.events });
    changed = true;
  }
  return changed;
}

function takeProposal(state: SessionState, e: SettledEvent): Proposal | undefined {
  for (let i = state.proposals.length - 1; i >= 0; i--) {
    const p = state.proposals[i]!;
    const same = e.toolCallId !== undefined && p.callId !== undefined ? p.callId === e.toolCallId : p.fingerprint === e.fingerprint;
    if (same) return state.proposals.splice(i, 1)[0];
  }
  return undefined;
}

function addStep(state: SessionState, step: Step): void {
  state.steps.push(step);
  const ofChain = state.steps.filter((s) => s.chain === step.chain);
  if (ofChain.length > MAX_STEPS_PER_CHAIN) {
    const oldest = ofChain.reduce((a, b) => (b.at < a.at ? b : a));
    state.steps.splice(state.steps.indexOf(oldest), 1);
  }
}

export function addReceipt(state: SessionState, receipt: Receipt): void {
  state.receipts = state.receipts.filter((r) => !(r.fingerprint === receipt.fingerprint && r.chain === receipt.chain));
  state.receipts.push(receipt);
  if (state.receipts.length > MAX_RECEIPTS) state.receipts.shift();
}
