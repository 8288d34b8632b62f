// The echo server started the way Toolshed bins start: the bundle's start
// module, which turns on the compile cache (see ../build-bundled-echo.ts).
await import('../.build/toolshed-echo.js');
