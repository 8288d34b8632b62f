// The echo server started the way Toolshed bins start: Node's compile cache on
// first, then the bundle's start module (see ../build-bundled-echo.ts).
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
await import('../.build/toolshed-echo.js');
