// Subsystem health as reported by GET /health: each part of the process says what state it is in and since
// when, so an operator can tell a degraded proxy from a dead database at a glance.
export type SubsystemState = 'running' | 'starting' | 'degraded' | 'disabled' | 'error' | 'stopped' | 'unavailable';

export interface SubsystemHealth {
  state: SubsystemState;
  since: string;
  last_error?: string;
  details?: Record<string, unknown>;
}

export class HealthRegistry {
  private readonly subsystems = new Map<string, SubsystemHealth>();
  private changed: (name: string, health: SubsystemHealth) => void = () => {};

  set(name: string, state: SubsystemState, extra: { last_error?: string; details?: Record<string, unknown> } = {}): void {
    const previous = this.subsystems.get(name);
    const since = previous?.state === state ? previous.since : new Date().toISOString();
    const health = { state, since, ...extra };
    this.subsystems.set(name, health);
    if (previous?.state !== state) this.changed(name, health);
  }

  /** `listener` hears every change of a subsystem's state (the event writer's diagnostic records). */
  onChange(listener: (name: string, health: SubsystemHealth) => void): void {
    this.changed = listener;
  }

  remove(name: string): void {
    this.subsystems.delete(name);
  }

  snapshot(): Record<string, SubsystemHealth> {
    return Object.fromEntries(this.subsystems);
  }
}
