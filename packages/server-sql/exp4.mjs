import { Worker } from 'node:worker_threads';
const w = new Worker(`
const Database = require('better-sqlite3');
const db = new Database('/tmp/exp.db', { readonly: true });
require('node:worker_threads').parentPort.postMessage('start');
db.prepare('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c').get();
`, { eval: true });
await new Promise((r) => w.once('message', r));
await new Promise((r) => setTimeout(r, 300));
const t = performance.now();
const usage0 = process.cpuUsage();
const done = w.terminate().then(() => console.log('terminated after ms', (performance.now() - t).toFixed(0)));
await Promise.race([done, new Promise((r) => setTimeout(r, 3000))]);
const u = process.cpuUsage(usage0);
console.log('cpu ms during wait', ((u.user + u.system) / 1000).toFixed(0));
process.exit(0);
