// A replica in a process of its own, for tests that kill it: opens the store, starts one call, says so, and waits.
import { openStateStore } from '../open-state-store.ts';

const [location, callId] = process.argv.slice(2);
const store = await openStateStore({ location });
await store.audit.begin({
  id: callId ?? 'call',
  time: new Date().toISOString(),
  caller: 'killed-client',
  server: 'killed',
  tool: 'killed_tool',
  upstream_tool: 'tool',
  arguments_sha256: 'x',
  approval: 'not_required',
});
await store.idempotency.claim('email', `${callId}-send`, 'f', Date.now() + 60_000, Date.now());
process.stdout.write(`${store.replica}\n`);
setInterval(() => {}, 1000);
