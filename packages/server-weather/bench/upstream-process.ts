/**
 * The fixture upstream in its own process, so the bench's server does not
 * share an event loop with it. Prints its URL; answers each line on stdin
 * with its counters as JSON.
 */
import { createInterface } from 'node:readline';
import { startWeatherUpstream } from '../src/__fixtures__/weather-upstream.ts';

const upstream = await startWeatherUpstream();
process.stdout.write(`${upstream.url}\n`);
for await (const _line of createInterface({ input: process.stdin })) {
  process.stdout.write(
    `${JSON.stringify({ connections: upstream.connections, requests: upstream.requests.length })}\n`,
  );
  // The bench makes tens of thousands of requests; keep the log from growing without end.
  upstream.requests.length = 0;
}
await upstream.close();
