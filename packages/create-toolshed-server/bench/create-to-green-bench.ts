/**
 * From `npm create` to a green test run, offline: the generator run from its tarball, the project installed from
 * the store (pnpm --offline, this workspace's packages from their tarballs), then its whole test suite. The bar is
 * under 2 minutes. BENCH_ROUNDS rounds (3 unless set); median, fastest and slowest. Needs `pnpm build` first.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installOffline, packWorkspace, run, useWorkspaceTarballs } from '../src/__fixtures__/packed-workspace.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const work = mkdtempSync(join(tmpdir(), 'create-toolshed-server-bench-'));
try {
  const packed = packWorkspace(work);
  const seconds: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const name = `bench-${round}`;
    const started = process.hrtime.bigint();
    const created = spawnSync(process.execPath, [packed.generator, name, '--yes', '--package-manager', 'pnpm'], {
      cwd: work,
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(created.stderr);
    const project = join(work, name);
    useWorkspaceTarballs(project, packed);
    installOffline(project);
    run('pnpm', ['test'], project);
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    console.log(`round ${round}: ${seconds.at(-1)?.toFixed(1)} s`);
  }
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  console.log(
    `npm create to a green test run, offline: median ${median.toFixed(1)} s (fastest ${sorted[0]?.toFixed(1)}, slowest ${sorted.at(-1)?.toFixed(1)}) over ${rounds} rounds; bar 120 s`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
