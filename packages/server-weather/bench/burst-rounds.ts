/**
 * One subject's share of the burst measure, in a process of its own (see
 * weather-bench.ts): `warmUpRounds` unmeasured bursts, then `measuredRounds`
 * bursts of `callsPerBurst` concurrent calls at new points; prints one JSON
 * line with each measured burst's latencies, wall time and CPU time.
 *
 *   node bench/burst-rounds.ts <ours|anchor> <upstream URL> <first round number>
 */
import {
  burstPoint,
  burstShape,
  callOnce,
  type MeasuredBurst,
  type SubjectName,
  startSubject,
} from './bench-subjects.ts';

const { callsPerBurst, warmUpRounds, measuredRounds } = burstShape;

const [name, upstreamUrl, firstRound] = process.argv.slice(2);
if ((name !== 'ours' && name !== 'anchor') || upstreamUrl === undefined || firstRound === undefined) {
  console.error('usage: node bench/burst-rounds.ts <ours|anchor> <upstream URL> <first round number>');
  process.exit(2);
}

const subject = await startSubject(name as SubjectName, upstreamUrl);
let round = Number(firstRound);
const burst = (at: number) =>
  Promise.all(
    Array.from({ length: callsPerBurst }, (_, index) => {
      const { latitude, longitude } = burstPoint(at, index);
      return callOnce(subject, latitude, longitude);
    }),
  );

for (let index = 0; index < warmUpRounds; index++) await burst(round++);
const bursts: MeasuredBurst[] = [];
for (let index = 0; index < measuredRounds; index++) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const latencies = await burst(round++);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  bursts.push({ latencies, wallMs, cpuMs: (used.user + used.system) / 1000 });
}
await subject.close();
process.stdout.write(`${JSON.stringify(bursts)}\n`);
