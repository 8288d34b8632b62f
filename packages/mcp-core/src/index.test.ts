import { expect, it } from 'vitest';
import * as api from './index.ts';
import * as testing from './testing.ts';

it('pins the public API: adding to it is a decision', () => {
  expect(Object.keys(api).sort()).toEqual([
    'JsonRpcErrorCode',
    'LocalError',
    'McpAttribute',
    'McpMetric',
    'MetaKey',
    'ProtocolError',
    'ToolError',
    'audioContent',
    'closestName',
    'createInMemoryTransportPair',
    'createMcpServer',
    'createMemoryTaskStore',
    'createStdioServerTransport',
    'declaresUi',
    'defineCli',
    'definePrompt',
    'defineResource',
    'defineResourceTemplate',
    'defineServerCli',
    'defineTool',
    'defineView',
    'embeddedResourceContent',
    'executeToolOperation',
    'formatCliHelp',
    'hostHeaderName',
    'httpCliOptions',
    'httpOptionsFromCli',
    'imageContent',
    'isAppOnlyTool',
    'isLoopbackAddress',
    'isTerminalTaskStatus',
    'latestLegacyProtocolVersion',
    'latestProtocolVersion',
    'legacyProtocolVersions',
    'limitOption',
    'logLevels',
    'mcpDurationBuckets',
    'mcpNameParams',
    'modernProtocolVersions',
    'onFirstUse',
    'packageVersion',
    'parseCliOptions',
    'parseOptions',
    'processTelemetry',
    'redirectConsoleToStderr',
    'resourceLinkContent',
    'runCli',
    'runServerCli',
    'serve',
    'serveHttp',
    'serveStdio',
    'startTelemetry',
    'stopTelemetry',
    'structuredResult',
    'supportedProtocolVersions',
    'tasksExtension',
    'textContent',
    'toolError',
    'toolErrorType',
    'toolResult',
    'toolViewMeta',
    'traceContextMetaKeys',
    'uiExtension',
    'viewDocument',
    'viewMimeType',
    'withOptionsTable',
  ]);
  expect(Object.keys(testing).sort()).toEqual([
    'JsonRpcFailure',
    'alivePids',
    'awaitTask',
    'binTelemetryProblems',
    'binTestCases',
    'checkBin',
    'childExited',
    'connectBareClient',
    'connectInMemory',
    'connectTestClient',
    'createSpecValidator',
    'expectedProtocolVersion',
    'freeLoopbackPort',
    'initPostgresCluster',
    'loadsOpenTelemetry',
    'loopbackPortAnswers',
    'optionsTableProblems',
    'postgresService',
    'processTree',
    'processTreeUsage',
    'recordMessages',
    'serviceGate',
    'spawnHttpServer',
    'specSchemaVersions',
    'startOtlpReceiver',
    'startServiceProcess',
    'startTokenIssuer',
    'testClientKinds',
    'toolJsonSchemaModule',
    'unprivilegedIds',
  ]);
});

it('brands errors so checks work across package copies', () => {
  const error = new api.ProtocolError(api.JsonRpcErrorCode.InvalidParams, 'x');
  const lookalike = Object.assign(new Error('x'), { code: -32602 });
  expect(api.ProtocolError.isInstance(error)).toBe(true);
  expect(api.ProtocolError.isInstance(lookalike)).toBe(false);
  expect(api.LocalError.isInstance(error)).toBe(false);
  expect(api.ToolError.isInstance(new api.ToolError('y'))).toBe(true);
  // A brand set by another copy of the package is the same global symbol.
  const foreign = new Error('z');
  Object.defineProperty(foreign, Symbol.for('@toolshed/mcp-core/LocalError'), { value: true });
  expect(api.LocalError.isInstance(foreign)).toBe(true);
});
