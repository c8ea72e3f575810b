// Waiting in a test for something that happens in the background (an MQTT delivery, a message the gateway
// handles after acknowledging it): polls every 20 ms and fails the test, saying what it waited for, at the deadline.
import assert from 'node:assert/strict';

export async function eventually(condition: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
