import { binTelemetryCases } from '@toolshed/mcp-core/testing';
import { describe, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;

describe('toolshed-weather with OTEL_* set', () => {
  binTelemetryCases(it, () => ({ bin: [bin] }));
});
