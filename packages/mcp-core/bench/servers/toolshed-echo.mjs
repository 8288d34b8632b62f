// The echo server started the way Toolshed bins start: Node's compile cache on
// first, so that later starts skip compiling zod and the engine again.
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
await import('./toolshed-echo-server.mjs');
