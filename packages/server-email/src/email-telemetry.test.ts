import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binTelemetryCases } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type SmtpFixture, startSmtpFixture } from './__fixtures__/smtp-fixture.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;
let smtp: SmtpFixture;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-telemetry-'));
  smtp = await startSmtpFixture();
  writeFileSync(join(directory, 'ca.pem'), smtp.ca);
});

afterAll(async () => {
  await smtp.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('toolshed-email with OTEL_* set', () => {
  binTelemetryCases(it, () => ({
    bin: [bin],
    env: {
      ...process.env,
      TOOLSHED_EMAIL_SMTP_URL: `smtp://sender%40example.com:${encodeURIComponent('correct horse battery staple')}@127.0.0.1:${smtp.port}`,
      TOOLSHED_EMAIL_SMTP_CA: join(directory, 'ca.pem'),
      TOOLSHED_EMAIL_FROM: 'Assistant <sender@example.com>',
      TOOLSHED_EMAIL_ALLOW_RECIPIENTS: 'example.com',
      TOOLSHED_EMAIL_STATE: join(directory, 'state.db'),
    },
  }));
});
