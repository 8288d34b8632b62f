#!/usr/bin/env node
// Checked before anything else loads, so an older Node gets one line instead of a crash; in step with "engines".
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14)) {
  console.error(`toolshed-dev needs Node.js 22.14 or newer; this is ${process.version}.`);
  process.exitCode = 1;
} else if (!process.features.typescript) {
  // A project's options schema is TypeScript: a Node that does not strip types by default runs this again with the flag.
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exitCode = result.status ?? 1;
} else {
  await import('../dist/cli.js');
}
