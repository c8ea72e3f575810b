// Child process of the kill-between-steps test: runs a migration of the home it is given and kills itself with
// SIGKILL (no cleanup, no exit handlers: what a power cut or `kill -9` leaves) at the Nth time apply reaches the
// named step. Never imported by Warden itself.
import { runMigration } from '../../../src/migration/run.js';
import { fakeDeps } from './fake-migration.js';

const [home, stopAt, occurrence = '1'] = process.argv.slice(2);
if (!home || !stopAt) throw new Error('usage: apply-child.ts HOME STEP [OCCURRENCE]');
let seen = 0;
await runMigration(fakeDeps, home, {
  onStep: (step) => {
    if (step === stopAt && ++seen === Number(occurrence)) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write('finished without being killed\n');
