/** A document worker that never finishes: it says it is ready, then loops on the request for ever. */
import { parentPort } from 'node:worker_threads';

parentPort?.once('message', () => {
  for (;;) {
    // Spins without yielding, as a parser caught in a loop would.
  }
});
parentPort?.postMessage({ ready: true });
