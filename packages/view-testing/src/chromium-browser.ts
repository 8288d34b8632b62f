import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const chromiumBinary: string = '/usr/bin/chromium';

/** Chromium as a real service for `serviceGate` of `@toolshed/mcp-core/testing`. */
export const chromiumService: { name: string; binary: string; debianPackage: string } = {
  name: 'Chromium',
  binary: chromiumBinary,
  debianPackage: 'chromium',
};

/** Headless, and everything that would reach the network off. */
export const chromiumSwitches: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's Chromium driven by playwright-core (no browser download), headless,
 * with a fresh profile and everything that would reach the network off;
 * `extraArgs` add switches such as host resolver rules. Closing removes the
 * profile.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), 'toolshed-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumBinary,
    headless: true,
    args: [...chromiumSwitches, ...extraArgs],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
