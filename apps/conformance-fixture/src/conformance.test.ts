import { describe, expect, it } from 'vitest';
import { freePort, runConformance, startFixture } from './run-conformance.ts';

describe('the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16)', () => {
  it('passes every server scenario of --suite all, with no warnings and no expected-failures file', async () => {
    const fixture = await startFixture(await freePort());
    try {
      const run = await runConformance(fixture.url);
      const summary = run.output.slice(run.output.indexOf('=== SUMMARY ==='));
      expect(run.exitCode, summary).toBe(0);
      expect(run.scenarios.length, summary).toBe(32);
      const failing = run.scenarios.filter((scenario) => scenario.failures > 0 || scenario.warnings > 0);
      expect(failing, summary).toEqual([]);
      expect(summary).toMatch(/Total: \d+ passed, 0 failed/);
    } finally {
      await fixture.stop();
    }
  });
});
