#!/usr/bin/env node
// Checked before anything else loads, so an older Node gets one line instead of a crash; in step with "engines".
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14)) {
  console.error(`__BIN_NAME__ needs Node.js 22.14 or newer; this is ${process.version}.`);
  process.exitCode = 1;
} else {
  await import('../dist/__BIN_NAME__.js');
}
