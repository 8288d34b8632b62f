import { freeLoopbackPort } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConformanceSuite,
  runConformance,
  scoredScenarios,
  startFixture,
  tasksScenarios,
} from './run-conformance.ts';

describe('the official MCP conformance suites against the fixture, one endpoint for both eras', () => {
  let fixture: Awaited<ReturnType<typeof startFixture>>;

  beforeAll(async () => {
    fixture = await startFixture(await freeLoopbackPort());
  });

  afterAll(async () => {
    await fixture.stop();
  });

  it('0.1.16: passes every server scenario of --suite all, with no warnings and no expected-failures file', async () => {
    const run = await runConformance(fixture.url, { kind: 'all' });
    const summary = run.output.slice(run.output.indexOf('=== SUMMARY ==='));
    expect(run.exitCode, summary).toBe(0);
    expect(run.scenarios.length, summary).toBe(32);
    const failing = run.scenarios.filter((scenario) => scenario.failures > 0 || scenario.warnings > 0);
    expect(failing, summary).toEqual([]);
    expect(summary).toMatch(/Total: \d+ passed, 0 failed/);
  });

  it.each<[string, ConformanceSuite & { kind: 'requirements' }]>([
    ['2025-11-25', { kind: 'requirements', revision: '2025-11-25' }],
    ['2026-07-28', { kind: 'requirements', revision: '2026-07-28' }],
  ])(
    '0.2.0-alpha.12 --requirements %s: every scored scenario passes, warnings counted as failures',
    async (_name, suite) => {
      const run = await runConformance(fixture.url, suite);
      const summary = run.output.slice(run.output.indexOf('Total:') - 4000);
      expect(run.exitCode, summary).toBe(0);
      const scored = scoredScenarios(suite.revision);
      expect(scored.length).toBeGreaterThan(25);
      const ran = new Map(run.scenarios.map((scenario) => [scenario.scenario, scenario]));
      const missing = scored.filter((name) => !ran.has(name));
      expect(missing, summary).toEqual([]);
      const failing = scored.filter((name) => {
        const outcome = ran.get(name);
        return outcome === undefined || outcome.failures > 0 || outcome.warnings > 0;
      });
      expect(failing, summary).toEqual([]);
    },
  );

  it.each(tasksScenarios)(
    '0.2.0-alpha.12 --scenario %s (the tasks extension): every check passes, warnings counted as failures',
    async (name) => {
      const run = await runConformance(fixture.url, { kind: 'scenario', name });
      const summary = run.output.slice(-4000);
      expect(run.exitCode, summary).toBe(0);
      expect(
        run.scenarios.map((scenario) => scenario.scenario),
        summary,
      ).toEqual([name]);
      expect(run.scenarios[0], summary).toMatchObject({ failures: 0, warnings: 0 });
      expect(summary).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    },
  );
});
