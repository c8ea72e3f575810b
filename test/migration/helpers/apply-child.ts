// Child process of the kill-between-steps test: runs a migration of the home it is given and kills itself with
// SIGKILL (no cleanup, no exit handlers: what a power cut or `kill -9` leaves) at the Nth time apply reaches the
// named step. With a USER_HOME argument it runs the real migration (readHome and migrate()) instead of the
// stand-in, reading the agents' files from that folder. Never imported by Warden itself.
import { BUILT_IN_DEPS } from '../../../src/migration/index.js';
import { runMigration } from '../../../src/migration/run.js';
import { fakeDeps } from './fake-migration.js';

const [home, stopAt, occurrence = '1', userHome] = process.argv.slice(2);
if (!home || !stopAt) throw new Error('usage: apply-child.ts HOME STEP [OCCURRENCE [USER_HOME]]');
let seen = 0;
await runMigration(userHome ? BUILT_IN_DEPS : fakeDeps, home, {
  ...(userHome ? { userHome } : {}),
  onStep: (step) => {
    if (step === stopAt && ++seen === Number(occurrence)) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write('finished without being killed\n');
