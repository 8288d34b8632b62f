// A replica in a process of its own that runs one task: opens the store, creates the task, says so, writes each
// signal it is sent as a line of JSON, and waits to be killed.
import { openStateStore } from '../open-state-store.ts';

const [location] = process.argv.slice(2);
const store = await openStateStore({ location });
store.tasks.onSignal((signal) => process.stdout.write(`${JSON.stringify({ signal })}\n`));
const now = Date.now();
const taskId = `task-of-${store.replica}`;
await store.tasks.create({
  taskId,
  principal: 'ana',
  status: 'working',
  statusMessage: 'running in another process',
  createdAt: now,
  lastUpdatedAt: now,
  ttlMs: 3_600_000,
});
process.stdout.write(`${JSON.stringify({ replica: store.replica, taskId })}\n`);
setInterval(() => {}, 1000);
