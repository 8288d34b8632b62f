/**
 * `pnpm bundles`: builds every server's MCP bundle into `bundles/` from the
 * workspace as it is (run `pnpm build` first): each package packed as npm
 * would receive it, then bundled by `mcpb-bundle.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMcpbBundle } from './mcpb-bundle.ts';
import { serverPackages } from './server-packages.ts';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'toolshed-bundles-'));
const output = join(root, 'bundles');
mkdirSync(output, { recursive: true });

function pack(directory: string): string {
  const printed = execFileSync('pnpm', ['pack', '--pack-destination', join(work, 'tarballs')], {
    cwd: join(root, directory),
    encoding: 'utf8',
  });
  return join(work, 'tarballs', (printed.trim().split('\n').at(-1) as string).split('/').at(-1) as string);
}

try {
  const shared = ['packages/mcp-core', 'packages/guards'].map(pack);
  for (const server of serverPackages.filter((candidate) => candidate.cli !== undefined)) {
    const name = (JSON.parse(readFileSync(join(root, server.directory, 'package.json'), 'utf8')) as { name: string })
      .name;
    const bundle = join(output, `${name.replace(/^@toolshed\//, '')}.mcpb`);
    await buildMcpbBundle({
      server,
      tarball: pack(server.directory),
      workspaceTarballs: shared,
      staging: join(work, 'staging', name),
      output: bundle,
    });
    console.log(`${bundle} built`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
