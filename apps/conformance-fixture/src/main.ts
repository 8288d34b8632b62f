import { serveHttp } from '@toolshed/mcp-core';
import { createConformanceServer } from './conformance-server.ts';

const port = Number(process.env.PORT ?? 3000);
const http = await serveHttp(createConformanceServer(), { host: '127.0.0.1', port, sseRetryMs: 500 });
process.stderr.write(`conformance fixture serving ${http.url}\n`);
const stop = (): void => {
  void http.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
