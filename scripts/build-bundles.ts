/**
 * `pnpm bundles`: builds every server's MCP bundle into `bundles/` from the
 * workspace as it is (run `pnpm build` first): each package packed as npm
 * would receive it, then bundled by `@toolshed/dev`.
 */
import { join } from 'node:path';
import { buildBundles } from '../packages/dev/src/index.ts';
import { bundleAuthor, serverPackages, workspaceRoot } from './server-packages.ts';

await buildBundles({
  root: workspaceRoot,
  servers: serverPackages,
  workspaceDirectories: ['packages/mcp-core', 'packages/guards'],
  output: join(workspaceRoot, 'bundles'),
  author: bundleAuthor,
});
