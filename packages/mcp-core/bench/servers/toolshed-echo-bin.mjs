// The echo server started the way Toolshed bins start: Node's compile cache on
// first, then one bundled file (see ../build-bundled-echo.ts).
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
await import('../.build/toolshed-echo-bundle.mjs');
