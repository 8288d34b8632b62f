import type { ViewRenderTimes } from './view-render-times.ts';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** "median 12.3 ms (min 10.1, max 20.4)". */
export function medianAndSpread(values: readonly number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${median(values).toFixed(1)} ms (min ${sorted[0]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)})`;
}

export interface ViewTimeReport {
  add(name: string, times: ViewRenderTimes): void;
  /** One line per contender, in the order first added: mount to rows, result to rows, the phases' medians. */
  lines(): string[];
}

/**
 * The view benches' figures, per contender (a view, a host, the floor):
 * each round's times, then medians and spread.
 *
 * @example
 * const report = createViewTimeReport();
 * report.add('toolshed', await readViewRenderTimes(frame, { page }));
 * for (const line of report.lines()) console.log(line);
 */
export function createViewTimeReport(): ViewTimeReport {
  const rounds = new Map<string, ViewRenderTimes[]>();
  return {
    add(name, times) {
      const list = rounds.get(name) ?? [];
      list.push(times);
      rounds.set(name, list);
    },
    lines() {
      const width = Math.max(...[...rounds.keys()].map((name) => name.length));
      return [...rounds].map(([name, list]) => {
        const parts = [
          `${name.padEnd(width)} mount to rows ${medianAndSpread(list.map((times) => times.mountToRows))}`,
          `result to rows ${medianAndSpread(list.map((times) => times.resultToRows))}`,
          `mount to rows painted ${medianAndSpread(list.map((times) => times.mountToPaint))}`,
        ];
        const hostMount = list.flatMap((times) => (times.hostMountToRows === undefined ? [] : [times.hostMountToRows]));
        if (hostMount.length === list.length) parts.push(`host's mount to rows ${medianAndSpread(hostMount)}`);
        const phases = list.flatMap((times) => (times.phases === undefined ? [] : [times.phases]));
        if (phases.length === list.length) {
          const of = (key: keyof (typeof phases)[number]) => median(phases.map((phase) => phase[key])).toFixed(1);
          parts.push(
            `medians: start ${of('start')}, handshake ${of('handshake')}, delivery ${of('delivery')}, render ${of('render')}`,
          );
        }
        return `${parts.join('; ')}; ${list.length} rounds`;
      });
    },
  };
}
