import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let generated: { key: string; cert: string } | undefined;

/** A P-256 certificate for 127.0.0.1 and localhost, made by openssl once per test process and valid for two days. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (generated !== undefined) return generated;
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-email-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(directory, 'key.pem'),
        '-out',
        join(directory, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    generated = {
      key: readFileSync(join(directory, 'key.pem'), 'utf8'),
      cert: readFileSync(join(directory, 'cert.pem'), 'utf8'),
    };
    return generated;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
