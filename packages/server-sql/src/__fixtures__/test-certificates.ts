import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RealService, unprivilegedIds } from '@toolshed/mcp-core/testing';

/** openssl makes the certificates: the TLS tests need it as much as the database server. */
export const opensslService: RealService = { name: 'OpenSSL', binary: '/usr/bin/openssl', debianPackage: 'openssl' };

/** A private CA and server certificates it signed, for database servers under test. */
export interface TestCertificates {
  /** The CA's certificate, PEM: what `--db-ca` is given. */
  caFile: string;
  /** A certificate for IP 127.0.0.1 and its key, owned by the user the services run as. */
  server: { certificateFile: string; keyFile: string };
  /** Signed by the same CA for another name (db.example.test): right chain, wrong identity. */
  otherName: { certificateFile: string; keyFile: string };
  remove(): void;
}

function openssl(directory: string, args: string[]): void {
  execFileSync('/usr/bin/openssl', args, { cwd: directory, stdio: 'pipe' });
}

function signedCertificate(directory: string, name: string, subjectAltName: string) {
  const keyFile = join(directory, `${name}.key`);
  const certificateFile = join(directory, `${name}.pem`);
  const extensions = join(directory, `${name}.ext`);
  writeFileSync(extensions, `subjectAltName=${subjectAltName}\n`);
  openssl(
    directory,
    ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile].concat([
      '-out',
      join(directory, `${name}.csr`),
      '-subj',
      `/CN=${name}`,
    ]),
  );
  openssl(
    directory,
    ['x509', '-req', '-in', join(directory, `${name}.csr`), '-CA', 'ca.pem', '-CAkey', 'ca.key'].concat([
      '-CAcreateserial',
      '-out',
      certificateFile,
      '-days',
      '2',
      '-extfile',
      extensions,
    ]),
  );
  // Servers refuse a key others may read, and run as nobody under root.
  chmodSync(keyFile, 0o600);
  const ids = unprivilegedIds();
  if (ids !== undefined) for (const file of [keyFile, certificateFile]) chownSync(file, ids.uid, ids.gid);
  return { certificateFile, keyFile };
}

/** Makes a CA and two server certificates in a temporary directory the services can read. */
export function createTestCertificates(): TestCertificates {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-tls-'));
  chmodSync(directory, 0o755);
  openssl(
    directory,
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat([
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Toolshed test CA',
    ]),
  );
  return {
    caFile: join(directory, 'ca.pem'),
    server: signedCertificate(directory, 'server', 'IP:127.0.0.1'),
    otherName: signedCertificate(directory, 'other', 'DNS:db.example.test'),
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}
